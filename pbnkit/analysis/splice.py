"""``pbnkit analyze`` on a PBN file's own bytes: the double-dummy tags are written into
each record's bytes as read, and nothing else moves.

A tag the record already has keeps its place, its spelling and its layout: a value that
already states the solver's answer (``NS 620``, the same par contracts, the same table)
is left byte for byte; a table whose rows all read is kept row for row, in its order, and
only the tricks that differ are rewritten, in their columns. A tag the record lacks is
added after its last tag, with the record's own line end (CRLF stays CRLF).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pbnkit.analysis.tables import (OPTIMUM_RESULT_COLUMNS, Par, TrickTable, read_hex_tricks,
                                    read_optimum_score, read_par_contracts)
from pbnkit.model.cards import Seat, Strain
from pbnkit.pbn.records import ElementKind, Game, TagPair

_HEAD = rb'\[\s*%s\s*"((?:[^"\\]|\\.)*)"\s*\]'
_TOKEN = re.compile(rb"\S+")
#: an edit of the record's bytes: start, end, the bytes put there
Edit = tuple[int, int, bytes]


def line_end(data: bytes) -> bytes:
    """The line end the text uses: CRLF when its first line ends so."""
    at = data.find(b"\n")
    return b"\r\n" if at > 0 and data[at - 1:at] == b"\r" else b"\n"


class _Lines:
    """Where each line of a record's bytes starts; line 0 is its first tag's."""

    def __init__(self, data: bytes, first: int):
        self.data, self.first = data, first
        self.starts = [0] + [m.end() for m in re.finditer(rb"\n", data)]

    def span(self, line: int) -> tuple[int, int]:
        """The bytes of a file line, without its line end."""
        number = line - self.first
        start = self.starts[number]
        end = self.starts[number + 1] if number + 1 < len(self.starts) else len(self.data)
        text = self.data[start:end]
        return start, start + len(text.rstrip(b"\r\n"))


def _head(lines: _Lines, tag: TagPair) -> re.Match[bytes] | None:
    start, end = lines.span(tag.line)
    pattern = re.compile(_HEAD % re.escape(tag.name.encode("ascii")))
    return pattern.search(lines.data, start, len(lines.data)) if start <= end else None


def _body_lines(tag: TagPair) -> list[int]:
    """The file lines the rows of a tag's table stand on."""
    found: list[int] = []
    for element in tag.body:
        if element.kind in (ElementKind.TOKENS, ElementKind.TOKEN, ElementKind.STRING):
            found += range(element.line, element.line + element.text.count("\n") + 1)
    return sorted(set(found))


def _end(lines: _Lines, tag: TagPair) -> int | None:
    """Where the tag, and the table rows under it, end."""
    head = _head(lines, tag)
    if head is None:
        return None
    body = _body_lines(tag)
    return max(head.end(), lines.span(body[-1])[1]) if body else head.end()


def _value_edit(lines: _Lines, tag: TagPair, value: str) -> Edit | None:
    head = _head(lines, tag)
    if head is None:
        return None
    return head.start(1), head.end(1), value.encode("ascii")


def _rows_edits(lines: _Lines, tag: TagPair, table: TrickTable) -> list[Edit] | None:
    """The tricks of a stated table rewritten in place, row by row; None when a row
    does not read as declarer, denomination and tricks (the table is then written
    anew)."""
    names = [name.split("\\")[0].strip().lower() for name in
             (tag.value if ";" in tag.value else ";".join(tag.value.split())).split(";")]
    names = [{"suit": "denomination", "strain": "denomination", "tricks": "result"}
             .get(name, name) for name in names]
    try:
        where = names.index("declarer"), names.index("denomination"), names.index("result")
    except ValueError:
        return None
    edits: list[Edit] = []
    seen = 0
    for line in _body_lines(tag):
        start, end = lines.span(line)
        tokens = list(_TOKEN.finditer(lines.data, start, end))
        if not tokens:
            continue
        if len(tokens) != len(names):
            return None
        try:
            seat = Seat.from_pbn(tokens[where[0]][0].decode("ascii"))
            named = tokens[where[1]][0].decode("ascii").upper()
            strain = Strain.from_pbn("NT" if named == "N" else named)
            old = int(tokens[where[2]][0])
        except (UnicodeDecodeError, ValueError):
            return None
        seen += 1
        new = table[seat, strain]
        if new == old:
            continue
        cell = tokens[where[2]]
        text, begin = str(new).encode("ascii"), cell.start()
        grow = len(text) - len(cell[0])
        # a right-aligned column gives up a blank before the cell for a longer number
        while grow > 0 and begin - 1 > start and lines.data[begin - 2:begin] == b"  ":
            begin, grow = begin - 1, grow - 1
        edits.append((begin, cell.end(), text))
    return edits if seen == 20 else None


def _same_par(text: str | None, par: Par) -> bool:
    stated = read_par_contracts(text)
    if stated is None:
        return False
    mine = {(tuple(c.declarers), c.contract, c.tricks) for c in par.contracts}
    return {(tuple(sorted(seats)), contract, tricks) for seats, contract, tricks in stated} \
        == mine


def _new_tag(name: str, value: str, rows: Sequence[str], eol: bytes) -> bytes:
    text = f'[{name} "{value}"]'.encode("ascii")
    return eol.join([text] + [row.encode("ascii") for row in rows])


def spliced(game: Game, table: TrickTable, par: Par) -> bytes | None:
    """The record's bytes with its double-dummy tags; None when its bytes were not kept
    or a tag cannot be found in them (the record is then written by the PBN writer)."""
    if not game.original or not game.tags:
        return None
    lines = _Lines(game.original, game.tags[0].line)
    eol = line_end(game.original)
    edits: list[Edit] = []
    added: list[bytes] = []
    wanted = {"OptimumResultTable": (OPTIMUM_RESULT_COLUMNS, table.table_rows()),
              "OptimumScore": (par.optimum_score(), []),
              "ParContract": (par.par_contract(), [])}
    if game.tag("DoubleDummyTricks") is not None:
        wanted["DoubleDummyTricks"] = (table.hex_digits(), [])
    for name, (value, rows) in wanted.items():
        tag = game.tag(name)
        if tag is None:
            added.append(_new_tag(name, value, rows, eol))
            continue
        found = _edits(lines, tag, name, table, par, value, rows, eol)
        if found is None:
            return None
        edits += found
    last = _end(lines, game.tags[-1])
    if last is None:
        return None
    if added:
        edits.append((last, last, b"".join(eol + tag for tag in added)))
    data = game.original
    for start, end, text in sorted(edits, reverse=True):
        data = data[:start] + text + data[end:]
    return data


def _edits(lines: _Lines, tag: TagPair, name: str, table: TrickTable, par: Par,
           value: str, rows: list[str], eol: bytes) -> list[Edit] | None:
    """What changes in a tag the record has: nothing when it states the solver's answer."""
    if name == "OptimumResultTable":
        kept = _rows_edits(lines, tag, table)
        if kept is not None:
            return kept
        head, end = _head(lines, tag), _end(lines, tag)
        if head is None or end is None:
            return None
        return [(head.start(), end, _new_tag(name, value, rows, eol))]
    same = {"OptimumScore": read_optimum_score(tag.value) == par.score_ns,
            "ParContract": _same_par(tag.value, par),
            "DoubleDummyTricks": read_hex_tricks(tag.value) == dict(
                ((seat, strain), table[seat, strain]) for seat, strain, _ in table.rows())}
    if same[name]:
        return []
    edit = _value_edit(lines, tag, value)
    return None if edit is None else [edit]
