"""Numbers read from a file's text: a board, a trick count, a note or a NAG, a score.

A file may hold anything where a number should be: a digit of another script (``²``,
``٣``, which ``str.isdigit`` accepts and ``int`` refuses or reads), or thousands of
digits, past which the interpreter refuses to read a number at all. Every number read
from the text goes through :func:`whole_number`, so that no value makes ``int`` raise; the
module imports nothing, so that the reader's lowest layer can use it.
"""

from __future__ import annotations

#: the most digits a number read from a file may have: more than any board, count or
#: score needs, and few enough that every such number fits a 64-bit integer column
MAX_DIGITS = 18


def whole_number(text: str) -> int | None:
    """The number ``text`` writes in ASCII digits, with nothing around them; None for
    anything else: a sign, a space, a digit of another script, an empty text, or more
    than MAX_DIGITS digits."""
    if 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


def signed_number(text: str) -> int | None:
    """:func:`whole_number`, after one optional sign (``+7``, ``-7``)."""
    sign = text[:1]
    number = whole_number(text[1:] if sign in ("+", "-") else text)
    return -number if number is not None and sign == "-" else number
