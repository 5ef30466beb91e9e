"""Work units of an archive, for ``pbnkit rescore -j``: runs of records that begin where a
source file begins (or anywhere, when no record uses ``#`` inheritance), so that each unit
resolves ``#``/``##`` inheritance on its own exactly as one reading of the whole archive
does, and the units, one after another, give the records in record order (see "Record
order" in ``archive.py``).

An archive in record order is cut into runs of Parquet row groups. One out of order is cut
in its sorted order: a unit names its rows by position, and reads only the row groups that
hold them. A JSON or JSONL archive is one unit (it can only be read from the start)."""

from __future__ import annotations

import os
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq
# pyarrow.compute is imported in the functions that use it: it is a sixth of pbnkit's
# start-up, and a conversion needs none of it.

from pbnkit.export import dataset
from pbnkit.export.archive import (
    ArchiveError,
    Part,
    RecordOrder,
    archive_rows,
    games_of_rows,
    parquet_parts,
    row_group,
    table_rows,
    part_keys,
    part_rows,
    record_order,
)
from pbnkit.export.rows import Row
from pbnkit.pbn.chunks import tail_shares, unit_size
from pbnkit.pbn.records import Game

#: units per job: uneven units still end together
UNITS_PER_JOB = 4
#: with several jobs the last units shrink, for the jobs to end together (see
#: ``pbn.chunks.unit_size``), down to TAIL_ROWS rows, a small piece of work; a piece of
#: a row group costs the decoding of the whole group in each process that reads a piece
#: of it. With units of 10,000 rows to the end, one process of a ``-j 2`` rescore sat
#: idle while the other ran its last units; this tail shortens that wait.
TAIL_ROWS = 1000


@dataclass(frozen=True, slots=True)
class ArchiveUnit:
    """Row groups of the archive's Parquet files, or rows picked from its parts (all of
    a JSON archive when both are empty)."""

    archive: str
    #: files, a row group of each, and the unit's rows of it (from, to)
    segments: tuple[tuple[str, int, int, int], ...] = ()
    size: int = 0  # rows, for progress
    chunk: int = 0
    chunks: int = 1
    #: an archive out of record order: parts, and the positions of the unit's rows in
    #: each, in record order (instead of ``segments``)
    picks: tuple[tuple[Part, tuple[int, ...]], ...] = ()

    @property
    def is_last(self) -> bool:
        return self.chunk == self.chunks - 1

    def describe(self) -> str:
        return self.archive if self.chunks == 1 else (
            f"{self.archive} (part {self.chunk + 1} of {self.chunks})")

    def rows(self) -> Iterator[Row]:
        if not self.segments and not self.picks:
            yield from archive_rows(self.archive)
            return
        fs, _ = dataset.filesystem(self.archive)
        for part, positions in self.picks:
            yield from part_rows(fs, part, positions)
        for path, number, start, stop in self.segments:
            yield from table_rows(_decoded_group(fs, path, number).slice(start, stop - start))

    def games(self) -> Iterator[Game]:
        return games_of_rows(self.rows(), self.archive)


#: the row group this process decoded last, and what names it: the units that share a
#: large row group (see plan_archive) mostly run one after another in the same worker,
#: which so decodes it once, not once per unit
_last_group: tuple[tuple[str, int, int, int | None], pa.Table] | None = None


def _decoded_group(fs: pafs.FileSystem, path: str, number: int) -> pa.Table:
    global _last_group
    info = fs.get_file_info(path)
    key = (path, number, info.size, info.mtime_ns)
    if _last_group is None or _last_group[0] != key:
        _last_group = None  # the old group freed before the new one is decoded
        with fs.open_input_file(path) as source:
            _last_group = key, row_group(source, path, number)
    return _last_group[1]


