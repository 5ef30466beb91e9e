"""Hands and deals, including partial deals (unknown hands) and end positions.

Construction is permissive: a Deal may hold a card twice or hands of different sizes, so
that the validator can report every problem at once. ``Deal.problems()`` lists them.

A hand is also kept as a bit set (an int with bit ``card.index`` set for each card it
holds), computed once when the value is built: the play asks who holds a card, and what a
player has left in a suit, for every card of every trick.

A Deal read from text builds its :class:`Hand` values (52 Card objects) only when something
asks for them: validating, replaying and scoring a record need only the bit sets.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from pbnkit.errors import InvalidTokenError
from pbnkit.formats.hands import holding_bits
from pbnkit.model.cards import DECK, PBN_SUIT_ORDER, SEATS, Card, Seat, Suit

# -- Reading hands -----------------------------------------------------------------------
# One reader of a suit's ranks (holding_bits, in pbnkit.formats.hands) under every form of
# hand: the Deal tag's (``AKQ.T9..J8765432``, read_deal and Hand.from_pbn) and LIN's
# (``SAKQHT9CJ8765432``, an adapter in pbnkit.lin.records).

#: a Deal tag value: the seat listed first, then the hands
DEAL_RE: Final = re.compile(r"\s*([NESWnesw])\s*:(.*)", re.DOTALL)
_SEAT_BY_CHAR: Final = {seat.name: seat for seat in SEATS} | {
    seat.name.lower(): seat for seat in SEATS}
#: The seats in the order a Deal lists them, by the seat it lists first.
_ROTATIONS: Final = {first: SEATS[first:] + SEATS[:first] for first in SEATS}

#: Holdings as written by their text, and their bits: deals share holdings ("AK", "T9",
#: "") all the time, so most are read once, and a hand is then four look-ups.
_KNOWN: dict[str, int] = {}
_KNOWN_LIMIT: Final = 20_000


def _known_bits(ranks: str) -> int:
    bits = _KNOWN.get(ranks)
    if bits is None:
        if len(_KNOWN) >= _KNOWN_LIMIT:  # holdings in odd orders and cases: still a bound
            _KNOWN.clear()
        bits = _KNOWN[ranks] = holding_bits(ranks)
    return bits


def hand_mask(text: str) -> int:
    """The bit set of a hand written ``spades.hearts.diamonds.clubs`` (see
    :attr:`Card.bit`; a card written twice counts once); -1 when it is not four suits of
    ranks."""
    suits = text.split(".")
    if len(suits) != 4:
        return -1
    known = _KNOWN.get
    spades, hearts, diamonds, clubs = (known(suits[0]), known(suits[1]), known(suits[2]),
                                       known(suits[3]))
    if spades is None or hearts is None or diamonds is None or clubs is None:
        spades, hearts, diamonds, clubs = map(_known_bits, suits)
    if spades < 0 or hearts < 0 or diamonds < 0 or clubs < 0:
        return -1
    return spades << 39 | hearts << 26 | diamonds << 13 | clubs


class DealText:
    """What a well-formed Deal tag says: the seat it lists first, each seat's hand as
    written (None: ``-``), as a bit set (0: unknown) and its size, and the known seats'
    bits (bit ``seat``)."""

    __slots__ = ("first", "texts", "masks", "sizes", "given")

    def __init__(self, first: Seat, texts: list[str | None], masks: list[int],
                 sizes: list[int], given: int):
        self.first: Final = first
        self.texts: Final = texts
        self.masks: Final = masks
        self.sizes: Final = sizes
        self.given: Final = given


def read_deal(text: str) -> DealText | None:
    """The hands of a Deal tag value, or None when the value is not a seat, a colon and
    four hands of four suits of ranks each (``-`` for an unknown hand): the caller then
    says what is wrong (see :func:`_deal_error`)."""
    match = DEAL_RE.fullmatch(text)
    if match is None:
        return None
    fields = match[2].split()
    if len(fields) != 4:
        return None
    texts: list[str | None] = [None, None, None, None]
    masks = [0, 0, 0, 0]
    sizes: list[int] = []
    given = 0
    first = _SEAT_BY_CHAR[match[1]]
    for seat, written in zip(_ROTATIONS[first], fields):
        if written != "-":
            mask = hand_mask(written)
            if mask < 0:
                return None
            texts[seat] = written
            masks[seat] = mask
            # A hand of 4 suits holds a card per character, bar the 3 dots.
            sizes.append(len(written) - 3)
            given |= 1 << seat
    return DealText(first, texts, masks, sizes, given)


def _deal_error(text: str) -> InvalidTokenError:
    """What is wrong with a Deal tag value that :func:`read_deal` could not read: its
    form, or the first hand that is not four suits of ranks, as :meth:`Hand.from_pbn`
    says it."""
    match = DEAL_RE.fullmatch(text)
    if match is None:
        return InvalidTokenError(f"invalid deal {text!r}: expected '<seat>:' then 4 hands")
    fields = match[2].split()
    if len(fields) != 4:
        return InvalidTokenError(f"invalid deal {text!r}: expected 4 hands, found {len(fields)}")
    for written in fields:
        if written != "-":
            try:
                Hand.from_pbn(written)
            except InvalidTokenError as error:
                return error
    raise AssertionError(f"read_deal refused a deal Hand.from_pbn reads: {text!r}")


@dataclass(frozen=True, slots=True)
class Hand:
    """The cards of one player, in the order the text gave them."""

    cards: tuple[Card, ...]
    #: the cards as a bit set (see :attr:`Card.bit`)
    mask: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        mask = 0
        for card in self.cards:
            mask |= card.bit
        object.__setattr__(self, "mask", mask)

    @classmethod
    def from_pbn(cls, text: str) -> Hand:
        """Read ``spades.hearts.diamonds.clubs``, e.g. ``AKQ2.T9..J8765432``."""
        suits = text.split(".")
        if len(suits) != 4:
            raise InvalidTokenError(f"invalid hand {text!r}: expected 4 suits separated by '.'")
        cards = []
        for suit, ranks in zip(PBN_SUIT_ORDER, suits):
            if holding_bits(ranks) < 0:
                char = next(char for char in ranks if holding_bits(char) < 0)
                raise InvalidTokenError(f"invalid rank {char!r} in {suit.name} of hand {text!r}")
            cards += [DECK[suit * 13 + holding_bits(char).bit_length() - 1] for char in ranks]
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
        return isinstance(card, Card) and bool(self.mask & card.bit)

    def suit(self, suit: Suit) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if card.suit is suit)


@dataclass(frozen=True, slots=True)
class Deal:
    """Four hands by seat; ``None`` for a hand the record does not give (``-``).

    ``first`` is the seat the PBN text listed first, kept so the text round-trips.
    """

    hands: tuple[Hand | None, Hand | None, Hand | None, Hand | None]
    first: Seat = Seat.N
    # Whole-deal facts, computed once: a deal is read once per record and then consulted
    # for every card played.
    #: each hand as a bit set by seat, 0 for an unknown hand
    masks: tuple[int, int, int, int] = field(init=False, repr=False, compare=False)
    #: the known hands as a bit set: bit ``seat`` is set when the deal gives that hand
    given: int = field(init=False, repr=False, compare=False)
    #: the cards of the known hands, as a bit set
    held: int = field(init=False, repr=False, compare=False)
    #: cards in each known hand when they agree, else None
    hand_size: int | None = field(init=False, repr=False, compare=False)
    #: all four hands known, 13 cards each
    is_complete: bool = field(init=False, repr=False, compare=False)
    #: fewer than 13 cards in every known hand (PBN 6.2)
    is_end_position: bool = field(init=False, repr=False, compare=False)
    #: no card twice, no hand over 13, and at least one hand, all of one size: no problems
    _valid: bool = field(init=False, repr=False, compare=False)
    #: the hands as the text wrote them by seat (None when unknown), for a deal read by
    #: from_pbn whose ``hands`` are not built yet; None once they are
    _written: tuple[str | None, ...] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._set_facts([0 if hand is None else hand.mask for hand in self.hands],
                        [len(hand) for hand in self.hands if hand is not None],
                        sum(1 << seat for seat, hand in enumerate(self.hands) if hand is not None))
        object.__setattr__(self, "_written", None)

    def _set_facts(self, masks: list[int], sizes: list[int], given: int) -> None:
        """Compute the whole-deal fields from each hand's mask, the known hands' sizes
        and which hands are known."""
        held = masks[0] | masks[1] | masks[2] | masks[3]
        size = sizes[0] if sizes and sizes.count(sizes[0]) == len(sizes) else None
        setattr_ = object.__setattr__
        setattr_(self, "masks", tuple(masks))
        setattr_(self, "given", given)
        setattr_(self, "held", held)
        setattr_(self, "hand_size", size)
        setattr_(self, "is_complete", len(sizes) == 4 and size == 13)
        setattr_(self, "is_end_position", size is not None and size < 13)
        # A card given twice, in one hand or two, makes the bit count fall short.
        setattr_(self, "_valid", size is not None and size <= 13
                 and held.bit_count() == sum(sizes))

    @classmethod
    def from_pbn(cls, text: str) -> Deal:
        """Read a Deal tag value such as ``N:AKQ.. - - -`` (import format is lenient about
        case, rank order, and repeated blanks between hands)."""
        read = read_deal(text)
        if read is None:
            raise _deal_error(text)
        # Built without __post_init__, and with the "hands" slot left empty: __getattr__
        # fills it from the text on first use.
        deal = object.__new__(cls)
        object.__setattr__(deal, "first", read.first)
        object.__setattr__(deal, "_written", tuple(read.texts))
        deal._set_facts(read.masks, read.sizes, read.given)
        return deal

    if not TYPE_CHECKING:  # hidden from mypy, which would accept any attribute of a Deal
        def __getattr__(self, name: str) -> object:
            # Only called when normal lookup fails: for "hands", when from_pbn left the
            # slot empty. Equality, hashing and pickling read it through here as well.
            if name != "hands" or self._written is None:
                return object.__getattribute__(self, name)  # raises the usual error
            hands = tuple(None if text is None else Hand.from_pbn(text)
                          for text in self._written)
            object.__setattr__(self, "hands", hands)
            object.__setattr__(self, "_written", None)
            return hands

    def pbn(self, first: Seat | None = None) -> str:
        first = self.first if first is None else first
        parts = []
        for offset in range(4):
            hand = self.hands[first.next(offset)]
            parts.append("-" if hand is None else hand.pbn())
        return f"{first.pbn()}:" + " ".join(parts)

    def __repr__(self) -> str:
        return f"Deal.from_pbn({self.pbn()!r})"

    def _repr_html_(self) -> str | None:
        """Jupyter's view: the hand diagram (see :mod:`pbnkit.views`)."""
        from pbnkit.views import html

        return html("deal", self)

    def __str__(self) -> str:
        return self.pbn()

    def __getitem__(self, seat: Seat) -> Hand | None:
        return self.hands[seat]

    @property
    def known_seats(self) -> tuple[Seat, ...]:
        return tuple(seat for seat in Seat if self.given >> seat & 1)

    def holder(self, card: Card) -> Seat | None:
        bit = card.bit
        for seat, mask in zip(SEATS, self.masks):
            if mask & bit:
                return seat
        return None

    def problems(self) -> list[tuple[str, str]]:
        """What makes this deal invalid, as ``(kind, message)`` pairs.

        Kinds: ``duplicate-card``, ``too-many-cards``, ``unequal-hands``, ``no-hand``,
        ``missing-cards`` (four known hands of 13 that still do not hold the whole deck
        cannot happen without a duplicate, so that one is reported as a duplicate).
        """
        if self._valid:
            return []
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
