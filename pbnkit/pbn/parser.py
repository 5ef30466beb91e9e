"""One game's text read into syntax records: the common case by a fast path of regular
expressions made of the grammar's terminals, the rest (every syntax error included) by the
Lark parser of :mod:`pbnkit.pbn.lark_parser`, which is loaded only then. No Lark
exception leaves these modules."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Sequence
from typing import Any
from pathlib import Path

from pbnkit.formats.reader import grammar_file
from pbnkit.pbn.records import Element, ElementKind, TagPair
from pbnkit.pbn.terminals import IGNORED, TERMINALS

def grammar_path() -> Path:
    """PBN's grammar, ``grammars/pbn.lark``."""
    return grammar_file("pbn.lark")


_TAG = re.compile(
    r'\[\s*(?P<name>[A-Za-z0-9_]+)\s*'
    r'(?:"(?P<quoted>(?:[^"\\\n]|\\[^\n])*)"|(?P<bare>[^\]]*?))\s*\]'
)
# The usual layout of a run of tag pairs: one `[Name "value"]` per line from column 1.
# Its positions follow from the line count alone, so no match object is needed per tag.
# The value is TAG_PAIRS's `(?:[^"\\\n]|\\[^\n])*` unrolled (plain characters in one
# class, then each escape and the plain run after it): the same strings, matched without
# an alternation per character, which makes these the reader's cheapest regexes per tag.
_VALUE = r'[^"\\\n]*(?:\\[^\n][^"\\\n]*)*'
_PLAIN_TAG = re.compile(rf'^\[([A-Za-z0-9_]+) "({_VALUE})"\]$', re.MULTILINE)
#: Whole lines of plain tag pairs from column 1: always the start of a TAG_PAIRS token.
_PLAIN_RUN = re.compile(rf'(?:\[[A-Za-z0-9_]+ "{_VALUE}"\](?:\n|\Z))+')
_UNESCAPE = re.compile(r'\\(["\\])')
_WORD = re.compile(r"\S")
_TOKENS, _STRING = ElementKind.TOKENS, ElementKind.STRING
#: builds a TagPair or Element without the Python frame of its __new__ (a named tuple's
#: constructor and ``_replace`` are Python code; a game has some twenty of them)
_new = tuple.__new__

Shaped = tuple[tuple[Element, ...], tuple[TagPair, ...]]


def unescape(text: str) -> str:
    """``\\"`` is a quote and ``\\\\`` a backslash; any other backslash is literal."""
    return _UNESCAPE.sub(r"\1", text) if "\\" in text else text


# Shaping of tokens into records, shared by the fast path and the Lark transformer.
# Each takes the token's text and its file line and column.

def tag_pairs(text: str, line: int, column: int) -> list[TagPair]:
    """The tag pairs of a TAG_PAIRS token."""
    if column == 1:
        # The run's lines (it ends in white space) are its tag pairs if each is one whole.
        run = text.rstrip()
        pairs = _PLAIN_TAG.findall(run)
        if len(pairs) == run.count("\n") + 1:
            return _plain_tag_pairs(pairs, line)
    tags = []
    if "\n" not in text:
        for match in _TAG.finditer(text):
            tags.append(TagPair(match["name"], unescape(match["quoted"]), line,
                                column + match.start(), (), True, column + match.start("quoted")))
        return tags
    line_start = -column + 1  # offset in text of the current line's first character
    scanned = 0
    for match in _TAG.finditer(text):
        start = match.start()
        newlines = text.count("\n", scanned, start)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", 0, start) + 1
        scanned = start
        value_start = match.start("quoted")
        value_column = value_start - line_start + 1 if "\n" not in text[start:value_start] else 0
        tags.append(TagPair(match["name"], unescape(match["quoted"]), line,
                            start - line_start + 1, (), True, value_column))
    return tags


def _plain_tag_pairs(pairs: list[tuple[str, str]], line: int) -> list[TagPair]:
    """The tag pairs of ``_PLAIN_TAG`` matches on consecutive lines from ``line``."""
    return [_new(TagPair, (name, value if "\\" not in value else unescape(value),
                           line + number, 1, (), True, len(name) + 4))
            for number, (name, value) in enumerate(pairs)]


