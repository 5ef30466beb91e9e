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
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

import pyarrow as pa
import pyarrow.parquet as pq

from pbnkit import __version__
from pbnkit.diagnostics import Diagnostic
from pbnkit.errors import PbnError
from pbnkit.export.atomic import atomic_directory, atomic_file, check_target
from pbnkit.export.rows import (
    Row,
    add_file_problems,
    game_row,
    row_diagnostics,
    row_elements,
    row_tags,
)
from pbnkit.export.schema import (
    RESTORE_COLUMNS,
    SCHEMA_NAME,
    SCHEMA_VERSION,
    boards_schema,
)
from pbnkit.pbn.reader import Inheritance, read
from pbnkit.pbn.records import Element, Game

BATCH_SIZE = 1000
ROWS_PER_FILE = 250_000  # per Parquet file of a dataset directory
_OUTPUTS = {".parquet": "parquet", ".json": "json", ".jsonl": "jsonl"}


class ArchiveError(PbnError):
    """An archive cannot be written or read: unreadable input, not an archive, a newer
    schema version."""


# -- Sinks: one writer protocol, four formats -------------------------------------------------

class ParquetSink:
    """One Parquet file; each batch is a row group."""

    def __init__(self, where: str | BinaryIO, profile: str | None = None):
        self.schema = boards_schema(profile)
        self._writer = pq.ParquetWriter(where, self.schema, compression="zstd")

    def write(self, rows: list[Row]) -> None:
        self._writer.write_batch(pa.RecordBatch.from_pylist(rows, schema=self.schema))

    def close(self) -> None:
        self._writer.close()


class DatasetSink:
    """A directory of Parquet files ``part-00000.parquet``, ... in record order."""

    def __init__(self, directory: Path, profile: str | None = None,
                 rows_per_file: int = ROWS_PER_FILE):
        self._directory = directory
        self._profile = profile
        self._rows_per_file = rows_per_file
        self._sink: ParquetSink | None = None
        self._rows = 0
        self._parts = 0

    def write(self, rows: list[Row]) -> None:
        if self._sink is None or self._rows >= self._rows_per_file:
            self._next_part()
        assert self._sink is not None
        self._sink.write(rows)
        self._rows += len(rows)

    def _next_part(self) -> None:
        if self._sink is not None:
            self._sink.close()
        self._sink = ParquetSink(str(self._directory / f"part-{self._parts:05d}.parquet"),
                                 self._profile)
        self._parts += 1
        self._rows = 0

    def close(self) -> None:
        if not self._parts:
            self._next_part()  # no records: one empty file still tells readers the schema
        if self._sink is not None:
            self._sink.close()
            self._sink = None


