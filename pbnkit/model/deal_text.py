"""A Deal tag's text read into its hands' bit sets (see :attr:`Card.bit`): the part of
reading a deal that every record pays for, validated, converted or scored. A hand is
read a character at a time through a table indexed by the character's code.
"""

from __future__ import annotations

import re
from typing import Final

from pbnkit.model.cards import RANK_CHARS, SEATS, Seat

#: a Deal tag value: the seat listed first, then the hands
DEAL_RE: Final = re.compile(r"\s*([NESWnesw])\s*:(.*)", re.DOTALL)
_SEAT_BY_CHAR: Final = {seat.name: seat for seat in SEATS} | {
    seat.name.lower(): seat for seat in SEATS}
#: The seats in the order a Deal lists them, by the seat it lists first.
_ROTATIONS: Final = {first: SEATS[first:] + SEATS[:first] for first in SEATS}

_DOT: Final = -2
_NOT_A_RANK: Final = -1
#: a rank character's place in its suit (0 for the two, 12 for the ace), in either case,
#: by character code; the dot between suits is _DOT
_RANK_AT: Final[list[int]] = [_NOT_A_RANK] * 128
for _at, _rank in enumerate(RANK_CHARS):
    _RANK_AT[ord(_rank)] = _RANK_AT[ord(_rank.lower())] = _at
_RANK_AT[ord(".")] = _DOT
del _at, _rank

#: the bit of a hand's first suit (spades: the deck numbers clubs first)
_SPADES_SHIFT: Final = 39


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
    reads it the slow way, which says what is wrong."""
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


def hand_mask(text: str) -> int:
    """The bit set of a hand written ``spades.hearts.diamonds.clubs`` in ranks of either
    case (a rank written twice counts once); -1 when it is not four suits of ranks."""
    mask = 0
    shift = _SPADES_SHIFT
    for char in text:
        code = ord(char)
        at = _RANK_AT[code] if code < 128 else _NOT_A_RANK
        if at >= 0:
            mask |= 1 << (shift + at)
        elif at == _DOT and shift > 0:
            shift -= 13
        else:
            return -1
    return mask if shift == 0 else -1