def bare_tag_pair(text: str, line: int, column: int) -> list[TagPair]:
    """The one tag pair of a BARE_TAG_PAIR token (unquoted value, or none)."""
    match = _TAG.match(text)
    assert match is not None
    value = (match["bare"] or "").strip()
    return [TagPair(match["name"], value, line, column, (), False,
                    column + match.start("bare") if value else 0)]


def words(text: str, line: int, column: int) -> Element:
    return _new(Element, (_TOKENS, text, line, column, b""))


def string(text: str, line: int, column: int) -> Element:
    return Element(_STRING, unescape(text[1:-1]), line, column)


def brace_comment(text: str, line: int, column: int) -> Element:
    return Element(ElementKind.COMMENT, text[1:-1], line, column)


def line_comment(text: str, line: int, column: int) -> Element:
    return Element(ElementKind.LINE_COMMENT, text[1:], line, column)


def escape_line(text: str, line: int, column: int) -> Element:
    return Element(ElementKind.ESCAPE, text[1:], line, column)


def skipped_text(text: str, line: int, column: int) -> Element:
    """Text the reader skipped after a syntax error (a malformed tag pair, a stray
    character), kept as written so that a writer can give it back."""
    return Element(ElementKind.SKIPPED, text, line, column)


#: Terminal name -> shaping function; tag terminals give lists, the others one Element.
SHAPERS: dict[str, Callable[[str, int, int], Any]] = {
    "TAG_PAIRS": tag_pairs, "BARE_TAG_PAIR": bare_tag_pair, "WORDS": words,
    "STRING": string, "BRACE_COMMENT": brace_comment, "LINE_COMMENT": line_comment,
    "ESCAPE_LINE": escape_line,
}


# ----------------------------------------------------------------------------
#  Fast path
# ----------------------------------------------------------------------------
#
# Lark's lexer and parser do work per token in Python. The grammar's terminals are coarse and start
# with distinct characters (only the two tag terminals share `[`), and a game is
# `annotation* (tags element*)*`, so one regular expression made of the same terminals,
# tried in Lark's order, finds the same tokens. Anything else -- no terminal matches, or
# section data before the first tag -- goes to Lark, which gives the error and message.

_IGNORED = "_ignored"
_TAG_TERMINALS = frozenset(("TAG_PAIRS", "BARE_TAG_PAIR"))
_SECTION_DATA = frozenset(("WORDS", "STRING"))


@functools.cache
def terminal(name: str) -> re.Pattern[str]:
    """One terminal of the grammar, compiled."""
    return re.compile(dict(TERMINALS)[name])


@functools.cache
def _master() -> re.Pattern[str]:
    """The grammar's terminals as one alternation, in the order Lark's lexer tries them
    (from :mod:`pbnkit.pbn.terminals`: reading a plain game never loads Lark)."""
    return re.compile("|".join(f"(?P<{_IGNORED if name in IGNORED else name}>{pattern})"
                               for name, pattern in TERMINALS))


def _scan(text: str, first_line: int) -> Shaped | None:
    """Tokens of the common case as Lark would shape them, or None to let Lark parse."""
    match = _master().match
    plain_run, plain_tag = _PLAIN_RUN.match, _PLAIN_TAG.findall
    preamble: list[Element] = []
    tags: list[TagPair] = []
    body: list[Element] = []
    pos, end = 0, len(text)
    line, line_start = first_line, 0  # Lark counts lines by "\n" in every token
    while pos < end:
        if pos == line_start:
            # Most tag pairs are plain whole lines: read them without the master regex,
            # whose TAG_PAIRS terminal costs an alternation per character. The run is the
            # start of the TAG_PAIRS token the master would find; any rest of that token
            # is a token of its own, which shapes to the same tag pairs.
            run = plain_run(text, pos)
            if run is not None:
                stop = run.end()
                _close_body(tags, body)
                tags += _plain_tag_pairs(plain_tag(text, pos, stop), line)
                line += text.count("\n", pos, stop)
                pos = line_start = stop  # the run ends at a line end or the text's end
                continue
        found = match(text, pos)
        if found is None:
            return None
        kind, stop = found.lastgroup, found.end()
        if kind != _IGNORED:
            assert kind is not None
            if not tags and kind in _SECTION_DATA:
                return None  # Lark reports it
            shaped = SHAPERS[kind](found.group(), line, pos - line_start + 1)
            if kind in _TAG_TERMINALS:
                _close_body(tags, body)
                tags += shaped
            else:
                (body if tags else preamble).append(shaped)
        newlines = text.count("\n", pos, stop)
        if newlines:
            line += newlines
            line_start = text.rfind("\n", pos, stop) + 1
        pos = stop
    _close_body(tags, body)
    return tuple(preamble), tuple(tags)


