"""``pbnkit convert`` and :func:`pbnkit.convert`: PBN files into an archive, unit by unit.
A worker reads a file (or a chunk of a large one), turns its games into rows of the
boards table (:mod:`pbnkit.export.conversion`) and encodes them for the output; the
parent writes what the units give back, in unit order. A dataset directory is written by
the units themselves, one part each, and its manifest last.

Every output is atomic: a file or local directory appears whole or not at all. A dataset
at a URI (``s3://...``) cannot be renamed into place; there the manifest, written last,
is what tells readers that the dataset is complete.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple, cast

import pyarrow as pa
import pyarrow.parquet as pq

from pbnkit import __version__
from pbnkit.diagnostics import Diagnostic
from pbnkit.export import dataset, journal
from pbnkit.export.atomic import (atomic_file, check_target, is_locked, partial_of,
                                  resumable_directory)
from pbnkit.export.conversion import (ConvertSummary, batches, closing_on_failure,
                                      unit_rows)
from pbnkit.export.rows import Row, common_root, diagnostic_row, is_record, row_diagnostics
from pbnkit.export.schema import SCHEMA_NAME, SCHEMA_VERSION, boards_schema
from pbnkit.export.sinks import (BATCH_SIZE, FEW_ROWS, SINKS, ArchiveError, output_format,
                                 parquet_options)
from pbnkit.formats.files import file_digest
from pbnkit.pbn.encoding import file_encoding
from pbnkit.pbn.split import Encoding
from pbnkit.pickling import by_fields
from pbnkit.pipeline import collector
from pbnkit.pipeline.engines import Engine, Inline
from pbnkit.pipeline.runs import start
from pbnkit.pipeline.units import Unit, UnitEnd, end_of, plan, with_encodings


@by_fields
@dataclass(frozen=True, slots=True)
class ConvertOptions:
    kind: str  # parquet, json, jsonl or dataset: what the rows are encoded for
    check: bool = True
    profile: str | None = None
    batch_size: int = BATCH_SIZE
    parts: str | None = None  # a dataset's directory or URI: the unit writes its own part
    partition_by: tuple[str, ...] = ()  # a dataset's hive partition keys
    root: str | None = None  # the common root of the inputs, for the source column
    #: a directory the parent shares with local workers (see ``Engine.spool``): a unit's
    #: Arrow batches go there as a file, not through a pipe
    spool: str | None = None
    #: a whole file of fewer rows, bound for a Parquet file, is handed back
    #: :class:`Unencoded`, for the parent to encode with the next files' rows
    unencoded: int = FEW_ROWS

    def fingerprint(self) -> dict[str, Any]:
        """The options that shape a dataset's parts (see ``journal.identity``)."""
        return {"check": self.check, "profile": self.profile,
                "partition_by": list(self.partition_by)}


class Unencoded(NamedTuple):
    """The rows of a small file, bound for a Parquet file, as a unit gives them back."""

    rows: list[Row]


@dataclass(slots=True)
class ConvertedUnit:
    """What a unit gives back: its encoded batches (or the part it wrote), counts, and
    what its reader found outside any game."""

    payloads: list[Any]
    files: list[tuple[str, int]] | None  # the dataset files the unit wrote, and their rows
    records: int
    errors: int
    warnings: int
    end: UnitEnd
    resumed: bool = False  # finished by an earlier run: its part is final already
    #: with checks, the score-check records of its games in order (rules.scores), for
    #: the checks that need the whole file, made in the parent as validate makes them
    #: (plain ones compacted), and the first Scoring tag among them
    scores: list[Any] = field(default_factory=list)
    scoring: str | None = None
    #: the file its payloads wait in (``ConvertOptions.spool``), until the parent takes
    #: them; or the same Arrow stream as bytes, for a unit under ``SPOOL_BYTES``
    spooled: str | bytes | None = None


