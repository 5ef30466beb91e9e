"""Duplicate scoring (WBF Law 77), IMPs, matchpoints and the two-room team match.

The Laws of Duplicate Bridge: Law 77 for a board's score, Law 78 for matchpoints and IMPs;
the WBF's scales for victory points. The Law 77 pieces (:func:`trick_score`,
:func:`overtrick_score`, :func:`undertrick_penalty`, ...) are public because contract
rubber uses the same table.
"""

from __future__ import annotations

import enum
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from itertools import accumulate
from dataclasses import dataclass
from typing import ClassVar, Final

from pbnkit.model import Contract, Risk, Seat, Side, Strain, Vulnerability
from pbnkit.scoring.base import (
    BoardResult,
    BoardScore,
    Match,
    MatchBoard,
    MatchKey,
    Problem,
    ScoreSheet,
    UnscoredMatch,
)

# -- Law 77 ---------------------------------------------------------------------------------


def trick_score(contract: Contract) -> int:
    """The score of the bid tricks: C/D 20, H/S 30, NT 40 then 30; x2 doubled, x4 redoubled."""
    if contract.strain is Strain.NT:
        points = 40 + 30 * (contract.level - 1)
    else:
        points = (20 if _is_minor(contract) else 30) * contract.level
    return points * _multiplier(contract.risk)


def overtrick_score(contract: Contract, overtricks: int, vulnerable: bool) -> int:
    """Undoubled overtricks are worth a trick each; doubled ones 100/200, redoubled twice that."""
    if contract.risk is Risk.UNDOUBLED:
        return overtricks * (20 if _is_minor(contract) else 30)
    return overtricks * (200 if vulnerable else 100) * contract.risk


def undertrick_penalty(contract: Contract, undertricks: int, vulnerable: bool) -> int:
    """What the defenders score for ``undertricks`` (a positive number)."""
    if contract.risk is Risk.UNDOUBLED:
        return undertricks * (100 if vulnerable else 50)
    if vulnerable:
        doubled = 200 + 300 * (undertricks - 1)
    else:
        # 100 for the first, 200 each for the second and third, 300 each from the fourth.
        doubled = 100 + 200 * min(undertricks - 1, 2) + 300 * max(undertricks - 3, 0)
    return doubled * contract.risk


def insult_bonus(risk: Risk) -> int:
    """For making a doubled (50) or redoubled (100) contract."""
    return 50 * risk


def slam_bonus(level: int, vulnerable: bool) -> int:
    """For a slam bid and made: little 500/750, grand 1000/1500."""
    if level == 6:
        return 750 if vulnerable else 500
    if level == 7:
        return 1500 if vulnerable else 1000
    return 0


def duplicate_score(contract: Contract, tricks: int, vulnerable: bool) -> int:
    """Law 77 score of declarer's side: positive when made, negative when defeated.

    >>> duplicate_score(Contract.from_pbn("4S"), 10, vulnerable=False)
    420
    """
    if contract.is_passed_out:
        return 0
    if not 0 <= tricks <= 13:
        raise ValueError(f"declarer cannot win {tricks} tricks")
    needed = contract.tricks_needed
    if tricks < needed:
        return -undertrick_penalty(contract, needed - tricks, vulnerable)
    below = trick_score(contract)
    # Game and part-score bonuses exclude each other; the slam bonus comes on top of game.
    bonus = (500 if vulnerable else 300) if below >= 100 else 50
    return (
        below + bonus + insult_bonus(contract.risk)
        + overtrick_score(contract, tricks - needed, vulnerable)
        + slam_bonus(contract.level, vulnerable)
    )


def score_ns(
    contract: Contract, declarer: Seat | None, tricks: int, vulnerability: Vulnerability,
    old_mp: bool = False,
) -> int:
    """The Law 77 score signed from N-S, as score sheets record it. ``old_mp`` is PBN's
    OldMP modifier: no extra 100 (doubled) or 200 (redoubled) per undertrick from the
    fourth on, not vulnerable."""
    if contract.is_passed_out:
        return 0
    if declarer is None:
        raise ValueError(f"contract {contract} has no declarer")
    vulnerable = vulnerability.is_vulnerable(declarer)
    score = duplicate_score(contract, tricks, vulnerable)
    down = contract.tricks_needed - tricks
    if old_mp and contract.risk is not Risk.UNDOUBLED and down >= 4 and not vulnerable:
        score += 100 * (down - 3) * (2 if contract.risk is Risk.REDOUBLED else 1)
    return score if declarer.side is Side.NS else -score


