"""The Lark parser for one game's text, loaded once, and the shaping of its tokens
into syntax records. No Lark exception leaves this module."""

from __future__ import annotations

import functools
import re
import threading
from typing import Any, cast
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Transformer
from lark.exceptions import (
    LarkError,
    UnexpectedCharacters,
    UnexpectedInput,
    UnexpectedToken,
)

from pbnkit.pbn.records import Element, ElementKind, TagPair

_GRAMMAR = "pbn.lark"


def grammar_path() -> Path:
    """The grammar inside the installed wheel, else the repository's ``grammars/``."""
    packaged = resources.files("pbnkit") / "grammars" / _GRAMMAR
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "grammars" / _GRAMMAR


_TAG = re.compile(
    r'\[\s*(?P<name>[A-Za-z0-9_]+)\s*'
    r'(?:"(?P<quoted>(?:[^"\\\n]|\\[^\n])*)"|(?P<bare>[^\]]*?))\s*\]'
)
_UNESCAPE = re.compile(r'\\(["\\])')
_TOKENS, _STRING = ElementKind.TOKENS, ElementKind.STRING


def unescape(text: str) -> str:
    """``\\"`` is a quote and ``\\\\`` a backslash; any other backslash is literal."""
    return _UNESCAPE.sub(r"\1", text) if "\\" in text else text


class _Shape(Transformer[Token, "tuple[tuple[Element, ...], tuple[TagPair, ...]]"]):
    """Turn the parse of a game into (preamble elements, tag pairs).

    ``line_offset`` turns the game's line numbers into file line numbers; it is set
    before each parse (the parser is shared, so it lives in thread-local storage).
    """

    def __init__(self) -> None:
        super().__init__()
        self._local = threading.local()

    @property
    def line_offset(self) -> int:
        offset: int = self._local.offset
        return offset

    @line_offset.setter
    def line_offset(self, value: int) -> None:
        self._local.offset = value

    def _where(self, token: Token) -> tuple[int, int]:
        """File line and column of a token (the lexer always sets them; Lark's types
        say they may be missing)."""
        return cast(int, token.line) + self.line_offset, cast(int, token.column)

    def game(self, children: list[Any]) -> tuple[tuple[Element, ...], tuple[TagPair, ...]]:
        preamble = tuple(c for c in children if type(c) is Element)
        tags = tuple(tag for block in children if type(block) is list for tag in block)
        return preamble, tags

    def tag_block(self, children: list[Any]) -> list[TagPair]:
        tags: list[TagPair] = children[0]
        if len(children) > 1:
            tags[-1] = tags[-1]._replace(body=tuple(children[1:]))
        return tags

    def TAG_PAIRS(self, token: Token) -> list[TagPair]:  # noqa: N802 -- Lark terminal callback
        text, (line, column) = token.value, self._where(token)
        tags = []
        if "\n" not in text:
            for match in _TAG.finditer(text):
                start = match.start()
                tags.append(TagPair(match["name"], unescape(match["quoted"]), line,
                                    column + start, (), True, column + match.start("quoted")))
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

    def BARE_TAG_PAIR(self, token: Token) -> list[TagPair]:  # noqa: N802
        match = _TAG.match(token.value)
        assert match is not None
        value = (match["bare"] or "").strip()
        line, column = self._where(token)
        return [TagPair(match["name"], value, line, column, (), False,
                        column + match.start("bare") if value else 0)]

    def WORDS(self, token: Token) -> Element:  # noqa: N802
        return Element(_TOKENS, token.value, *self._where(token))

    def STRING(self, token: Token) -> Element:  # noqa: N802
        return Element(_STRING, unescape(token.value[1:-1]), *self._where(token))

    def BRACE_COMMENT(self, token: Token) -> Element:  # noqa: N802
        return Element(ElementKind.COMMENT, token.value[1:-1], *self._where(token))

    def LINE_COMMENT(self, token: Token) -> Element:  # noqa: N802
        return Element(ElementKind.LINE_COMMENT, token.value[1:], *self._where(token))

    def ESCAPE_LINE(self, token: Token) -> Element:  # noqa: N802
        return Element(ElementKind.ESCAPE, token.value[1:], *self._where(token))


_SHAPE = _Shape()


@functools.cache
def _parser() -> Lark:
    return Lark(
        grammar_path().read_text(encoding="utf-8"),
        start="game",
        parser="lalr",          # linear time, and lets the transformer run during the parse
        lexer="contextual",     # only the terminals the parser can accept next are tried
        transformer=_SHAPE,   # no tree is built: records come straight out of the parse
        propagate_positions=False,
        maybe_placeholders=False,
    )


class GameSyntaxError(Exception):
    """A syntax error in a game, in pbnkit's terms (never a Lark exception)."""

    def __init__(self, message: str, line: int, column: int, offset: int):
        super().__init__(message)
        self.message, self.line, self.column, self.offset = message, line, column, offset


def parse_game(text: str, first_line: int) -> tuple[tuple[Element, ...], tuple[TagPair, ...]]:
    """Parse one game's text. Positions are shifted so they are file positions.

    Raises :class:`GameSyntaxError` at the first syntax error.
    """
    _SHAPE.line_offset = first_line - 1
    try:
        preamble, tags = cast("tuple[tuple[Element, ...], tuple[TagPair, ...]]",
                              _parser().parse(text))
    except UnexpectedInput as error:
        raise _syntax_error(error, text, first_line) from None
    except LarkError as error:  # anything else Lark may raise is still a syntax problem
        raise GameSyntaxError(f"cannot parse game: {error}", first_line, 1, 0) from None
    return preamble, tags


def _syntax_error(error: UnexpectedInput, text: str, first_line: int) -> GameSyntaxError:
    offset = error.pos_in_stream if error.pos_in_stream is not None else 0
    line = (getattr(error, "line", None) or 1)
    column = (getattr(error, "column", None) or 1)
    if isinstance(error, UnexpectedCharacters):
        char = text[offset] if offset < len(text) else ""
        message = _describe_character(char, text, offset)
    elif isinstance(error, UnexpectedToken):
        if error.token.type == "$END":
            message = "unexpected end of game"
        elif error.token.type in ("WORDS", "STRING"):
            message = f"section data before the first tag: {_excerpt(error.token.value)!r}"
        else:
            message = f"unexpected {_excerpt(str(error.token.value))!r}"
    else:
        message = "unexpected end of game"
    if isinstance(offset, int) and offset >= len(text):
        line, column = text.count("\n") + 1, len(text) - text.rfind("\n")
    return GameSyntaxError(message, line + first_line - 1, column, offset)


def _excerpt(text: str, size: int = 40) -> str:
    return text if len(text) <= size else text[:size] + "..."


def _describe_character(char: str, text: str, offset: int) -> str:
    if char == "[":
        return f"malformed tag pair: {_excerpt(text[offset:].split(chr(10), 1)[0])!r}"
    if char == "{":
        return "unterminated {comment}"
    if char == '"':
        return "unterminated string"
    if char == "%":
        return "'%' is only an escape in column 1"
    if char == "]":
        return "']' without a tag pair"
    if char == "}":
        return "'}' without an opening '{'"
    if not char.isprintable():
        return f"control character U+{ord(char):04X} outside a string or comment"
    if ord(char) > 126:
        return f"non-ASCII character {char!r} outside a string or comment"
    return f"unexpected character {char!r}"