def _json_line(row: Row) -> bytes:
    return json.dumps(row, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class JsonSink:
    """One JSON document, one record per line, so that it can be read back in a stream:
    ``{"schema": "boards", ..., "records": [`` / records / ``]}``."""

    def __init__(self, stream: BinaryIO, profile: str | None = None):
        self._stream = stream
        header = {"schema": SCHEMA_NAME, "version": SCHEMA_VERSION, "pbnkit": __version__,
                  "profile": profile or ""}
        stream.write(json.dumps(header, ensure_ascii=False)[:-1].encode("utf-8")
                     + b', "records": [\n')
        self._first = True

    def write(self, rows: list[Row]) -> None:
        for row in rows:
            self._stream.write((b"" if self._first else b",\n") + _json_line(row))
            self._first = False

    def close(self) -> None:
        self._stream.write(b"\n]}\n" if not self._first else b"]}\n")


class JsonlSink:
    """One record per line."""

    def __init__(self, stream: BinaryIO, profile: str | None = None):
        self._stream = stream

    def write(self, rows: list[Row]) -> None:
        self._stream.write(b"".join(_json_line(row) + b"\n" for row in rows))

    def close(self) -> None:
        pass


# -- Convert ------------------------------------------------------------------------------------

@dataclass
class ConvertSummary:
    files: int = 0
    records: int = 0
    errors: int = 0
    warnings: int = 0
    empty: list[str] = field(default_factory=list)  # files that hold no record


def output_format(out: str | os.PathLike[str]) -> str:
    """parquet, json, jsonl or dataset (a directory), from the output name."""
    name = os.fspath(out)
    path = Path(name)
    kind = _OUTPUTS.get(path.suffix.lower())
    if kind is not None and not path.is_dir():
        return kind
    if path.is_dir() or not path.suffix or name.endswith(("/", os.sep)):
        return "dataset"
    raise ArchiveError(f"cannot tell the archive format of {name!r}: name a .parquet, .json "
                       "or .jsonl file, or a directory")


def records(paths: Iterable[str | os.PathLike[str]], check: bool = True,
            summary: ConvertSummary | None = None,
            on_game: Callable[[], None] | None = None) -> Iterator[Row]:
    """Rows of the boards table for every game of the files, in order.

    ``check`` runs the rules (``pbnkit.rules.check_game``) and stores their findings with
    the reader's. Raises :class:`ArchiveError` when a file cannot be read.
    """
    from pbnkit.rules import check_game

    summary = summary if summary is not None else ConvertSummary()
    for path in paths:
        reader = read(path)
        last: Row | None = None
        try:
            for game in reader:
                checked: Sequence[Diagnostic] = ()
                if check:
                    found = check_game(game)
                    own = len(game.diagnostics)
                    checked = (found[own:] if found[:own] == list(game.diagnostics)
                               else [d for d in found if d not in game.diagnostics])
                row = game_row(game, reader.encoding, checked)
                if last is not None:
                    yield _counted(last, summary)
                last = row
                if on_game is not None:
                    on_game()
        except OSError as error:
            raise ArchiveError(f"cannot read {os.fspath(path)}: {error.strerror or error}") from error
        summary.files += 1
        if last is None:
            summary.empty.append(os.fspath(path))
            continue
        add_file_problems(last, reader.trailer, reader.diagnostics)
        yield _counted(last, summary)


def _counted(row: Row, summary: ConvertSummary) -> Row:
    summary.records += 1
    summary.errors += row["errors"]
    summary.warnings += row["warnings"]
    return row


def _batches(rows: Iterable[Row], size: int) -> Iterator[list[Row]]:
    batch: list[Row] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def write_rows(rows: Iterable[Row], sink: Any, batch_size: int = BATCH_SIZE) -> None:
    """Stream rows through a sink in batches, and close it (also on failure, so that no
    writer is left to flush into a file the caller removes)."""
    try:
        for batch in _batches(rows, batch_size):
            sink.write(batch)
    except BaseException:
        with contextlib.suppress(Exception):
            sink.close()
        raise
    sink.close()


def convert(paths: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str], *,
            force: bool = False, profile: str | None = None, check: bool = True,
            batch_size: int = BATCH_SIZE, rows_per_file: int = ROWS_PER_FILE,
            on_game: Callable[[], None] | None = None) -> ConvertSummary:
    """Convert PBN files into one archive at ``out`` (format from its name, see
    :func:`output_format`), atomically: on any error no output is left behind."""
    kind = output_format(out)
    check_target(Path(out), force)
    for path in paths:
        if not Path(path).is_file():
            raise ArchiveError(f"cannot read {os.fspath(path)}: no such file")
    summary = ConvertSummary()
    rows = records(paths, check, summary, on_game)
    with _fewer_collections():
        if kind == "dataset":
            with atomic_directory(out, force) as directory:
                write_rows(rows, DatasetSink(directory, profile, rows_per_file), batch_size)
        else:
            with atomic_file(out, force) as stream:
                sink = {"parquet": ParquetSink, "json": JsonSink, "jsonl": JsonlSink}[kind]
                write_rows(rows, sink(stream, profile), batch_size)
    return summary


@contextlib.contextmanager
def _fewer_collections() -> Iterator[None]:
    """Rows are many small dicts and lists that live for one batch; with the default
    thresholds the cyclic collector runs every 700 of them and costs a quarter of the
    conversion. Memory stays bounded by the batch either way."""
    thresholds = gc.get_threshold()
    gc.set_threshold(50_000, 20, 10)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


# -- Read back ------------------------------------------------------------------------------------

class ArchivedGame(NamedTuple):
    """A game restored from an archive, with what the archive kept about its file."""

    game: Game
    encoding: str
    trailer: tuple[Element, ...]


def read_archive(path: str | os.PathLike[str]) -> Iterator[Game]:
    """The games of an archive (.parquet, a dataset directory, .json or .jsonl), in order,
    with ``#``/``##`` inheritance resolved as the reader resolves it."""
    for archived in iter_archive(path):
        yield archived.game


