"""Seats, suits, strains, ranks and cards: the vocabulary every other module speaks.

Each type has a paired converter, ``X.from_pbn(text)`` / ``x.pbn()``, and ``repr`` shows
valid code.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from pbnkit.errors import InvalidTokenError
from pbnkit.formats.hands import RANK_CHARS
from pbnkit.pickling import by_fields


class Seat(enum.IntEnum):
    """A seat at the table, numbered clockwise from North."""

    N = 0
    E = 1
    S = 2
    W = 3

    @classmethod
    def from_pbn(cls, text: str) -> Seat:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise InvalidTokenError(f"invalid seat: {text!r}") from None

    def pbn(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Seat.{self.name}"

    def __str__(self) -> str:
        return self.pbn()

    def __bool__(self) -> bool:
        # Seat.N is 0: without this, `if seat:` would treat it as missing.
        return True

    def next(self, steps: int = 1) -> Seat:
        """The seat ``steps`` places clockwise (the next player to act)."""
        return SEATS[(self + steps) % 4]

    @property
    def partner(self) -> Seat:
        return SEATS[(self + 2) % 4]

    @property
    def lho(self) -> Seat:
        """Left-hand opponent: the next player clockwise."""
        return SEATS[(self + 1) % 4]

    @property
    def side(self) -> Side:
        return _SEAT_SIDES[self]

    def is_opponent_of(self, other: Seat) -> bool:
        return self.side is not other.side


class Side(enum.Enum):
    """A partnership."""

    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat.N, Seat.S) if self is Side.NS else (Seat.E, Seat.W)

    def __repr__(self) -> str:
        return f"Side.{self.name}"


# The replay asks for seats, sides and suits per card: indexing tuples of the members is
# much cheaper than calling the enum (``Seat(i)``) or testing membership each time.
#: The seats by number, N E S W: ``SEATS[(seat + n) % 4]`` is ``n`` places clockwise.
SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
_SEAT_SIDES = (Side.NS, Side.EW, Side.NS, Side.EW)


class Suit(enum.IntEnum):
    """A suit, ordered as bridge ranks them (clubs lowest)."""

    C = 0
    D = 1
    H = 2
    S = 3

    @classmethod
    def from_pbn(cls, text: str) -> Suit:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise InvalidTokenError(f"invalid suit: {text!r}") from None

    def pbn(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    def __str__(self) -> str:
        return self.pbn()

    def __bool__(self) -> bool:
        # Suit.C is 0: without this, `if suit:` would treat it as missing.
        return True

    @property
    def strain(self) -> Strain:
        return STRAINS[self]


#: The suits by number, clubs first.
SUITS = (Suit.C, Suit.D, Suit.H, Suit.S)
#: Suits in the order PBN lists them inside a hand (``spades.hearts.diamonds.clubs``).
PBN_SUIT_ORDER = (Suit.S, Suit.H, Suit.D, Suit.C)


class Strain(enum.IntEnum):
    """A denomination: a trump suit or no trumps, in bidding order."""

    C = 0
    D = 1
    H = 2
    S = 3
    NT = 4

    @classmethod
    def from_pbn(cls, text: str) -> Strain:
        key = text.strip().upper()
        try:
            return cls[key]
        except KeyError:
            raise InvalidTokenError(f"invalid strain: {text!r}") from None

    def pbn(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Strain.{self.name}"

    def __str__(self) -> str:
        return self.pbn()

    def __bool__(self) -> bool:
        # Strain.C is 0: without this, `if strain:` would treat it as missing.
        return True

    @property
    def suit(self) -> Suit | None:
        """The trump suit, or None at no trumps."""
        return None if self is Strain.NT else SUITS[self]

    @property
    def is_minor(self) -> bool:
        return self in (Strain.C, Strain.D)

    @property
    def is_major(self) -> bool:
        return self in (Strain.H, Strain.S)



class Rank(enum.IntEnum):
    """A card rank; ten is written ``T`` in PBN."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @classmethod
    def from_pbn(cls, text: str) -> Rank:
        index = RANK_CHARS.find(text.strip().upper()) if len(text.strip()) == 1 else -1
        if index < 0:
            raise InvalidTokenError(f"invalid rank: {text!r}")
        return cls(index + 2)

    def pbn(self) -> str:
        return RANK_CHARS[self - 2]

    def __repr__(self) -> str:
        return f"Rank.{self.name}"

    def __str__(self) -> str:
        return self.pbn()

    @property
    def is_honour(self) -> bool:
        """A, K, Q, J or T: the five trump honours of rubber and auction bridge."""
        return self >= Rank.TEN


#: The strains by number, clubs first and no trumps last.
STRAINS = (Strain.C, Strain.D, Strain.H, Strain.S, Strain.NT)


@by_fields
@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One of the 52 cards. Orders by suit, then rank.

    ``index`` numbers the deck clubs first, each suit from the two up (``DECK[card.index]``
    is the card); ``bit`` is ``1 << index``, so a set of cards is an int with one bit per
    card (see :mod:`pbnkit.model.deal`).
    """

    suit: Suit
    rank: Rank
    index: int = field(init=False, repr=False, compare=False)
    bit: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = self.suit * 13 + self.rank - 2
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "bit", 1 << index)

    @classmethod
    def from_pbn(cls, text: str) -> Card:
        """Read a card token such as ``SA`` or ``hT`` (lowercase is import format)."""
        card = CARDS_BY_TEXT.get(text)
        if card is not None:
            return card
        text = text.strip()
        if len(text) != 2:
            raise InvalidTokenError(f"invalid card: {text!r}")
        return DECK[Suit.from_pbn(text[0]) * 13 + Rank.from_pbn(text[1]) - 2]

    def pbn(self) -> str:
        return self.suit.pbn() + self.rank.pbn()

    def __repr__(self) -> str:
        return f"Card.from_pbn({self.pbn()!r})"

    def __str__(self) -> str:
        return self.pbn()


#: All 52 cards, clubs first, each suit from the two up: ``DECK[card.index] is card``.
#: Code that reads cards hands out these shared values rather than building new ones.
DECK = tuple(Card(suit, rank) for suit in Suit for rank in Rank)

#: Every spelling of every card token, in any case (import format allows lowercase), so
#: reading a card is one dictionary lookup.
CARDS_BY_TEXT = {
    suit_text + rank_text: card
    for card in DECK
    for suit_text in (card.suit.name, card.suit.name.lower())
    for rank_text in (card.rank.pbn(), card.rank.pbn().lower())
}

#: The cards of each suit as a mask, by suit number.
SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * suit) for suit in Suit)
