"""Compaction of a dataset: its small parts merged into parts of a target size.

A convert writes one part per unit of work (a source file, or a chunk of a large one),
which ``--resume`` and a retried task need; an archive of many small files becomes as many
small parts, each with a footer that holds the whole schema. ``compact`` merges runs of
parts into parts of up to ``target_bytes`` bytes and ``target_rows`` rows, for readers
that open every file.

Record order is kept: readers take the parts by the ordinal their names begin with (see
``dataset.read_parts``), so a merged part holds a run of consecutive units, is named by
the first and last of their ordinals (``00003-00057-compacted.parquet``), and holds their
rows in order. In a partitioned dataset a run is of units whose rows all lie in one
directory: a unit with files in several directories is read as one part across them, and
its files stay as they are.

The dataset stays readable throughout. The merged files are written under hidden names,
then take their names, then the manifest lists them, and only then are the parts they
replace deleted. A compaction cut short leaves the old manifest (true, its parts all
there) or the new one, and Parquet files that the manifest does not list: the next
compaction deletes those first. (Until then, a tool that reads every Parquet file of the
directory rather than the manifest sees those too.)
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Sequence
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from pbnkit.export import dataset
from pbnkit.export.sinks import ROW_GROUP_BYTES, parquet_options

#: a merged part's size at most, in bytes of Parquet, when its parts allow it
TARGET_BYTES = 128 << 20
#: a merged part's rows at most
TARGET_ROWS = 1_000_000
#: the suffix of a merged part being written: no reader takes it for a Parquet file
WRITING = ".compacting"
_MERGED = re.compile(r"([0-9]+)-([0-9]+)-compacted\.parquet")


@dataclass(frozen=True, slots=True)
class Compaction:
    """What a compaction did: the parts before and after, and their bytes."""

    parts_before: int
    parts_after: int
    bytes_before: int
    bytes_after: int


@dataclass(frozen=True, slots=True)
class _File:
    name: str  # inside the dataset
    rows: int
    size: int
    first: int | None  # the ordinals of the units it holds
    last: int | None

    @property
    def directory(self) -> str:
        return posixpath.dirname(self.name)


def compact(where: str | os.PathLike[str], target_bytes: int = TARGET_BYTES,
            target_rows: int = TARGET_ROWS) -> Compaction:
    """Merge the parts of the complete dataset ``where`` (a directory or URI) into parts
    of up to ``target_bytes`` and ``target_rows`` (a part larger alone stays as it is),
    keeping record order and the manifest true. Raises :class:`dataset.DatasetError`
    for a directory that is not a complete dataset."""
    where = os.fspath(where)
    fs, root = dataset.filesystem(where)
    kind = fs.get_file_info(root).type
    if kind == pafs.FileType.NotFound:
        raise dataset.DatasetError(f"{where}: no such dataset")
    if kind != pafs.FileType.Directory:
        raise dataset.DatasetError(f"{where}: not a dataset directory")
    document = dataset.read_manifest(where)
    listed = [(part["name"], int(part["rows"])) for part in document["parts"]]
    dataset.check_parts(where, document["parts"])  # never clear away records it omits
    _clear_leftovers(where, listed)
    rows_of = dict(listed)
    order = [path[len(root) + 1:] for path in dataset.read_parts(where)]
    files = [_file(fs, root, name, rows_of[name]) for name in order]
    runs = _runs(fs, root, files, target_bytes, target_rows)
    if all(len(run) == 1 for run in runs):
        total = sum(file.size for file in files)
        return Compaction(len(files), len(files), total, total)
    parts: list[tuple[str, int]] = []
    moves: list[tuple[str, str]] = []
    for run in runs:
        if len(run) == 1:
            parts.append((run[0].name, run[0].rows))
            continue
        name = _merged_name(run)
        _merge(fs, root, run, f"{root}/{name}{WRITING}")
        moves.append((f"{root}/{name}{WRITING}", f"{root}/{name}"))
        parts.append((name, sum(file.rows for file in run)))
    for written, final in moves:
        fs.move(written, final)
    metadata = {key: value for key, value in document.items()
                if key not in ("manifest", "parts")}
    # a dataset of an older manifest keeps its version: its directories are named so
    dataset.write_manifest(where, parts, metadata, int(document.get("manifest", 1)))
    dataset.remove_unlisted(where, parts)
    after = sum(fs.get_file_info(f"{root}/{name}").size or 0 for name, _ in parts)
    return Compaction(len(files), len(parts), sum(file.size for file in files), after)


def _clear_leftovers(where: str, listed: Sequence[tuple[str, int]]) -> None:
    """What a compaction cut short left: merged files being written, and Parquet files
    the manifest does not list (merged files before the manifest named them, or the
    parts they replace once it did)."""
    fs, root = dataset.filesystem(where)
    for info in fs.get_file_info(pafs.FileSelector(root, recursive=True)):
        if info.is_file and info.path.endswith(WRITING):
            fs.delete_file(info.path)
    dataset.remove_unlisted(where, listed)


def _file(fs: pafs.FileSystem, root: str, name: str, rows: int) -> _File:
    size = fs.get_file_info(f"{root}/{name}").size or 0
    merged = _MERGED.fullmatch(posixpath.basename(name))
    if merged:
        return _File(name, rows, size, int(merged.group(1)), int(merged.group(2)))
    ordinal = dataset.part_ordinal(name)
    return _File(name, rows, size, ordinal, ordinal)


def _runs(fs: pafs.FileSystem, root: str, files: Sequence[_File], target_bytes: int,
          target_rows: int) -> list[list[_File]]:
    """The files cut in runs to merge, in record order: each run the files of
    consecutive units in one directory, of one schema, within the targets; a unit with
    files in several directories, or whose name holds no ordinal, a run of its own
    files, each alone."""
    units: list[list[_File]] = []
    for file in files:
        if units and file.first is not None and units[-1][0].first == file.first:
            units[-1].append(file)
        else:
            units.append([file])
    runs: list[list[_File]] = []
    current: list[_File] = []
    schema: pa.Schema | None = None
    for unit in units:
        if unit[0].first is None or len({file.directory for file in unit}) > 1:
            runs += [[file] for file in unit]
            current, schema = [], None
            continue
        unit_schema = _schema(fs, root, unit)
        fits = current and current[0].directory == unit[0].directory \
            and unit_schema is not None and unit_schema == schema \
            and sum(f.size for f in current + unit) <= target_bytes \
            and sum(f.rows for f in current + unit) <= target_rows
        if fits:
            current += unit
        else:
            current, schema = list(unit), unit_schema
            runs.append(current)
    return runs


def _schema(fs: pafs.FileSystem, root: str, unit: Sequence[_File]) -> pa.Schema | None:
    """The schema (with its metadata) of a unit's files; None when they differ."""
    schemas = []
    for file in unit:
        with fs.open_input_file(f"{root}/{file.name}") as source:
            schemas.append(pq.ParquetFile(source).schema_arrow)
    return schemas[0] if all(s.equals(schemas[0], check_metadata=True) for s in schemas) \
        else None


