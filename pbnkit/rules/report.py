"""Validate files and gather the findings into one report (the ``validate`` JSON
document, schema ``schemas/validate-report.v1.json``)."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from pbnkit.diagnostics import Diagnostic, Severity
from pbnkit.pbn.records import Game
from pbnkit.jobs.units import Unit, UnitEnd, end_of, merge_ends
from pbnkit.rules import check_game, select
from pbnkit.rules.scores import AnyRecord, ScoreRecord, score_record
from pbnkit.rules.unit_scores import UnitScores, compacted, first_scoring
from pbnkit.pickling import by_fields

REPORT_VERSION = 1

_RANK = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}


@dataclass
class FileReport:
    path: str
    encoding: str = ""
    games: int = 0
    errors: int = 0
    warnings: int = 0
    failure: str | None = None  # why the file could not be read at all
    infos: int = 0  # counted for the text summary; not in the JSON document (schema v1)


@dataclass
class Report:
    files: list[FileReport] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> int:
        return sum(f.errors for f in self.files)

    @property
    def warnings(self) -> int:
        return sum(f.warnings for f in self.files)

    @property
    def infos(self) -> int:
        return sum(f.infos for f in self.files)

    @property
    def games(self) -> int:
        return sum(f.games for f in self.files)

    @property
    def failures(self) -> list[FileReport]:
        return [f for f in self.files if f.failure is not None]

    def to_json(self) -> dict[str, Any]:
        return {
            "version": REPORT_VERSION,
            "summary": {"files": len(self.files), "games": self.games,
                        "errors": self.errors, "warnings": self.warnings},
            "files": [{"path": f.path, "encoding": f.encoding, "games": f.games,
                       "errors": f.errors, "warnings": f.warnings} for f in self.files],
            "diagnostics": [
                {"path": d.path, "line": d.line, "column": d.column, "code": d.code,
                 "name": d.name, "severity": d.effective_severity.value, "message": d.message,
                 "board": d.board}
                for d in self.diagnostics
            ],
        }


@dataclass(frozen=True, slots=True)
class Options:
    """What ``pbnkit validate`` checks and lists."""

    strict: bool = False
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    min_severity: Severity = Severity.INFO
    #: (glob, code prefixes): more codes to leave out of the files the glob matches,
    #: relative to ``root`` (the settings file's directory)
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    root: str = ""

    def ignored_in(self, path: str) -> tuple[str, ...]:
        """The code prefixes left out of the file ``path``."""
        if not self.per_file_ignores:
            return self.ignore
        return self.ignore + tuple(code for glob, codes in self.per_file_ignores
                                   if _matches(glob, path, self.root) for code in codes)


by_fields(Options)


def _matches(glob: str, path: str, root: str) -> bool:
    """Whether a per-file glob names the file: a glob of its path relative to ``root``
    (``robots/*``, ``**/bba/*.pbn``; ``*`` spans directories), of its name (``*.lin``), or
    a directory above it (``robots``)."""
    relative = os.path.relpath(os.path.abspath(path), root) if root else path
    relative = PurePath(path if relative.startswith("..") else relative).as_posix()
    glob = glob.removeprefix("./").rstrip("/")
    names = (relative, PurePath(path).name)
    return (any(fnmatch.fnmatchcase(name, pattern) for name in names
                for pattern in (glob, glob.removeprefix("**/")))
            or relative.startswith(glob + "/"))


@dataclass(slots=True)
class CheckedGame:
    """One game checked in a worker: the listed findings of its own checks, their
    counts, and the small score record the file-level score checks need."""

    line: int
    found: list[Diagnostic] = field(default_factory=list)
    errors: int = 0
    warnings: int = 0
    infos: int = 0
    score: AnyRecord | None = None
    table: list[Diagnostic] = field(default_factory=list)
    failure: str | None = None  # a bug in a check: the game is left out, the rest go on


by_fields(CheckedGame)


@dataclass(slots=True)
class CheckedUnit:
    games: list[CheckedGame]
    end: UnitEnd | None  # None when the file could not be read
    failure: str | None = None
    unit: Unit | None = None  # the unit checked, read again if its records must be whole
    scoring: str | None = None  # the first Scoring tag of its games


