"""Hands and deals, including partial deals (unknown hands) and end positions.

Construction is permissive: a Deal may hold a card twice or hands of different sizes, so
that the validator can report every problem at once. ``Deal.problems()`` lists them.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from pbnkit.errors import InvalidTokenError
from pbnkit.model.cards import PBN_SUIT_ORDER, Card, Rank, Seat, Suit

_DEAL_RE = re.compile(r"\s*([NESWnesw])\s*:(.*)", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Hand:
    """The cards of one player, in the order the text gave them."""

    cards: tuple[Card, ...]

    @classmethod
    def from_pbn(cls, text: str) -> Hand:
        """Read ``spades.hearts.diamonds.clubs``, e.g. ``AKQ2.T9..J8765432``."""
        suits = text.split(".")
        if len(suits) != 4:
            raise InvalidTokenError(f"invalid hand {text!r}: expected 4 suits separated by '.'")
        cards = []
        for suit, ranks in zip(PBN_SUIT_ORDER, suits):
            for char in ranks:
                try:
                    cards.append(Card(suit, Rank.from_pbn(char)))
                except InvalidTokenError:
                    raise InvalidTokenError(
                        f"invalid rank {char!r} in {suit.name} of hand {text!r}"
                    ) from None
        return cls(tuple(cards))

    def pbn(self) -> str:
        """Export form: each suit's ranks from the highest down."""
        return ".".join(
            "".join(c.rank.pbn() for c in sorted(self.suit(suit), reverse=True))
            for suit in PBN_SUIT_ORDER
        )

    def __repr__(self) -> str:
        return f"Hand.from_pbn({self.pbn()!r})"

    def __str__(self) -> str:
        return self.pbn()

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self.cards

    def suit(self, suit: Suit) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if card.suit is suit)


@dataclass(frozen=True, slots=True)
class Deal:
    """Four hands by seat; ``None`` for a hand the record does not give (``-``).

    ``first`` is the seat the PBN text listed first, kept so the text round-trips.
    """

    hands: tuple[Hand | None, Hand | None, Hand | None, Hand | None]
    first: Seat = Seat.N

    @classmethod
    def from_pbn(cls, text: str) -> Deal:
        """Read a Deal tag value such as ``N:AKQ.. - - -`` (import format is lenient about
        case, rank order, and repeated blanks between hands)."""
        match = _DEAL_RE.fullmatch(text)
        if match is None:
            raise InvalidTokenError(f"invalid deal {text!r}: expected '<seat>:' then 4 hands")
        first = Seat.from_pbn(match[1])
        fields = match[2].split()
        if len(fields) != 4:
            raise InvalidTokenError(
                f"invalid deal {text!r}: expected 4 hands, found {len(fields)}"
            )
        hands: list[Hand | None] = [None] * 4
        for offset, field in enumerate(fields):
            hands[first.next(offset)] = None if field == "-" else Hand.from_pbn(field)
        return cls((hands[0], hands[1], hands[2], hands[3]), first)

    def pbn(self, first: Seat | None = None) -> str:
        first = self.first if first is None else first
        parts = []
        for offset in range(4):
            hand = self.hands[first.next(offset)]
            parts.append("-" if hand is None else hand.pbn())
        return f"{first.pbn()}:" + " ".join(parts)

    def __repr__(self) -> str:
        return f"Deal.from_pbn({self.pbn()!r})"

    def __str__(self) -> str:
        return self.pbn()

    def __getitem__(self, seat: Seat) -> Hand | None:
        return self.hands[seat]

    @property
    def known_seats(self) -> tuple[Seat, ...]:
        return tuple(seat for seat in Seat if self.hands[seat] is not None)

    @property
    def hand_size(self) -> int | None:
        """Cards in each known hand when they agree, else None."""
        sizes = {len(hand) for hand in self.hands if hand is not None}
        return sizes.pop() if len(sizes) == 1 else None

    @property
    def is_complete(self) -> bool:
        """All four hands known, 13 cards each."""
        return all(hand is not None and len(hand) == 13 for hand in self.hands)

    @property
    def is_end_position(self) -> bool:
        """Fewer than 13 cards in every known hand (PBN 6.2)."""
        size = self.hand_size
        return size is not None and size < 13

    def holder(self, card: Card) -> Seat | None:
        for seat in Seat:
            hand = self.hands[seat]
            if hand is not None and card in hand:
                return seat
        return None

    def problems(self) -> list[tuple[str, str]]:
        """What makes this deal invalid, as ``(kind, message)`` pairs.

        Kinds: ``duplicate-card``, ``too-many-cards``, ``unequal-hands``, ``no-hand``,
        ``missing-cards`` (four known hands of 13 that still do not hold the whole deck
        cannot happen without a duplicate, so that one is reported as a duplicate).
        """
        found: list[tuple[str, str]] = []
        known = [(seat, hand) for seat, hand in zip(Seat, self.hands) if hand is not None]
        if not known:
            return [("no-hand", "the deal gives no hand")]
        counts = Counter(card for _, hand in known for card in hand.cards)
        for card, count in sorted(counts.items()):
            if count > 1:
                holders = "".join(
                    seat.pbn() * hand.cards.count(card) for seat, hand in known if card in hand
                )
                found.append(("duplicate-card", f"{card} appears {count} times ({holders})"))
        for seat, hand in known:
            if len(hand) > 13:
                found.append(("too-many-cards", f"{seat.name} holds {len(hand)} cards"))
        sizes = {seat.name: len(hand) for seat, hand in known}
        if len(set(sizes.values())) > 1:
            listing = ", ".join(f"{seat} {size}" for seat, size in sizes.items())
            found.append(("unequal-hands", f"hands of different sizes: {listing}"))
        return found
