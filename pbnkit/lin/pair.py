"""One LIN pair, ``key|value|``, where it stands in the file."""

from __future__ import annotations

from typing import Final, NamedTuple


# A named tuple, not a frozen dataclass: a vugraph archive has millions of pairs.
class Pair(NamedTuple):
    """One ``key|value|`` pair: the key as written and as BBO means it (``name``: keys are
    case-insensitive, ``MB`` is ``mb``), the value without its bars, the 1-based line and
    column of the key, and its character offsets in the file's text."""

    key: str
    name: str
    value: str
    line: int
    column: int
    start: int
    end: int

    @property
    def value_column(self) -> int:
        """The column of the value (a value holding a line end is rare enough not to
        count: its first character is on the key's line)."""
        return self.column + len(self.key) + 1

    @property
    def text(self) -> str:
        return f"{self.key}|{self.value}|"


_new_pair: Final = tuple.__new__  # builds a Pair without the Python frame of its __new__


def shape_pair(text: str, line: int, column: int, start: int) -> Pair:
    """The Pair of a PAIR token's text (``key|value|``) found at ``start``."""
    key, value, _ = text.split("|")
    return _new_pair(Pair, (key, key.lower(), value, line, column, start, start + len(text)))
