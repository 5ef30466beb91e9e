"""Deals and score sheets for scoring tests: only the cards that matter are placed by hand."""

from __future__ import annotations

from collections.abc import Callable

from pbnkit.model import DECK, Card, Deal, Hand, Seat
from pbnkit.scoring import BoardResult, Entry, Profile, Rubber, ScoreSheet


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


def sheet_helpers(profile: Profile) -> tuple[
    Callable[..., ScoreSheet], Callable[..., tuple[Rubber, ...]], Callable[[BoardResult], list[Entry]]
]:
    """``score(*results)``, ``rubbers(*results)`` and ``entries(result)`` (the entries of a
    one-deal rubber) under one profile."""

    def score(*results: BoardResult) -> ScoreSheet:
        return profile.score(results)

    def rubbers(*results: BoardResult) -> tuple[Rubber, ...]:
        found = score(*results).rubbers
        assert found is not None
        return found

    def entries(result: BoardResult) -> list[Entry]:
        (rubber,) = rubbers(result)
        return list(rubber.deals[0].entries)

    return score, rubbers, entries
