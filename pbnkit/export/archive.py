"""Archives of PBN records: write them (Parquet, a Parquet dataset, JSON, JSONL) and read
them back as Games.

Writing streams: games are read lazily, turned into rows of the fixed boards schema
(``pbnkit.export.schema``) and written in batches through one sink; nothing holds more
than a batch. Every output is atomic (``pbnkit.export.atomic``).

File-level content that belongs to no game -- the commentary after the last game (the
reader's ``trailer``) and the problems the reader found outside any game -- is kept on
the file's last row (``trailer`` column, diagnostics of stage ``file``), so every output
format carries it without a side table. The file header is the first game's preamble.
A file without any game has no row; ``convert`` reports it.

Reading gives the records in record order, whatever the order of the rows, row groups,
files or dataset parts (see "Record order" below).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import warnings
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq
# pyarrow.compute is imported in the functions that use it: it is a sixth of pbnkit's
# start-up, and a conversion needs none of it.

from pbnkit import __version__
from pbnkit.export import dataset
from pbnkit.export.conversion import ConvertSummary, records, write_rows
from pbnkit.export.rows import Row, row_diagnostics, row_elements, row_tags
from pbnkit.export.schema import RESTORE_COLUMNS, SCHEMA_NAME, SCHEMA_VERSION
from pbnkit.export.sinks import (
    BATCH_SIZE,
    ArchiveError,
    JsonlSink,
    JsonSink,
    ParquetSink,
    output_format,
)
from pbnkit.lin.board import stored_board
from pbnkit.pbn.reader import Inheritance
from pbnkit.pbn.records import Element, Game


# -- Read back ------------------------------------------------------------------------------------

class ArchivedGame(NamedTuple):
    """A game restored from an archive, with what the archive kept about its file."""

    game: Game
    encoding: str
    trailer: tuple[Element, ...]


def read_archive(path: str | os.PathLike[str]) -> Iterator[Game]:
    """The games of an archive (.parquet, a dataset directory, .json or .jsonl), in record
    order, with ``#``/``##`` inheritance resolved as the reader resolves it."""
    for archived in iter_archive(path):
        yield archived.game


def iter_archive(path: str | os.PathLike[str]) -> Iterator[ArchivedGame]:
    """Like :func:`read_archive`, with each game's encoding and file trailer."""
    return archived_games(archive_rows(path), os.fspath(path))


def archived_games(rows: Iterable[Row], archive: str) -> Iterator[ArchivedGame]:
    """Games restored from stored rows in order; inheritance starts again with each
    source file (a new path, or index 0)."""
    for row, game in restored(rows, f"{archive}: record {{number}} is not a boards record"):
        try:
            trailer = row_elements(row["trailer"])
        except _NOT_A_RECORD as error:
            raise ArchiveError(f"{archive}: the record of {row['path']} at index "
                               f"{row['index']} is not a boards record (trailer: "
                               f"{type(error).__name__}: {error})") from None
        yield ArchivedGame(game, row["encoding"], trailer)


#: what reading a row that is not a boards record raises (a value of another JSON type)
_NOT_A_RECORD = (AttributeError, KeyError, TypeError, ValueError)


def restored(rows: Iterable[Row], problem: str) -> Iterator[tuple[Row, Game]]:
    """Each stored row with its Game, ``#``/``##`` values resolved as one reading of
    the sources resolves them; rows of files without records are left out. A row that
    is no boards record raises :class:`ArchiveError` with ``problem`` (``{number}``:
    the row's number from 1) and what is wrong."""
    inheritance = Inheritance()
    source: Any = object()
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            raise ArchiveError(problem.format(number=number) + " (not a JSON object)")
        if row.get("index", 0) is None:
            continue  # the row of a file without records (schema version 2)
        if not isinstance(row.get("path"), str) or type(row.get("index")) is not int:
            raise ArchiveError(problem.format(number=number) + " (no path and index)")
        try:
            if row["path"] != source or row["index"] == 0:
                inheritance, source = Inheritance(), row["path"]
            tags = row_tags(row["tags"])
            values = inheritance.resolve(tags)
            game = Game(tags, row_elements(row["preamble"]), row["line"], row["index"],
                        row["path"], values, row_diagnostics(row, values.get("Board")),
                        lin=stored_board(tags))
        except _NOT_A_RECORD as error:
            raise ArchiveError(problem.format(number=number)
                               + f" ({type(error).__name__}: {error})") from None
        yield row, game


