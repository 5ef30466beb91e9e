"""The checks of a file's games and of the file as a whole, gathered into one report
(the ``validate`` JSON document, schema ``schemas/validate-report.v1.json``).

Pure functions of a unit (a file, or a chunk of one, that a reader reads) and of the
results of its units: :mod:`pbnkit.pipeline.validate` runs them, in this process or
others, and is what ``pbnkit validate`` and :func:`pbnkit.validate` call."""

from __future__ import annotations

import fnmatch
import heapq
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, Protocol, TypeVar, cast

from pbnkit.diagnostics import Diagnostic, Severity
from pbnkit.formats.reader import Reader
from pbnkit.formats.sniff import sniff_file
from pbnkit.pbn.chunks import ReadSummary, may_hold, merge, summary
from pbnkit.rules import check_game, select
from pbnkit.pbn.records import Game
from pbnkit.rules.scores import AnyRecord, ScoreChecks, ScoreRecord, score_record
from pbnkit.rules.unit_scores import UnitScores, compacted, first_scoring
from pbnkit.scoring import DEFAULT_PROFILE
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


@by_fields
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


class Readable(Protocol):
    """A unit of work as the checks see it: a file, or a chunk of one, shown as ``path``,
    that :meth:`reader` reads (:class:`pbnkit.pipeline.units.Unit` is one)."""

    @property
    def path(self) -> str: ...

    def reader(self, strict: bool = False) -> Reader: ...


#: what a unit's reader found that belongs to its file rather than to a game
UnitEnd = ReadSummary


def _merged_ends(ends: list[UnitEnd], path: str, strict: bool) -> UnitEnd:
    """The file's encoding, problems outside any game and trailer, as one reading of it
    gives them, from those of its units in order."""
    if len(ends) == 1:  # a whole file: its reader saw everything
        return ends[0]
    return merge(ends, path, strict)


@by_fields
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


@dataclass(slots=True)
class CheckedUnit:
    games: list[CheckedGame]
    end: UnitEnd | None  # None when the file could not be read (or, not final, not yet)
    failure: str | None = None
    #: the games and the problems outside a game still to come from the file are at this
    #: line or after it (0: not known)
    read_to: int = 0
    #: the unit's last part: :func:`check_games` gives a unit a game at a time
    final: bool = True
    #: a part's problems outside a game found since the part before (the final part's
    #: ``end`` holds them all again)
    outside: list[Diagnostic] = field(default_factory=list)
    unit: Readable | None = None  # the unit checked, read again if its records must be whole
    scoring: str | None = None  # the first Scoring tag of its games


#: a unit's reader, under ``strict`` or not
Opened = Callable[[Any, bool], Reader]


def _reader(unit: Readable, strict: bool) -> Reader:
    return unit.reader(strict)


class _Checking:
    """The games of one unit checked as its reader gives them: :func:`check_unit` in
    steps."""

    def __init__(self, options: Options, unit: Readable, opened: Opened | None = None):
        self.options = options
        self.unit = unit
        self._opened = opened or _reader
        #: the games' checks go into ``games``; ``end`` (or ``failure``) once read
        self.checked = CheckedUnit([], None)
        self._reader: Reader | None = None
        self._told = 0

    def games(self) -> Iterator[CheckedGame]:
        options, into = self.options, self.checked
        try:
            reader = self._reader = self._opened(self.unit, options.strict)
            ignore = options.ignored_in(self.unit.path)
            for game in reader:
                checked = CheckedGame(game.line)
                try:
                    found = check_game(game, options.strict)
                    checked.score, checked.table = score_record(game)
                except Exception as error:  # a bug in a check must not hide the rest
                    checked.failure = _internal(error, game.line)
                else:
                    if found:  # most games of a large file have nothing to list or count
                        checked.found = _tally(checked, select(found, options.select,
                                                               ignore),
                                               options.min_severity)
                into.read_to = reader.reached
                yield checked
        except OSError as error:
            into.failure = f"cannot read: {error.strerror or error}"
            return
        into.end, into.read_to = summary(reader), reader.reached

    def outside(self) -> list[Diagnostic]:
        """The problems outside a game found since the last call."""
        if self._reader is None:
            return []
        found = self._reader.diagnostics[self._told:]
        self._told += len(found)
        return found


def check_unit(options: Options, unit: Readable) -> CheckedUnit:
    """Read and check the games of one unit (a worker's job): every check that needs
    only the game itself, and the score records for those of the whole file, the plain
    ones compacted (they go to another process)."""
    checking = _Checking(options, unit)
    checked = checking.checked
    checked.games.extend(checking.games())
    records = [cast(ScoreRecord | None, game.score)  # full until compacted here
               for game in checked.games]
    for game, sent in zip(checked.games, compacted(records)):
        game.score = sent
    checked.unit, checked.scoring = unit, first_scoring(records)
    return checked


U = TypeVar("U", bound=Readable)


def check_games(options: Options, units: Iterable[U],
                opened: Opened | None = None) -> Iterator[tuple[U, CheckedUnit]]:
    """:func:`check_unit` of each unit, in this process and in parts given out as the
    games are checked: a part per game, then the unit's end (a part without games), so
    that the findings of a large file are listed while it is read. ``opened(unit,
    strict)``: the unit's reader (default: :meth:`Readable.reader`; standard input read as
    it comes has its own)."""
    for unit in units:
        checking = _Checking(options, unit, opened)
        for game in checking.games():
            yield unit, CheckedUnit([game], None, read_to=checking.checked.read_to,
                                    final=False, outside=checking.outside())
        yield unit, checking.checked


