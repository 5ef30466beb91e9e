"""The Lark parser of the LIN grammar (``grammars/lin.lark``), built once, the first time a
text needs it: one that the regular expressions of :mod:`pbnkit.lin.parser` cannot read.
No Lark exception leaves this module."""

from __future__ import annotations

import functools
from typing import cast

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedInput

from pbnkit.formats.reader import grammar_file
from pbnkit.lin.parser import LinSyntaxError, Pair, describe, shape_pair


class _Shape(Transformer[Token, list[Pair]]):
    """Turn Lark's parse of a file into its pairs, in order."""

    def lin(self, children: list[Pair]) -> list[Pair]:
        return children

    def PAIR(self, token: Token) -> Pair:  # noqa: N802 -- Lark finds it by terminal name
        # The lexer always sets the positions; Lark's types say they may be missing.
        return shape_pair(token.value, cast(int, token.line), cast(int, token.column),
                          cast(int, token.start_pos))


@functools.cache
def _parser() -> Lark:
    return Lark(
        grammar_file("lin.lark").read_text(encoding="utf-8"),
        start="lin",
        parser="lalr",          # linear time, and lets the transformer run during the parse
        lexer="contextual",     # only the terminals the parser can accept next are tried
        transformer=_Shape(),   # no tree is built: pairs come straight out of the parse
        propagate_positions=False,
        maybe_placeholders=False,
    )


def parse(text: str) -> list[Pair]:
    """The pairs of a whole LIN text, by Lark. Raises :class:`LinSyntaxError` at the first
    text that is neither a pair nor white space."""
    try:
        return cast(list[Pair], _parser().parse(text))
    except UnexpectedInput as error:
        raise _syntax_error(error, text) from None
    except LarkError as error:  # anything else Lark may raise is still a syntax problem
        raise LinSyntaxError(f"cannot parse: {error}", 1, 1, 0) from None


def terminals_source() -> str:
    """The text of :mod:`pbnkit.lin.terminals`, from the Lark parser of the grammar."""
    patterns = {t.name: t.pattern.to_regexp() for t in _parser().terminals}
    assert set(patterns) == {"PAIR", "_GAP"}, f"no shaping for terminals {set(patterns)}"
    rows = "".join(f"    ({name!r}, {pattern!r}),\n" for name, pattern in sorted(patterns.items()))
    return f'"""{_TERMINALS_DOC}"""\n\nTERMINALS: tuple[tuple[str, str], ...] = (\n{rows})\n'


_TERMINALS_DOC = """The terminals of grammars/lin.lark as regular expressions: what reads LIN files
without loading Lark (see pbnkit.lin.parser).

Made by ``pbnkit.lin.lark_parser.terminals_source()``; tests/test_lin_reader.py checks it is
current. After a change of the grammar::

    python -c "from pbnkit.lin.lark_parser import terminals_source as t; print(t(), end='')" \\
        > pbnkit/lin/terminals.py
"""


def _syntax_error(error: UnexpectedInput, text: str) -> LinSyntaxError:
    # Lark declares pos_in_stream as None, and sets an int: read it untyped (see
    # pbnkit.pbn.parser)
    position: int | None = getattr(error, "pos_in_stream", None)
    offset = position if position is not None else len(text)
    line = getattr(error, "line", None) or 1
    column = getattr(error, "column", None) or 1
    if isinstance(error, UnexpectedCharacters):
        message = describe(text, offset)
    else:
        message = "unexpected end of file"
    return LinSyntaxError(message, line, column, offset)