def _is_minor(contract: Contract) -> bool:
    return contract.strain is not None and contract.strain.is_minor


def _multiplier(risk: Risk) -> int:
    return 1 << risk


# -- IMPs -----------------------------------------------------------------------------------

#: Lower bounds of the WBF scale's bands for 1, 2, ... 24 IMPs. A difference that falls
#: between two printed bands (15, 45: real scores are multiples of 10) takes the lower one.
_IMP_BANDS = (
    20, 50, 90, 130, 170, 220, 270, 320, 370, 430, 500, 600,
    750, 900, 1100, 1300, 1500, 1750, 2000, 2250, 2500, 3000, 3500, 4000,
)


def imps(difference: int) -> int:
    """A score difference on the WBF IMP scale, with the difference's sign."""
    won = bisect_right(_IMP_BANDS, abs(difference))
    return won if difference >= 0 else -won


# -- Matchpoints ----------------------------------------------------------------------------


class MatchpointScale(enum.Enum):
    """PBN's Scoring modifiers: matchpoints for beating one other score (a tie is half)."""

    MP1 = 2
    MP2 = 1


class Method(enum.Enum):
    """How a pairs field is scored, as the Scoring tag names it."""

    MATCHPOINTS = "matchpoints"
    #: the datum leaves out the highest and the lowest score from five results on
    BUTLER = "butler"
    #: the datum always leaves out the 2 extreme scores (PBN 2.1 3.4.12 ``Butler-2``)
    BUTLER_2 = "butler-2"
    CROSS = "cross"

    @property
    def is_butler(self) -> bool:
        return self in (Method.BUTLER, Method.BUTLER_2)


@dataclass(frozen=True, slots=True)
class PairsScoring:
    """The method, the matchpoint scale and, for cross-IMPs, what the sum is divided by:
    nothing (``Cross``), the number of scores (``Cross1``) or of comparisons
    (``Cross2``). A Butler ``divisor`` of ``assumed`` records that the Scoring tag named
    IMPs without a pairs method."""

    method: Method = Method.MATCHPOINTS
    scale: MatchpointScale = MatchpointScale.MP1
    divisor: str = "none"

    @classmethod
    def of(cls, scoring: str | None) -> PairsScoring:
        """What a Scoring tag asks for: ``IMP;Butler-2`` is Butler with the 2 extreme
        scores always left out of the datum, ``IMP;Cross2`` cross-IMPs
        averaged per comparison, ``MP;MP2`` matchpoints 1 / 0.5 / 0. ``IMP`` alone names no
        pairs method: Butler, the usual one, is taken. Anything else is matchpoints."""
        fields = {word.strip().lower() for word in (scoring or "").split(";")}
        scale = MatchpointScale.MP2 if "mp2" in fields else MatchpointScale.MP1
        if "butler-2" in fields:
            return cls(Method.BUTLER_2, scale)
        if "butler" in fields:
            return cls(Method.BUTLER, scale)
        for word, divisor in (("cross2", "comparisons"), ("cross1", "scores"),
                              ("cross", "none")):
            if word in fields:
                return cls(Method.CROSS, scale, divisor)
        if "imp" in fields:
            return cls(Method.BUTLER, scale, "assumed")
        return cls(Method.MATCHPOINTS, scale)

    def describe(self) -> str:
        if self.method is Method.MATCHPOINTS:
            return f"matchpoints ({self.scale.name})"
        if self.method is Method.BUTLER_2:
            return "Butler-2 IMPs against the datum (the 2 extreme scores left out)"
        if self.method is Method.BUTLER:
            return "Butler IMPs against the datum" + (
                " (the Scoring tag says IMP but names no pairs method: Butler is taken)"
                if self.divisor == "assumed" else "")
        return {"none": "cross-IMPs, summed", "scores": "cross-IMPs, divided by the number "
                "of scores", "comparisons": "cross-IMPs, divided by the number of "
                "comparisons"}[self.divisor]