def check_unit(options: Options, unit: Unit) -> CheckedUnit:
    """Read and check the games of one unit (a worker's job): every check that needs
    only the game itself, and the score records for those of the whole file, the plain
    ones compacted."""
    games: list[CheckedGame] = []
    records: list[ScoreRecord | None] = []
    try:
        reader = unit.reader(options.strict)
        ignore = options.ignored_in(unit.path)
        for game in reader:
            checked, record = CheckedGame(game.line), None
            try:
                found = check_game(game, options.strict)
                record, checked.table = score_record(game)
            except Exception as error:  # a bug in a check must not hide the other games
                checked.failure = _internal(error, game.line)
            else:
                if found:  # most games of a large file have nothing to list or count
                    checked.found = _tally(checked, select(found, options.select, ignore),
                                           options.min_severity)
            games.append(checked)
            records.append(record)
    except OSError as error:
        return CheckedUnit(games, None, f"cannot read: {error.strerror or error}")
    for checked, sent in zip(games, compacted(records)):
        checked.score = sent
    return CheckedUnit(games, end_of(reader), None, unit, first_scoring(records))


class FileValidation:
    """A file's report, merged in the parent from its units in order: the checks that
    need the whole file (matchpoints, team matches, rubbers) run here."""

    def __init__(self, path: str, options: Options):
        self.options = options
        self.report = FileReport(path)
        self.kept: list[Diagnostic] = []
        self._scores = UnitScores()
        self._ends: list[UnitEnd] = []

    def add(self, unit: CheckedUnit) -> int:
        """Merge one unit; the number of games it held."""
        report = self.report
        records = self._scores.take([game.score for game in unit.games], unit.scoring,
                                    lambda: self._reread(unit))
        for game, record in zip(unit.games, records):
            report.games += 1
            if game.failure is not None or record is None:
                report.failure = report.failure or game.failure
                continue
            try:
                found = self._scores.checks.add_record(record, game.table)
            except Exception as error:
                report.failure = report.failure or _internal(error, game.line)
                continue
            report.errors += game.errors
            report.warnings += game.warnings
            report.infos += game.infos
            self.kept.extend(game.found)
            if found:
                self.kept.extend(self._listed(found))
        if unit.end is None:
            report.failure = report.failure or unit.failure
        else:
            self._ends.append(unit.end)
        return len(unit.games)

    def _reread(self, unit: CheckedUnit) -> Iterable[Game]:
        assert unit.unit is not None
        return unit.unit.reader(self.options.strict)

    def finish(self) -> tuple[FileReport, list[Diagnostic]]:
        report = self.report
        if report.failure is not None and report.failure.startswith("cannot read"):
            return report, self.kept
        end = merge_ends(self._ends, report.path, self.options.strict)
        try:
            found = list(end.diagnostics) + self._scores.checks.finish()
        except Exception as error:
            report.failure = report.failure or _internal(error, None)
            found = list(end.diagnostics)
        self.kept.extend(self._listed(found))
        report.encoding = end.encoding.name
        # The findings of the whole file (matchpoints, text outside the games) come last:
        # listed in line order all the same, as people read a file.
        self.kept.sort(key=lambda d: (d.line, d.column))
        return report, self.kept

    def _listed(self, found: list[Diagnostic]) -> list[Diagnostic]:
        options = self.options
        return _tally(self.report, select(found, options.select,
                                          options.ignored_in(self.report.path)),
                      options.min_severity)


def validate_file(path: Path, strict: bool = False, codes: tuple[tuple[str, ...], tuple[str, ...]]
                  = ((), ()), min_severity: Severity = Severity.INFO) -> tuple[FileReport, list[Diagnostic]]:
    """Read and check every game of one file, then the facts that need the whole file
    (matchpoints, team matches, rubbers). An unreadable file gives a FileReport with
    ``failure`` set instead of raising."""
    options = Options(strict, codes[0], codes[1], min_severity)
    validation = FileValidation(str(path), options)
    validation.add(check_unit(options, Unit(str(path), 0)))
    return validation.finish()


def _internal(error: Exception, line: int | None) -> str:
    where = f" in the game at line {line}" if line is not None else ""
    return (f"internal error{where}: {type(error).__name__}: {error} "
            "(a pbnkit bug: please report it with the file)")


def _tally(report: FileReport | CheckedGame, diagnostics: Iterable[Diagnostic],
           min_severity: Severity) -> list[Diagnostic]:
    kept = []
    for diagnostic in diagnostics:
        severity = diagnostic.effective_severity
        if severity is Severity.ERROR:
            report.errors += 1
        elif severity is Severity.WARNING:
            report.warnings += 1
        else:
            report.infos += 1
        if _RANK[severity] <= _RANK[min_severity]:
            kept.append(diagnostic)
    return kept