def games_of_rows(rows: Iterable[Row], archive: str) -> Iterator[Game]:
    for archived in archived_games(rows, archive):
        yield archived.game


def archive_rows(path: str | os.PathLike[str], columns: Sequence[str] = RESTORE_COLUMNS
                 ) -> Iterator[Row]:
    """The stored rows (the columns needed to restore games, or of Parquet archives the
    ``columns`` given) of any archive format, in record order."""
    name = os.fspath(path)
    path = Path(name)
    try:
        if dataset.is_uri(name) or path.is_dir() or path.suffix.lower() == ".parquet":
            yield from _parquet_archive_rows(name, columns)
        elif path.suffix.lower() == ".jsonl":
            yield from _ordered_json(path, partial(_jsonl_lines, path))
        elif path.suffix.lower() == ".json":
            yield from _json_rows(path)
        else:
            raise ArchiveError(f"{path}: not an archive (expected .parquet, .json, .jsonl or "
                               "a directory of Parquet files)")
    except dataset.DatasetError as error:
        raise ArchiveError(str(error)) from None
    except OSError as error:
        raise ArchiveError(f"cannot read {name}: {error.strerror or error}") from error


def _check_version(path: str | Path, name: Any, version: Any) -> None:
    if name is not None and name != SCHEMA_NAME:
        raise ArchiveError(f"{path}: holds a {name!r} table, not {SCHEMA_NAME!r}")
    try:
        number = int(version) if version is not None else SCHEMA_VERSION
    except (TypeError, ValueError):
        raise ArchiveError(f"{path}: unreadable schema version {version!r}") from None
    if number > SCHEMA_VERSION:
        raise ArchiveError(f"{path}: schema version {number} is newer than this pbnkit "
                           f"({__version__}) reads (version {SCHEMA_VERSION})")


# -- Record order ---------------------------------------------------------------------------------
#
# Every reader (read_archive, export, rescore at any -j) gives an archive's records in the
# order convert wrote them: the sources (the files given to convert; a file given twice
# counts twice) one after another in the order given, the records of each by index. It
# does not depend on the order of the rows, row groups, files or parts: another engine, or
# a tool that rewrote the archive, may store them in any order. The `path` and `index`
# columns say which record a row is; what they cannot say is which source came first.
#
# * Rows already in the order convert writes (each row is a source's first record, index 0,
#   or the record after the row before it) are read as they are. Telling costs one scan of
#   the path and index columns, a row group (or a batch of JSON lines) at a time, so memory
#   stays bounded.
# * Other rows are sorted by (path, copy, index): ``copy`` numbers the rows that share a
#   (path, index) in the order of the rows, so a file given twice comes back as two whole
#   copies (with a warning: the archive cannot tell which copy came first). Sorting holds
#   the rows sorted in memory: a dataset part, or a whole Parquet, JSON or JSONL file.
# * Only a dataset keeps the order of its sources: each file's name begins with the ordinal
#   of the unit of work (one source, or a chunk of one) that wrote it. Files are taken by
#   that ordinal whatever the manifest's order (``dataset.read_parts``), the files of one
#   unit make one part, and each part is sorted alone. A single file does not record the
#   order its sources were given in, so its sources come sorted by path: the one order that
#   does not depend on how the rows were moved. (Whole sources that swapped places, each
#   still in index order, look like sources given in that order and are kept so.)


