"""PBN files into an archive, unit by unit: a worker reads a file (or a chunk of a large
one), turns its games into rows of the boards table and encodes them for the output; the
parent writes what the units give back, in unit order. A dataset directory is written by
the units themselves, one part each, and its manifest last.

Every output is atomic: a file or local directory appears whole or not at all. A dataset
at a URI (``s3://...``) cannot be renamed into place; there the manifest, written last,
is what tells readers that the dataset is complete.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pbnkit import __version__
from pbnkit.diagnostics import Diagnostic
from pbnkit.export import dataset
from pbnkit.export.atomic import atomic_directory, atomic_file, check_target
from pbnkit.export.rows import Row, add_file_problems, diagnostic_row, game_row
from pbnkit.export.schema import SCHEMA_NAME, SCHEMA_VERSION, boards_schema
from pbnkit.export.sinks import BATCH_SIZE, SINKS, ArchiveError, output_format, parquet_options
from pbnkit.jobs.engines import Engine, Inline
from pbnkit.jobs.units import Unit, UnitEnd, end_of, file_encoding, plan, with_encodings
from pbnkit.pbn.reader import PbnReader


@dataclass
class ConvertSummary:
    files: int = 0
    records: int = 0
    errors: int = 0
    warnings: int = 0
    empty: list[str] = field(default_factory=list)  # files that hold no record


@dataclass(frozen=True, slots=True)
class ConvertOptions:
    kind: str  # parquet, json, jsonl or dataset: what the rows are encoded for
    check: bool = True
    profile: str | None = None
    batch_size: int = BATCH_SIZE
    parts: str | None = None  # a dataset's directory or URI: the unit writes its own part


@dataclass(slots=True)
class ConvertedUnit:
    """What a unit gives back: its encoded batches (or the part it wrote), counts, and
    what its reader found outside any game."""

    payloads: list[Any]
    part: tuple[str, int] | None
    records: int
    errors: int
    warnings: int
    end: UnitEnd


def checked_diagnostics(game: Any) -> list[Diagnostic]:
    """The rule findings of a game beyond the reader's own."""
    from pbnkit.rules import check_game

    found = check_game(game)
    own = len(game.diagnostics)
    if found[:own] == list(game.diagnostics):
        return found[own:]
    return [d for d in found if d not in game.diagnostics]


def unit_rows(reader: PbnReader, encoding: str | None, check: bool, last_unit: bool,
              on_game: Callable[[], None] | None = None) -> Iterator[Row]:
    """The rows of the games a reader gives; the last unit of a file puts the file's
    trailer and the problems outside any game on its last row. ``encoding`` is the
    file's, when known before reading (else the reader's own, as it reads)."""
    last: Row | None = None
    for game in reader:
        row = game_row(game, encoding or reader.encoding,
                       checked_diagnostics(game) if check else ())
        if last is not None:
            yield last
        last = row
        if on_game is not None:
            on_game()
    if last is not None:
        if last_unit:
            add_file_problems(last, reader.trailer, reader.diagnostics)
        yield last


def _batches(rows: Iterable[Row], size: int) -> Iterator[list[Row]]:
    batch: list[Row] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def convert_unit(options: ConvertOptions, unit: Unit) -> ConvertedUnit:
    """Read one unit and encode its rows (a worker's job)."""
    encode = SINKS[options.kind].encode
    reader = unit.reader()
    payloads: list[Any] = []
    records = errors = warnings = 0
    try:
        with _fewer_collections():
            encoding = unit.encoding or file_encoding(unit.path)
            for batch in _batches(unit_rows(reader, encoding, options.check, unit.is_last),
                                  options.batch_size):
                records += len(batch)
                errors += sum(row["errors"] for row in batch)
                warnings += sum(row["warnings"] for row in batch)
                payloads.append(encode(batch, options.profile))
    except OSError as error:
        raise ArchiveError(f"cannot read {unit.path}: {error.strerror or error}") from error
    part = None
    if options.parts is not None and payloads:
        name = dataset.part_name(unit.ordinal, unit.path, unit.chunk)
        table = pa.Table.from_batches(payloads)
        dataset.write_part(options.parts, name, table, parquet_options(table.schema))
        part, payloads = (name, records), []
    return ConvertedUnit(payloads, part, records, errors, warnings, end_of(reader))


def records(paths: Iterable[str | os.PathLike[str]], check: bool = True,
            summary: ConvertSummary | None = None,
            on_game: Callable[[], None] | None = None) -> Iterator[Row]:
    """Rows of the boards table for every game of the files, in order, in this process.

    ``check`` runs the rules (``pbnkit.rules.check_game``) and stores their findings with
    the reader's. Raises :class:`ArchiveError` when a file cannot be read.
    """
    summary = summary if summary is not None else ConvertSummary()
    for path in paths:
        reader = PbnReader(path)
        count = 0
        try:
            for row in unit_rows(reader, file_encoding(os.fspath(path)), check, True, on_game):
                count += 1
                yield _counted(row, summary)
        except OSError as error:
            raise ArchiveError(f"cannot read {os.fspath(path)}: {error.strerror or error}") from error
        summary.files += 1
        if not count:
            summary.empty.append(os.fspath(path))


def _counted(row: Row, summary: ConvertSummary) -> Row:
    summary.records += 1
    summary.errors += row["errors"]
    summary.warnings += row["warnings"]
    return row


def write_rows(rows: Iterable[Row], sink: Any, batch_size: int = BATCH_SIZE) -> None:
    """Stream rows through a sink in batches, and close it (also on failure, so that no
    writer is left to flush into a file the caller removes)."""
    with _closing_on_failure(sink):
        for batch in _batches(rows, batch_size):
            sink.write(sink.encode(batch, sink.profile))


