"""The Lark parser of the PBN grammar (``grammars/pbn.lark``), built once, the first time a
game needs it: the games the fast path of :mod:`pbnkit.pbn.parser` cannot read, and every
syntax error. No Lark exception leaves this module."""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any, cast

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from pbnkit.pbn.parser import SHAPERS, GameSyntaxError, Shaped, bare_tag_pair, brace_comment, \
    escape_line, grammar_path, line_comment, string, tag_pairs, words
from pbnkit.pbn.records import Element, TagPair


class _Shape(Transformer[Token, Shaped]):
    """Turn the Lark parse of a game into (preamble elements, tag pairs).

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

    def game(self, children: list[Any]) -> Shaped:
        preamble = tuple(c for c in children if type(c) is Element)
        tags = tuple(tag for block in children if type(block) is list for tag in block)
        return preamble, tags

    def tag_block(self, children: list[Any]) -> list[TagPair]:
        tags: list[TagPair] = children[0]
        if len(children) > 1:
            tags[-1] = tags[-1]._replace(body=tuple(children[1:]))
        return tags

    def _shaped(self, shaper: Callable[[str, int, int], Any], token: Token) -> Any:
        # The lexer always sets line and column; Lark's types say they may be missing.
        return shaper(token.value, cast(int, token.line) + self.line_offset,
                      cast(int, token.column))

    # Lark finds terminal callbacks by the terminal's name.
    def TAG_PAIRS(self, token: Token) -> Any:
        return self._shaped(tag_pairs, token)

    def BARE_TAG_PAIR(self, token: Token) -> Any:
        return self._shaped(bare_tag_pair, token)

    def WORDS(self, token: Token) -> Any:
        return self._shaped(words, token)

    def STRING(self, token: Token) -> Any:
        return self._shaped(string, token)

    def BRACE_COMMENT(self, token: Token) -> Any:
        return self._shaped(brace_comment, token)

    def LINE_COMMENT(self, token: Token) -> Any:
        return self._shaped(line_comment, token)

    def ESCAPE_LINE(self, token: Token) -> Any:
        return self._shaped(escape_line, token)


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


def parse(text: str, first_line: int) -> Shaped:
    """Parse one game's text with Lark; positions are file positions. Raises
    :class:`GameSyntaxError` at the first syntax error."""
    _SHAPE.line_offset = first_line - 1
    try:
        preamble, tags = cast(Shaped, _parser().parse(text))
    except UnexpectedInput as error:
        raise _syntax_error(error, text, first_line) from None
    except LarkError as error:  # anything else Lark may raise is still a syntax problem
        raise GameSyntaxError(f"cannot parse game: {error}", first_line, 1, 0) from None
    return preamble, tags


def terminals_source() -> str:
    """The text of :mod:`pbnkit.pbn.terminals`, from the Lark parser of the grammar."""
    parser = _parser()
    terminals = sorted(parser.terminals, key=lambda t: (  # as in lark.lexer.BasicLexer
        -t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
    ignored = sorted(parser.ignore_tokens)
    unknown = {t.name for t in terminals} - set(ignored) - SHAPERS.keys()
    assert not unknown, f"no shaping for terminals {unknown}"
    rows = "".join(f"    ({t.name!r}, {t.pattern.to_regexp()!r}),\n" for t in terminals)
    return (f'"""{_TERMINALS_DOC}"""\n\n'
            "TERMINALS: tuple[tuple[str, str], ...] = (\n" + rows + ")\n"
            f"IGNORED = frozenset({ignored!r})\n")


_TERMINALS_DOC = """The terminals of grammars/pbn.lark as regular expressions, in the order Lark's
lexer tries them: what the reader's fast path matches, without loading the grammar and
building the Lark parser, which would slow every start (Lark parses
only the games the fast path cannot read).

Made by ``pbnkit.pbn.lark_parser.terminals_source()``; tests/test_reader_fast_path.py checks it
is current. After a change of the grammar::

    python -c "from pbnkit.pbn.lark_parser import terminals_source as t; print(t(), end='')" \\
        > pbnkit/pbn/terminals.py
"""


def _syntax_error(error: UnexpectedInput, text: str, first_line: int) -> GameSyntaxError:
    # Lark declares pos_in_stream as None, and sets an int: read it untyped
    position: int | None = getattr(error, "pos_in_stream", None)
    offset = position if position is not None else 0
    line = (getattr(error, "line", None) or 1)
    column = (getattr(error, "column", None) or 1)
    if isinstance(error, UnexpectedCharacters):
        char = text[offset] if offset < len(text) else ""
        message = _describe_character(char, text, offset)
    elif isinstance(error, UnexpectedToken):
        if error.token.type == "$END":
            message = "unexpected end of game"
        elif error.token.type in ("WORDS", "STRING"):
            message = f"section data before the first tag: {_shown(_excerpt(error.token.value))}"
        else:
            message = f"unexpected {_shown(_excerpt(str(error.token.value)))}"
    else:
        message = "unexpected end of game"
    if isinstance(offset, int) and offset >= len(text):
        line, column = text.count("\n") + 1, len(text) - text.rfind("\n")
    return GameSyntaxError(message, line + first_line - 1, column, offset)


def _shown(text: str) -> str:
    """Text quoted as the file has it: ``repr`` would double every backslash, and PBN
    values hold backslashes ("Rank\\2R"); only characters that do not print are escaped."""
    return "'" + "".join(char if char.isprintable() else f"\\x{ord(char):02x}"
                         for char in text) + "'"


def _excerpt(text: str, size: int = 40) -> str:
    return text if len(text) <= size else text[:size] + "..."


def _describe_character(char: str, text: str, offset: int) -> str:
    if char == "[":
        return f"malformed tag pair: {_shown(_excerpt(text[offset:].split(chr(10), 1)[0]))}"
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
