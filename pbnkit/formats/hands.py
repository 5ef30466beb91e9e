"""A suit's holding as its written ranks and as bits: the one reading of the ranks of a
hand, shared by every format (a PBN Deal tag's ``AKQ.T9..J8765432``, LIN's
``SAKQHT9CJ8765432``) and by the model's :class:`~pbnkit.model.deal.Deal`.

It is notation, not a rule of bridge: which characters name which rank. It sits with the
readers so that a reader can write a hand in another format's form without the model.
"""

from __future__ import annotations

from typing import Final

#: the ranks from the two to the ace, as PBN and LIN write them
RANK_CHARS: Final = "23456789TJQKA"

#: a rank character's place in its suit (0 for the two, 12 for the ace, as in
#: :attr:`Card.index`), in either case (import format allows lowercase), by character code;
#: -1 for any other character below 128
_RANK_AT: Final[list[int]] = [-1] * 128
for _at, _rank in enumerate(RANK_CHARS):
    _RANK_AT[ord(_rank)] = _RANK_AT[ord(_rank.lower())] = _at
del _at, _rank

#: every suit's 13 ranks as bits
ALL_RANKS: Final = (1 << 13) - 1


def holding_bits(ranks: str) -> int:
    """The ranks of one suit's holding as bits (bit 0 the two, bit 12 the ace), written in
    any order and either case; a rank written twice counts once. -1 when a character is
    not a rank."""
    bits = 0
    for char in ranks:
        code = ord(char)
        at = _RANK_AT[code] if code < 128 else -1
        if at < 0:
            return -1
        bits |= 1 << at
    return bits


#: Each holding's text, high to low, by its bits: made when first asked for.
_TEXTS: Final[list[str | None]] = [None] * (1 << 13)


def holding_text(bits: int) -> str:
    """A suit's ranks from their bits (see :func:`holding_bits`), high to low."""
    text = _TEXTS[bits]
    if text is None:
        text = _TEXTS[bits] = "".join([RANK_CHARS[at] for at in range(12, -1, -1)
                                       if bits >> at & 1])
    return text
