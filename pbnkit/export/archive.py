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

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pyarrow as pa
import pyarrow.parquet as pq

from pbnkit import __version__
from pbnkit.export import dataset
from pbnkit.export.pipeline import (
    ConvertSummary,
    convert,
    records,
    write_rows,
)
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
from pbnkit.pbn.reader import Inheritance
from pbnkit.pbn.records import Element, Game


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
    return archived_games(archive_rows(path), os.fspath(path))


def archived_games(rows: Iterable[Row], archive: str) -> Iterator[ArchivedGame]:
    """Games restored from stored rows in order; inheritance starts again with each
    source file (a new path, or index 0)."""
    inheritance = Inheritance()
    source: Any = object()
    for number, row in enumerate(rows, start=1):
        try:
            if row["path"] != source or row["index"] == 0:
                inheritance, source = Inheritance(), row["path"]
            tags = row_tags(row["tags"])
            values = inheritance.resolve(tags)
            game = Game(tags, row_elements(row["preamble"]), row["line"], row["index"],
                        row["path"], values, row_diagnostics(row, values.get("Board")))
            yield ArchivedGame(game, row["encoding"], row_elements(row["trailer"]))
        except (KeyError, TypeError, ValueError) as error:
            raise ArchiveError(f"{archive}: record {number} is not a boards record "
                               f"({type(error).__name__}: {error})") from None


def games_of_rows(rows: Iterable[Row], archive: str) -> Iterator[Game]:
    for archived in archived_games(rows, archive):
        yield archived.game


def archive_rows(path: str | os.PathLike[str]) -> Iterator[Row]:
    """The stored rows (the columns needed to restore games) of any archive format."""
    name = os.fspath(path)
    path = Path(name)
    try:
        if dataset.is_uri(name) or path.is_dir():
            fs, _ = dataset.filesystem(name)
            for part in dataset.read_parts(name):
                with fs.open_input_file(part) as stream:
                    yield from parquet_rows(stream, f"{name}/{Path(part).name}")
        elif path.suffix.lower() == ".parquet":
            yield from parquet_rows(path, str(path))
        elif path.suffix.lower() == ".jsonl":
            yield from _jsonl_rows(path)
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


def parquet_rows(source: Any, path: str, row_groups: Iterable[int] | None = None
                 ) -> Iterator[Row]:
    """The restore columns of a Parquet file's rows (of some row groups only)."""
    try:
        parquet = pq.ParquetFile(source)
        metadata = parquet.schema_arrow.metadata or {}
        name = metadata.get(b"pbnkit.schema")
        version = metadata.get(b"pbnkit.schema_version")
        _check_version(path, name.decode() if name else None,
                       version.decode() if version else None)
        missing = [c for c in RESTORE_COLUMNS if c not in parquet.schema_arrow.names]
        if missing:
            raise ArchiveError(f"{path}: not a boards archive (no column {', '.join(missing)})")
        for batch in parquet.iter_batches(batch_size=BATCH_SIZE, columns=RESTORE_COLUMNS,
                                          row_groups=row_groups):
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
    "ArchiveError", "ArchivedGame", "BATCH_SIZE", "ConvertSummary", "JsonSink", "JsonlSink",
    "ParquetSink", "archive_rows", "convert", "iter_archive", "output_format", "read_archive",
    "records", "write_rows",
]