#: when a finding is made, for the order of findings at one position: in a game (its own
#: checks, and the score checks as the games come), outside any game, at the file's end
_IN_GAME, _OUTSIDE, _AT_END = 0, 1, 2


class FileValidation:
    """A file's report, merged in the parent from its units in order: the checks that
    need the whole file (matchpoints, team matches, rubbers) run here.

    Findings are listed in line order, those at one position in the order they are made
    (a game's, the problems outside any game, the whole file's). :meth:`ready` gives out,
    while the file is read, those that no finding still to come can precede (none under
    ``strict``: the check of the file's line ends, at 1:1, is made at its end);
    :meth:`finish` gives the rest. ``source``: the file's bytes, looked at first so that
    its score checks know the profile early (for :meth:`ready`; None leaves them
    waiting for a Scoring tag).
    """

    def __init__(self, path: str, options: Options, source: str | None = None):
        self.options = options
        self.report = FileReport(path)
        # A heap of (line, column, when, order of finding, finding): popped in order, it
        # sorts the findings by position, and at one position as they were made.
        self._held: list[tuple[int, int, int, int, Diagnostic]] = []
        self._found = 0
        self._scores = UnitScores(ScoreChecks(_known_profile(source, path)))
        self._ends: list[UnitEnd] = []
        self._read_to = 0
        self._outside = 0  # problems outside a game held from the parts of this unit

    def add(self, unit: CheckedUnit) -> int:
        """Merge one unit, or one part of it; the number of games it held."""
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
            self._hold(game.found, _IN_GAME)
            if found:
                self._hold(self._listed(found), _IN_GAME)
        self._read_to = unit.read_to
        if not unit.final:
            self._hold(self._listed(unit.outside), _OUTSIDE)
            self._outside += len(unit.outside)
            return len(unit.games)
        if unit.end is None:
            report.failure = report.failure or unit.failure
        else:
            self._ends.append(unit.end)
            self._hold(self._listed(list(unit.end.diagnostics[self._outside:])), _OUTSIDE)
        self._outside = 0
        return len(unit.games)

    def _reread(self, unit: CheckedUnit) -> Iterable[Game]:
        assert unit.unit is not None  # only a unit from check_unit holds plain records
        return unit.unit.reader(self.options.strict)

    def ready(self) -> list[Diagnostic]:
        """The findings that come next in line order and that no finding still to come
        can precede; each is given out once."""
        bound = self._read_to
        scores = self._scores.checks.open_from
        if scores is not None and scores < bound:
            bound = scores
        if self.options.strict:
            bound = 0
        ready = []
        while self._held and self._held[0][0] < bound:
            ready.append(heapq.heappop(self._held)[4])
        return ready

    def finish(self) -> tuple[FileReport, list[Diagnostic]]:
        """The file's report and the findings :meth:`ready` has not given."""
        report = self.report
        if report.failure is not None and report.failure.startswith("cannot read"):
            return report, self._rest()
        end = _merged_ends(self._ends, report.path, self.options.strict)
        # What the parts' problems outside a game do not hold (held as they came): the
        # export-format check of the file as a whole.
        found = list(end.diagnostics[sum(len(e.diagnostics) for e in self._ends):])
        self._hold(self._listed(found), _OUTSIDE)
        try:
            found = self._scores.checks.finish()
        except Exception as error:
            report.failure = report.failure or _internal(error, None)
            found = []
        # The findings of the whole file (matchpoints, text outside the games) come last:
        # listed in line order all the same, as people read a file.
        self._hold(self._listed(found), _AT_END)
        report.encoding = end.encoding.name
        return report, self._rest()

    def _hold(self, found: list[Diagnostic], when: int) -> None:
        for diagnostic in found:
            heapq.heappush(self._held, (diagnostic.line, diagnostic.column, when,
                                        self._found, diagnostic))
            self._found += 1

    def _rest(self) -> list[Diagnostic]:
        held = self._held
        return [heapq.heappop(held)[4] for _ in range(len(held))]

    def _listed(self, found: list[Diagnostic]) -> list[Diagnostic]:
        options = self.options
        return _tally(self.report, select(found, options.select,
                                          options.ignored_in(self.report.path)),
                      options.min_severity)


def _known_profile(source: str | None, name: str) -> str | None:
    """The profile of a file ``source`` that holds no Scoring tag, found before it is
    read: the default, which its score checks otherwise learn only at its end. None when
    the file may hold one (a PBN Scoring tag, a LIN ``vg`` pair, whose third field is
    one), is neither, or is not looked at."""
    if source is None or not os.path.isfile(source):
        return None  # a pipe can be read once only
    try:
        kind = sniff_file(source, name)
        if kind == "lin":
            if may_hold(source, *_VG_KEYS):
                return None
        elif kind != "pbn" or may_hold(source, b"Scoring"):
            return None
    except OSError:
        return None  # the reader says why
    return DEFAULT_PROFILE


#: a LIN ``vg`` pair's key, in any case
_VG_KEYS = (b"vg|", b"VG|", b"Vg|", b"vG|")


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
