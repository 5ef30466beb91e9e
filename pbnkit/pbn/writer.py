"""Write games back as PBN text.

The writer lays a game out from the positions its records carry: an element on a later
source line starts a new line (indented to its column), one on the same line follows
after the same gap. A game read from a file therefore comes back almost as written, in
import format, and reading the output gives games with the same content
(``Game.same_content``). Games without positions (line 0) get one tag pair per line.

Export format (PBN 2.1 sections 2.1 and 3) is a matter of *content*: tags in
the canonical order, normalised values, four calls per line. ``pbnkit.export.canonical``
builds that content as a Game with positions, and this writer, with
``export_format=True``, adds the header lines, CRLF line ends and no tabs.

Strings are escaped as PBN 2.1 section 3.2 asks: ``\\"`` for a quote and ``\\\\`` for a
backslash. One exception keeps tables as every PBN program writes them: in the value of
a table tag (``ScoreTable "Rank\\2R;Score_NS\\5R"``) the backslash of a column's minimum
width stays single, which the reader takes literally (a backslash before anything but
``"`` or ``\\``), so the value reads back the same.

Text the reader skipped after a syntax error (``ElementKind.SKIPPED``) is written back
as it was, where it was: a malformed tag pair stays what it was, not lost and not
repaired.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TextIO

from pbnkit.pbn.records import Element, ElementKind, Game, TagPair
from pbnkit.pbn.tables import is_table_tag

#: The first lines of an export-format file (PBN 2.4).
EXPORT_HEADER = ("% PBN 2.1", "% EXPORT")

#: Any backslash but that of a column's minimum width (``\\2R`` before ``;`` or the end).
_NOT_WIDTH = re.compile(r"\\(?![0-9]+[LR]?[ \t]*(?:;|$))")
_BARE_VALUE = re.compile(r'[^\]"\n\[{};]*')
_TOKENS = (ElementKind.TOKENS, ElementKind.TOKEN)


def escape(value: str, table: bool = False) -> str:
    """The inside of a PBN string whose unescaped value is ``value``; ``table`` for the
    value of a table tag, whose column widths keep their single backslash."""
    if "\\" in value:
        value = _NOT_WIDTH.sub(r"\\\\", value) if table else value.replace("\\", "\\\\")
    return value.replace('"', '\\"') if '"' in value else value


def format_tag(name: str, value: str, quoted: bool = True) -> str:
    """``[Name "value"]``; unquoted (as read) only when the value allows it."""
    if not quoted and _BARE_VALUE.fullmatch(value) and value == value.strip():
        return f"[{name} {value}]"
    return f'[{name} "{escape(value, is_table_tag(name))}"]'


def format_element(element: Element) -> str:
    kind, text = element.kind, element.text
    if kind is ElementKind.STRING:
        return f'"{escape(text)}"'
    if kind is ElementKind.COMMENT:
        return "{" + text + "}"
    if kind is ElementKind.LINE_COMMENT:
        return ";" + text
    if kind is ElementKind.ESCAPE:
        return "%" + text
    return text


class PbnWriter:
    """Write games, one after another, to a text stream.

    ``export_format`` starts the file with ``% PBN 2.1`` and ``% EXPORT`` (and a
    ``%Content-type`` line when ``charset`` is given), ends lines with CRLF and turns tabs
    into spaces; the games should come from ``pbnkit.export.canonical.export_form``.
    """

    def __init__(self, stream: TextIO, export_format: bool = False, charset: str | None = None):
        self._stream = stream
        self._export = export_format
        self._newline = "\r\n" if export_format else "\n"
        self._column = 1         # output column of the next character
        self._source: int | None = None  # source line the last element ended on
        self._break = False      # the next element must start a new line
        self._started = False
        self.games = 0
        if export_format:
            header = list(EXPORT_HEADER)
            if charset:
                header.append(f"%Content-type: text/x-pbn; charset={charset}")
            for line in header:
                self._emit(line + "\n")

    def write(self, game: Game) -> None:
        """Write one game, after an empty line unless it is the first thing written."""
        self._separate()
        in_preamble = True
        for element in game.preamble:
            self._element(element, in_preamble)
        for tag in game.tags:
            self._tag(tag, in_preamble)
            in_preamble = False
            for element in tag.body:
                self._element(element, False)
        self.games += 1

    def write_trailer(self, elements: Iterable[Element]) -> None:
        """Commentary and escape lines after the last game (``PbnReader.trailer``)."""
        elements = tuple(elements)
        if elements:
            self._separate()
            for element in elements:
                self._element(element, True)

    def close(self) -> None:
        """End the last line (the stream stays open)."""
        if self._column > 1:
            self._emit("\n")

    # -- Layout ---------------------------------------------------------------------------

    def _separate(self) -> None:
        if self._started:
            if self._column > 1:
                self._emit("\n")
            self._emit("\n")
        self._started = True
        self._source = None
        self._break = False

    def _tag(self, tag: TagPair, after_preamble: bool) -> None:
        text = format_tag(tag.name, tag.value, tag.quoted)
        self._place(tag.line, tag.column, text, new_line=tag.line <= 0, blank_ok=after_preamble)
        self._source = max(self._source or 0, tag.line)

    def _element(self, element: Element, blank_ok: bool) -> None:
        text = format_element(element)
        kind = element.kind
        if kind is ElementKind.ESCAPE:
            self._place(element.line, 1, text, new_line=True, blank_ok=blank_ok, indent=False)
            self._break = True
        else:
            unknown = element.line <= 0 and kind not in (ElementKind.COMMENT,
                                                          ElementKind.LINE_COMMENT)
            skipped = kind is ElementKind.SKIPPED
            self._place(element.line, element.column, text, new_line=unknown, blank_ok=blank_ok,
                        glue=skipped)
            # Skipped text may run to the end of its line (a malformed tag pair, say): what
            # follows it without a position of its own must not join that line.
            self._break = kind is ElementKind.LINE_COMMENT or (skipped and unknown)
        if element.line > 0:
            self._source = element.line + text.count("\n")

    def _place(self, line: int, column: int, text: str, new_line: bool, blank_ok: bool,
               indent: bool = True, glue: bool = False) -> None:
        """Write ``text`` where the source had it, relative to the previous element.
        ``glue``: no space is needed before it when the source had none."""
        source = self._source
        later = source is not None and line > source
        if self._column == 1 and not self._break:
            pad = column - 1 if indent and line > 0 else 0
        elif self._break or new_line or later:
            # Lines without content between two pieces of preamble were a blank line:
            # keep it (it cannot split a game before its first tag).
            blank = blank_ok and later and line > (source or 0) + 1
            self._emit("\n\n" if blank else "\n")
            pad = column - 1 if indent and line > 0 else 0
        else:
            pad = max(0 if glue else 1, column - self._column) if line > 0 else 1
        if indent and not pad and self._column == 1 and text[:1] == "%":
            pad = 1  # skipped text such as a stray '%': in column 1 it would be an escape
        self._break = False
        self._emit(" " * pad + text)

    def _emit(self, text: str) -> None:
        if self._export and "\t" in text:
            text = text.replace("\t", " ")
        end = text.rfind("\n")
        self._column = self._column + len(text) if end < 0 else len(text) - end
        if self._newline != "\n":
            text = text.replace("\n", self._newline)
        self._stream.write(text)


def write_pbn(games: Iterable[Game], stream: TextIO, export_format: bool = False,
              charset: str | None = None, trailer: Iterable[Element] = ()) -> int:
    """Write games (and a trailer) to a text stream; returns the number of games."""
    writer = PbnWriter(stream, export_format, charset)
    for game in games:
        writer.write(game)
    writer.write_trailer(trailer)
    writer.close()
    return writer.games


def dumps(games: Iterable[Game], export_format: bool = False) -> str:
    """PBN text of games, in import format unless ``export_format``."""
    import io

    buffer = io.StringIO()
    write_pbn(games, buffer, export_format)
    return buffer.getvalue()