@contextlib.contextmanager
def _closing_on_failure(sink: Any) -> Iterator[None]:
    try:
        yield
    except BaseException:
        with contextlib.suppress(Exception):
            sink.close()
        raise
    sink.close()


def convert(paths: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str], *,
            force: bool = False, profile: str | None = None, check: bool = True,
            batch_size: int = BATCH_SIZE, engine: Engine | None = None,
            units: Iterable[Unit] | None = None,
            on_unit: Callable[[Unit, int], None] | None = None) -> ConvertSummary:
    """Convert PBN files into one archive at ``out`` (format from its name, see
    :func:`output_format`), atomically: on any error no output is left behind.

    ``engine`` runs the units (default: in this process), ``units`` are the files' units
    when already planned; ``on_unit(unit, records)`` is called as each unit is merged,
    for progress."""
    kind = output_format(out)
    if not dataset.is_uri(out):
        check_target(Path(out), force)
    for path in paths:
        if not Path(path).is_file():
            raise ArchiveError(f"cannot read {os.fspath(path)}: no such file")
    engine = engine or Inline()
    units = with_encodings(units if units is not None
                           else plan([Path(p) for p in paths], engine.jobs))
    options = ConvertOptions(kind, check, profile, batch_size)
    summary = ConvertSummary()
    with _fewer_collections():
        if kind != "dataset":
            with atomic_file(out, force) as stream:
                sink = SINKS[kind](stream, profile)
                with _closing_on_failure(sink):
                    for unit, done in _merged(engine, units, options, summary, on_unit):
                        for payload in done.payloads:
                            sink.write(payload)
        elif dataset.is_uri(out):
            dataset.prepare(os.fspath(out), force)
            _write_dataset(os.fspath(out), engine, units, options, summary, on_unit)
        else:
            with atomic_directory(out, force) as directory:
                _write_dataset(str(directory), engine, units, options, summary, on_unit)
    return summary


def _write_dataset(where: str, engine: Engine, units: Iterable[Unit], options: ConvertOptions,
                   summary: ConvertSummary, on_unit: Callable[[Unit, int], None] | None) -> None:
    options = replace(options, parts=where)
    parts = [done.part for _, done in _merged(engine, units, options, summary, on_unit)
             if done.part is not None]
    if not parts:  # no records: an empty part still tells readers the schema
        name = "empty-00000.parquet"
        empty = boards_schema(options.profile).empty_table()
        dataset.write_part(where, name, empty, parquet_options(empty.schema))
        parts = [(name, 0)]
    dataset.write_manifest(where, parts, {"schema": SCHEMA_NAME, "version": SCHEMA_VERSION,
                                          "pbnkit": __version__, "profile": options.profile or ""})


def _merged(engine: Engine, units: Iterable[Unit], options: ConvertOptions,
            summary: ConvertSummary,
            on_unit: Callable[[Unit, int], None] | None) -> Iterator[tuple[Unit, ConvertedUnit]]:
    """The units' results in order, counted into ``summary``. The problems a file's
    earlier chunks found outside any game go on its last row, as one reading would put
    them."""
    earlier: list[Diagnostic] = []
    records = 0
    for unit, done in engine.map(partial(convert_unit, options), units):
        if unit.is_last and earlier and done.records:
            _add_earlier_problems(done, earlier, options)
        earlier = [] if unit.is_last else earlier + list(done.end.diagnostics)
        summary.records += done.records
        summary.errors += done.errors
        summary.warnings += done.warnings
        records += done.records
        if unit.is_last:
            summary.files += 1
            if not records:
                summary.empty.append(unit.path)
            records = 0
        if on_unit is not None:
            on_unit(unit, done.records)
        yield unit, done


def _add_earlier_problems(done: ConvertedUnit, earlier: list[Diagnostic],
                          options: ConvertOptions) -> None:
    """Put the file-level problems of a file's earlier chunks on its last row, before the
    last chunk's own (the order of one reading). Rare: only text between games that
    holds no tag pair makes such problems."""
    if done.part is not None:
        assert options.parts is not None
        fs, root = dataset.filesystem(options.parts)
        with fs.open_input_file(f"{root}/{done.part[0]}") as stream:
            rows: list[Row] = pq.read_table(stream).to_pylist()
    else:
        rows = _decoded(done.payloads[-1], options.kind)
    last = rows[-1]
    extra = [diagnostic_row(d, "file") for d in earlier]
    first_file = next((n for n, d in enumerate(last["diagnostics"]) if d["stage"] == "file"),
                      len(last["diagnostics"]))
    last["diagnostics"][first_file:first_file] = extra
    errors = sum(d["severity"] == "error" for d in extra)
    warnings = sum(d["severity"] == "warning" for d in extra)
    last["errors"] += errors
    last["warnings"] += warnings
    done.errors += errors
    done.warnings += warnings
    if done.part is not None:
        assert options.parts is not None
        table = pa.Table.from_pylist(rows, schema=boards_schema(options.profile))
        dataset.write_part(options.parts, done.part[0], table, parquet_options(table.schema))
    else:
        done.payloads[-1] = SINKS[options.kind].encode(rows, options.profile)


def _decoded(payload: Any, kind: str) -> list[Row]:
    if kind in ("parquet", "dataset"):
        rows: list[Row] = payload.to_pylist()
        return rows
    return [json.loads(line) for line in payload]


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


__all__ = ["ConvertOptions", "ConvertSummary", "ConvertedUnit", "convert", "convert_unit",
           "records", "unit_rows", "write_rows"]