def _merged_name(run: Sequence[_File]) -> str:
    first, last = run[0].first, run[-1].last
    assert first is not None and last is not None
    directory = run[0].directory
    return f"{directory}/{first:05d}-{last:05d}-compacted.parquet" if directory \
        else f"{first:05d}-{last:05d}-compacted.parquet"


def _merge(fs: pafs.FileSystem, root: str, run: Sequence[_File], out: str) -> None:
    """The rows of the run's files, in order, as one Parquet file written as convert
    writes a single file: row groups of up to ``dataset.ROW_GROUP_ROWS`` rows or
    ``ROW_GROUP_BYTES`` of data, a row group held in memory at a time."""
    with fs.open_input_file(f"{root}/{run[0].name}") as source:
        schema = pq.ParquetFile(source).schema_arrow
    pending: list[pa.RecordBatch] = []
    rows = size = 0
    with fs.open_output_stream(out) as sink, \
            pq.ParquetWriter(sink, schema, **parquet_options(schema)) as writer:

        def flush() -> None:
            nonlocal pending, rows, size
            if pending:
                writer.write_table(pa.Table.from_batches(pending, schema).combine_chunks(),
                                   row_group_size=rows)
                pending, rows, size = [], 0, 0

        for file in run:
            with fs.open_input_file(f"{root}/{file.name}") as source:
                for batch in pq.ParquetFile(source).iter_batches(batch_size=10_000):
                    pending.append(batch)
                    rows += batch.num_rows
                    size += batch.get_total_buffer_size()
                    if rows >= dataset.ROW_GROUP_ROWS or size >= ROW_GROUP_BYTES:
                        flush()
        flush()