def convert_unit(options: ConvertOptions, unit: Unit) -> ConvertedUnit:
    """Read one unit and encode its rows (a worker's job); a small file's rows stay
    :class:`Unencoded` (see ``ConvertOptions.unencoded`` and :func:`_coalesced`)."""
    encode = SINKS[options.kind].encode
    # a whole file bound for a single Parquet file may hand back its rows unencoded
    to_parquet_file = options.kind == "parquet" and options.parts is None and unit.resume is None
    reader = unit.reader()
    payloads: list[Any] = []
    records = errors = warnings = 0
    try:
        encoding = unit.encoding or file_encoding(unit.path)
        scores: list[Any] = []
        digest = unit.digest or file_digest(unit.source or unit.path)
        for batch in batches(unit_rows(reader, encoding, options.check, unit.is_last,
                                       root=options.root, scores=scores, digest=digest),
                             options.batch_size):
            records += sum(map(is_record, batch))
            errors += sum(row["errors"] for row in batch)
            warnings += sum(row["warnings"] for row in batch)
            if payloads and isinstance(payloads[-1], Unencoded):  # a full batch before
                payloads[-1] = encode(payloads[-1].rows, options.profile)
            payloads.append(Unencoded(batch) if to_parquet_file
                            else encode(batch, options.profile))
        if payloads and isinstance(payloads[-1], Unencoded) and (
                len(payloads) > 1 or len(payloads[-1].rows) >= options.unencoded):
            payloads[-1] = encode(payloads[-1].rows, options.profile)
    except OSError as error:
        raise ArchiveError(f"cannot read {unit.path}: {error.strerror or error}") from error
    files = spooled = None
    if options.parts is not None and payloads:
        files = _write_part(options, unit, pa.Table.from_batches(payloads))
        payloads = []
    elif options.spool is not None and options.kind == "parquet" and payloads and \
            not isinstance(payloads[0], Unencoded):  # a small file's rows: through the pipe
        spooled = _spooled(options.spool, unit, payloads)
        if spooled is not None:
            payloads = []
    done = ConvertedUnit(payloads, files, records, errors, warnings, end_of(reader),
                         spooled=spooled)
    if scores:  # with checks: the rules are not even imported without
        from pbnkit.rules.unit_scores import compacted, first_scoring

        done.scores, done.scoring = compacted(scores), first_scoring(scores)
    return done


#: the least a unit's batches hold to wait in a file of the spool; a smaller unit's go
#: through the pipe, as an Arrow stream too
SPOOL_BYTES = 1 << 20


def _spooled(spool: str, unit: Unit, batches: list[pa.RecordBatch]) -> str | bytes | None:
    """Leave a unit's batches in the spool as an Arrow stream; None when the spool cannot
    take them (a full disk): the batches then go through the pipe after all.

    Through a pipe, the 14 MB of batches of a 2 MB chunk are copied four times (pickled,
    sent, received, unpickled); a file is written once, and the parent maps it. But a
    file made, mapped and removed costs system time of its own: a smaller unit's stream
    (under :data:`SPOOL_BYTES` of columns, a few hundred boards) goes through the pipe as
    bytes, read back as cheaply (pickling and unpickling its batches instead would cost
    more)."""
    if sum(batch.get_total_buffer_size() for batch in batches) < SPOOL_BYTES:
        sink = pa.BufferOutputStream()
        _write_stream(sink, batches)
        stream: bytes = sink.getvalue().to_pybytes()
        return stream
    path = os.path.join(spool, f"{unit.ordinal}.arrow")
    try:
        with pa.OSFile(path, "wb") as sink:
            _write_stream(sink, batches)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(path)
        return None
    return path


def _write_stream(sink: pa.NativeFile, batches: list[pa.RecordBatch]) -> None:
    with pa.ipc.new_stream(sink, batches[0].schema) as stream:
        for batch in batches:
            stream.write_batch(batch)


def _taken(spooled: str | bytes) -> list[pa.RecordBatch]:
    """A unit's batches, read from the stream's bytes, or mapped from its file (not
    copied), which is gone once they are."""
    if isinstance(spooled, bytes):
        return list(pa.ipc.open_stream(spooled))
    with pa.memory_map(spooled) as source:
        batches = list(pa.ipc.open_stream(source))
    os.unlink(spooled)
    return batches


def _write_part(options: ConvertOptions, unit: Unit, table: pa.Table) -> list[tuple[str, int]]:
    assert options.parts is not None
    return dataset.write_unit(options.parts, dataset.part_stem(unit.ordinal, unit.path, unit.chunk),
                              table, parquet_options(table.schema), options.partition_by)


