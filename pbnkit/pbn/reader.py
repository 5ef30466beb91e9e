"""The PBN reader: ``pbnkit.read("event.pbn")`` yields its games one at a time.

A syntax error becomes a diagnostic on its game; reading resumes after the bad line, and
a game that cannot be read at all never stops the games after it.
"""

from __future__ import annotations

import bisect
import io
import os
import re
from codecs import BOM_UTF8
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, BinaryIO

from pbnkit.diagnostics import Diagnostic
from pbnkit.formats.reader import Encoding, Reader, Source
from pbnkit.pbn.parser import GameSyntaxError, keep_skipped, parse_game, skipped_text
from pbnkit.pbn.split import (ByteWindow, Chunk, Readable, decoded_blocks, not_text, read_head,
                              split_games)
from pbnkit.records import Element, Game, TagPair, TagValues

if TYPE_CHECKING:
    from pbnkit.pbn.chunks import Resume

#: Tags whose value may not be inherited with ``#`` or ``##`` (PBN 4.8).
NOT_INHERITABLE = frozenset(
    ("Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Auction", "Play", "Note")
)

_MAX_ERRORS = 20
_MAX_LINE = 255 - 1  # PBN 2.3 counts the line end in the 255; LF is one character
_BAD_CHARS = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")
_ESCAPE_CHARSET = re.compile(r"charset", re.IGNORECASE)


