"""The terminals of grammars/pbn.lark as regular expressions, in the order Lark's
lexer tries them: what the reader's fast path matches, without loading the grammar and
building the Lark parser, which would slow every start (Lark parses
only the games the fast path cannot read).

Made by ``pbnkit.pbn.lark_parser.terminals_source()``; tests/test_reader_fast_path.py checks it
is current. After a change of the grammar::

    python -c "from pbnkit.pbn.lark_parser import terminals_source as t; print(t(), end='')" \
        > pbnkit/pbn/terminals.py
"""

TERMINALS: tuple[tuple[str, str], ...] = (
    ('WORDS', "[!#$&'()*+,\\-.\\/0-9:<=>?@A-Z\\\\^_`a-z|~]+(?:[ \t\r\n\\v\x0c]+[!#$&'()*+,\\-.\\/0-9:<=>?@A-Z\\\\^_`a-z|~]+)*"),
    ('TAG_PAIRS', '(?:\\[[ \t\r\n\\v\x0c]*[A-Za-z0-9_]+[ \t\r\n\\v\x0c]*"(?:[^"\\\\\n]|\\\\[^\n])*"[ \t\r\n\\v\x0c]*\\][ \t\r\n\\v\x0c]*)+'),
    ('BARE_TAG_PAIR', '\\[[ \t]*[A-Za-z0-9_]+(?:[ \t]+[^\\]"\n\\[{};]*)?\\]'),
    ('STRING', '"(?:[^"\\\\\n]|\\\\[^\n])*"'),
    ('ESCAPE_LINE', '(?m:^%[^\n]*)'),
    ('__IGNORE_0', '[ \t\r\n\\v\x0c]+'),
    ('BRACE_COMMENT', '\\{[^}]*\\}'),
    ('LINE_COMMENT', ';[^\n]*'),
)
IGNORED = frozenset(['__IGNORE_0'])
