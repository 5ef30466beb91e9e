"""Where the rows of the boards table go: one writer protocol, four formats.

A sink's ``encode`` turns rows into what its ``write`` takes. ``encode`` runs where the rows
are made (a worker process, with ``-j``), so that the parent only writes Arrow batches or
bytes; ``write`` runs in the one process that owns the output.
"""

from __future__ import annotations

import base64
import datetime
import json
import os
from pathlib import Path
from typing import Any, BinaryIO

import pyarrow as pa
import pyarrow.parquet as pq

from pbnkit import __version__
from pbnkit.errors import PbnError
from pbnkit.export.dataset import ROW_GROUP_ROWS
from pbnkit.export.columns import COLUMNAR, arrow_batch
from pbnkit.export.rows import Row, SectionItems, TagColumns
from pbnkit.export.schema import SCHEMA_NAME, SCHEMA_VERSION, boards_schema

BATCH_SIZE = 1000
#: the data of a single Parquet file's row group, at most: a writer holds one group, and
#: with several jobs each group is encoded while the next units are at work, not all at
#: the end (16 MB is about 4,600 boards with full play and their original bytes)
ROW_GROUP_BYTES = 16 << 20
#: fewer rows than this a batch, on average, and a row group's batches are made one
#: before it is written (more copy than write at a thousand rows a batch)
FEW_ROWS = 100
_OUTPUTS = {".parquet": "parquet", ".json": "json", ".jsonl": "jsonl"}


class ArchiveError(PbnError):
    """An archive cannot be written or read: unreadable input, not an archive, a newer
    schema version."""


def output_format(out: str | os.PathLike[str]) -> str:
    """parquet, json, jsonl or dataset (a directory, or a URI), from the output name."""
    name = os.fspath(out)
    path = Path(name)
    kind = _OUTPUTS.get(path.suffix.lower())
    if kind is not None and not path.is_dir():
        return kind
    if "://" in name or path.is_dir() or not path.suffix or name.endswith(("/", os.sep)):
        return "dataset"
    raise ArchiveError(f"cannot tell the archive format of {name!r}: name a .parquet, .json "
                       "or .jsonl file, or a directory")


#: Parquet columns whose values repeat from board to board. Parquet would otherwise try a
#: dictionary on every column, and the hands, tag bodies, texts and numbers, nearly all
#: distinct, cost write time for no gain; on these the dictionary makes the file smaller.
_DICTIONARY_COLUMNS = [
    "path", "source", "encoding", "event", "site", "date", "date_text", "room", "west",
    "north", "east", "south", "dealer", "vulnerable", "scoring", "declarer",
    "contract_strain", "contract_risk", "contract_source",
    "auction.list.element.seat", "auction.list.element.call",
    "play.list.element.seat", "play.list.element.card",
    "notes.list.element.section", "commentary.list.element.kind",
    "tags.list.element.name", "tags.list.element.value",
    "tags.list.element.body.list.element.kind",
    "diagnostics.list.element.code", "diagnostics.list.element.severity",
    "diagnostics.list.element.stage",
]


def parquet_options(schema: pa.Schema) -> dict[str, Any]:
    """How every Parquet file of boards is written: a single file and a dataset's parts.
    No statistics for the bytes of the ``original`` columns: nobody filters on them."""
    flat = [field.name for field in schema
            if not pa.types.is_nested(field.type) and not pa.types.is_binary(field.type)]
    return {"compression": "zstd", "use_dictionary": _DICTIONARY_COLUMNS,
            "write_statistics": flat}


