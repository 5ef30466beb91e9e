"""Archives of an older boards schema as the current one: ``pbnkit upgrade ARCHIVE -o NEW``.

Version 1 kept every record's lossless columns (``tags``, ``preamble``, ``trailer``, the
positions, the diagnostics), which version 2 keeps unchanged; every other column is
derived from those. So a version 1 row becomes a version 2 row by restoring its record
(with ``#``/``##`` inheritance over its file, as the reader resolves it) and deriving the
columns again, as ``pbnkit convert`` derives them now: the typed ``date`` beside
``date_text``, the contract and declarer as the scorer reads them with
``contract_source``, and ``source`` relative to the common root of the archive's paths.
The stored diagnostics are kept as they are (those of the rules included).

What version 1 did not keep cannot be made up: the ``original`` columns (the file's bytes)
are null, so ``pbnkit.export.original`` refuses such rows, and a file without records had
no row.

Readers of archives call :func:`upgrade_table` on a version 1 table (:func:`table_version`
says which), or :func:`upgrade_rows` on its rows; the restore columns
(``schema.RESTORE_COLUMNS``) mean the same in both versions and need no upgrade.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pbnkit.export import dataset
from pbnkit.export.atomic import atomic_directory, atomic_file
from pbnkit.export.archive import json_object, restored
from pbnkit.export.conversion import write_rows
from pbnkit.export.rows import Row, common_root, game_row, is_record
from pbnkit.export.schema import (RESTORE_COLUMNS, SCHEMA_NAME, SCHEMA_VERSION, boards_schema)
from pbnkit.export.columns import arrow_batch
from pbnkit.export.sinks import (BATCH_SIZE, SINKS, ArchiveError, output_format,
                                 parquet_options)

#: the versions this pbnkit reads: the current one, and those it upgrades
READABLE = (1, SCHEMA_VERSION)


@dataclass
class UpgradeSummary:
    records: int = 0
    version: int = 1  # the version upgraded from


def row_version(row: Row) -> int:
    """The schema version of a stored row (a JSONL record names none): version 2 added the
    ``source`` and ``original`` columns."""
    return SCHEMA_VERSION if "original" in row else 1


def table_version(table: pa.Table | pa.Schema) -> int:
    """The schema version a table's (or a Parquet file's) metadata names; 1 when none."""
    schema = table if isinstance(table, pa.Schema) else table.schema
    version = (schema.metadata or {}).get(b"pbnkit.schema_version")
    try:
        return int(version) if version is not None else 1
    except ValueError:
        raise ArchiveError(f"unreadable schema version {version!r}") from None


def upgrade_rows(rows: Iterable[Row], root: str | None = None) -> Iterator[Row]:
    """Version 1 rows (every column, in record order) as version 2 rows; ``root`` is the
    common root of their paths, for ``source`` (see :func:`pbnkit.export.rows.common_root`;
    None: each file's own directory). An archive holds one version: when its first row
    is of version 2, every row passes unchanged."""
    rows = iter(rows)
    first = next(rows, None)
    if first is None:
        return
    rows = itertools.chain([first], rows)
    if row_version(first) == SCHEMA_VERSION:
        yield from rows
        return
    for row, game in restored(rows, "row {number} is not a version 1 boards record"):
        upgraded = game_row(game, row["encoding"], (), root)
        # Kept as stored: what the reader and the rules found, and the file's trailer.
        for name in ("trailer", "diagnostics", "errors", "warnings"):
            upgraded[name] = row[name]
        upgraded["original_head"] = upgraded["original_tail"] = None
        yield upgraded


def upgrade_table(table: pa.Table, root: str | None = None,
                  profile: str | None = None) -> pa.Table:
    """A version 1 table as a version 2 table (every column, the current schema and file
    metadata). A table of restore columns only is given back as it is: they mean the same
    in both versions. A version 2 table is given back as it is."""
    if table_version(table) == SCHEMA_VERSION or set(table.column_names) <= set(RESTORE_COLUMNS):
        return table
    missing = [name for name in RESTORE_COLUMNS if name not in table.column_names]
    if missing:
        raise ArchiveError(f"cannot upgrade a table without the columns {', '.join(missing)}")
    if profile is None:
        profile = (table.schema.metadata or {}).get(b"pbnkit.profile", b"").decode() or None
    rows = list(upgrade_rows(table.to_pylist(), root))
    if not rows:
        return boards_schema(profile).empty_table()
    return pa.Table.from_batches([arrow_batch(rows[start:start + BATCH_SIZE], profile)
                                  for start in range(0, len(rows), BATCH_SIZE)])


def upgrade_archive(archive: str | os.PathLike[str], out: str | os.PathLike[str],
                    force: bool = False, profile: str | None = None) -> UpgradeSummary:
    """Rewrite the version 1 archive ``archive`` (a .parquet, .json or .jsonl file, or a
    dataset directory) as a version 2 archive at ``out`` (format from its name, as
    ``pbnkit convert`` names it), atomically, with the archive's scoring profile unless
    ``profile`` is given. Two passes: the paths first, for the common root of
    ``source``."""
    name = os.fspath(archive)
    version, stored_profile = archive_header(name)
    profile = profile if profile is not None else stored_profile
    summary = UpgradeSummary(version=version)
    if summary.version not in READABLE:
        raise ArchiveError(f"{name}: schema version {summary.version} is not one this pbnkit "
                           f"upgrades (versions {', '.join(map(str, READABLE))})")
    if summary.version == SCHEMA_VERSION:
        raise ArchiveError(f"{name}: already schema version {SCHEMA_VERSION}: nothing to upgrade")
    root = common_root({row["path"] for row in stored_rows(name, ["path"]) if row["path"]})
    rows = upgrade_rows(stored_rows(name), root)
    kind = output_format(out)
    if kind == "dataset":
        if dataset.is_uri(out):
            raise ArchiveError("upgrade writes a dataset to a local directory only")
        with atomic_directory(out, force) as directory:
            summary.records = _write_dataset(rows, str(directory), profile)
        return summary
    with atomic_file(out, force) as stream:
        write_rows(_counted(rows, summary), SINKS[kind](stream, profile))
    return summary


def _counted(rows: Iterable[Row], summary: UpgradeSummary) -> Iterator[Row]:
    for row in rows:
        summary.records += is_record(row)
        yield row


def _write_dataset(rows: Iterable[Row], where: str, profile: str | None) -> int:
    parts: list[tuple[str, int]] = []
    records = 0
    batch: list[Row] = []

    def flush() -> None:
        table = pa.Table.from_batches([arrow_batch(batch, profile)])
        parts.extend(dataset.write_unit(where, f"{len(parts):05d}-upgraded", table,
                                        parquet_options(table.schema)))

    for row in rows:
        batch.append(row)
        records += is_record(row)
        if len(batch) >= BATCH_SIZE * 10:
            flush()
            batch = []
    if batch or not parts:
        if batch:
            flush()
        else:
            empty = boards_schema(profile).empty_table()
            parts.extend(dataset.write_unit(where, "empty", empty, parquet_options(empty.schema)))
    from pbnkit import __version__

    dataset.write_manifest(where, parts, {"schema": SCHEMA_NAME, "version": SCHEMA_VERSION,
                                          "pbnkit": __version__, "profile": profile or ""})
    return records


# -- Reading every column of a stored archive ------------------------------------------------------

def archive_header(name: str) -> tuple[int, str | None]:
    """The schema version and the scoring profile an archive names (1 and None when it
    names none: a JSONL archive, whose rows tell the version)."""
    path = Path(name)
    if dataset.is_uri(name) or path.is_dir():
        fs, _ = dataset.filesystem(name)
        parts = dataset.read_parts(name)
        if not parts:
            return 1, None
        with fs.open_input_file(parts[0]) as stream:
            return _schema_header(pq.read_schema(stream))
    if path.suffix.lower() == ".parquet":
        return _schema_header(pq.read_schema(path))
    if path.suffix.lower() == ".json":
        with open(path, encoding="utf-8") as stream:
            head = stream.readline().rstrip()
        header = json_object(path, 1, head.removesuffix('"records": [').rstrip(", ") + "}") \
            if head.endswith('"records": [') else json_object(path, 1, path.read_text("utf-8"))
        version, profile = header.get("version", 1), header.get("profile")
        if type(version) is not int:
            raise ArchiveError(f"{name}: unreadable schema version {version!r}")
        return version, profile if isinstance(profile, str) and profile else None
    if path.suffix.lower() == ".jsonl":
        for row in stored_rows(name):
            return row_version(row), None
        return 1, None
    raise ArchiveError(f"{name}: not an archive (expected .parquet, .json, .jsonl or a "
                       "directory of Parquet files)")


def _schema_header(schema: pa.Schema) -> tuple[int, str | None]:
    profile = (schema.metadata or {}).get(b"pbnkit.profile", b"").decode()
    return table_version(schema), profile or None


def stored_rows(archive: str | os.PathLike[str],
                columns: list[str] | None = None) -> Iterator[Row]:
    """The rows of an archive as stored (``columns`` only, for Parquet), in order: a
    Parquet file, a dataset (parts in the manifest's order), JSON or JSONL."""
    name = os.fspath(archive)
    path = Path(name)
    if dataset.is_uri(name) or path.is_dir():
        fs, _ = dataset.filesystem(name)
        for part in dataset.read_parts(name):
            with fs.open_input_file(part) as stream:
                yield from _parquet_rows(stream, columns)
    elif path.suffix.lower() == ".parquet":
        yield from _parquet_rows(path, columns)
    else:
        with open(path, encoding="utf-8") as stream:
            for number, line in enumerate(stream, start=1):
                line = line.strip().removesuffix(",")
                if line.startswith("{") and not line.startswith('{"schema"'):
                    yield json_object(path, number, line)


def _parquet_rows(source: Any, columns: list[str] | None) -> Iterator[Row]:
    for batch in pq.ParquetFile(source).iter_batches(batch_size=BATCH_SIZE, columns=columns):
        yield from batch.to_pylist()