class ScoreField:
    """The N-S scores of one board, sorted once, so that each score's matchpoints take one
    bisection rather than a comparison with every other score: a pairs field of n results
    costs O(n log n), not O(n²).

    ``weights`` counts a score several times (a ScoreTable row's Multiplicity); ``count``
    is the number of results, weights included.
    """

    __slots__ = ("_scores", "_below", "count")

    def __init__(self, scores: Iterable[int], weights: Iterable[int] | None = None) -> None:
        counted: Counter[int] = Counter()
        if weights is None:
            counted.update(scores)
        else:
            for score, weight in zip(scores, weights, strict=True):
                counted[score] += weight
        self._scores = sorted(counted)
        #: ``_below[i]``: how many results score less than ``_scores[i]``
        self._below = list(accumulate((counted[s] for s in self._scores), initial=0))
        self.count = self._below[-1]

    def __contains__(self, score: int) -> bool:
        at = bisect_left(self._scores, score)
        return at < len(self._scores) and self._scores[at] == score

    def points(self, score: int, scale: MatchpointScale = MatchpointScale.MP1) -> float:
        """The matchpoints of ``score``, one of these results, against all the others."""
        at = bisect_left(self._scores, score)
        below, equal = self._below[at], self._below[at + 1] - self._below[at]
        win = float(scale.value)
        return win * below + win / 2 * (equal - 1)


def matchpoints(
    scores: Sequence[int], scale: MatchpointScale = MatchpointScale.MP1
) -> list[float]:
    """Each score's matchpoints against the others of the same board and direction."""
    field = ScoreField(scores)
    return [field.points(score, scale) for score in scores]


# -- The team match -------------------------------------------------------------------------

_ROOMS = ("open", "closed")


def team_matches(
    results: Sequence[BoardResult], scores: Sequence[int | None]
) -> tuple[list[Match], list[Problem]]:
    """Pair the Open and Closed rooms of each match, board by board.

    ``scores[i]`` is the N-S score of ``results[i]`` (None when it could not be scored).
    Results without a Room are ignored. Returns the matches, in order of first appearance,
    and the problems of records that belong to no match: a Room other than Open/Closed, and
    once for each match whose records are all in one room (see :func:`rooms_of_matches`).
    """
    matches, unscored, stray = rooms_of_matches(results, scores)
    return matches, stray + [match.problem for match in unscored]


def rooms_of_matches(
    results: Sequence[BoardResult], scores: Sequence[int | None]
) -> tuple[list[Match], list[UnscoredMatch], list[Problem]]:
    """The team matches of ``results``, as :func:`team_matches` pairs them; the matches
    whose records are all in one room (a file of Open-room records, say), which are no
    team match and have no result; and the problems of records of an unknown room."""
    stray: list[Problem] = []
    tables: dict[MatchKey, dict[str, dict[str, list[_Scored]]]] = {}
    #: each match's first record, in file order (where its problem points), and its files
    first: dict[MatchKey, BoardResult] = {}
    files: dict[MatchKey, set[str | None]] = defaultdict(set)
    for result, score in zip(results, scores, strict=True):
        if result.room is None:
            continue
        room = result.room.strip().lower()
        if room not in _ROOMS:
            stray.append(Problem(
                "unknown-room", f"room {result.room!r} is neither Open nor Closed",
                result.index, result.board, result.path,
            ))
            continue
        board = (result.board or "").strip()
        first.setdefault(result.match_key, result)
        files[result.match_key].add(result.path)
        rooms = tables.setdefault(result.match_key, {}).setdefault(board, defaultdict(list))
        rooms[room].append(_Scored(result, score))
    matches: list[Match] = []
    unscored: list[UnscoredMatch] = []
    for key, boards in tables.items():
        if {room for rooms in boards.values() for room in rooms} == set(_ROOMS):
            matches.append(_compare_rooms(key, boards))
            continue
        opening = first[key]
        unscored.append(UnscoredMatch(key, (opening.room or "").strip(), tuple(boards),
                                      opening.index, opening.path, len(files[key])))
    return matches, unscored, stray