class ArchiveOrderWarning(UserWarning):
    """Rows out of record order that repeat a (path, index): the copies keep the order of
    the rows among themselves."""


def _column(values: Any, type_: pa.DataType) -> pa.Array:
    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks()
    if not isinstance(values, pa.Array):
        values = pa.array(values, type_)
    return values if values.type == type_ else values.cast(type_)


def _same(paths: pa.Array, others: pa.Array) -> pa.Array:
    """Equal paths, a null path equal to a null path."""
    import pyarrow.compute as pc
    return pc.or_(pc.fill_null(pc.equal(paths, others), False),
                  pc.and_(pc.is_null(paths), pc.is_null(others)))


class RecordOrder:
    """Whether rows come in the order convert writes them, fed their path and index
    columns a chunk at a time (only the last row of a chunk is kept)."""

    def __init__(self) -> None:
        self.ordered = True
        self._path = pa.array([None], pa.string())  # the row before the chunk: none yet
        self._index = pa.array([None], pa.int64())

    def feed(self, paths: Any, indexes: Any) -> bool:
        import pyarrow.compute as pc
        count = len(paths)
        if not self.ordered or not count:
            return self.ordered
        paths, indexes = _column(paths, pa.string()), _column(indexes, pa.int64())
        before = pa.concat_arrays([self._path, paths.slice(0, count - 1)])
        previous = pa.concat_arrays([self._index, indexes.slice(0, count - 1)])
        # index 0 starts a source; a null one is the row of a file without records
        first = pc.fill_null(pc.equal(indexes, 0), True)
        after = pc.and_(_same(paths, before),
                        pc.fill_null(pc.equal(indexes, pc.add(previous, 1)), False))
        self.ordered = pc.all(pc.or_(first, after)).as_py() is True
        self._path, self._index = paths.slice(count - 1), indexes.slice(count - 1)
        return self.ordered


def record_order(paths: Any, indexes: Any, where: str) -> pa.Array | None:
    """The positions of rows sorted by (path, copy, index): None when they are in that
    order already. ``where`` names the archive in the warning about copies."""
    import pyarrow.compute as pc
    keys = pa.table({"path": _column(paths, pa.string()),
                     "index": _column(indexes, pa.int64())})
    count = keys.num_rows
    if count < 2:
        return None
    # Arrow's sort is stable: copies of a (path, index) keep the rows' order.
    order = pc.sort_indices(keys, sort_keys=[("path", "ascending"), ("index", "ascending")])
    path = keys.column("path").take(order).combine_chunks()
    index = keys.column("index").take(order).combine_chunks()
    again = pc.and_(_same(path[1:], path[:-1]),
                    pc.fill_null(pc.equal(index[1:], index[:-1]), False))
    copies = pc.sum(pc.cast(again, pa.int64())).as_py() or 0
    if copies:
        warnings.warn(ArchiveOrderWarning(
            f"{where}: the rows are out of record order and {copies} of them repeat the "
            "(path, index) of another row: each record's copies keep the rows' order"),
            stacklevel=2)
        first = pa.concat_arrays([pa.array([True]), pc.invert(again)])
        starts = pc.cast(pc.indices_nonzero(first), pa.int64())
        group = pc.subtract(pc.cumulative_sum(pc.cast(first, pa.int64())), 1)
        copy = pc.subtract(pa.array(range(count), pa.int64()), starts.take(group))
        by_copy = pc.sort_indices(pa.table({"path": path, "copy": copy, "index": index}),
                                  sort_keys=[("path", "ascending"), ("copy", "ascending"),
                                             ("index", "ascending")])
        order = order.take(by_copy)
    if pc.all(pc.greater(order[1:], order[:-1])).as_py():
        return None
    return order


# -- Parquet: a file, or a dataset's parts --------------------------------------------------------

