"""What the solver needs from a record: its whole deal, vulnerability and dealer."""

from __future__ import annotations

from typing import NamedTuple

from pbnkit.model.calls import Vulnerability, dealer_for_board
from pbnkit.model.cards import Seat
from pbnkit.model.deal import Deal
from pbnkit.model.values import parse_or_none
from pbnkit.pbn.records import Game


class DealSetting(NamedTuple):
    """A whole deal with the vulnerability and dealer its par depends on."""

    deal: Deal
    vulnerability: Vulnerability
    dealer: Seat


def deal_setting(game: Game) -> DealSetting | None:
    """The record's whole deal (four hands of 13 cards) with its vulnerability and
    dealer; None without one. A missing Vulnerable or Dealer tag is taken from the board
    number as duplicate boards have them (None vulnerable and North without a number)."""
    deal = parse_or_none(Deal.from_pbn, game.value("Deal") or "")
    if deal is None or not deal.is_complete or deal.problems():
        return None
    board = parse_or_none(int, (game.board or "").strip())
    vulnerability = parse_or_none(Vulnerability.from_pbn, game.value("Vulnerable") or "")
    if vulnerability is None:
        vulnerability = Vulnerability.NONE if board is None else Vulnerability.for_board(board)
    dealer = parse_or_none(Seat.from_pbn, game.value("Dealer") or "")
    if dealer is None:
        dealer = Seat.N if board is None else dealer_for_board(board)
    return DealSetting(deal, vulnerability, dealer)