def iter_archive(path: str | os.PathLike[str]) -> Iterator[ArchivedGame]:
    """Like :func:`read_archive`, with each game's encoding and file trailer."""
    inheritance = Inheritance()
    source: Any = object()
    for number, row in enumerate(archive_rows(path), start=1):
        try:
            if row["path"] != source or row["index"] == 0:
                inheritance, source = Inheritance(), row["path"]
            tags = row_tags(row["tags"])
            values = inheritance.resolve(tags)
            game = Game(tags, row_elements(row["preamble"]), row["line"], row["index"],
                        row["path"], values, row_diagnostics(row, values.get("Board")))
            yield ArchivedGame(game, row["encoding"], row_elements(row["trailer"]))
        except (KeyError, TypeError, ValueError) as error:
            raise ArchiveError(f"{os.fspath(path)}: record {number} is not a boards record "
                               f"({type(error).__name__}: {error})") from None


def archive_rows(path: str | os.PathLike[str]) -> Iterator[Row]:
    """The stored rows (the columns needed to restore games) of any archive format."""
    path = Path(path)
    try:
        if path.is_dir():
            parts = sorted(p for p in path.rglob("*.parquet")
                           if not any(s.startswith((".", "_")) for s in p.relative_to(path).parts))
            if not parts:
                raise ArchiveError(f"{path}: no Parquet files in the directory")
            for part in parts:
                yield from _parquet_rows(part)
        elif path.suffix.lower() == ".parquet":
            yield from _parquet_rows(path)
        elif path.suffix.lower() == ".jsonl":
            yield from _jsonl_rows(path)
        elif path.suffix.lower() == ".json":
            yield from _json_rows(path)
        else:
            raise ArchiveError(f"{path}: not an archive (expected .parquet, .json, .jsonl or "
                               "a directory of Parquet files)")
    except OSError as error:
        raise ArchiveError(f"cannot read {path}: {error.strerror or error}") from error


def _check_version(path: Path, name: Any, version: Any) -> None:
    if name is not None and name != SCHEMA_NAME:
        raise ArchiveError(f"{path}: holds a {name!r} table, not {SCHEMA_NAME!r}")
    try:
        number = int(version) if version is not None else SCHEMA_VERSION
    except (TypeError, ValueError):
        raise ArchiveError(f"{path}: unreadable schema version {version!r}") from None
    if number > SCHEMA_VERSION:
        raise ArchiveError(f"{path}: schema version {number} is newer than this pbnkit "
                           f"({__version__}) reads (version {SCHEMA_VERSION})")


def _parquet_rows(path: Path) -> Iterator[Row]:
    try:
        parquet = pq.ParquetFile(path)
        metadata = parquet.schema_arrow.metadata or {}
        name = metadata.get(b"pbnkit.schema")
        version = metadata.get(b"pbnkit.schema_version")
        _check_version(path, name.decode() if name else None,
                       version.decode() if version else None)
        missing = [c for c in RESTORE_COLUMNS if c not in parquet.schema_arrow.names]
        if missing:
            raise ArchiveError(f"{path}: not a boards archive (no column {', '.join(missing)})")
        for batch in parquet.iter_batches(batch_size=BATCH_SIZE, columns=RESTORE_COLUMNS):
            yield from batch.to_pylist()
    except pa.ArrowException as error:
        raise ArchiveError(f"{path}: not a readable Parquet file ({error})") from None


def _loads(path: Path, number: int, line: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as error:
        raise ArchiveError(f"{path}:{number}: not JSON ({error.msg})") from None


def _jsonl_rows(path: Path) -> Iterator[Row]:
    with open(path, encoding="utf-8") as stream:
        for number, line in enumerate(stream, start=1):
            if line.strip():
                yield _loads(path, number, line)


def _json_rows(path: Path) -> Iterator[Row]:
    """Stream the layout JsonSink writes; load any other JSON document whole."""
    with open(path, encoding="utf-8") as stream:
        head = stream.readline()
        if head.rstrip().endswith('"records": ['):
            header = _loads(path, 1, head.rstrip()[:-len('"records": [')].rstrip(", ") + "}")
            _check_version(path, header.get("schema"), header.get("version"))
            for number, line in enumerate(stream, start=2):
                line = line.rstrip()
                if line in ("]}", ""):
                    continue
                yield _loads(path, number, line.removesuffix(","))
            return
        document = _loads(path, 1, head + stream.read())
    if not isinstance(document, dict) or not isinstance(document.get("records"), list):
        raise ArchiveError(f"{path}: not a boards archive (no 'records' list)")
    _check_version(path, document.get("schema"), document.get("version"))
    yield from document["records"]


__all__ = [
    "ArchiveError", "ArchivedGame", "ConvertSummary", "DatasetSink", "JsonSink", "JsonlSink",
    "ParquetSink", "archive_rows", "convert", "iter_archive", "output_format", "read_archive",
    "records", "write_rows",
]
