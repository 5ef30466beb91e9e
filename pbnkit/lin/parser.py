"""A LIN file's text read into pairs with positions (:class:`Pair` records, or
:class:`~pbnkit.lin.columns.Pairs` columns): a line at a time, each line cut at its bars
and its keys checked against the grammar's key, while the lines are pairs only; by
regular expressions made of the grammar's terminals; or, for a text they cannot read, by
the Lark parser of :mod:`pbnkit.lin.lark_parser`, which is loaded only then. No Lark
exception leaves these modules."""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Generator, Iterator
from itertools import repeat
from typing import Final

from pbnkit.lin.columns import Pairs, of_line, of_pairs
from pbnkit.lin.pair import Pair, shape_pair
from pbnkit.lin.terminals import TERMINALS

__all__ = ["LinSyntaxError", "Pair", "Pairs", "has_key", "iter_pairs", "lines_of_pairs",
           "parse_pairs", "runs_of", "shape_pair", "skip_after_error"]


class LinSyntaxError(Exception):
    """A syntax error in a LIN text, in pbnkit's terms (never a Lark exception)."""

    def __init__(self, message: str, line: int, column: int, offset: int):
        super().__init__(message)
        self.message, self.line, self.column, self.offset = message, line, column, offset


# ----------------------------------------------------------------------------
#  Fast path
# ----------------------------------------------------------------------------
#
# The grammar is `(PAIR | _GAP)*` with terminals that start with distinct characters, so
# regular expressions of the same two terminals find the same tokens as Lark's lexer:
# runs of pairs between white space, each run cut into its pairs at its bars (a value
# holds no bar). Where they find neither, Lark parses the text and gives the error.

@functools.cache
def _terminals() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A run of the grammar's PAIRs or its white space; and one PAIR."""
    patterns = dict(TERMINALS)  # from the grammar: see pbnkit.lin.terminals
    pair = patterns["PAIR"]
    run = f"(?:{pair})+"
    if sys.version_info >= (3, 11):
        # Possessive repeats (?+ *+ ++, from Python 3.11): in a PAIR a class is followed
        # by a bar, which it does not match, and a run by no pair, so neither would give
        # back what it took. The same pairs, read without saving a place to go back to
        # at each character, which makes the fast path's match much faster.
        run = "(?:" + _CLASS_REPEAT.sub(r"\g<0>+", pair) + ")++"
    return re.compile(f"(?P<RUN>{run})|{patterns['_GAP']}"), re.compile(pair)


#: A character class's ``?`` or ``*``, to be made possessive
_CLASS_REPEAT = re.compile(r"\][?*]")


#: A run of pairs between white space: its character offsets, and the line it starts on
#: and the offset of that line's first character.
Run = tuple[int, int, int, int]


def parse_pairs(text: str) -> list[Pair]:
    """The pairs of a whole LIN text. Raises :class:`LinSyntaxError` at the first text that
    is neither a pair nor white space."""
    runs = runs_of(text)
    if runs is not None:
        return [run.pair(at) for run in iter_pairs(text, runs) for at in range(len(run))]
    from pbnkit.lin.lark_parser import parse  # Lark is slow to load: only when needed

    return parse(text)


def runs_of(text: str, pos: int = 0, line: int = 1) -> list[Run] | None:
    """The runs of pairs of a text that is all pairs and white space from offset ``pos``
    (the start of line ``line``) on, as Lark would read it; None for any other text (Lark
    then says what is wrong). Two regular-expression matches a board: the pairs
    themselves are cut out later, as they are read."""
    found_runs: list[Run] = []
    line_start = pos
    for found in _terminals()[0].finditer(text, pos):
        start, stop = found.span()
        if start != pos:
            return None
        if found.lastgroup == "RUN":
            found_runs.append((start, stop, line, line_start))
        newlines = text.count("\n", start, stop)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", start, stop) + 1
        pos = stop
    return found_runs if pos == len(text) else None


def lines_of_pairs(text: str) -> Generator[Pairs, None, tuple[int, int] | None]:
    """The pairs of the text's lines, a line at a time, while each line is pairs only or
    white space only: the common file, a board or a trick a line. At the first line that
    is neither (white space between two pairs, a value over two lines, a syntax error)
    it stops, and returns where that line starts: its offset and its number (None: the
    whole text was read), for :func:`runs_of` to go on from there.

    A line is cut at its bars and its keys checked (:func:`~pbnkit.lin.columns.of_line`),
    which finds the pairs the grammar's terminals find. The text is not first matched
    with the regular expression of :func:`runs_of`: with the search for a ``qx`` key
    among the runs it found, that was a noticeable share of the reader's work."""
    pos, line, size = 0, 1, len(text)
    while pos < size:
        end = text.find("\n", pos)
        if end < 0:
            end = size
        run = text[pos:end]
        pairs = of_line(run, pos, line, pos - 1)
        if pairs is None:  # blanks around the pairs (a "\r" before the line end), or worse
            inner = run.strip(_BLANKS)
            if inner:
                blanks = len(run) - len(run.lstrip(_BLANKS))
                pairs = of_line(inner, pos + blanks, line, pos - 1) if inner != run else None
                if pairs is None:
                    return pos, line
                yield pairs
        else:
            yield pairs
        pos, line = end + 1, line + 1
    return None


#: The grammar's white space, but the line end (``_GAP``)
_BLANKS: Final = " \t\r\v\f"


def iter_pairs(text: str, runs: list[Run]) -> Iterator[Pairs]:
    """The pairs of the runs, lazily: a run's pairs at a time, as columns."""
    return map(_pairs_of_run, repeat(text), runs)


def _pairs_of_run(text: str, run: Run) -> Pairs:
    start, stop, line, line_start = run
    token = text[start:stop]
    if "\n" not in token:  # the common run: a line of pairs, cut at its bars
        found = of_line(token, start, line, line_start - 1)
        assert found is not None  # the regular expression found it pairs only
        return found
    pairs: list[Pair] = []  # a value with a line end: pair by pair
    for one in _terminals()[1].finditer(token):
        at = start + one.start()
        pairs.append(shape_pair(one.group(), line, at - line_start + 1, at))
        if "\n" in one.group():
            line += one.group().count("\n")
            line_start = text.rfind("\n", at, start + one.end()) + 1
    return of_pairs(pairs)


def has_key(text: str, runs: list[Run], name: str) -> bool:
    """Whether a pair of the runs has the key ``name`` (lower case), without cutting
    out the pairs of the runs that cannot hold it."""
    marker = name + "|"
    for start, stop, _, _ in runs:
        token = text[start:stop].lower()
        if marker in token and name in token.split("|")[0:-1:2]:
            return True
    return False


_BAD_PAIR = re.compile(r"[^|\s]*\|[^|]*\|")


def describe(text: str, offset: int) -> str:
    """What is wrong at ``offset``, where neither a pair nor white space starts."""
    rest = text[offset:offset + 40].split("\n", 1)[0]
    bad = _BAD_PAIR.match(text, offset)
    if bad is not None:
        key = bad[0].split("|", 1)[0]
        return f"malformed key {key!r}: a key is one or two letters or digits"
    if text.count("|", offset) < 2:
        return f"unterminated pair {rest!r}: no closing '|'"
    return f"unexpected text {rest!r}"


def skip_after_error(text: str, offset: int) -> int:
    """Where reading goes on after a syntax error at ``offset``: after the malformed pair
    when it is one (a bad key), else at the next line."""
    bad = _BAD_PAIR.match(text, offset)
    if bad is not None:
        return bad.end()
    end = text.find("\n", offset)
    return len(text) if end < 0 else end
