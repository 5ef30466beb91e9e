"""The bridge model: the only home of bridge rules in pbnkit."""

from pbnkit.model.calls import (
    DOUBLE,
    PASS,
    PASSED_OUT,
    REDOUBLE,
    Call,
    CallKind,
    Contract,
    Risk,
    Vulnerability,
    dealer_for_board,
)
from pbnkit.model.cards import DECK, Card, Rank, Seat, Side, Strain, Suit
from pbnkit.model.deal import Deal, Hand
from pbnkit.model.values import parse_or_none

__all__ = [
    "DECK", "DOUBLE", "PASS", "PASSED_OUT", "REDOUBLE", "Call", "CallKind", "Card",
    "Contract", "Deal", "Hand", "Rank", "Risk", "Seat", "Side", "Strain", "Suit",
    "Vulnerability", "dealer_for_board", "parse_or_none",
]