def _close_body(tags: list[TagPair], body: list[Element]) -> None:
    """Give the elements read since the last tag pair to it as its body; empty ``body``."""
    if body:
        name, value, line, column, _, quoted, value_column = tags[-1]
        tags[-1] = _new(TagPair, (name, value, line, column, tuple(body), quoted, value_column))
        body.clear()


# ----------------------------------------------------------------------------
#  Skipped text
# ----------------------------------------------------------------------------
#
# After a syntax error the reader blanks the rest of the line and parses again, keeping
# every position. The text it blanked goes back among the records as SKIPPED elements,
# where it was: in the body of the tag pair before it (or the preamble), between the
# elements around it. A run of section tokens that closed over the blank is split there,
# as the tokens on either side were read before the blank.

def keep_skipped(shaped: Shaped, pieces: Sequence[Element]) -> Shaped:
    """The records of a game with the skipped ``pieces`` (in text order) put back."""
    if not pieces:
        return shaped
    preamble, tags = list(shaped[0]), list(shaped[1])
    starts = [(tag.line, tag.column) for tag in tags]
    for piece in pieces:
        owner = bisect.bisect_left(starts, (piece.line, piece.column)) - 1
        if owner < 0:
            preamble = _insert(preamble, piece)
        else:
            tag = tags[owner]
            tags[owner] = tag._replace(body=tuple(_insert(list(tag.body), piece)))
    return tuple(preamble), tuple(tags)


def _insert(elements: list[Element], piece: Element) -> list[Element]:
    """``elements`` (in text order) with ``piece`` at its place."""
    where = (piece.line, piece.column)
    at = bisect.bisect_left([(e.line, e.column) for e in elements], where)
    before = elements[at - 1] if at else None
    if before is None or before.kind is not _TOKENS:
        return elements[:at] + [piece] + elements[at:]
    return elements[:at - 1] + _split_run(before, piece) + elements[at:]


def _split_run(run: Element, piece: Element) -> list[Element]:
    """A TOKENS run and a piece inside or after it, as the run's tokens before the piece,
    the piece, and the run's tokens after it."""
    text = run.text
    if piece.line == run.line:
        offset = piece.column - run.column
    else:
        lines = text.split("\n")[:piece.line - run.line]
        offset = sum(len(line) + 1 for line in lines) + piece.column - 1
    if offset >= len(text):
        return [run, piece]
    left = text[:offset].rstrip()
    found = _WORD.search(text, offset)
    parts = [run._replace(text=left)] if left else []
    parts.append(piece)
    if found is not None:
        start = found.start()
        line_start = text.rfind("\n", 0, start) + 1
        column = (run.column + start) if line_start == 0 else start - line_start + 1
        parts.append(Element(_TOKENS, text[start:], run.line + text.count("\n", 0, start),
                             column))
    return parts


class GameSyntaxError(Exception):
    """A syntax error in a game, in pbnkit's terms (never a Lark exception)."""

    def __init__(self, message: str, line: int, column: int, offset: int):
        super().__init__(message)
        self.message, self.line, self.column, self.offset = message, line, column, offset


def parse_game(text: str, first_line: int) -> Shaped:
    """Parse one game's text. Positions are shifted so they are file positions.

    The common case is read by :func:`_scan`; the rest, and every syntax error, by Lark. Raises :class:`GameSyntaxError` at the first syntax error.
    """
    shaped = _scan(text, first_line)
    if shaped is not None:
        return shaped
    from pbnkit.pbn.lark_parser import parse  # Lark is slow to load: only when needed

    return parse(text, first_line)
