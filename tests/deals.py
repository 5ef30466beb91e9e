"""Deals built for scoring tests: only the cards that matter are placed by hand."""

from __future__ import annotations

from pbnkit.model import DECK, Card, Deal, Hand, Seat


def deal_with(**placed: str) -> Deal:
    """A complete deal in which each named seat holds the cards listed (``N="SA SK"``);
    the other cards fill the hands N, E, S, W in deck order."""
    hands = {seat: [Card.from_pbn(card) for card in placed.get(seat.name, "").split()]
             for seat in Seat}
    taken = {card for hand in hands.values() for card in hand}
    rest = iter(card for card in DECK if card not in taken)
    for seat in Seat:
        hands[seat] += [next(rest) for _ in range(13 - len(hands[seat]))]
    north, east, south, west = (Hand(tuple(hands[seat])) for seat in Seat)
    return Deal((north, east, south, west))