class Part(NamedTuple):
    """Parquet files read as one table, their rows one after another: the file of a
    Parquet archive, or a dataset's files from one unit of work."""

    files: tuple[str, ...]  # paths on the archive's filesystem
    labels: tuple[str, ...]  # how messages name them


def parquet_parts(archive: str) -> tuple[pafs.FileSystem, list[Part]]:
    """The filesystem of a Parquet archive (a file or a dataset) and its parts, in record
    order."""
    fs, root = dataset.filesystem(archive)
    if not (dataset.is_uri(archive) or os.path.isdir(archive)):
        return fs, [Part((root,), (archive,))]
    parts: list[Part] = []
    unit: int | None = None
    for file in dataset.read_parts(archive):
        label = f"{archive.rstrip('/')}/{file[len(root) + 1:]}"
        ordinal = dataset.part_ordinal(file)
        if parts and ordinal is not None and ordinal == unit:
            parts[-1] = Part(parts[-1].files + (file,), parts[-1].labels + (label,))
        else:
            parts.append(Part((file,), (label,)))
        unit = ordinal
    return fs, parts


@contextlib.contextmanager
def _reading(label: str) -> Iterator[None]:
    try:
        yield
    except pa.ArrowException as error:
        raise ArchiveError(f"{label}: not a readable Parquet file ({error})") from None


def _parquet_file(source: Any, label: str) -> pq.ParquetFile:
    """A Parquet file that holds boards: its schema version read, its columns checked."""
    parquet = pq.ParquetFile(source)
    metadata = parquet.schema_arrow.metadata or {}
    name = metadata.get(b"pbnkit.schema")
    version = metadata.get(b"pbnkit.schema_version")
    _check_version(label, name.decode() if name else None,
                   version.decode() if version else None)
    missing = [c for c in RESTORE_COLUMNS if c not in parquet.schema_arrow.names]
    if missing:
        raise ArchiveError(f"{label}: not a boards archive (no column {', '.join(missing)})")
    return parquet


def parquet_rows(source: Any, path: str, row_groups: Iterable[int] | None = None,
                 columns: Sequence[str] = RESTORE_COLUMNS) -> Iterator[Row]:
    """The restore columns (or ``columns``) of a Parquet file's rows (of some row groups
    only), as stored."""
    with _reading(path):
        parquet = _parquet_file(source, path)
        for batch in parquet.iter_batches(batch_size=BATCH_SIZE, columns=list(columns),
                                          row_groups=row_groups):
            yield from batch.to_pylist()


def row_group(source: Any, path: str, number: int,
              columns: Sequence[str] = RESTORE_COLUMNS) -> pa.Table:
    """The restore columns (or ``columns``) of a Parquet file's row group ``number``."""
    with _reading(path):
        return _parquet_file(source, path).read_row_group(number, columns=list(columns))


def table_rows(table: pa.Table) -> Iterator[Row]:
    """The rows of a table as stored, a batch at a time."""
    for batch in table.to_batches(max_chunksize=BATCH_SIZE):
        yield from batch.to_pylist()


def part_rows(fs: pafs.FileSystem, part: Part, positions: Sequence[int] | pa.Array,
              columns: Sequence[str] = RESTORE_COLUMNS) -> Iterator[Row]:
    """The rows at ``positions`` of a part, in that order. Only the row groups that hold
    them are read, one at a time, but the rows taken are all held until the last."""
    import pyarrow.compute as pc
    positions = _column(positions, pa.int64())
    ascending = pc.sort_indices(positions)
    wanted = positions.take(ascending).to_pylist()
    pieces = []
    offset = 0
    for file, label in zip(part.files, part.labels):
        with fs.open_input_file(file) as stream, _reading(label):
            parquet = _parquet_file(stream, label)
            for number in range(parquet.num_row_groups):
                rows = parquet.metadata.row_group(number).num_rows
                low, high = bisect_left(wanted, offset), bisect_left(wanted, offset + rows)
                if low < high:
                    group = parquet.read_row_group(number, columns=list(columns))
                    taken = pa.array([p - offset for p in wanted[low:high]], pa.int64())
                    pieces.append(group.take(taken).replace_schema_metadata(None))
                offset += rows
    if not pieces:
        return
    # The argsort of ``ascending`` puts each row back where ``positions`` asks for it.
    table = pa.concat_tables(pieces).take(pc.sort_indices(ascending))
    for batch in table.to_batches(max_chunksize=BATCH_SIZE):
        yield from batch.to_pylist()


