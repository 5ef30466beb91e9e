"""Contract rubber bridge (``rubber``), by the Laws of Rubber Bridge.

Bid tricks go below the line at the international values, game is 100, two games win the
rubber, the margin is scored in hundreds; overtricks, undertricks, insult and slams come
from the duplicate table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pbnkit.model import Risk, Seat, Side, Strain, Vulnerability
from pbnkit.scoring.base import ROUNDING_NOTE, BoardResult, Entry, Line, Reason
from pbnkit.scoring.duplicate import (
    insult_bonus,
    overtrick_score,
    slam_bonus,
    trick_score,
    undertrick_penalty,
)
from pbnkit.scoring.games import RubberScoring

RUBBER_BONUS = 700
RUBBER_BONUS_AFTER_LOSERS_GAME = 500
UNFINISHED_GAME = 300
UNFINISHED_PART_SCORE = 100


class RubberProfile(RubberScoring):
    """Contract rubber: game at 100 below, vulnerable after a game, rubber 700 or 500."""

    name: ClassVar[str] = "rubber"
    description: ClassVar[str] = (
        "contract rubber bridge: bid tricks below the line, game 100, rubber bonus 700/500"
    )
    game_points: ClassVar[int] = 100
    counts_rubber_points: ClassVar[bool] = True
    notes: ClassVar[tuple[str, ...]] = (ROUNDING_NOTE,)

    def vulnerability(self, games: Mapping[Side, int]) -> Vulnerability:
        return Vulnerability.of_sides(games[Side.NS] > 0, games[Side.EW] > 0)

    #: what decides a deal's vulnerability, for the message when the tag disagrees
    vulnerable_by: ClassVar[str] = "the games won so far make"

    def check_vulnerability(
        self, stated: Vulnerability, computed: Vulnerability | None
    ) -> str | None:
        if computed is None or stated is computed:
            return None
        return f"Vulnerable is {stated.pbn()}, but {self.vulnerable_by} it {computed.pbn()}"

    def contract_entries(
        self, result: BoardResult, vulnerability: Vulnerability | None
    ) -> list[Entry]:
        contract, declarer, tricks = result.contract, result.declarer, result.tricks
        # the sheet scores only records with a contract, declarer and result
        assert contract is not None and declarer is not None and tricks is not None
        assert vulnerability is not None
        side = declarer.side
        vulnerable = vulnerability.is_vulnerable(side)
        needed = contract.tricks_needed
        if tricks < needed:
            penalty = undertrick_penalty(contract, needed - tricks, vulnerable)
            return [Entry(side.other, Line.ABOVE, penalty, Reason.UNDERTRICKS)]
        entries = [Entry(side, Line.BELOW, trick_score(contract), Reason.TRICKS)]
        if tricks > needed:
            entries.append(Entry(side, Line.ABOVE,
                                 overtrick_score(contract, tricks - needed, vulnerable),
                                 Reason.OVERTRICKS))
        if contract.risk is not Risk.UNDOUBLED:
            entries.append(Entry(side, Line.ABOVE, insult_bonus(contract.risk), Reason.INSULT))
        # Only a slam bid and made earns the bonus (slam_bonus is 0 below level 6).
        slam = slam_bonus(contract.level, vulnerable)
        if slam:
            entries.append(Entry(side, Line.ABOVE, slam, Reason.SLAM))
        return entries

    def honour_entries(self, strain: Strain, held: Mapping[Seat, int]) -> list[Entry]:
        seat = max(held, key=lambda each: held[each])
        most = held[seat]
        if strain is Strain.NT:
            points = 150 if most == 4 else 0
        else:
            points = 150 if most == 5 else 100 if most == 4 else 0
        return [Entry(seat.side, Line.ABOVE, points, Reason.HONOURS)] if points else []

    def rubber_bonus(self, loser_games: int) -> int:
        return RUBBER_BONUS_AFTER_LOSERS_GAME if loser_games else RUBBER_BONUS

    def settle(
        self, games: Mapping[Side, int], below: Mapping[Side, int]
    ) -> tuple[list[Entry], str]:
        # Law 80: 300 only when a single game has been completed (one game all gives
        # nothing), 100 only when a single side has a part score in the game in progress
        # (part scores on both sides give nothing).
        entries = []
        said = []
        won = [side for side in Side if games[side]]
        if sum(games.values()) == 1:
            entries.append(Entry(won[0], Line.ABOVE, UNFINISHED_GAME, Reason.UNFINISHED))
            said.append(f"{won[0].value} {UNFINISHED_GAME} for the only game completed")
        elif won:
            said.append("nothing for games, one game each")
        partial = [side for side in Side if below[side]]
        if len(partial) == 1:
            entries.append(Entry(partial[0], Line.ABOVE, UNFINISHED_PART_SCORE,
                                 Reason.UNFINISHED))
            said.append(f"{partial[0].value} {UNFINISHED_PART_SCORE} for the only part score "
                        "in the game in progress")
        elif partial:
            said.append("nothing for part scores, both sides have one")
        return entries, (
            "the rubber is unfinished; Law 80 gives " + ("; ".join(said) or "nothing")
        )
