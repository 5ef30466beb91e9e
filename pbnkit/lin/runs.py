"""A LIN board's calls and cards gathered into runs of section tokens, as the PBN reader
keeps a section: one ``TOKENS`` element for many calls or cards, each token still at the
line and column of its own pair.

LIN puts other text between a board's calls and cards (``mb|1S|mb|p|``...), so a run's
text has blanks and line ends where the file has that text, and
:meth:`~pbnkit.pbn.records.Element.split` (and the section decoder) finds every token
where its pair stands. A token that does not stand after the run's last one, a blank or
more further on, starts a new run: a note made for an alert, at its call's column; the
cards of a trick's leader, written after those of the seats before his in the Play
section's columns.

Why runs: an element for each call and card gave a LIN board three times the objects of
a PBN one, and the garbage collector's passes over them were much of the reader's time.
"""

from __future__ import annotations

import re
from typing import Final

from pbnkit.pbn.records import Element, ElementKind

# Final: compiled, a C variable, not a look-up in the module's dict at each use
_TOKENS: Final = ElementKind.TOKENS
_new_element: Final = tuple.__new__  # an Element without the frame of its __new__
_WIDEST: Final = 256
_BLANKS: Final = tuple(" " * width for width in range(_WIDEST))  # the gaps on a line of pairs
_SPACE: Final = re.compile(r"\s")  # what separates the words of a run (Element.split's \S+)


def section_body(texts: list[str], lines: list[int],
                 columns: list[int]) -> tuple[Element, ...]:
    """The elements of a section whose tokens, in the section's order, are ``texts`` at
    ``lines`` and ``columns``."""
    if _has_blank("".join(texts)):  # a value BBO would not write
        return _with_blanks(texts, lines, columns)
    elements: list[Element] = []
    text, line0, column0 = texts[0], lines[0], columns[0]  # a section's body has a token
    parts = [text]
    end_line, end = line0, column0 + len(text)  # where the run stands: line, column after
    # by index, not over a zip: compiled, three list reads in C, where each step of a
    # zip made a tuple of three
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
            elements.append(_new_element(Element, (_TOKENS, "".join(parts), line0, column0)))
            parts = [text]
            line0 = end_line = line
            column0, end = column, column + len(text)
    elements.append(_new_element(Element, (_TOKENS, "".join(parts), line0, column0)))
    return tuple(elements)


def _has_blank(text: str) -> bool:
    """Whether ``text`` holds white space (``\\s``). White space is the blank or
    not printable (categories Cc, Zs, Zl, Zp): a text with neither is decided by two
    string methods, not by searching it with the regular expression."""
    return (" " in text or not text.isprintable()) and _SPACE.search(text) is not None


def _with_blanks(texts: list[str], lines: list[int],
                 columns: list[int]) -> tuple[Element, ...]:
    """A token that holds white space is an element of its own, which splits as the file
    has it; the others form runs between them."""
    elements: list[Element] = []
    start = 0
    for at, text in enumerate(texts):
        if _has_blank(text):
            if start < at:
                elements += section_body(texts[start:at], lines[start:at], columns[start:at])
            elements.append(_new_element(Element, (_TOKENS, text, lines[at], columns[at])))
            start = at + 1
    if start < len(texts):
        elements += section_body(texts[start:], lines[start:], columns[start:])
    return tuple(elements)
