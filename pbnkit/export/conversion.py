"""The rows of the boards table for a reader's games, and writing rows through a sink:
what a unit of a conversion does, as pure functions of a reader. The pipeline
(:mod:`pbnkit.pipeline.convert`) runs them unit by unit, in this process or others, and
merges what they give; :func:`records` is the plain loop over files in this process."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pbnkit.diagnostics import Diagnostic
from pbnkit.export.rows import (Row, add_file_problems, add_findings, common_root, file_row,
                                game_row, is_record)
from pbnkit.export.sinks import BATCH_SIZE, ArchiveError
from pbnkit.formats.files import file_digest
from pbnkit.formats.reader import Reader
from pbnkit.formats.sniff import open_reader
from pbnkit.pbn.encoding import file_encoding


@dataclass
class ConvertSummary:
    """What a conversion did: the files and records read, the errors and warnings found
    in them, and the files that hold no record."""

    files: int = 0
    records: int = 0
    errors: int = 0
    warnings: int = 0
    empty: list[str] = field(default_factory=list)  # files that hold no record


def checked_diagnostics(game: Any, scores: list[Any] | None = None) -> list[Diagnostic]:
    """The rule findings of a game beyond the reader's own; with ``scores``, also those
    of its ScoreTable, and its score-check record goes there (``rules.scores``)."""
    from pbnkit.rules import check_game

    found = check_game(game)
    own = len(game.diagnostics)
    if found[:own] == list(game.diagnostics):
        found = found[own:]
    else:
        found = [d for d in found if d not in game.diagnostics]
    if scores is not None:
        from pbnkit.rules.scores import score_record

        record, table = score_record(game)
        scores.append(record)
        found += table
    return found


def unit_rows(reader: Reader, encoding: str | None, check: bool, last_unit: bool,
              on_game: Callable[[], None] | None = None, root: str | None = None,
              scores: list[Any] | None = None, digest: bytes | None = None) -> Iterator[Row]:
    """The rows of the games a reader gives; the last unit of a file puts the file's
    trailer and the problems outside any game on its last row (a file without games gets
    a row of its own). ``encoding`` is the file's, when known before reading (else the
    reader's own, as it reads); ``root`` the common root of the run's inputs; ``digest``
    the SHA-256 of the whole file, which the record ids come from.

    With ``check``, the score checks of each game (ScoreTable) are made too, and those
    across the file (SC020-SC030, on its last row) when the reader reads a whole file;
    a chunk's score-check records go to ``scores`` instead, for the parent to check the
    file as its chunks come."""
    whole = reader.resume is None
    checks = None  # without checks, the rules are not even imported
    if check and whole:
        from pbnkit.rules.scores import ScoreChecks

        checks = ScoreChecks()
    found: list[Diagnostic] = []
    records: list[Any] = []
    last: Row | None = None
    for game in reader:
        checked = checked_diagnostics(game, records) if check else ()
        if checks is not None:
            found += [d for record in records for d in checks.add_record(record)]
        elif scores is not None:
            scores += records
        records.clear()
        row = game_row(game, encoding or reader.encoding, checked, root, digest)
        if last is not None:
            yield last
        last = row
        if on_game is not None:
            on_game()
    if last is not None:
        if last_unit:
            add_file_problems(last, reader.trailer, reader.diagnostics)
        if checks is not None:
            add_findings(last, found + checks.finish())
        yield last
    elif last_unit:
        yield file_row(reader, encoding or reader.encoding, root)


def batches(rows: Iterable[Row], size: int) -> Iterator[list[Row]]:
    batch: list[Row] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def records(paths: Iterable[str | os.PathLike[str]], check: bool = True,
            summary: ConvertSummary | None = None,
            on_game: Callable[[], None] | None = None) -> Iterator[Row]:
    """Rows of the boards table for every game of the files, in order, in this process.

    ``check`` runs the rules (``pbnkit.rules.check_game``) and stores their findings with
    the reader's. Raises :class:`ArchiveError` when a file cannot be read.
    """
    summary = summary if summary is not None else ConvertSummary()
    paths = list(paths)
    root = common_root(paths)
    for path in paths:
        reader = open_reader(path)
        count = 0
        try:
            for row in unit_rows(reader, file_encoding(os.fspath(path)), check, True, on_game,
                                 root, digest=file_digest(path)):
                count += is_record(row)
                yield _counted(row, summary)
        except OSError as error:
            raise ArchiveError(f"cannot read {os.fspath(path)}: {error.strerror or error}") from error
        summary.files += 1
        if not count:
            summary.empty.append(os.fspath(path))


def _counted(row: Row, summary: ConvertSummary) -> Row:
    summary.records += is_record(row)
    summary.errors += row["errors"]
    summary.warnings += row["warnings"]
    return row


def write_rows(rows: Iterable[Row], sink: Any, batch_size: int = BATCH_SIZE) -> None:
    """Stream rows through a sink in batches, and close it (also on failure, so that no
    writer is left to flush into a file the caller removes)."""
    with closing_on_failure(sink):
        for batch in batches(rows, batch_size):
            sink.write(sink.encode(batch, sink.profile))


@contextlib.contextmanager
def closing_on_failure(sink: Any) -> Iterator[None]:
    try:
        yield
    except BaseException:
        with contextlib.suppress(Exception):
            sink.close()
        raise
    sink.close()
