"""The LIN reader: ``pbnkit.read("match.lin")`` yields the same games a PBN file does.

A LIN file is read whole (BBO files are small; a vugraph match is a few hundred kB),
parsed into pairs, grouped into boards and mapped to PBN tags (:mod:`pbnkit.lin.records`).
A syntax error becomes a diagnostic; reading goes on after the bad pair, so one bad pair
costs that pair.
"""

from __future__ import annotations

import re
from codecs import BOM_UTF8
from collections.abc import Iterable, Iterator
from dataclasses import replace

from pbnkit.diagnostics import Diagnostic
from pbnkit.formats.reader import Encoding, Reader, Source, bytes_of
from pbnkit.lin.board import LinBoard
from pbnkit.lin.columns import Pairs, of_pairs
from pbnkit.lin.pair import Pair
from pbnkit.lin.parser import (LinSyntaxError, has_key, iter_pairs, lines_of_pairs,
                               parse_pairs, runs_of, skip_after_error)
from pbnkit.lin.records import FileContext, group_records, one_line, record_tags, tag
from pbnkit.records import Game, TagValues

_MAX_ERRORS = 20
_BLANKABLE = re.compile(r"[^\n]")


class LinReader(Reader):
    """Iterate over the boards of one LIN file, as :class:`Game` records.

    A :class:`~pbnkit.formats.reader.Reader` as the PBN reader is, so that every command
    and the library take either; only the reading differs. A LIN file is never cut into
    parts. ``reached`` means what it means for any reader: when a board is given out, no
    finding of the boards still to come can be before that line (see :func:`_reached`),
    so that ``validate`` lists findings as the boards are checked.
    """

    def __init__(self, source: Source, path: str | None = None, strict: bool = False,
                 data: bytes | None = None):
        super().__init__(source, path, strict)
        self._data = data  # the file's bytes, when they were read to tell its format

    def __iter__(self) -> Iterator[Game]:
        data = self._data
        yield from self._boards(bytes_of(self._source) if data is None else data)

    def _boards(self, data: bytes) -> Iterator[Game]:
        bom = data.startswith(BOM_UTF8)
        body = data[len(BOM_UTF8):] if bom else data
        try:
            text, codec = body.decode("utf-8"), "utf-8"
            self.encoding_info = Encoding(bom=bom)
        except UnicodeDecodeError:
            # BBO writes UTF-8; older files are Latin-1, which decodes any byte.
            text, codec = body.decode("latin-1"), "latin-1"
            self.encoding_info = Encoding(bom=bom, fallback_lines=[1])
        problems: list[tuple[int, Diagnostic]] = []
        runs: Iterable[Pairs]
        if "qx|" not in text.lower():  # no pair is a qx: boards start at their pn or md
            runs, by_qx = _runs(text, problems), False
        else:  # a vugraph file, most likely: whether a qx is a key, and so starts the
            # boards, is known before the first board is read
            runs_found = runs_of(text)
            if runs_found is not None:
                runs, by_qx = iter_pairs(text, runs_found), has_key(text, runs_found, "qx")
            else:
                pairs = _pairs_with_recovery(text, problems)
                runs = [of_pairs(pairs)] if pairs else []
                by_qx = any(pair.name == "qx" for pair in pairs)
        records = group_records(runs, by_qx)
        header = next(records)
        head_text = one_line(text[header.start:header.end]) if header is not None else ""
        context = FileContext()
        if header is not None:
            for at in range(len(header)):
                context.take(header.pair(at))
        to_bytes = _ByteOffsets(text, codec, len(data) - len(body))
        # A record's bytes run up to the next record: it is given out once that is found.
        held: Pairs | None = None
        for record in records:
            assert record is not None  # only the header may be none
            if held is not None:
                game = self._game(held, record.start, data, to_bytes, text, context,
                                  problems, head_text, header, last=False)
                self.reached = _reached(record.lines[0], context)
                yield game
            else:
                self.original_head = data[:to_bytes(record.start)]
                self.diagnostics.extend(replace(d, path=self.path) for at, d in problems
                                        if at < record.start)
            held = record
        if held is None:
            self.original_head = data
            self.diagnostics.extend(replace(d, path=self.path) for _, d in problems)
        else:
            game = self._game(held, len(text), data, to_bytes, text, context, problems,
                              head_text, header, last=True)
            self.reached = text.count("\n") + 1  # the line after the last (or the last, unended)
            yield game
        self.original_tail = b""

    def _game(self, record: Pairs, end: int, data: bytes, to_bytes: _ByteOffsets,
              text: str, context: FileContext, problems: list[tuple[int, Diagnostic]],
              head_text: str, header: Pairs | None, last: bool) -> Game:
        """The Game of a record whose bytes run to character ``end``."""
        index = self.games_read
        start = record.start
        found = [d for at, d in problems if start <= at < end] if problems else []
        lin = one_line(text[start:record.end])
        tags, claim = record_tags(record, context, lin, found)
        header_text = None
        if index == 0 and header is not None:
            # the file's header, kept with its first board (a tag, as the archive stores it)
            tags += (tag("LinHeader", head_text, header.pair(0)),)
            header_text = head_text
        values = TagValues({t.name: t.value for t in reversed(tags)})
        board = values.get("Board")
        self.games_read += 1
        return Game(tags, (), record.lines[0], index, self.path, values,
                    tuple([_at(d, self.path, board) for d in found]) if found else (),
                    data[to_bytes(start):to_bytes(end)],
                    self.original_head if index == 0 else None, b"" if last else None,
                    LinBoard(lin, header_text, claim))