def convert(paths: Sequence[str | os.PathLike[str]], out: str | os.PathLike[str], *,
            force: bool = False, profile: str | None = None, check: bool = True,
            batch_size: int = BATCH_SIZE, engine: Engine | None = None,
            units: Iterable[Unit] | None = None,
            on_unit: Callable[[Unit, int], None] | None = None,
            partition_by: Sequence[str] = (), resume: bool = False,
            root: str | None = None, jobs: int | None = 1) -> ConvertSummary:
    """Convert PBN files into one archive at ``out`` (format from its name, see
    :func:`output_format`), atomically: on any error no output is left behind.

    ``engine`` runs the units (default: ``jobs`` processes, as ``pbnkit convert -j``
    chooses them; None: every usable core), ``units`` are the files' units when already
    planned; ``on_unit(unit, records)`` is called as each unit is merged, for progress.

    A dataset (``out`` a directory or URI) may be cut into hive directories by the
    columns ``partition_by``. Its work in progress is kept when the run fails or is
    interrupted (a local one in a hidden ``.NAME.partial`` beside it), and a run with
    ``resume`` converts only the units not finished yet. ``root``: the common root of
    the inputs, which the ``source`` column is relative to (default: that of ``paths``)."""
    if engine is None:
        planned = start(paths, jobs)
        try:
            return convert(paths, out, force=force, profile=profile, check=check,
                           batch_size=batch_size, engine=planned.engine,
                           units=planned.units if units is None else units, on_unit=on_unit,
                           partition_by=partition_by, resume=resume, root=root)
        finally:
            planned.engine.close()
    kind = output_format(out)
    if kind != "dataset" and (partition_by or resume):
        raise ArchiveError("--partition-by and --resume are for a dataset (a directory or "
                           f"URI), not {os.fspath(out)}")
    dataset.check_partitioning(partition_by, boards_schema(profile))
    if not dataset.is_uri(out) and not (kind == "dataset" and resume):
        check_target(Path(out), force)
    for path in paths:
        if not Path(path).is_file():
            raise ArchiveError(f"cannot read {os.fspath(path)}: no such file")
    units = with_encodings(units if units is not None
                           else plan([Path(p) for p in paths], engine.jobs))
    options = ConvertOptions(kind, check, profile, batch_size, partition_by=tuple(partition_by),
                             root=root if root is not None else common_root(paths),
                             spool=engine.spool, unencoded=FEW_ROWS if isinstance(
                                 engine, Inline) else PICKLED_ROWS)
    summary = ConvertSummary()
    with collector.paused():  # the parent's merge and writing (see collector)
        if kind != "dataset":
            with atomic_file(out, force) as stream:
                sink = SINKS[kind](stream, profile)
                with closing_on_failure(sink):
                    merged = _merged(engine, units, options, summary, on_unit)
                    for payload in _coalesced(merged, sink.encode, options):
                        sink.write(payload)
        elif dataset.is_uri(out):
            with dataset.locked(out):
                dataset.prepare(os.fspath(out), force, resume)
                _write_dataset(os.fspath(out), engine, units, options, summary, on_unit,
                               resume)
        else:
            with resumable_directory(out, force, resume) as directory:
                # absolute: the workers of a cluster work in a directory of their own
                _write_dataset(os.path.abspath(directory), engine, units, options, summary,
                               on_unit, resume)
    return summary


#: with workers, the least rows of a file that a worker encodes itself: a row handed
#: back costs the pipe and the parent its pickling, unpickling and encoding, while a
#: batch has a fixed cost whatever its rows. A folder of files of 32 boards was slower
#: at -j 2 with all their rows handed back.
PICKLED_ROWS = 10


def _coalesced(merged: Iterable[tuple[Unit, ConvertedUnit]],
               encode: Callable[[list[Row], str | None], Any],
               options: ConvertOptions) -> Iterator[Any]:
    """The units' payloads in order, the rows of small files (:class:`Unencoded`) encoded
    together, up to a batch at a time.

    Why: an Arrow batch has a fixed cost whatever its rows (a few dozen arrays made),
    about as much as reading a BBO hand record of one board: a folder of thousands of
    them cost several times the CPU of the same boards in one file."""
    rows: list[Row] = []
    for _, done in merged:
        for payload in done.payloads:
            if isinstance(payload, Unencoded):
                rows += payload.rows
                if len(rows) < options.batch_size:
                    continue
                payload, rows = encode(rows, options.profile), []
            elif rows:
                yield encode(rows, options.profile)
                rows = []
            yield payload
    if rows:
        yield encode(rows, options.profile)


