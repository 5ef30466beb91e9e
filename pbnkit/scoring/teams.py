"""Team events: victory points for a match, and the standings of several matches.

The WBF 2013 continuous 20-point scale turns a match's IMP margin over its boards into
victory points, so that a large win counts for more than a narrow one but a rout cannot
decide an event alone; pbnkit gives them as the WBF's published tables do. The discrete
scale, in whole points, is the EBU's published 20-point one, cut from the same formula.
The standings add up each team's matches in an event.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from decimal import ROUND_HALF_UP, Decimal

from pbnkit.scoring.base import Match, Standing

_TAU = (math.sqrt(5) - 1) / 2
_HUNDREDTH = Decimal("0.01")

#: the victory-point scales: the WBF 2013 continuous one (two decimals), the default, and
#: the discrete one (whole points)
VP_SCALES = ("continuous", "discrete")


def victory_points(margin: int, boards: int,
                   scale: str = "continuous") -> tuple[float, float]:
    """The victory points of the two teams of a match: the team that won by ``margin``
    IMPs over ``boards`` boards first (a negative margin: it lost), as the WBF 2013
    continuous 20-point table for that many boards gives them (:func:`vp_table`), or on
    the ``"discrete"`` scale in whole points (:func:`discrete_vp_tops`); the two add up
    to 20.

    >>> victory_points(12, 16)
    (13.28, 6.72)
    >>> victory_points(12, 16, "discrete")
    (13.0, 7.0)
    """
    if scale == "discrete":
        # the bands whose top lies below the margin: each is one VP more than a draw
        winner = float(10 + bisect_left(discrete_vp_tops(boards), abs(margin)))
        loser = 20 - winner
    elif scale == "continuous":
        table = vp_table(boards)
        hundredths = table[min(abs(margin), len(table) - 1)]
        winner, loser = hundredths / 100, (2000 - hundredths) / 100
    else:
        raise ValueError(f"no victory-point scale {scale!r}: {' or '.join(VP_SCALES)}")
    return (winner, loser) if margin >= 0 else (loser, winner)


@cache
def vp_table(boards: int) -> tuple[int, ...]:
    """The winner's victory points, in hundredths, for each IMP margin from 0 to the first
    that reaches 20.00, over ``boards`` boards, as the WBF publishes the table: the 2013
    formula rounded to two decimals, then corrected so that no IMP is worth more than the
    one before it (the rounding alone lets a step grow by 0.01 now and then)."""
    if boards < 1:
        raise ValueError(f"a match has at least one board, not {boards}")
    blitz = 15 * math.sqrt(boards)
    table: list[int] = []
    while not table or table[-1] < 2000:
        winner = min(20.0, 10 + 10 * (1 - _TAU ** (3 * len(table) / blitz)) / (1 - _TAU ** 3))
        # Decimal rounding of the float's exact value: the published tables print two decimals.
        table.append(int(Decimal(winner).quantize(_HUNDREDTH, rounding=ROUND_HALF_UP) * 100))
    # The WBF's correction, pass after pass up the margins until no step grows. A raised
    # value stays below the next one (its step was larger than the one before), so the
    # table never passes 20.
    grown = True
    while grown:
        grown = False
        for margin in range(1, len(table) - 1):
            if table[margin + 1] - table[margin] > table[margin] - table[margin - 1]:
                table[margin] += 1
                grown = True
    return tuple(table)


@cache
def discrete_vp_tops(boards: int) -> tuple[int, ...]:
    """The top IMP margin of each band of the discrete 20-point scale over ``boards``
    boards, from 10 VP (the draw band: a margin up to it either way is 10-10) to 19 VP; a
    larger margin is worth 20. This is the EBU's published scale (the WBF's 2013 discrete
    scales): the margin at which the continuous formula, uncapped, reaches each VP and a
    half, rounded down; then, from the start again after each change, the draw band is
    narrowed while the 11 VP band is narrower than it, and any other band's top lowered
    while the band above it is narrower, so that each VP costs at least as many IMPs as
    the one before."""
    if boards < 1:
        raise ValueError(f"a match has at least one board, not {boards}")
    blitz = 15 * math.sqrt(boards)
    ratio = _TAU ** 3
    # VP = 10 + 10 x (1 - ratio^(M/X)) / (1 - ratio) solved for M at VP = whole + 0.5
    tops = [math.floor(blitz * math.log(1 - (1 - ratio) * (whole + 0.5 - 10) / 10)
                       / math.log(ratio)) for whole in range(10, 20)]
    while (wide := _too_wide(tops)) is not None:
        tops[wide] -= 1
    return tuple(tops)


def _too_wide(tops: list[int]) -> int | None:
    """The first band, counted from the draw (0), wider than the band above it, or None.
    The draw band spans both ways: 2 x its top + 1 margins."""
    if tops[1] - tops[0] < 2 * tops[0] + 1:
        return 0
    for band in range(1, len(tops) - 1):
        if tops[band + 1] - tops[band] < tops[band] - tops[band - 1]:
            return band
    return None


def with_victory_points(match: Match, boards: int | None = None,
                        scale: str = "continuous") -> Match:
    """``match`` with its victory points on ``scale`` (see :func:`victory_points`);
    ``boards`` is the number of boards the match was scheduled for (default: the boards
    compared). A match with no board compared gets none."""
    count = boards if boards is not None else len(match.boards)
    if match.winner is None or count < 1:
        return match
    vp_a, vp_b = victory_points(match.imps_a, count, scale)
    return replace(match, vp_a=vp_a, vp_b=vp_b)


@dataclass(slots=True)
class _Team:
    matches: int = 0
    imps_for: int = 0
    imps_against: int = 0
    vp: float = 0.0


def standings(matches: Sequence[Match], least: int = 2) -> list[Standing]:
    """The standings of each event (event, section and stage) that holds ``least`` matches
    or more between named teams (a report has no standings for a lone match, a check of a
    file's stated totals has): matches played, IMPs won and lost over the boards, victory
    points when the matches have them, and the rank (by victory points, else by IMP
    difference; equal figures share the better rank). The home team is team A,
    North-South in the Open room."""
    events: dict[tuple[str | None, str | None, str | None], list[Match]] = {}
    for match in matches:
        key = match.key
        if key.home_team and key.visit_team and match.winner is not None:
            events.setdefault((key.event, key.section, key.stage), []).append(match)
    lines: list[Standing] = []
    for (event, section, _), played in events.items():
        if len(played) < least:
            continue
        with_vp = all(match.vp_a is not None for match in played)
        teams: dict[str, _Team] = {}
        for match in played:
            won = sum(board.imps for board in match.boards if board.imps > 0)
            lost = -sum(board.imps for board in match.boards if board.imps < 0)
            sides = ((match.key.home_team, won, lost, match.vp_a),
                     (match.key.visit_team, lost, won, match.vp_b))
            for name, imps_for, imps_against, vp in sides:
                assert name is not None
                team = teams.setdefault(name, _Team())
                team.matches += 1
                team.imps_for += imps_for
                team.imps_against += imps_against
                team.vp += vp or 0.0
        lines += _ranked(event, section, teams, with_vp)
    return lines


def _ranked(event: str | None, section: str | None, teams: dict[str, _Team],
            with_vp: bool) -> list[Standing]:
    def figure(name: str) -> float:
        team = teams[name]
        return round(team.vp, 2) if with_vp else team.imps_for - team.imps_against

    order = sorted(teams, key=lambda name: (-figure(name), name))
    lines = []
    rank, previous = 0, None
    for place, name in enumerate(order, start=1):
        if figure(name) != previous:
            rank, previous = place, figure(name)
        team = teams[name]
        lines.append(Standing(event, section, name, team.matches, team.imps_for,
                              team.imps_against, round(team.vp, 2) if with_vp else None,
                              rank))
    return lines