def part_keys(fs: pafs.FileSystem, part: Part) -> pa.Table:
    """The path and index columns of a part."""
    paths, indexes = [], []
    for file, label in zip(part.files, part.labels):
        with fs.open_input_file(file) as stream, _reading(label):
            keys = _parquet_file(stream, label).read(columns=["path", "index"])
        paths += keys.column("path").cast(pa.string()).chunks
        indexes += keys.column("index").cast(pa.int64()).chunks
    return pa.table({"path": pa.chunked_array(paths, pa.string()),
                     "index": pa.chunked_array(indexes, pa.int64())})


def part_order(fs: pafs.FileSystem, part: Part, archive: str) -> pa.Array | None:
    """The positions of a part's rows in record order (None when they are)."""
    keys = part_keys(fs, part)
    return record_order(keys.column("path"), keys.column("index"), archive)


def parts_order(fs: pafs.FileSystem, parts: Sequence[Part], archive: str
                ) -> list[pa.Array | None] | None:
    """None when the rows of the parts, one part after another, come in record order;
    else the order of each part's rows (:func:`part_order`)."""
    check = RecordOrder()
    for part in parts:
        for file, label in zip(part.files, part.labels):
            with fs.open_input_file(file) as stream, _reading(label):
                parquet = _parquet_file(stream, label)
                for number in range(parquet.num_row_groups):
                    keys = parquet.read_row_group(number, columns=["path", "index"])
                    if not check.feed(keys.column("path"), keys.column("index")):
                        return [part_order(fs, each, archive) for each in parts]
    return None


def _parquet_archive_rows(archive: str, columns: Sequence[str]) -> Iterator[Row]:
    fs, parts = parquet_parts(archive)
    orders = parts_order(fs, parts, archive)
    for number, part in enumerate(parts):
        order = None if orders is None else orders[number]
        if order is not None:
            yield from part_rows(fs, part, order, columns)
            continue
        for file, label in zip(part.files, part.labels):
            with fs.open_input_file(file) as stream:
                yield from parquet_rows(stream, label, columns=columns)


# -- JSON and JSONL -------------------------------------------------------------------------------

def json_object(path: str | Path, number: int, line: str) -> dict[str, Any]:
    """A line of a JSON or JSONL archive: a JSON object (a record, or the header) or
    :class:`ArchiveError` naming the file and line."""
    try:
        value = json.loads(line)
    except json.JSONDecodeError as error:
        raise ArchiveError(f"{path}:{number}: not JSON ({error.msg})") from None
    except RecursionError:  # the decoder recurses into each array or object
        raise ArchiveError(f"{path}:{number}: not a boards record (JSON nested too deep "
                           "to read)") from None
    if not isinstance(value, dict):
        raise ArchiveError(f"{path}:{number}: not a boards record (a JSON "
                           f"{_JSON_KINDS.get(type(value), 'value')}, not an object)")
    return value


#: what a JSON value is called, as the JSON standard names it
_JSON_KINDS: dict[type, str] = {list: "array", str: "string", int: "number", float: "number",
                                bool: "true or false", type(None): "null"}


#: how pbnkit writes a record's line: path and index first
_PATH = re.compile(r'\{\s*"path"\s*:\s*')
_INDEX = re.compile(r'\s*,\s*"index"\s*:\s*(-?[0-9]{1,18})\s*[,}]')
_DECODER = json.JSONDecoder()