def plan_archive(archive: str | os.PathLike[str], jobs: int) -> list[ArchiveUnit]:
    import pyarrow.compute as pc
    name = os.fspath(archive)
    if not (dataset.is_uri(name) or os.path.isdir(name) or name.lower().endswith(".parquet")):
        return [ArchiveUnit(name)]
    try:
        fs, parts = parquet_parts(name)
    except dataset.DatasetError as error:
        raise ArchiveError(str(error)) from None
    groups: list[tuple[str, int, int]] = []  # file, row group, rows
    starts: list[int] = []  # the rows (over all files) where a source begins
    inherits = False  # some record's tag value starts with '#'
    order = RecordOrder()
    try:
        for path in [file for part in parts for file in part.files]:
            with fs.open_input_file(path) as stream:
                # Of the tags, only their values, far cheaper than the whole column;
                # and as a dictionary, whose distinct values alone are searched for '#'
                # (the plan is read before any unit can start).
                footer = pq.ParquetFile(stream)
                values_leaf = _tag_values(footer)
                parquet = pq.ParquetFile(stream, metadata=footer.metadata,  # read once
                                         read_dictionary=[values_leaf]
                                         if values_leaf != "tags" else None)
                for number in range(parquet.metadata.num_row_groups):
                    # One row group at a time: memory stays that of a row group.
                    table = parquet.read_row_group(number, columns=["path", "index",
                                                                    values_leaf])
                    offset = sum(rows for _, _, rows in groups)
                    groups.append((path, number, table.num_rows))
                    begins = pc.fill_null(pc.equal(table.column("index"), 0), True)
                    starts += [offset + n for n in pc.indices_nonzero(begins).to_pylist()]
                    values = pc.list_flatten(table.column("tags")).combine_chunks()
                    inherits = inherits or pc.any(
                        pc.starts_with(_distinct(values.field("value")), "#")).as_py() is True
                    order.feed(table.column("path"), table.column("index"))
    except Exception:  # not readable here: one unit, and reading says what is wrong
        return [ArchiveUnit(name)]
    if not order.ordered:
        return _plan_in_sorted_order(name, fs, parts, inherits, jobs)
    total = sum(rows for _, _, rows in groups)
    target = max(1, total // max(1, jobs * UNITS_PER_JOB))
    shares = tail_shares(jobs)
    cuts = (_cuts(total, target, starts, inherits, shares) if inherits
            else _group_cuts([rows for _, _, rows in groups], target, shares))
    units = []
    for number, (low, high) in enumerate(zip(cuts, cuts[1:])):
        # The unit's rows of each row group (a large group is shared by several units:
        # each reads it and keeps its own rows, the decoding being a small part of the work).
        segments = []
        offset = 0
        for path, group, rows in groups:
            first, last = max(low, offset), min(high, offset + rows)
            if first < last:
                segments.append((path, group, first - offset, last - offset))
            offset += rows
        units.append(ArchiveUnit(name, tuple(segments), high - low, number, len(cuts) - 1))
    return units or [ArchiveUnit(name)]


def _distinct(values: pa.Array) -> pa.Array:
    """The values of a dictionary array's dictionary (each value it holds, once; maybe
    one it does not, which only makes the plan cautious), or the values themselves."""
    return values.dictionary if isinstance(values, pa.DictionaryArray) else values


def _tag_values(parquet: pq.ParquetFile) -> str:
    """The Parquet path of the tags' values (``tags.list.element.value``; older writers
    name the list's item otherwise)."""
    for column in parquet.schema:
        parts = column.path.split(".")
        if parts[0] == "tags" and len(parts) == 4 and parts[-1] == "value":
            return str(column.path)
    return "tags"


def _wanted(remaining: int, target: int, shares: int) -> int:
    """The rows of the next unit, with ``remaining`` rows from its start on."""
    return unit_size(remaining, target, shares, TAIL_ROWS)


def _group_cuts(groups: Sequence[int], target: int, shares: int = 1) -> list[int]:
    """Where units begin, and the end, for row groups of ``groups`` rows each: as many
    whole groups as fit in a unit of ``target`` rows (less in the last units, see
    TAIL_ROWS), and a group larger than a unit cut in equal pieces. A unit decodes
    each row group it reads whole, so a group that two units share is decoded twice when
    they run in two processes (a sizeable share of a unit's work for a row group that
    ``pbnkit convert`` writes): only the last units, small, cut the groups ``convert``
    writes."""
    total = sum(groups)
    cuts = [0]
    offset = 0
    for rows in groups:
        if offset + rows - cuts[-1] > _wanted(total - cuts[-1], target, shares):
            cuts.append(offset)
            wanted = _wanted(total - offset, target, shares)
            if rows > wanted:
                pieces = -(-rows // wanted)
                cuts += [offset + rows * piece // pieces for piece in range(1, pieces)]
        offset += rows
    cuts.append(offset)
    return sorted(set(cuts))


def _cuts(total: int, target: int, starts: Sequence[int], inherits: bool,
          shares: int = 1) -> list[int]:
    """Where units begin, about ``target`` rows apart (less in the last units, see
    TAIL_ROWS), and the end: anywhere, or when a record inherits ``#`` values, only
    where a source begins (``starts``, ascending)."""
    cuts = [0]
    while (want := cuts[-1] + _wanted(total - cuts[-1], target, shares)) < total:
        if not inherits:
            cuts.append(want)
            continue
        found = bisect_left(starts, want)
        if found == len(starts):
            break
        cuts.append(starts[found])
    cuts.append(total)
    return cuts


def _plan_in_sorted_order(name: str, fs: pafs.FileSystem, parts: Sequence[Part],
                          inherits: bool, jobs: int) -> list[ArchiveUnit]:
    """Units of an archive out of record order, cut in the order its rows are read in
    (``archive_rows``): each part's rows sorted, the parts one after another. The order
    is worked out here, once, from the path and index columns; a unit gets the positions
    of its rows."""
    import pyarrow.compute as pc
    orders: list[list[int]] = []
    starts: list[int] = []  # where a unit may begin, counted in rows over all parts
    offset = 0
    before = pa.array([None], pa.string())  # the last path of the part before
    for part in parts:
        keys = part_keys(fs, part)
        sorted_order = record_order(keys.column("path"), keys.column("index"), name)
        if sorted_order is not None:
            keys = keys.take(sorted_order)
        count = keys.num_rows
        orders.append(list(range(count)) if sorted_order is None else sorted_order.to_pylist())
        if inherits and count:
            # Where one reading starts inheritance again: a new path, or index 0.
            path = keys.column("path").combine_chunks()
            previous = pa.concat_arrays([before, path.slice(0, count - 1)])
            new = pc.or_(pc.fill_null(pc.equal(keys.column("index").combine_chunks(), 0), False),
                         pc.invert(pc.or_(pc.fill_null(pc.equal(path, previous), False),
                                          pc.and_(pc.is_null(path), pc.is_null(previous)))))
            starts += [offset + n for n in pc.indices_nonzero(new).to_pylist()]
            before = path.slice(count - 1)
        offset += count
    total = offset
    # A unit reads every row group that holds one of its rows: with rows shuffled over a
    # whole file that is all of them, so a unit per job (parts bound what one unit reads).
    units_per_job = UNITS_PER_JOB if len(parts) > 1 else 1
    cuts = _cuts(total, max(1, total // max(1, jobs * units_per_job)), starts, inherits,
                 tail_shares(jobs) if len(parts) > 1 else 1)
    units = []
    for number, (low, high) in enumerate(zip(cuts, cuts[1:])):
        picks: list[tuple[Part, tuple[int, ...]]] = []
        offset = 0
        for part, order in zip(parts, orders):
            first, last = max(low, offset), min(high, offset + len(order))
            if first < last:
                picks.append((part, tuple(order[first - offset:last - offset])))
            offset += len(order)
        units.append(ArchiveUnit(name, size=high - low, chunk=number, chunks=len(cuts) - 1,
                                 picks=tuple(picks)))
    return units or [ArchiveUnit(name)]
