"""Auction bridge, 1920 American code (``auction-1920``).

The New York Whist Club's code, as printed by Helen Derby Elwell in *New Auction Bridge*.
Every trick over six counts below the line, bid or not; game is 30; there is no
vulnerability; slams go to whichever side wins 12 or 13 tricks, bid or not, made or not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from pbnkit.model import Risk, Seat, Side, Strain, Vulnerability
from pbnkit.scoring.base import BoardResult, Entry, Line, Reason
from pbnkit.scoring.games import RubberScoring

#: Value of each trick over six, by strain.
TRICK_VALUE = {Strain.C: 6, Strain.D: 7, Strain.H: 8, Strain.S: 9, Strain.NT: 10}
#: Doubling multiplies the tricks below the line, never slams or honours.
MULTIPLIER = {Risk.UNDOUBLED: 1, Risk.DOUBLED: 2, Risk.REDOUBLED: 4}
#: Per undertrick, to the defenders: undoubled, doubled, redoubled.
UNDERTRICK = {Risk.UNDOUBLED: 50, Risk.DOUBLED: 100, Risk.REDOUBLED: 200}
#: For making a doubled or redoubled contract, and again per trick over the contract.
DOUBLED_MADE = {Risk.DOUBLED: 50, Risk.REDOUBLED: 100}
LITTLE_SLAM = 50
GRAND_SLAM = 100
RUBBER_BONUS = 250

#: Trump honours, in multiples of the trick value, by (honours the side holds, most in
#: one hand). Three honours score 2v however they lie.
_TRUMP_HONOURS = {
    (3, 1): 2, (3, 2): 2, (3, 3): 2,
    (4, 2): 4, (4, 3): 4, (4, 4): 8,
    (5, 3): 5, (5, 4): 9, (5, 5): 10,
}
#: No-trump honours are the aces, in points: three aces 30 however they lie.
_ACE_HONOURS = {(3, 1): 30, (3, 2): 30, (3, 3): 30, (4, 2): 40, (4, 3): 40, (4, 4): 100}


class Auction1920Profile(RubberScoring):
    """Auction bridge 1920: all tricks over six below, game 30, rubber 250, no vulnerability."""

    name: ClassVar[str] = "auction-1920"
    description: ClassVar[str] = (
        "auction bridge, 1920 American code: all tricks over six below, game 30, rubber 250"
    )
    game_points: ClassVar[int] = 30

    def vulnerability(self, games: Mapping[Side, int]) -> Vulnerability | None:
        return None

    def check_vulnerability(
        self, stated: Vulnerability, computed: Vulnerability | None
    ) -> str | None:
        if stated is Vulnerability.NONE:
            return None
        return f"Vulnerable is {stated.pbn()}, but auction bridge 1920 has no vulnerability"

    def contract_entries(
        self, result: BoardResult, vulnerability: Vulnerability | None
    ) -> list[Entry]:
        contract, declarer, tricks = result.contract, result.declarer, result.tricks
        # the sheet scores only records with a contract, declarer and result
        assert contract is not None and declarer is not None and tricks is not None
        assert contract.strain is not None
        side = declarer.side
        needed = contract.tricks_needed
        if tricks >= needed:
            # Every trick over six, bid or not.
            below = (tricks - 6) * TRICK_VALUE[contract.strain] * MULTIPLIER[contract.risk]
            entries = [Entry(side, Line.BELOW, below, Reason.TRICKS)]
            if contract.risk is not Risk.UNDOUBLED:
                bonus = DOUBLED_MADE[contract.risk]
                entries.append(Entry(side, Line.ABOVE, bonus, Reason.INSULT))
                if tricks > needed:
                    entries.append(Entry(side, Line.ABOVE, bonus * (tricks - needed),
                                         Reason.OVERTRICKS))
        else:
            entries = [Entry(side.other, Line.ABOVE,
                             UNDERTRICK[contract.risk] * (needed - tricks), Reason.UNDERTRICKS)]
        # Slams go to the side that won the tricks, whoever declared and whatever was bid.
        for winner, won in ((side, tricks), (side.other, 13 - tricks)):
            if won == 13:
                entries.append(Entry(winner, Line.ABOVE, GRAND_SLAM, Reason.SLAM))
            elif won == 12:
                entries.append(Entry(winner, Line.ABOVE, LITTLE_SLAM, Reason.SLAM))
        return entries

    def honour_entries(self, strain: Strain, held: Mapping[Seat, int]) -> list[Entry]:
        for side in Side:
            count = sum(held[seat] for seat in side.seats)
            most = max(held[seat] for seat in side.seats)
            if strain is Strain.NT:
                points = _ACE_HONOURS.get((count, most), 0)
            else:
                points = _TRUMP_HONOURS.get((count, most), 0) * TRICK_VALUE[strain]
            if points:
                return [Entry(side, Line.ABOVE, points, Reason.HONOURS)]
        return []

    def rubber_bonus(self, loser_games: int) -> int:
        return RUBBER_BONUS

    def settle(
        self, games: Mapping[Side, int], below: Mapping[Side, int]
    ) -> tuple[list[Entry], str]:
        return [], (
            "the rubber is unfinished: the 1920 code gives no bonus for an unfinished rubber"
        )
