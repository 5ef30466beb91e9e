"""A record read from LIN, as LIN has it: :attr:`pbnkit.records.Game.lin`.

The LIN reader gives a board the tags PBN names its facts by (Deal, Auction, Play...),
which every check and output reads alike; what LIN says and PBN has no word for stays
with the record as LIN wrote it: the board's pairs, the file's header pairs, and the
claim (``mc``) that ends its play, which checks judge as a claim rather than as a
Result tag.
"""

from __future__ import annotations

from typing import NamedTuple

from pbnkit.records import TagPair


# A named tuple, as TagPair is: the reader makes one a board, and a tuple is made faster
# than a frozen dataclass. Immutable all the same.
class LinBoard(NamedTuple):
    """The LIN of one board."""

    #: the board's pairs as written, on one line (``pn|...|md|...|``): every key kept,
    #: those PBN has no word for (``pg``, ``nt``, ``st``...) too, in order
    text: str
    #: the pairs of the file's header (``vg``, ``rs``, ``pn`` before the first ``qx``),
    #: on the file's first board; None on the others, and in a file without a header
    header: str | None = None
    #: the Result tag made of the board's claim (``mc``: declarer's total of tricks),
    #: at the ``mc`` pair; None without a claim
    claim: TagPair | None = None

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """The board's pairs as (key, value), in order, as written."""
        parts = self.text.split("|")
        return [(parts[at].strip(), parts[at + 1]) for at in range(0, len(parts) - 1, 2)]


#: Tags a LIN board makes from its own pairs (others may come from the file's header,
#: which stands before the board)
_OWN_TAGS = frozenset(("Dealer", "Deal", "Vulnerable", "Auction", "Play"))


def stored_board(tags: tuple[TagPair, ...]) -> LinBoard | None:
    """The LIN of a record restored from an archive, which stores a LIN board's pairs in
    its ``Lin`` tag (and the file's header in ``LinHeader``): None when the record was
    not read from LIN. A record read from LIN has its ``Lin`` tag at the board's first
    pair, at or before the tags made from the board's pairs, and its claim just before
    it; written into PBN and read from there, the ``Lin`` tag comes after them."""
    names = [tag.name for tag in tags]
    if "Lin" not in names:
        return None
    at = names.index("Lin")
    lin = tags[at]
    start = (lin.line, lin.column)
    if any((tag.line, tag.column) < start for tag in tags if tag.name in _OWN_TAGS):
        return None
    header = tags[names.index("LinHeader")].value if "LinHeader" in names else None
    claim = tags[at - 1] if at > 0 and names[at - 1] == "Result" else None
    return LinBoard(lin.value, header, claim)