class PbnReader(Reader):
    """Iterate over the games of one PBN file, lazily.

    A :class:`~pbnkit.formats.reader.Reader`: ``trailer`` holds commentary and escape
    lines after the last game, and the export-format check of the line ends (SY102) is
    made at the end, whatever ``reached`` says.

    With ``resume`` (from :func:`pbnkit.pbn.chunks.plan_chunks`) only the games of that
    part of the file are read, exactly as a whole read yields them; the file-level results
    of the parts are combined with :func:`pbnkit.pbn.chunks.merge`.
    """

    def __init__(self, source: Source, path: str | None = None, strict: bool = False,
                 resume: Resume | None = None):
        super().__init__(source, path, strict)
        self._resume = resume

    @property
    def resume(self) -> Resume | None:
        return self._resume

    def __iter__(self) -> Iterator[Game]:
        if isinstance(self._source, (str, os.PathLike)):
            with open(self._source, "rb") as stream:
                yield from self._games(stream)
        elif isinstance(self._source, io.TextIOBase):
            yield from self._games(io.BytesIO(self._source.read().encode("utf-8")))
        else:
            yield from self._games(self._source)  # type: ignore[arg-type]

    def _start(self, stream: BinaryIO) -> tuple[Readable, int, Inheritance]:
        """The stream to read, its first line number, and the inheritance state there."""
        resume = self.resume
        if resume is None:
            self.encoding_info, text = read_head(stream)
            return text, 1, Inheritance()
        self.encoding_info = Encoding(declared=resume.declared, bom=resume.bom)
        self.games_read = resume.games_before
        stream.seek(resume.start)
        return (_Limited(stream, resume.end - resume.start), resume.line,
                Inheritance(dict(resume.previous), dict(resume.persistent)))

    def _games(self, stream: BinaryIO) -> Iterator[Game]:
        text, first_line, inheritance = self._start(stream)
        encoding = self.encoding_info
        resume = self.resume
        at_start = resume is None or resume.games_before == 0
        if at_start:
            reason, text = not_text(text)
            if reason is not None:
                self.diagnostics.append(Diagnostic("SY009", f"not a PBN file: {reason}", 1, 1,
                                                   self.path))
                self.original_head, self.original_tail = b"", b""
                return
        pending: tuple[Element, ...] = ()
        fallback_seen = 0
        # A game's bytes run from the line of its first tag pair to that of the next game:
        # it is given out once the next one (or the end) is found, its bytes set then.
        window = ByteWindow()
        held: Game | None = None
        held_chunk, held_start, held_cut = None, 0, 0  # its chunk, first byte, lines before
        blocks = decoded_blocks(text, encoding, first_line)
        latest: Chunk | None = None
        for chunk in split_games(blocks, first_line, resume.separator if resume else (), window):
            latest = chunk
            problems = self._scan(chunk.text, chunk.line, self.strict)
            if self.strict:
                problems += _separation(chunk, first=self.games_read == 0 and not pending)
            fallback = encoding.fallback_lines
            if len(fallback) > fallback_seen:
                # Lines are decoded ahead of the games: take those of this game's lines.
                last = bisect.bisect_right(fallback, chunk.line + chunk.text.count("\n"))
                if encoding.declared or encoding.bom:
                    for line in fallback[fallback_seen:last]:
                        problems.append(Diagnostic(
                            "SY005", f"line is not valid {encoding.declared or 'utf-8'}; "
                            "read as Latin-1", line, 1))
                elif last > fallback_seen:
                    # Undeclared files fall back to Latin-1 silently: it is PBN's own
                    # charset. Bytes 0x80-0x9F are not in it: say they were read otherwise.
                    cp1252 = encoding.windows_1252_lines
                    for line in cp1252[bisect.bisect_left(cp1252, fallback[fallback_seen]):
                                       bisect.bisect_right(cp1252, fallback[last - 1])]:
                        problems.append(Diagnostic(
                            "SY005", "bytes 0x80-0x9F, control characters in PBN's "
                            "Latin-1, read as Windows-1252 (0x92 is an apostrophe)", line, 1))
                fallback_seen = last
            preamble, tags = parse_with_recovery(chunk.text, chunk.line, problems)
            if not tags:
                pending += preamble
                self.diagnostics.extend(replace(p, path=self.path) for p in problems)
                continue
            cut = tags[0].line - chunk.line  # lines before the first tag pair
            start = window.line_start(chunk.offset, cut) if cut else chunk.offset
            if held is not None:
                _set(held, "original", window.take(held_start, start))
                self.reached = chunk.line
                yield held
            elif at_start:
                self.original_head = self._head(window.take(0, start))
            values = inheritance.resolve(tags)
            board = values.get("Board")
            # positional: a Game per record, and keywords cost more
            held = Game(tags, pending + preamble, chunk.line, self.games_read, self.path, values,
                        tuple(replace(p, path=self.path, board=board) for p in problems)
                        if problems else (),
                        b"", self.original_head if self.games_read == 0 else None)
            held_chunk, held_start, held_cut = chunk, start, cut
            pending = ()
            self.games_read += 1
        at_end = resume is None or resume.last
        if latest is not None:  # the line after the part's last (or its last, unended)
            self.reached = latest.line + latest.text.count("\n")
        if held is None:  # no game: a file without games when the read is the whole file
            if at_start:
                self.original_head = self._head(window.take(0, window.end))
            if at_end:
                self.original_tail = b""
        elif at_end:
            # The file's last game ends with its own last line; the rest is the file's.
            assert held_chunk is not None
            end = window.line_start(held_start, held_chunk.text.count("\n") + 1 - held_cut)
            _set(held, "original", window.take(held_start, end))
            self.original_tail = window.take(end, window.end)
            _set(held, "original_tail", self.original_tail)
            yield held
        else:
            _set(held, "original", window.take(held_start, window.end))
            yield held
        self.trailer = pending
        if self.strict and self.resume is None:
            self.diagnostics.extend(file_diagnostics(encoding, self.path))

    def _head(self, data: bytes) -> bytes:
        """The file's bytes before its first game: a BOM is not in the stream read."""
        return BOM_UTF8 + data if self.encoding_info.bom else data

    @staticmethod
    def _scan(text: str, first_line: int, strict: bool = False) -> list[Diagnostic]:
        """Character-level problems: control characters, over-long lines, and (export
        format) tabs."""
        problems: list[Diagnostic] = []
        tabs = strict and "\t" in text
        if not tabs and _BAD_CHARS.search(text) is None and max(
                map(len, text.split("\n"))) <= _MAX_LINE:
            return problems
        for offset, line in enumerate(text.split("\n")):
            number = first_line + offset
            for match in _BAD_CHARS.finditer(line):
                problems.append(Diagnostic(
                    "SY003", f"control character U+{ord(match[0]):04X}", number, match.start() + 1))
            if tabs and "\t" in line:
                problems.append(Diagnostic("SY101", "tab character", number, line.index("\t") + 1))
            if len(line) > _MAX_LINE:
                problems.append(Diagnostic(
                    "SY004", f"line of {len(line)} characters (PBN allows 255 with the line end)",
                    number, _MAX_LINE + 1))
        return problems


def _separation(chunk: Chunk, first: bool) -> list[Diagnostic]:
    """Export format: one truly empty line between games, none before the first."""
    lines = chunk.separator
    if first and lines:
        message = f"{len(lines)} empty lines before the first game"
    elif not first and (len(lines) != 1 or lines[0]):
        blanks = "blank lines with spaces or tabs" if any(lines) else "empty lines"
        message = f"games separated by {len(lines)} {blanks}, not one empty line"
    else:
        return []
    return [Diagnostic("SY103", message, chunk.line - len(lines), 1)]


