"""The terminals of grammars/lin.lark as regular expressions: what reads LIN files
without loading Lark (see pbnkit.lin.parser).

Made by ``pbnkit.lin.lark_parser.terminals_source()``; tests/test_lin_reader.py checks it is
current. After a change of the grammar::

    python -c "from pbnkit.lin.lark_parser import terminals_source as t; print(t(), end='')" \
        > pbnkit/lin/terminals.py
"""

TERMINALS: tuple[tuple[str, str], ...] = (
    ('PAIR', '[A-Za-z][A-Za-z0-9]?\\|[^|]*\\|'),
    ('_GAP', '[ \t\r\n\\v\x0c]+'),
)