def kept_work(out: str | os.PathLike[str]) -> str | None:
    """What a failed or interrupted convert to ``out`` kept for ``--resume``, said for
    the user; None when it kept nothing."""
    with contextlib.suppress(ArchiveError):
        if output_format(out) == "dataset":
            return _kept_dataset(out)
    return None


def _kept_dataset(out: str | os.PathLike[str]) -> str | None:
    if dataset.is_uri(out):
        where = os.fspath(out)
        if not dataset.exists(where) or dataset.has_manifest(where):
            return None
    else:
        where = os.fspath(partial_of(out))
        if not os.path.isdir(where) or is_locked(out):  # another run's work in progress
            return None
    return (f"the work done so far is kept in {where}: run the same command with --resume "
            "to finish it")


def _write_dataset(where: str, engine: Engine, units: Iterable[Unit], options: ConvertOptions,
                   summary: ConvertSummary, on_unit: Callable[[Unit, int], None] | None,
                   resume: bool) -> None:
    options = replace(options, parts=where)
    earlier = journal.load(where) if resume else {}
    # The score checks across a file's records need all of them: with checks, a file
    # cut in chunks is taken up whole or not at all.
    whole = journal.whole_files(earlier.values())

    def finished(unit: Unit) -> ConvertedUnit | None:
        entry = earlier.get(_stem(unit))
        if entry is None or entry["unit"] != _identity(unit, options) \
                or not journal.files_present(where, entry["files"]):
            return None
        if options.check and unit.resume is not None and entry["unit"]["path"] not in whole:
            return None
        records, errors, warnings = entry["counts"]
        problems = row_diagnostics({"diagnostics": entry["problems"], "path": unit.path},
                                   None, ("file",))
        return ConvertedUnit([], [(name, rows) for name, rows in entry["files"]], records,
                             errors, warnings, UnitEnd(Encoding(), problems, ()), True)

    parts: list[tuple[str, int]] = []
    for unit, done in _merged(engine, units, options, summary, on_unit, finished):
        files = done.files or []
        parts += files
        journal.record(where, _stem(unit), _identity(unit, options), files,
                       (done.records, done.errors, done.warnings),
                       [diagnostic_row(d, "file") for d in done.end.diagnostics])
    missing = dataset.missing_parts(where, [name for name, _ in parts])
    if missing:  # written where this process cannot see: the workers' own disks
        raise ArchiveError(f"the workers wrote {len(missing)} part(s) that are not in "
                           f"{where} here (first: {missing[0]}): the dataset must be a "
                           "directory or URI that the workers share with this machine")
    if not parts:  # no records: an empty part still tells readers the schema
        empty = boards_schema(options.profile).empty_table()
        parts = dataset.write_unit(where, "empty", empty, parquet_options(empty.schema))
    dataset.remove_unlisted(where, parts)
    dataset.write_manifest(where, parts, {
        "schema": SCHEMA_NAME, "version": SCHEMA_VERSION, "pbnkit": __version__,
        "profile": options.profile or "", "partitioning": [
            {"name": name, "type": str(type_)} for name, type_ in
            zip(options.partition_by, dataset.partitioning(
                options.partition_by, boards_schema(options.profile)).schema.types)]})
    journal.clear(where)


def _stem(unit: Unit) -> str:
    return dataset.part_stem(unit.ordinal, unit.path, unit.chunk)


def _identity(unit: Unit, options: ConvertOptions) -> dict[str, Any]:
    start, end = (0, unit.size) if unit.resume is None else (unit.resume.start, unit.resume.end)
    return journal.identity(unit.path, unit.chunk, start, end, options.fingerprint())


