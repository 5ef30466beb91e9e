"""Score tags as written: Score, ScoreIMP, ScoreMP and ScorePercentage read into figures by
side (PBN 2.1 section 4.2), and ScoreRubber into above/below the line; and :class:`ScoreRecord`,
what the checks keep of one game. Values only: the checks (:mod:`pbnkit.rules.scores`)
compare them with what pbnkit computes.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from decimal import Decimal

from pbnkit.diagnostics import Diagnostic, Severity
from pbnkit.digits import whole_number
from pbnkit.model import Side
from pbnkit.pbn.records import TagPair
from pbnkit.pickling import by_fields
from pbnkit.rules.event_scores import StatedTotals
from pbnkit.rules.table_scores import read_number, vulnerability_of
from pbnkit.rules.tags import normalize_score
from pbnkit.scoring import MatchpointScale
from pbnkit.scoring.base import BoardResult
from pbnkit.scoring.duplicate import score_ns

_STATED = re.compile(r"(NS|EW)\s+(\S+)(?:\s+(NS|EW)\s+(\S+))?", re.IGNORECASE)
_RUBBER_BARE = re.compile(r"(\d+)/(\d+)")
_RUBBER_SIDES = re.compile(r"(NS|EW) (\d+)/(\d+)(?: (NS|EW) (\d+)/(\d+))?", re.IGNORECASE)


@by_fields
@dataclass(frozen=True, slots=True)
class Stated:
    """A score tag as written: the bare figure (declarer's side) or figures by side."""

    name: str
    text: str
    line: int
    column: int
    bare: Decimal | None = None
    sides: tuple[tuple[Side, Decimal], ...] = ()
    commented: bool = False

    def claims(self, declarer_side: Side | None) -> list[tuple[Side, Decimal]]:
        """Each figure with the side it is for; a bare figure needs declarer's side."""
        if self.bare is None:
            return list(self.sides)
        return [] if declarer_side is None else [(declarer_side, self.bare)]


def read_stated(tag: TagPair, value: str) -> Stated | None:
    """Score, ScoreIMP, ScoreMP or ScorePercentage: ``620``, ``NS +620``, ``EW 3.5 NS -3.5``
    (blanks tolerated); None when unreadable."""
    figures = _stated_figures(value)
    if figures is None:
        return None
    bare, sides = figures
    return Stated(tag.name, value, tag.line, tag.value_column or tag.column, bare, sides,
                  bool(tag.comments))


# A file repeats its score values ("NS 420", "EW 100") over and over, and each is read
# into the same immutable figures: remembered.
@functools.lru_cache(maxsize=1024)
def _stated_figures(
        value: str) -> tuple[Decimal | None, tuple[tuple[Side, Decimal], ...]] | None:
    """The bare figure, or the figures by side, of a score tag value; None if unreadable."""
    text = normalize_score(value)
    bare = read_number(text)
    if bare is not None:
        return bare, ()
    match = _STATED.fullmatch(text)
    if match is None:
        return None
    sides = [(Side(match[1].upper()), read_number(match[2]))]
    if match[3]:
        sides.append((Side(match[3].upper()), read_number(match[4])))
    if any(n is None for _, n in sides) or len({s for s, _ in sides}) < len(sides):
        return None
    return None, tuple((s, n) for s, n in sides if n is not None)


@by_fields
@dataclass(frozen=True, slots=True)
class StatedRubber:
    """A ScoreRubber tag: ``above/below``, bare (declarer's side) or by side."""

    text: str
    line: int
    column: int
    bare: tuple[int, int] | None = None
    sides: tuple[tuple[Side, tuple[int, int]], ...] = ()


def read_rubber(tag: TagPair, value: str) -> StatedRubber | None:
    """ScoreRubber: ``50/120``, ``NS 50/120``, ``EW 300/40 NS 50/70``; None otherwise."""
    text = normalize_score(value)
    where = (value, tag.line, tag.value_column or tag.column)
    bare = _RUBBER_BARE.fullmatch(text)
    if bare is not None:
        points = _points(bare[1], bare[2])
        return None if points is None else StatedRubber(*where, bare=points)
    match = _RUBBER_SIDES.fullmatch(text)
    if match is None or (match[4] or "").upper() == match[1].upper():
        return None
    first = _points(match[2], match[3])
    if first is None:
        return None
    sides = [(Side(match[1].upper()), first)]
    if match[4]:
        second = _points(match[5], match[6])
        if second is None:
            return None
        sides.append((Side(match[4].upper()), second))
    return StatedRubber(*where, sides=tuple(sides))


def _points(above: str, below: str) -> tuple[int, int] | None:
    """A side's points above and below the line; None when either is not a number."""
    above_points, below_points = whole_number(above), whole_number(below)
    if above_points is None or below_points is None:
        return None
    return above_points, below_points


@by_fields
@dataclass(slots=True)
class ScoreRecord:
    """What the checks keep of one game: a few small, picklable values (no Game, no Deal),
    so that a worker process can read the game and the parent check it in file order.

    ``scoring_tag`` is the game's Scoring tag as written: the file's first one decides the
    profile.
    """

    result: BoardResult
    scoring: frozenset[str]
    scoring_tag: str | None = None
    stated: dict[str, Stated] = field(default_factory=dict)
    rubber: StatedRubber | None = None
    vulnerable_at: tuple[int, int] | None = None
    #: ScoreMP/ScorePercentage were compared with the game's ScoreTable
    in_table: bool = False
    #: the Law 77 score from N-S (see :meth:`score_ns`), worked out once where the record
    #: is made, a worker with -j, so the parent's checks in file order only compare
    ns: int | None = None
    #: the results of the record's ScoreTable rows, when it has no contract of its own
    rows: tuple[BoardResult, ...] = ()
    totals: StatedTotals | None = None
    #: the figures of the ScoreTable, and the record's own figures against it, that cannot
    #: be checked: (kind, why, where)
    unchecked: tuple[tuple[str, str, tuple[int, int]], ...] = ()
    #: the conventions other than pbnkit's that the ScoreTable's figures follow: (kind,
    #: what, where), for one SC035 note per file and kind
    followed: tuple[tuple[str, str, tuple[int, int]], ...] = ()
    #: the ScoreTable's number of results and the field its MP or Percentage figures were
    #: factored to (Neuberg; None when plain), where they were explained
    table_figures: tuple[int, int | None] | None = None
    table_at: tuple[int, int] = (1, 1)
    #: the first line of the record's game: every finding about the record is at or after it
    line: int = 0

    def diagnostic(self, code: str, message: str, line: int, column: int,
                   severity: Severity | None = None) -> Diagnostic:
        return Diagnostic(code, message, line, column, self.result.path, self.result.board,
                          severity)

    def stated_at(self, name: str) -> tuple[int, int]:
        """Where the record's ``name`` tag is written (its first line when unknown)."""
        stated = self.stated.get(name)
        return (stated.line, stated.column) if stated is not None else self.table_at

    @property
    def old_mp(self) -> bool:
        return "oldmp" in self.scoring

    @property
    def scale(self) -> MatchpointScale:
        return MatchpointScale.MP2 if "mp2" in self.scoring else MatchpointScale.MP1

    def score_ns(self) -> int | None:
        """The record's Law 77 score from N-S, or None when it cannot be scored."""
        return self.ns

    def _law77(self) -> int | None:
        result = self.result
        vulnerability, _ = vulnerability_of(result.vulnerability, result.board_number)
        if result.why_unscorable() is not None or result.contract is None:
            return None
        if result.contract.is_passed_out:
            return 0
        if vulnerability is None or result.tricks is None or result.declarer is None:
            return None
        return score_ns(result.contract, result.declarer, result.tricks, vulnerability,
                        self.old_mp)
