"""Validate files and gather the findings into one report (the ``validate`` JSON
document, schema ``schemas/validate-report.v1.json``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbnkit.diagnostics import Diagnostic, Severity
from pbnkit.pbn.reader import read
from pbnkit.rules import check_game, select
from pbnkit.rules.scores import ScoreChecks

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


def validate_file(path: Path, strict: bool = False, codes: tuple[tuple[str, ...], tuple[str, ...]]
                  = ((), ()), min_severity: Severity = Severity.INFO,
                  on_game: Callable[[], None] | None = None) -> tuple[FileReport, list[Diagnostic]]:
    """Read and check every game of one file, then the facts that need the whole file
    (matchpoints, team matches, rubbers). An unreadable file gives a FileReport with
    ``failure`` set instead of raising."""
    report = FileReport(str(path))
    kept: list[Diagnostic] = []
    scores = ScoreChecks()
    try:
        reader = read(path, strict=strict)
        for game in reader:
            report.games += 1
            try:
                found = check_game(game, strict) + scores.add(game)
            except Exception as error:  # a bug in a check must not hide the other games
                report.failure = report.failure or _internal(error, game.line)
                continue
            kept.extend(_tally(report, select(found, *codes), min_severity))
            if on_game is not None:
                on_game()
        try:
            found = reader.diagnostics + scores.finish()
        except Exception as error:
            report.failure = report.failure or _internal(error, None)
            found = reader.diagnostics
        kept.extend(_tally(report, select(found, *codes), min_severity))
        report.encoding = reader.encoding
    except OSError as error:
        report.failure = f"cannot read: {error.strerror or error}"
    return report, kept


def _internal(error: Exception, line: int | None) -> str:
    where = f" in the game at line {line}" if line is not None else ""
    return (f"internal error{where}: {type(error).__name__}: {error} "
            "(a pbnkit bug: please report it with the file)")


def _tally(report: FileReport, diagnostics: Iterable[Diagnostic],
           min_severity: Severity) -> list[Diagnostic]:
    kept = []
    for diagnostic in diagnostics:
        severity = diagnostic.effective_severity
        if severity is Severity.ERROR:
            report.errors += 1
        elif severity is Severity.WARNING:
            report.warnings += 1
        if _RANK[severity] <= _RANK[min_severity]:
            kept.append(diagnostic)
    return kept