def file_diagnostics(encoding: Encoding, path: str | None) -> list[Diagnostic]:
    """Export-format problems of the file as a whole, known once it is read."""
    if not encoding.bare_line_ends:
        return []
    return [Diagnostic("SY102", f"{encoding.bare_line_ends} line ends are not CRLF", 1, 1,
                       path=path)]


#: Sets a field of a Game not given out yet (its bytes are known once the next one is read).
_set = object.__setattr__


class _Limited:
    """The next ``size`` bytes of a stream."""

    def __init__(self, stream: BinaryIO, size: int):
        self._stream = stream
        self._left = size

    def read(self, size: int, /) -> bytes:
        data = self._stream.read(min(size, self._left))
        self._left -= len(data)
        return data


def parse_with_recovery(
    text: str, first_line: int, problems: list[Diagnostic]
) -> tuple[tuple[Element, ...], tuple[TagPair, ...]]:
    """Parse a game; after a syntax error blank the rest of the offending line (keeping
    every position) and parse again, so one bad line costs one line. After
    ``_MAX_ERRORS`` errors the rest of the game is blanked."""
    errors = 0
    gave_up = False
    original = text
    skipped: list[Element] = []  # the text blanked, kept as written (parser.keep_skipped)
    while True:
        try:
            preamble, tags = keep_skipped(parse_game(text, first_line), skipped)
            break
        except GameSyntaxError as error:
            if gave_up:  # cannot happen with blank text, but never loop forever
                return (), ()
            offset = min(error.offset, len(text))
            char = text[offset:offset + 1]
            end = text.find("\n", offset)
            end = len(text) if end < 0 else end
            if char and _BAD_CHARS.match(char):
                end = offset + 1  # already reported as SY003: drop just the character
            else:
                errors += 1
                problems.append(Diagnostic("SY001", error.message, error.line, error.column))
            if errors >= _MAX_ERRORS or not char:
                problems.append(Diagnostic("SY008", f"{errors} syntax errors; the rest of the "
                                           "game is skipped", error.line, error.column))
                end, gave_up = len(text), True
            piece = original[offset:end].rstrip()
            if piece:
                line_start = original.rfind("\n", 0, offset) + 1
                skipped.append(skipped_text(piece, first_line + original.count(
                    "\n", 0, offset), offset - line_start + 1))
            text = text[:offset] + _blank(text[offset:end]) + text[end:]
    for tag in tags:
        if tag.quoted:
            continue
        if tag.value:
            problems.append(Diagnostic("SY002", f"value of tag {tag.name} is not quoted",
                                       tag.line, tag.value_column or tag.column))
        else:
            problems.append(Diagnostic("SY001", f"tag {tag.name} has no value",
                                       tag.line, tag.column))
    return preamble, tags


def _blank(text: str) -> str:
    """Spaces for every character but line ends, so positions after it stay true."""
    return re.sub(r"[^\n]", " ", text)


class Inheritance:
    """``#`` and ``##`` tag values across the games of one file (PBN 4.8)."""

    def __init__(self, previous: dict[str, str] | None = None,
                 persistent: dict[str, str] | None = None) -> None:
        self.previous: dict[str, str] = previous or {}
        self.persistent: dict[str, str] = persistent or {}

    def resolve(self, tags: tuple[TagPair, ...]) -> TagValues:
        """The game's effective values, read-only like the rest of a Game."""
        written = {tag.name: tag.value for tag in tags}
        if len(written) == len(tags) and not any(v[:1] == "#" for v in written.values()):
            # The common case: no repeated tag and nothing to inherit.
            values = {**self.persistent, **written} if self.persistent else written
            self.previous.update(values)
            return TagValues(values)
        values = dict(self.persistent)
        own: set[str] = set()
        for tag in tags:
            if tag.name in own:
                continue  # import format: the first of a repeated tag counts
            own.add(tag.name)
            value = tag.value
            if value.startswith("#") and tag.name not in NOT_INHERITABLE:
                if value.startswith("##"):
                    value = value[2:]
                    self.persistent[tag.name] = value
                elif value == "#":
                    value = self.previous.get(tag.name, "")
            values[tag.name] = value
        self.previous.update(values)
        return TagValues(values)