class ParquetSink:
    """One Parquet file, in row groups of :data:`ROW_GROUP_ROWS` rows (the whole file when
    smaller), or fewer when their data reaches :data:`ROW_GROUP_BYTES` first: large groups
    for readers that scan, a bounded buffer for the writer. Statistics (min, max, nulls)
    are kept for the top-level columns, which readers filter on, not for the items of
    list columns."""

    def __init__(self, where: str | BinaryIO, profile: str | None = None):
        self.profile = profile
        self.schema = boards_schema(profile)
        self._writer = pq.ParquetWriter(where, self.schema, **parquet_options(self.schema))
        self._pending: list[pa.RecordBatch] = []
        self._rows = self._bytes = 0

    @staticmethod
    def encode(rows: list[Row], profile: str | None = None) -> pa.RecordBatch:
        return arrow_batch(rows, profile)

    def write(self, batch: pa.RecordBatch) -> None:
        self._pending.append(batch)
        self._rows += batch.num_rows
        # the buffers' size, not nbytes: as good a bound, and far cheaper, which counts
        # when each of thousands of small files gives a batch
        self._bytes += batch.get_total_buffer_size()
        if self._rows >= ROW_GROUP_ROWS or self._bytes >= ROW_GROUP_BYTES:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            table = pa.Table.from_batches(self._pending)
            if len(self._pending) * FEW_ROWS > self._rows:
                # Small batches, one per small file: written as they are, they cost more
                # than making each column one chunk and writing that (a thousand files
                # of a board or a few make a thousand tiny chunks a column).
                table = table.combine_chunks()
            self._writer.write_table(table, row_group_size=self._rows)
            self._pending, self._rows, self._bytes = [], 0, 0

    def close(self) -> None:
        self._flush()
        self._writer.close()


def _json_line(row: Row) -> bytes:
    row = {**row, **{name: row[name].rows() for name in COLUMNAR
                     if isinstance(row.get(name), (SectionItems, TagColumns))}}
    return json.dumps(row, ensure_ascii=False, separators=(",", ":"),
                      default=json_value).encode("utf-8")


def json_value(value: Any) -> str:
    """A value JSON has no type for, as the JSON archives write it: bytes in base64, a
    date as ``YYYY-MM-DD``, a time of day as ``HH:MM:SS``."""
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    raise TypeError(f"no JSON form for {type(value).__name__}")


def _json_lines(rows: list[Row], profile: str | None = None) -> list[bytes]:
    return [_json_line(row) for row in rows]


class JsonSink:
    """One JSON document, one record per line, so that it can be read back in a stream:
    ``{"schema": "boards", ..., "records": [`` / records / ``]}``."""

    def __init__(self, stream: BinaryIO, profile: str | None = None):
        self.profile = profile
        self._stream = stream
        header = {"schema": SCHEMA_NAME, "version": SCHEMA_VERSION, "pbnkit": __version__,
                  "profile": profile or ""}
        stream.write(json.dumps(header, ensure_ascii=False)[:-1].encode("utf-8")
                     + b', "records": [\n')
        self._first = True

    @staticmethod
    def encode(rows: list[Row], profile: str | None = None) -> list[bytes]:
        return _json_lines(rows, profile)

    def write(self, lines: list[bytes]) -> None:
        if lines:
            self._stream.write((b"" if self._first else b",\n") + b",\n".join(lines))
            self._first = False

    def close(self) -> None:
        self._stream.write(b"\n]}\n" if not self._first else b"]}\n")


class JsonlSink:
    """One record per line."""

    def __init__(self, stream: BinaryIO, profile: str | None = None):
        self.profile = profile
        self._stream = stream

    @staticmethod
    def encode(rows: list[Row], profile: str | None = None) -> list[bytes]:
        return _json_lines(rows, profile)

    def write(self, lines: list[bytes]) -> None:
        self._stream.write(b"".join(line + b"\n" for line in lines))

    def close(self) -> None:
        pass



SINKS: dict[str, type[ParquetSink] | type[JsonSink] | type[JsonlSink]] = {
    "parquet": ParquetSink, "json": JsonSink, "jsonl": JsonlSink,
    "dataset": ParquetSink,  # each unit's part is a Parquet file
}