@dataclass(frozen=True, slots=True)
class _Scored:
    result: BoardResult
    score_ns: int | None


def _compare_rooms(key: MatchKey, boards: Mapping[str, Mapping[str, list[_Scored]]]) -> Match:
    compared: list[MatchBoard] = []
    problems: list[Problem] = []
    for board, rooms in boards.items():
        opened, closed = rooms.get("open", []), rooms.get("closed", [])
        if not board:
            problems.extend(
                Problem("no-board", "a match record has no board number", each.result.index,
                        path=each.result.path)
                for each in opened + closed
            )
            continue
        if not opened or not closed:
            lone = (opened or closed)[0].result
            problems.append(Problem(
                "one-room-only",
                f"board {board} is not compared: played in the {lone.room} room only",
                lone.index, board, lone.path,
            ))
            continue
        if len(opened) > 1 or len(closed) > 1:
            again = min((opened[1:] + closed[1:]), key=lambda each: each.result.index).result
            problems.append(Problem(
                "repeated-in-room",
                f"board {board} is not compared: {len(opened)} results in the Open room "
                f"and {len(closed)} in the Closed room",
                again.index, board, again.path,
            ))
            continue
        (table_1,), (table_2,) = opened, closed
        awards = [(room, each.result.adjusted) for room, each in ((1, table_1), (-1, table_2))
                  if each.result.adjusted is not None]
        if awards:
            # Team A sits N-S in the Open room and E-W in the Closed one
            won = sum(room * award.imps_ns for room, award in awards)
            compared.append(MatchBoard(
                board, table_1.result.index, table_2.result.index, table_1.score_ns,
                table_2.score_ns, None, int(round(won)),
                " ".join(award.text for _, award in awards)))
            continue
        if table_1.score_ns is None or table_2.score_ns is None:
            missing = (table_1 if table_1.score_ns is None else table_2).result
            problems.append(Problem(
                "unscored-board",
                f"board {board} is not compared: the {missing.room} room has no score",
                missing.index, board, missing.path,
            ))
            continue
        diff = table_1.score_ns - table_2.score_ns
        compared.append(MatchBoard(
            board, table_1.result.index, table_2.result.index, table_1.score_ns,
            table_2.score_ns, diff, imps(diff),
        ))
    return Match.tally(key, compared, problems)


