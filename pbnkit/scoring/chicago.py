"""Chicago, four-deal bridge (``chicago``), as the ACBL's Laws of Rubber Bridge give it.

Contract rubber's figures (trick values, overtricks, insult, undertricks, slams bid and
made, honours) on a sheet of four deals, a chukker. Vulnerability comes from the deal's
place in the chukker, not from games won: deal 1 neither side, deals 2 and 3 the dealer's
side, deal 4 both. A passed-out deal is dealt again at the same place and is not one of the
four. Part scores carry over and combine into games as in rubber; a game earns 300 or 500
at once, a part score made on deal 4 earns 100, and there is no rubber bonus and nothing for
a chukker the file leaves unfinished.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from pbnkit.model import Side, Vulnerability, dealer_for_board
from pbnkit.scoring.base import BoardResult, Entry, Line, Reason, SheetUnit
from pbnkit.scoring.games import Sheet
from pbnkit.scoring.rubber import RubberProfile

DEALS = 4
GAME_BONUS = 300
GAME_BONUS_VULNERABLE = 500
#: For a part score made on the fourth deal that does not complete a game.
FOURTH_DEAL_PART_SCORE = 100


def place_vulnerability(place: int, dealer_side: Side) -> Vulnerability:
    """The vulnerability of the deal at ``place`` (1 to 4) of a chukker.

    >>> place_vulnerability(2, Side.EW).pbn()
    'EW'
    """
    if place == 1:
        return Vulnerability.NONE
    if place == DEALS:
        return Vulnerability.ALL
    return Vulnerability.of_sides(dealer_side is Side.NS, dealer_side is Side.EW)


class ChicagoProfile(RubberProfile):
    """Chicago: chukkers of four deals, vulnerability by place, game 300/500 at once."""

    name: ClassVar[str] = "chicago"
    description: ClassVar[str] = (
        "Chicago (four-deal bridge): chukkers of four deals, vulnerability by the deal's "
        "place, game bonus 300/500, 100 for a part score on deal 4"
    )
    counts_rubber_points: ClassVar[bool] = False
    notes: ClassVar[tuple[str, ...]] = ()
    unit: ClassVar[SheetUnit] = "chukker"
    vulnerable_by: ClassVar[str] = "the deal's place in the chukker makes"

    def place(self, sheet: Sheet, result: BoardResult) -> int | None:
        # A passed-out deal is dealt again at the same place: only counted deals advance.
        return sheet.counted + 1

    def deal_vulnerability(
        self, sheet: Sheet, result: BoardResult, place: int | None
    ) -> tuple[Vulnerability | None, str | None]:
        assert place is not None
        if place in (1, DEALS):
            return place_vulnerability(place, Side.NS), None
        # Deals 2 and 3 need the dealer: the Dealer tag, else the board number's rotation
        # (board n dealt by seat n - 1 from North), else what the Vulnerable tag states.
        dealer = result.dealer
        if dealer is None and result.board_number is not None:
            dealer = dealer_for_board(result.board_number)
        if dealer is not None:
            return place_vulnerability(place, dealer.side), None
        if result.vulnerability is not None:
            return result.vulnerability, None
        return None, "no dealer, board number or Vulnerable tag to take the vulnerability from"

    def bonus_entries(
        self, sheet: Sheet, entries: Sequence[Entry], game: Side | None, place: int | None,
        vulnerability: Vulnerability | None,
    ) -> list[Entry]:
        if game is not None:
            assert vulnerability is not None
            bonus = GAME_BONUS_VULNERABLE if vulnerability.is_vulnerable(game) else GAME_BONUS
            return [Entry(game, Line.ABOVE, bonus, Reason.GAME)]
        made = [e.side for e in entries if e.line is Line.BELOW and e.points]
        if place == DEALS and made:
            return [Entry(made[0], Line.ABOVE, FOURTH_DEAL_PART_SCORE, Reason.PART_SCORE)]
        return []

    def is_over(self, sheet: Sheet) -> bool:
        return sheet.counted == DEALS

    def rubber_bonus(self, loser_games: int) -> int:
        return 0  # never asked: Chicago has no rubber bonus

    def settle(
        self, games: Mapping[Side, int], below: Mapping[Side, int]
    ) -> tuple[list[Entry], str]:
        return [], (
            "the chukker is unfinished: the file ends before its fourth deal; Chicago gives "
            "no bonus for an unfinished chukker, the totals are the points scored so far"
        )
