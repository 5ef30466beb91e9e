"""``pbnkit validate`` and :func:`pbnkit.validate`: the units of the files checked
(:func:`~pbnkit.rules.report.check_unit`, in any engine), merged file by file in unit
order (:class:`~pbnkit.rules.report.FileValidation`, which makes the checks that need the
whole file).

Two levels, one truth: :func:`pbnkit.rules.check_game` checks one record alone (what it
holds: its tags, deal, auction, play, its own stated score); :func:`validate` checks a
file, which is every record's own findings and those that need the whole file besides
(matchpoints, team matches and totals across records, text outside any record, the
export format). ``pbnkit validate`` lists what :func:`validate_units` gives, as
:func:`validate` does.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from pbnkit.diagnostics import Diagnostic, Severity
from pbnkit.errors import PbnError
from pbnkit.pipeline import collector
from pbnkit.pipeline.engines import Engine, Inline
from pbnkit.pipeline.units import Unit
from pbnkit.rules.report import (CheckedUnit, FileReport, FileValidation, Options, check_games,
                                 check_unit)

if TYPE_CHECKING:
    from pbnkit.formats.reader import Reader


class LiveInput(Protocol):
    """An input read as it comes (standard input): its spool file, which units read from
    it name as their ``source``, and its reader."""

    path: Path

    def reader(self, name: str, strict: bool) -> Reader: ...

    def drain(self) -> None: ...


def validate_units(engine: Engine, units: Iterable[Unit], options: Options, *,
                   streamed: bool = False, live: LiveInput | None = None,
                   advance: Callable[[int, int], None] | None = None,
                   ) -> Iterator[tuple[list[Diagnostic], FileReport | None]]:
    """Check every unit and merge the findings file by file: ``(findings, report)`` for
    each file as it is done, its findings in line order. With ``streamed``, findings
    come sooner, as ``(findings, None)``, as soon as no finding still to come can precede
    them: game by game with an :class:`Inline` engine and for an input read as it comes
    (``live``), a unit (a file, or a chunk of a large one) at a time otherwise.
    ``advance(games, bytes)`` is told of the work done, for progress."""
    spool = None if live is None else os.fspath(live.path)
    validation = FileValidation("", options)
    current = None
    for unit, checked in _checked_parts(engine, units, options, streamed, live):
        if unit is not current and unit.chunk == 0:  # a file's first part
            # standard input cannot be looked through before it is read
            source = unit.source or unit.path if streamed and (
                spool is None or unit.source != spool) else None
            validation = FileValidation(unit.path, options, source)
        current = unit
        games = validation.add(checked)
        if advance is not None:
            advance(games, unit.size if checked.final else 0)
        if not (checked.final and unit.is_last):
            if streamed:
                yield validation.ready(), None
            continue
        file_report, diagnostics = validation.finish()
        yield diagnostics, file_report


def _checked_parts(engine: Engine, units: Iterable[Unit], options: Options, streamed: bool,
                   live: LiveInput | None) -> Iterator[tuple[Unit, CheckedUnit]]:
    """The checked units, or parts of them (:func:`~pbnkit.rules.report.check_games`),
    in order: ``streamed``, game by game in this process with an inline engine; an input
    read as it comes (``live``) game by game in this process with any engine, between
    the other files' units."""
    serial = streamed and isinstance(engine, Inline)
    if live is None:
        yield from _game_by_game(options, units) if serial else engine.map(
            partial(check_unit, options), units)
        return
    spool = os.fspath(live.path)
    for is_live, group in itertools.groupby(units, lambda unit: unit.source == spool):
        if is_live:
            yield from _game_by_game(options, group, lambda unit, strict: live.reader(
                unit.path, strict))
            live.drain()  # a reader may stop early (not a PBN file); --dd reads all of it
        elif serial:
            yield from _game_by_game(options, group)
        else:
            yield from engine.map(partial(check_unit, options), group)


def _game_by_game(options: Options, units: Iterable[Unit],
                  opened: Callable[[Unit, bool], Reader] | None = None,
                  ) -> Iterator[tuple[Unit, CheckedUnit]]:
    """:func:`~pbnkit.rules.report.check_games` of each unit, in this process, as a unit
    of an engine is run (:mod:`.collector`): the collector paused over each unit, the
    caller's merge between its games included."""
    for unit in units:
        with collector.paused():
            yield from check_games(options, [unit], opened)


def validate_file(path: str | Path, strict: bool = False,
                  codes: tuple[tuple[str, ...], tuple[str, ...]] = ((), ()),
                  min_severity: Severity = Severity.INFO,
                  ) -> tuple[FileReport, list[Diagnostic]]:
    """The report and the findings of one file, in this process: what ``pbnkit
    validate`` gives for it with these options (``codes``: the code prefixes selected
    and ignored). An unreadable file gives a FileReport with ``failure`` set instead of
    raising."""
    options = Options(strict, codes[0], codes[1], min_severity)
    ((found, report),) = validate_units(Inline(), [Unit(str(path), 0)], options)
    assert report is not None
    return report, found


def validate(path: str | Path, strict: bool = False) -> list[Diagnostic]:
    """Every finding of one file, in line order: what ``pbnkit validate --min-severity
    info`` lists for it (each record's own checks, as :func:`pbnkit.rules.check_game`
    gives them, and those that need the whole file: matchpoints, team matches, totals,
    the results score cannot score). Raises :class:`~pbnkit.errors.PbnError` when the
    file cannot be read.

    >>> [d.code for d in validate("sample_data/pairs_matchpoints.pbn")]
    []
    """
    report, found = validate_file(Path(path), strict)
    if report.failure is not None:
        raise PbnError(f"{path}: {report.failure}")
    return found