# -- The profile ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DuplicateProfile:
    """Law 77 score per board; IMP team matches where records carry a Room, with victory
    points and standings on request; outside team matches, each board's field scored by
    matchpoints, Butler or cross-IMPs, and the pairs ranked (a pairs event)."""

    name: ClassVar[str] = "duplicate"
    description: ClassVar[str] = (
        "duplicate bridge (WBF Law 77): board scores, IMP team matches, matchpoints"
    )
    scale: MatchpointScale = MatchpointScale.MP1
    method: Method = Method.MATCHPOINTS
    divisor: str = "none"
    #: give team matches victory points and rank teams by them
    victory_points: bool = False
    #: the boards a match was scheduled for, for the scale (default: those compared)
    boards_per_match: int | None = None
    #: each file's Scoring tag, by path: a file's pairs fields follow its own tag
    file_scoring: tuple[tuple[str | None, str], ...] = ()
    #: Neuberg: a board with fewer results than the most, or with artificial scores, is
    #: scaled to the full top; else each board is scored on its own top
    neuberg: bool = True
    #: the victory-point scale: "continuous" (WBF 2013, two decimals) or "discrete"
    #: (whole points)
    vp_scale: str = "continuous"

    @classmethod
    def for_scoring(cls, scoring: str | None | Mapping[str | None, str],
                    victory_points: bool = False,
                    boards_per_match: int | None = None,
                    neuberg: bool = True,
                    vp_scale: str = "continuous") -> DuplicateProfile:
        """The profile as a Scoring tag configures it (see :meth:`PairsScoring.of`), or
        each file's tag by path (the first file's tag then stands for results of no
        file)."""
        files = tuple(scoring.items()) if isinstance(scoring, Mapping) else ()
        first = next(iter(scoring.values()), None) if isinstance(scoring, Mapping) else scoring
        pairs = PairsScoring.of(first)
        return cls(pairs.scale, pairs.method, pairs.divisor, victory_points, boards_per_match,
                   files, neuberg, vp_scale)

    def score(self, results: Sequence[BoardResult],
              scores: Sequence[int | None] | None = None) -> ScoreSheet:
        """The sheet of ``results``. ``scores``: each result's :func:`board_score`, when
        the ``-j`` workers have made them (the parent then scores only the field)."""
        if scores is not None and len(scores) != len(results):
            raise ValueError(f"{len(scores)} scores for {len(results)} results")
        problems: list[Problem] = []
        made: list[int | None] = [None] * len(results) if scores is None else list(scores)
        for at, score in enumerate(made):
            if score is None:  # not made by a worker, or not scorable: its problem is here
                made[at], problem = board_score(results[at])
                if problem is not None:
                    problems.append(problem)
        scores = made
        matches, unscored, stray = rooms_of_matches(results, scores)
        # A row per record, made as a tuple: a named tuple's __new__ is a function in
        # Python, and was much of this list's time.
        boards = [_new_row(BoardScore, (result.index, result.board, result.room, score)
                           + _NO_FIGURES)
                  for result, score in zip(results, scores, strict=True)]
        # Pairs and team events build on this module's arithmetic, hence imported here.
        from pbnkit.scoring.pairs import PairsEvent
        from pbnkit.scoring.teams import standings, with_victory_points

        by_path = {path: PairsScoring.of(tag) for path, tag in self.file_scoring}
        rankings = PairsEvent(PairsScoring(self.method, self.scale, self.divisor),
                              by_path, self.neuberg).score(results, boards)
        if self.victory_points:
            matches = [with_victory_points(match, self.boards_per_match, self.vp_scale)
                       for match in matches]
        methods = {PairsScoring(self.method, self.scale, self.divisor), *by_path.values()}
        notes = tuple(sorted(f"pairs ranked on {method.describe()}" for method in methods)
                      ) if rankings else ()
        if rankings and not self.neuberg:
            notes += ("boards with fewer results than the most played, or with artificial "
                      "scores, on their own top, not factored (--no-neuberg)",)
        return ScoreSheet(self.name, tuple(boards), tuple(matches), None,
                          tuple(problems + stray), notes, tuple(rankings),
                          tuple(standings(matches)), tuple(unscored))


_new_row: Final = tuple.__new__
#: a BoardScore's fields after its N-S score, as it makes them by default
_NO_FIGURES: Final = tuple(BoardScore._field_defaults[name] for name in BoardScore._fields[4:])


def board_score(result: BoardResult) -> tuple[int | None, Problem | None]:
    """A result's Law 77 score signed from N-S, or None and why it cannot be scored.
    It needs no other result: ``-j`` workers make it beside the result."""
    if result.contract is not None and result.contract.is_passed_out:
        return 0, None
    if result.adjusted is not None:
        return None, None  # an award, not a score: the field gives it its share of the top
    if result.contract is None and result.stated_ns is not None:
        return result.stated_ns, None
    # The Vulnerable tag wins over the board number: some events renumber boards.
    vulnerability = result.vulnerability
    if vulnerability is None and result.board_number is not None:
        vulnerability = Vulnerability.for_board(result.board_number)
    why = result.why_unscorable()
    if why is None and vulnerability is None:
        why = "no vulnerability, and no board number to take it from"
    if why is not None or vulnerability is None or result.tricks is None or (
            result.contract is None):
        row = f"ScoreTable row {result.row}: " if result.row is not None else ""
        return None, Problem("unscored-board", f"not scored: {row}{why}", result.index,
                             result.board, result.path)
    return score_ns(result.contract, result.declarer, result.tricks, vulnerability), None
