"""A LIN board's calls and cards gathered into runs of section tokens, as the PBN reader
keeps a section: one ``TOKENS`` element for many calls or cards, each token still at the
line and column of its own pair.

The reader *places* a section's tokens (:func:`placed`): one run, its tokens between
single blanks, their positions packed beside them. A LIN Play section
cannot be laid out as a PBN file lays out its runs, the tokens where its text puts them:
each trick's cards are listed from the first column's seat, which has not always played
first, so a laid-out section needs a new run wherever a token stands before the one
listed before it (nine runs for a board's cards, on average). The garbage collector
tracks each element: with laid-out runs, its passes took much of a read's time; placed
runs give it far fewer objects to go over.

An archive stores a section's runs laid out (:func:`laid_out`), as before runs were
placed: the same archive, and the same tokens at the same places when it is read back.
"""

from __future__ import annotations

import re
from array import array
from typing import Final

from pbnkit.records import PLACE_TYPE, Element, ElementKind

_TOKENS: Final = ElementKind.TOKENS  # not an attribute look-up for each element
_new_element: Final = tuple.__new__  # an Element without the frame of its __new__
_WIDEST: Final = 256
_BLANKS: Final = tuple(" " * width for width in range(_WIDEST))  # the gaps on a line of pairs
_SPACE: Final = re.compile(r"\s")  # what separates the words of a run (Element.split's \S+)


def section_body(texts: list[str], lines: list[int], columns: list[int],
                 one_line: bool = False) -> tuple[Element, ...]:
    """The elements of a section whose tokens, in the section's order, are ``texts`` at
    ``lines`` and ``columns``: one placed run, unless a token holds white space.
    ``one_line``: every token is on line ``lines[0]``, the only one ``lines`` needs."""
    text = " ".join(texts)
    # a token holds a blank when there are more blanks than between the tokens, or
    # other white space, which is never printable
    if text.count(" ") >= len(texts) or (not text.isprintable()
                                         and _has_blank("".join(texts))):
        # a value BBO would not write
        return _with_blanks(texts, lines[:1] * len(texts) if one_line else lines, columns)
    return (_placed_run(text, lines, columns, one_line),)


def placed(texts: list[str], lines: list[int], columns: list[int]) -> Element:
    """A placed run (see :class:`~pbnkit.records.Element`) of the tokens ``texts``,
    none of which holds white space, each at its line and column."""
    return _placed_run(" ".join(texts), lines, columns)


def _placed_run(text: str, lines: list[int], columns: list[int],
                one_line: bool = False) -> Element:
    """A placed run of the tokens joined by blanks in ``text``: their columns only when
    they all stand on one line (a board on one line, most), else their lines and columns
    in one array."""
    places = array(PLACE_TYPE, columns if one_line else lines + columns).tobytes()
    return _new_element(Element, (_TOKENS, text, lines[0], columns[0], places))


def laid_out(body: tuple[Element, ...]) -> tuple[Element, ...]:
    """A body with each placed run as the runs that lay out its tokens where they stand
    (the body itself when it has no placed run)."""
    if not any(element.places for element in body):
        return body
    elements: list[Element] = []
    for element in body:
        if not element.places:
            elements.append(element)
            continue
        elements += _runs(element.text.split(" "), *element.positions())
    return tuple(elements)


def _runs(texts: list[str], lines: list[int], columns: list[int]) -> list[Element]:
    """Laid-out runs of tokens that hold no white space: a token that does not stand
    after the run's last one, a blank or more further on, starts a new run."""
    elements: list[Element] = []
    text, line0, column0 = texts[0], lines[0], columns[0]
    parts = [text]
    end_line, end = line0, column0 + len(text)  # where the run stands: line, column after
    for at in range(1, len(texts)):
        text, line, column = texts[at], lines[at], columns[at]
        gap = column - end
        if gap > 0 and line == end_line:  # further on the line: most tokens
            parts.append(_BLANKS[gap] if gap < _WIDEST else " " * gap)
            parts.append(text)
            end = column + len(text)
        elif line > end_line:
            parts.append("\n" * (line - end_line) + " " * (column - 1))
            parts.append(text)
            end_line, end = line, column + len(text)
        else:  # at or before the run's last token: a run of its own
            elements.append(_new_element(Element, (_TOKENS, "".join(parts), line0, column0,
                                                   b"")))
            parts = [text]
            line0 = end_line = line
            column0, end = column, column + len(text)
    elements.append(_new_element(Element, (_TOKENS, "".join(parts), line0, column0, b"")))
    return elements


def _has_blank(text: str) -> bool:
    """Whether ``text`` holds white space (``\\s``). White space is the blank or
    not printable (categories Cc, Zs, Zl, Zp): a text with neither is decided by two
    string methods, not by searching it with the regular expression."""
    return (" " in text or not text.isprintable()) and _SPACE.search(text) is not None


def _with_blanks(texts: list[str], lines: list[int],
                 columns: list[int]) -> tuple[Element, ...]:
    """A token that holds white space is an element of its own, which splits as the file
    has it; the others form placed runs between them."""
    elements: list[Element] = []
    start = 0
    for at, text in enumerate(texts):
        if _has_blank(text):
            if start < at:
                elements.append(placed(texts[start:at], lines[start:at], columns[start:at]))
            elements.append(_new_element(Element, (_TOKENS, text, lines[at], columns[at],
                                                   b"")))
            start = at + 1
    if start < len(texts):
        elements.append(placed(texts[start:], lines[start:], columns[start:]))
    return tuple(elements)
