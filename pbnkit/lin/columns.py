"""LIN pairs kept as columns: a list of keys, one of values, one of lines... instead of
a tuple for each pair.

Why columns: a LIN board has some 80 pairs, most of them calls and cards. A tuple each
was a large part of the reader's time (and objects for the garbage collector to go over);
as columns, a line of pairs is cut out by ``str.split`` and slices, and its columns
counted in one plain loop (chains of ``accumulate`` and ``map`` cost more).
A :class:`~pbnkit.lin.parser.Pair` is made only for the few pairs a tag or a finding
stands at.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from operator import sub
from typing import Final

from pbnkit.lin.pair import Pair
from pbnkit.lin.terminals import TERMINALS

_new_pair: Final = tuple.__new__  # a Pair without the frame of its __new__


class Pairs:
    """Pairs in the order of the file, as columns: the ``at``-th pair is ``keys[at]``
    (as written), ``names[at]`` (in lower case), ``values[at]``, its key at line
    ``lines[at]``, column ``columns[at]``, and character offset ``columns[at] +
    shifts[at]`` (the shift of its line: the same object for all the pairs of a line, as
    the line's number is, where an offset each would be a new int). Never empty.

    Its attributes are Final (read-only to mypy), not those of a frozen dataclass, whose
    ``__init__`` sets each field through ``object.__setattr__``, several times the cost
    of this one's. A board makes two or three."""

    __slots__ = ("keys", "names", "values", "lines", "columns", "shifts")

    def __init__(self, keys: list[str], names: list[str], values: list[str],
                 lines: list[int], columns: list[int], shifts: list[int]) -> None:
        self.keys: Final = keys
        self.names: Final = names
        self.values: Final = values
        self.lines: Final = lines
        self.columns: Final = columns
        self.shifts: Final = shifts

    @property
    def start(self) -> int:
        """The offset of the first pair."""
        return self.columns[0] + self.shifts[0]

    @property
    def end(self) -> int:
        """The offset after the last pair."""
        return (self.columns[-1] + self.shifts[-1] + len(self.keys[-1])
                + len(self.values[-1]) + 2)

    def __len__(self) -> int:
        return len(self.keys)

    def pair(self, at: int) -> Pair:
        key, value, start = self.keys[at], self.values[at], self.columns[at] + self.shifts[at]
        return _new_pair(Pair, (key, self.names[at], value, self.lines[at], self.columns[at],
                                start, start + len(key) + len(value) + 2))

    def value_column(self, at: int) -> int:
        """The column of a pair's value: just after its key's bar, on the key's line."""
        return self.columns[at] + len(self.keys[at]) + 1

    def cut(self, begin: int, end: int) -> Pairs:
        """The pairs from ``begin`` up to ``end``."""
        if begin == 0 and end == len(self.keys):
            return self
        return Pairs(self.keys[begin:end], self.names[begin:end], self.values[begin:end],
                     self.lines[begin:end], self.columns[begin:end], self.shifts[begin:end])


def joined(parts: Sequence[Pairs]) -> Pairs:
    """The pairs of ``parts`` one after the other (a board over several lines)."""
    if len(parts) == 1:
        return parts[0]
    keys: list[str] = []
    names: list[str] = []
    values: list[str] = []
    lines: list[int] = []
    columns: list[int] = []
    shifts: list[int] = []
    for part in parts:
        keys += part.keys
        names += part.names
        values += part.values
        lines += part.lines
        columns += part.columns
        shifts += part.shifts
    return Pairs(keys, names, values, lines, columns, shifts)


def of_pairs(pairs: Sequence[Pair]) -> Pairs:
    """The columns of pairs read one by one (a value with a line end, a file with syntax
    errors); ``pairs`` not empty."""
    keys, names, values, lines, columns, starts, _ = map(list, zip(*pairs))
    return Pairs(keys, names, values, lines, columns, list(map(sub, starts, columns)))


def of_line(run: str, start: int, line: int, shift: int) -> Pairs | None:
    """The pairs of ``run``, text without a line end found at offset ``start`` of line
    ``line``, whose first character is at offset ``shift + 1``; None when it is not
    pairs only (``key|value|key|value|``, each key as the grammar's ``PAIR`` has it)."""
    parts = run.split("|")  # keys and values alternate, and a bar ends the run
    count = len(parts) >> 1
    if not count or not len(parts) & 1 or parts[-1]:
        return None
    keys, values = parts[0:-1:2], parts[1::2]
    written = "|".join(keys)
    if not _are_keys(written, count):
        return None
    # BBO writes keys in lower case (and cards and calls not). A copy in lower case and a
    # comparison, where ``islower`` looked up each character's case in Unicode's tables.
    lowered = written.lower()
    names = keys if lowered == written else lowered.split("|")
    # the column of each pair: after the key, the value and the two bars of the one before
    # (a loop: with accumulate, map and range it was slower)
    columns: list[int] = []
    column = start - shift
    for key, value in zip(keys, values):
        columns.append(column)
        column += len(key) + len(value) + 2
    return Pairs(keys, names, values, [line] * count, columns, [shift] * count)


#: A key as the grammar's PAIR has it: what comes before its first bar
_KEY: Final = dict(TERMINALS)["PAIR"].partition(r"\|")[0]
#: Keys joined by bars
_KEYS: Final = re.compile(rf"{_KEY}(?:\|{_KEY})*")


def _are_keys(written: str, count: int) -> bool:
    """Whether ``written``, ``count`` keys joined by bars, are keys as the grammar has
    them: one or two ASCII letters or digits, the first a letter. Keys of two characters
    each (BBO's) put a key's first characters at every third place, and its second
    characters after them: two slices of ASCII bytes, whose methods need no Unicode
    table (a bar in either slice is a key of another length, never a good one when the
    lengths add up to two a key). Others are matched by the regular expression."""
    if len(written) == 3 * count - 1 and written.isascii():
        code = written.encode("ascii")
        return code[0::3].isalpha() and code[1::3].isalnum()
    return _KEYS.fullmatch(written) is not None