def _row_key(row: Any) -> tuple[str | None, int | None]:
    if not isinstance(row, dict):
        return None, None
    path, index = row.get("path"), row.get("index")
    return (path if isinstance(path, str) else None,
            index if type(index) is int and abs(index) < 2 ** 62 else None)


def _line_key(path: Path, number: int, line: str) -> tuple[str | None, int | None]:
    """The path and index of a record's line, decoding only them when the line begins
    with them (far cheaper than decoding the line)."""
    start = _PATH.match(line)
    if start is not None:
        try:
            source, end = _DECODER.raw_decode(line, start.end())
        except json.JSONDecodeError:
            source, end = 0, 0
        index = _INDEX.match(line, end) if source is None or isinstance(source, str) else None
        if index is not None:
            return source, int(index.group(1))
    return _row_key(json_object(path, number, line))


def _jsonl_lines(path: Path) -> Iterator[tuple[int, str]]:
    with open(path, encoding="utf-8") as stream:
        for number, line in enumerate(stream, start=1):
            if line.strip():
                yield number, line


def _json_lines(path: Path) -> Iterator[tuple[int, str]]:
    """The records of the layout JsonSink writes: a header line, a record a line."""
    with open(path, encoding="utf-8") as stream:
        stream.readline()
        for number, line in enumerate(stream, start=2):
            line = line.rstrip()
            if line not in ("]}", ""):
                yield number, line.removesuffix(",")


def _ordered_json(path: Path, lines: Callable[[], Iterator[tuple[int, str]]]) -> Iterator[Row]:
    """The records of JSON lines, read twice: the first time only for their keys, to tell
    whether they are in record order (else they are all decoded and sorted)."""
    check = RecordOrder()
    paths: list[str | None] = []
    indexes: list[int | None] = []
    for number, line in lines():
        source, index = _line_key(path, number, line)
        paths.append(source)
        indexes.append(index)
        if len(paths) == BATCH_SIZE:
            if not check.feed(paths, indexes):
                break
            paths, indexes = [], []
    records = (json_object(path, number, line) for number, line in lines())
    if check.feed(paths, indexes):
        yield from records
    else:
        yield from _in_record_order(list(records), str(path))


def _in_record_order(rows: list[Row], where: str) -> list[Row]:
    keys = [_row_key(row) for row in rows]
    paths = [path for path, _ in keys]
    indexes = [index for _, index in keys]
    if RecordOrder().feed(paths, indexes):
        return rows
    order = record_order(paths, indexes, where)
    return rows if order is None else [rows[n] for n in order.to_pylist()]


def _json_rows(path: Path) -> Iterator[Row]:
    """Stream the layout JsonSink writes; load any other JSON document whole."""
    with open(path, encoding="utf-8") as stream:
        head = stream.readline()
        streamed = head.rstrip().endswith('"records": [')
        if streamed:
            header = json_object(path, 1, head.rstrip()[:-len('"records": [')].rstrip(", ") + "}")
            _check_version(path, header.get("schema"), header.get("version"))
        else:
            document = json_object(path, 1, head + stream.read())
    if streamed:
        yield from _ordered_json(path, partial(_json_lines, path))
        return
    if not isinstance(document, dict) or not isinstance(document.get("records"), list):
        raise ArchiveError(f"{path}: not a boards archive (no 'records' list)")
    _check_version(path, document.get("schema"), document.get("version"))
    yield from _in_record_order(document["records"], str(path))


__all__ = [
    "ArchiveError", "ArchiveOrderWarning", "ArchivedGame", "BATCH_SIZE", "ConvertSummary",
    "JsonSink", "JsonlSink", "ParquetSink", "archive_rows", "iter_archive",
    "json_object",
    "output_format", "read_archive", "records", "write_rows",
]