def _merged(engine: Engine, units: Iterable[Unit], options: ConvertOptions,
            summary: ConvertSummary, on_unit: Callable[[Unit, int], None] | None,
            finished: Callable[[Unit], ConvertedUnit | None] = lambda unit: None,
            ) -> Iterator[tuple[Unit, ConvertedUnit]]:
    """The units' results in order, counted into ``summary``; the units ``finished``
    gives a result for (an earlier run's) are not run again. The problems a file's
    earlier chunks found outside any game go on its last row, as one reading would put
    them."""
    earlier: list[Diagnostic] = []
    records = 0
    checks = None  # a chunked file's score checks, fed as its chunks come
    if options.check:  # without checks, the rules are not even imported
        from pbnkit.rules.unit_scores import UnitScores

        checks = UnitScores()
    found: list[Diagnostic] = []
    for unit, done in _run(engine, partial(convert_unit, options), units, finished):
        if done.spooled is not None:
            done.payloads, done.spooled = _taken(done.spooled), None
        later: list[Diagnostic] = []
        if checks is not None and unit.resume is not None and not done.resumed:
            if unit.chunk == 0:
                checks, found = UnitScores(), []
            taken = checks.take(done.scores, done.scoring, unit.reader)
            found += [d for record in taken if record is not None
                      for d in checks.checks.add_record(record)]
            if unit.is_last:
                later = found + checks.checks.finish()
        if unit.is_last and (earlier or later) and done.records and not done.resumed:
            _add_earlier_problems(unit, done, earlier, options, later)
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


def _run(engine: Engine, work: Callable[[Unit], ConvertedUnit], units: Iterable[Unit],
         finished: Callable[[Unit], ConvertedUnit | None]) -> Iterator[tuple[Unit, ConvertedUnit]]:
    """``engine.map(work, units)``, in unit order, but the units already ``finished``
    take their earlier result instead of going to the engine."""
    queue: deque[tuple[Unit, ConvertedUnit | None]] = deque()

    def pending() -> Iterator[Unit]:
        for unit in units:
            known = finished(unit)
            queue.append((unit, known))
            if known is None:
                yield unit

    # The engine draws units from pending() ahead of the results it gives back, so the
    # queue holds, in order, the finished units up to each unit run.
    for found in engine.map(work, pending()):
        unit, known = queue.popleft()
        while known is not None:
            yield unit, known
            unit, known = queue.popleft()
        assert unit is found[0]
        yield found
    for unit, known in queue:  # the finished units after the last unit run
        yield unit, cast(ConvertedUnit, known)


def _add_earlier_problems(unit: Unit, done: ConvertedUnit, earlier: list[Diagnostic],
                          options: ConvertOptions, later: Sequence[Diagnostic] = ()) -> None:
    """Put the file-level problems of a file's earlier chunks on its last row, before the
    last chunk's own (the order of one reading), and ``later`` (the score checks across
    the file) after them. Rare: only text between games that holds no tag pair makes
    such problems, and only some files' scores."""
    if done.files is not None:
        assert options.parts is not None
        fs, root = dataset.filesystem(options.parts)
        parts = [pq.read_table(fs.open_input_file(f"{root}/{name}")) for name, _ in done.files]
        table = pa.concat_tables(parts).sort_by("index")
        rows: list[Row] = table.drop_columns(
            [name for name in table.column_names if name not in boards_schema(
                options.profile).names]).to_pylist()
    else:
        rows = _decoded(done.payloads[-1], options.kind)
    last = rows[-1]
    extra = [diagnostic_row(d, "file") for d in earlier]
    first_file = next((n for n, d in enumerate(last["diagnostics"]) if d["stage"] == "file"),
                      len(last["diagnostics"]))
    last["diagnostics"][first_file:first_file] = extra
    extra += [diagnostic_row(d, "file") for d in later]
    last["diagnostics"] += extra[len(earlier):]
    errors = sum(d["severity"] == "error" for d in extra)
    warnings = sum(d["severity"] == "warning" for d in extra)
    last["errors"] += errors
    last["warnings"] += warnings
    done.errors += errors
    done.warnings += warnings
    if done.files is not None:
        done.files = _write_part(options, unit,
                                 pa.Table.from_pylist(rows, schema=boards_schema(options.profile)))
    elif options.kind in ("parquet", "dataset"):
        # decoded rows hold plain lists and dicts, not the columns the encoder builds
        done.payloads[-1] = pa.RecordBatch.from_pylist(rows, schema=boards_schema(options.profile))
    else:
        done.payloads[-1] = SINKS[options.kind].encode(rows, options.profile)


def _decoded(payload: Any, kind: str) -> list[Row]:
    if kind in ("parquet", "dataset"):
        rows: list[Row] = payload.to_pylist()
        return rows
    return [json.loads(line) for line in payload]


__all__ = ["ConvertOptions", "ConvertedUnit", "convert", "convert_unit", "kept_work"]