def _reached(line: int, context: FileContext) -> int:
    """``reached`` once the record starting at ``line`` is found: a board's findings are
    at its own pairs, or at those of the file's context it takes tags from (the header's
    ``vg``, ``pn`` and ``rs``, which may come before the boards already read)."""
    first = context.first_line
    return line if first is None or first > line else first


def _at(diagnostic: Diagnostic, path: str | None, board: str | None) -> Diagnostic:
    return Diagnostic(diagnostic.code, diagnostic.message, diagnostic.line,
                      diagnostic.column, path, board, diagnostic.severity)


def _runs(text: str, problems: list[tuple[int, Diagnostic]]) -> Iterator[Pairs]:
    """The pairs of a text, a run at a time, as they are read: line by line while the
    lines are pairs only (:func:`lines_of_pairs`), then by the regular expression from
    the first line that is not, else, when the rest holds a syntax error, by Lark with
    recovery (reported in ``problems``, which the reader looks in as it gives out each
    board: a board is given out once the next is found, so its problems are known)."""
    rest = yield from lines_of_pairs(text)
    if rest is None:
        return
    offset, line = rest
    found = runs_of(text, offset, line)
    if found is not None:
        yield from iter_pairs(text, found)
        return
    # the lines read are blanked, keeping every position: Lark reads the same pairs
    # and errors after them as in the whole text
    pairs = _pairs_with_recovery(_BLANKABLE.sub(" ", text[:offset]) + text[offset:], problems)
    if pairs:
        yield of_pairs(pairs)


def _pairs_with_recovery(text: str, problems: list[tuple[int, Diagnostic]]) -> list[Pair]:
    """The pairs of the text; after a syntax error the malformed pair (or the rest of the
    line) is blanked, keeping every position, and the text parsed again. After
    ``_MAX_ERRORS`` errors the rest of the file is blanked."""
    errors = 0
    while True:
        try:
            return parse_pairs(text)
        except LinSyntaxError as error:
            errors += 1
            offset = min(error.offset, len(text))
            problems.append((offset, Diagnostic("SY001", error.message, error.line,
                                                error.column)))
            end = skip_after_error(text, offset)
            if errors >= _MAX_ERRORS:
                problems.append((offset, Diagnostic(
                    "SY008", f"{errors} syntax errors; the rest of the file is skipped",
                    error.line, error.column)))
                end = len(text)
            end = max(end, offset + 1)
            text = text[:offset] + _BLANKABLE.sub(" ", text[offset:end]) + text[end:]


class _ByteOffsets:
    """The byte offset (after ``head`` bytes of BOM) of a character offset, asked in
    increasing order: one pass over the text in all."""

    def __init__(self, text: str, codec: str, head: int):
        self._text, self._codec = text, codec
        self._ascii = text.isascii()
        self._done, self._position = 0, head

    def __call__(self, offset: int) -> int:
        if self._ascii:
            return self._position + offset
        self._position += len(self._text[self._done:offset].encode(self._codec))
        self._done = offset
        return self._position
