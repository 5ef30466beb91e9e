"""Cut a PBN byte stream into games, lazily: decode blocks of whole lines, find
semi-empty lines outside ``{...}`` commentary, and hand each game's text on with its first
line number and the byte offset of that line, so that the reader can take each game's
bytes as read from a :class:`ByteWindow`.

The work is done a megabyte at a time by ``bytes``/``str`` methods and regular
expressions; Python looks only at games, and at lines holding a ``{``. A text offset
becomes a byte offset by arithmetic when every character was one byte and the line ends
are all alike (nearly every file); only other blocks have their line starts listed.
Memory is bounded by the largest game (plus a chunk), never the file.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple, Protocol

# the encoding a reader reports, shared by the formats; decided here for PBN
from pbnkit.formats.reader import Encoding as Encoding
from pbnkit.pickling import by_fields

_CHUNK = 1 << 20
_CHARSET = re.compile(rb"^%[^\r\n]*charset\s*=\s*\"?([A-Za-z0-9_.:-]+)", re.IGNORECASE | re.MULTILINE)
_UTF8_BOM = codecs.BOM_UTF8


class Readable(Protocol):
    def read(self, size: int, /) -> bytes: ...


def detect(head: bytes) -> Encoding:
    """What the first chunk of a file says about its encoding: a UTF-8 BOM, else a
    ``charset=`` escape line before the first tag naming a known text codec."""
    if head.startswith(_UTF8_BOM):
        return Encoding(bom=True)
    first_tag = head.find(b"[")
    match = _CHARSET.search(head, 0, first_tag if first_tag >= 0 else len(head))
    if match:
        name = match[1].decode("ascii").lower()
        try:
            codecs.lookup(name)
            return Encoding(declared=name)
        except LookupError:
            pass
    return Encoding()


def read_head(stream: Readable) -> tuple[Encoding, Readable]:
    """Detect the encoding from the first chunk; the stream to read on, without a BOM."""
    head = stream.read(_CHUNK)
    encoding = detect(head)
    return encoding, _Rewound(head[len(_UTF8_BOM):] if encoding.bom else head, stream)


def not_text(stream: Readable) -> tuple[str | None, Readable]:
    """Why the stream cannot be a PBN file, from its first chunk (None when it may be),
    and the stream to read on. PBN is text, and no text encoding it may use (an
    ASCII-based one) has a NUL byte: a file with one is a program, an archive or an image,
    and reading it as games would report each of its bytes."""
    head = stream.read(_CHUNK)
    reason = None
    if b"\0" in head:
        reason = "it holds NUL bytes: binary data, or text in UTF-16"
    return reason, _Rewound(head, stream)


class _Rewound:
    """The stream with its already-read head put back in front."""

    def __init__(self, head: bytes, stream: Readable):
        self._head = head
        self._stream = stream

    def read(self, size: int, /) -> bytes:
        if self._head:
            head, self._head = self._head, b""
            return head
        return self._stream.read(size)


def codec_of(encoding: Encoding) -> str:
    return "utf-8" if encoding.bom or not encoding.declared else encoding.declared


def line_separable(codec: str) -> bool:
    """Whether a block of lines decodes to the same text at once as line by line, and
    its ASCII bytes are its ASCII characters: UTF-8 and the single-byte ASCII-based codecs.
    (Not UTF-16, whose line end bytes belong to characters, nor the stateful ISO-2022.)"""
    name = codecs.lookup(codec).name
    return name in ("utf-8", "ascii") or name.startswith(
        ("iso8859-", "latin", "cp125", "mac-", "koi8-"))


def whole_lines(stream: Readable) -> Iterator[bytes]:
    """The stream's bytes in blocks that end at a line end (but the last): LF, CRLF and
    lone CR all end a line, and a CRLF is never cut in two.

    The start of a line not ended yet is kept in pieces, joined once its end comes: a
    line of many chunks costs its length, not the square of its chunks."""
    pending: list[bytes] = []  # holds no line end, but maybe a last CR
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            break
        # A CR at the very end may be the first half of a CRLF: keep it for later.
        cut = len(chunk) - 1 if chunk.endswith(b"\r") else len(chunk)
        last = max(chunk.rfind(b"\n", 0, cut), chunk.rfind(b"\r", 0, cut))
        if last >= 0:
            pending.append(chunk[:last + 1])
            yield b"".join(pending)
            pending = [chunk[last + 1:]]
        elif pending and pending[-1].endswith(b"\r"):  # no LF after it: a line end
            yield b"".join(pending)
            pending = [chunk]
        else:
            pending.append(chunk)
    rest = b"".join(pending)
    if rest:
        yield rest


def normalized(block: bytes, encoding: Encoding) -> bytes:
    """LF line ends only; counts the line ends that were not CRLF."""
    return _normalized(block, encoding)[0]


def _normalized(block: bytes, encoding: Encoding) -> tuple[bytes, int, int]:
    """:func:`normalized`, the number of line ends, and the bytes each line end has
    beyond its one LF: 0 (none is CRLF), 1 (all are), or -1 when they are mixed."""
    crlf = block.count(b"\r\n")
    cr = block.count(b"\r")
    lf = block.count(b"\n")
    encoding.bare_line_ends += lf + cr - 2 * crlf
    lines = lf + cr - crlf
    if not cr:
        return block, lines, 0
    step = 0 if not crlf else 1 if cr == lf == crlf else -1
    return block.replace(b"\r\n", b"\n").replace(b"\r", b"\n"), lines, step


class Block(NamedTuple):
    """A block of whole lines: its text (LF line ends, the last line ended too), its bytes
    as read, and where its lines start in those bytes: at ``pos + step * lines before``
    for a line start ``pos`` of the text, or ``starts[lines before]`` when not every
    character was one byte or the line ends are mixed (``starts`` is then not None)."""

    text: str
    raw: bytes
    step: int = 0
    starts: list[int] | None = None


_LINE_END = re.compile(rb"\r\n?|\n")


def decoded_blocks(stream: Readable, encoding: Encoding, first_line: int = 1) -> Iterator[Block]:
    """The stream in blocks of whole lines, each block's text ended by ``\n``.

    BOM or declared charset, else UTF-8, falling back to Latin-1 for a line that is not
    valid (every byte string is Latin-1); ``encoding.fallback_lines`` records those lines.
    A block is decoded at once when the codec allows it, and line by line only when that
    fails.
    """
    codec = codec_of(encoding)
    whole = line_separable(codec)
    line = first_line
    for raw in whole_lines(stream):
        block, lines, step = _normalized(raw, encoding)
        # The last line may have no line end; give it one, so every line has.
        if not block.endswith(b"\n"):
            block += b"\n"
            lines += 1
        text = decoded(block, codec, whole, line, encoding)
        if step >= 0 and len(text) == len(block):  # every character one byte
            yield Block(text, raw, step)
        else:
            yield Block(text, raw, 0, [0, *(end.end() for end in _LINE_END.finditer(raw))])
        line += lines


def _latin_1_where_undefined(error: UnicodeError) -> tuple[str, int]:
    """The five bytes Windows-1252 leaves undefined read as Latin-1 (control characters
    that the checks then report), so that every byte is still one character."""
    assert isinstance(error, UnicodeDecodeError)
    return error.object[error.start:error.end].decode("latin-1"), error.end


codecs.register_error("pbnkit-latin-1", _latin_1_where_undefined)
_C1 = re.compile(rb"[\x80-\x9f]")


def decoded(block: bytes, codec: str, whole: bool, first_line: int, encoding: Encoding) -> str:
    if whole:
        try:
            return block.decode(codec)
        except UnicodeDecodeError:
            pass
    # A line that is not in the declared charset is read as Latin-1 (SY005 says so). An
    # undeclared file is UTF-8 or a legacy single-byte charset: Windows-1252 where it
    # differs from Latin-1, as programs on Windows write O\x92Brien for O'Brien.
    undeclared = not (encoding.declared or encoding.bom)
    lines = block.split(b"\n")
    for number, raw in enumerate(lines):
        try:
            lines[number] = raw.decode(codec)  # type: ignore[call-overload]
        except UnicodeDecodeError:
            encoding.fallback_lines.append(first_line + number)
            if undeclared and _C1.search(raw):
                encoding.windows_1252_lines.append(first_line + number)
                lines[number] = raw.decode("cp1252", "pbnkit-latin-1")  # type: ignore[call-overload]
            else:
                lines[number] = raw.decode("latin-1")  # type: ignore[call-overload]
    return "\n".join(lines)  # type: ignore[arg-type]


@by_fields
@dataclass(frozen=True, slots=True)
class Chunk:
    """The text of one game (lines joined by ``\\n``), its first line number and the
    byte offset of that line in the stream.

    ``separator`` is the semi-empty lines before it, as written: export format wants
    exactly one truly empty line between games and none before the first.
    """

    text: str
    line: int
    separator: tuple[str, ...] = ()
    offset: int = 0


_LINE = re.compile(rb"[^\r\n]*(?:\r\n?|\n)?")


class ByteWindow:
    """The bytes of a stream as :func:`split_games` reads them, kept from the first byte
    still wanted on: a reader takes a game's bytes once it knows where the game ends, so
    memory stays bounded by the largest game (plus a block)."""

    def __init__(self) -> None:
        self.blocks: list[bytes] = []  # blocks of whole lines
        self.start = 0  # the offset of the first block kept
        self.end = 0  # the offset after the last block read

    def add(self, raw: bytes) -> None:
        self.blocks.append(raw)
        self.end += len(raw)

    def take(self, start: int, end: int) -> bytes:
        """The bytes from ``start`` to ``end``; those before ``start`` are forgotten."""
        blocks = self.blocks
        while len(blocks) > 1 and self.start + len(blocks[0]) <= start:
            self.start += len(blocks.pop(0))
        if not blocks:
            return b""
        if end - self.start <= len(blocks[0]):
            return blocks[0][start - self.start:end - self.start]
        return b"".join(blocks)[start - self.start:end - self.start]  # across blocks

    def line_start(self, offset: int, lines: int) -> int:
        """The offset of the line ``lines`` lines after the line that starts at
        ``offset``. Only asked for a few lines (the commentary or escape lines before a
        game's first tag pair), never a whole game's but the file's last."""
        base = self.start
        for block in self.blocks:
            if offset < base + len(block):
                break
            base += len(block)
        else:
            return self.end
        pos, number = offset - base, self.blocks.index(block)
        for _ in range(lines):
            if pos >= len(block):
                number += 1
                if number == len(self.blocks):
                    return self.end
                base, block, pos = base + len(block), self.blocks[number], 0
            pos = _LINE.match(block, pos).end()  # type: ignore[union-attr]
        return base + pos


def _comment_state(text: str, in_comment: bool) -> bool:
    """Whether a ``{`` comment is still open at the end of this line.

    Strings and ``;`` comments are skipped, so a brace inside them opens nothing.
    """
    pos, end = 0, len(text)
    while pos < end:
        if in_comment:
            close = text.find("}", pos)
            if close < 0:
                return True
            in_comment, pos = False, close + 1
            continue
        char = text[pos]
        if char == "{":
            in_comment, pos = True, pos + 1
        elif char == ";":
            return False
        elif char == '"':
            pos = _string_end(text, pos + 1)
        else:
            nxt = _next_special(text, pos)
            pos = end if nxt < 0 else nxt
    return in_comment


_SPECIAL = re.compile(r'[{;"]')
_STRING_END = re.compile(r'(?:[^"\\]|\\.)*"?')
_BLANK = re.compile(r"[ \t\v\f]*\n")
# A semi-empty line after a line end. Searched from each "\n" (a literal the regex engine
# finds at C speed), not from each line start with ^ and MULTILINE, which tries every
# character and is slower.
_BLANK_AFTER = re.compile(r"\n(?=([ \t\v\f]*\n))")


def _blank_spans(text: str) -> list[tuple[int, int]]:
    """Start and end of every semi-empty line of ``text`` (whole lines)."""
    first = _BLANK.match(text)
    spans = [match.span(1) for match in _BLANK_AFTER.finditer(text)]
    return spans if first is None else [first.span(), *spans]


def _next_special(text: str, pos: int) -> int:
    match = _SPECIAL.search(text, pos)
    return match.start() if match else -1


def _string_end(text: str, pos: int) -> int:
    match = _STRING_END.match(text, pos)
    assert match is not None
    return match.end()


def blank_lines(text: str, in_comment: bool) -> tuple[list[tuple[int, int]], bool]:
    """Start and end of the semi-empty lines of ``text`` (whole lines, each ended by
    ``\n``) that lie outside ``{...}`` commentary, and whether a comment is open at its end.
    """
    if not in_comment and "{" not in text:
        return _blank_spans(text), False
    blanks = []
    pos = 0  # a line start where the comment state is known
    for span in _blank_spans(text):
        in_comment, pos = _comment_state_at(text, pos, span[0], in_comment)
        if not in_comment:
            blanks.append(span)
    return blanks, _comment_state_at(text, pos, len(text), in_comment)[0]


def _comment_state_at(text: str, pos: int, limit: int, in_comment: bool) -> tuple[bool, int]:
    """The comment state at the line start ``limit``, from the state at the line start
    ``pos``. Only lines holding a ``{`` (or, inside a comment, a ``}``) can change it, so
    only those are looked at; a ``{`` on a ``%`` escape line opens nothing."""
    while True:
        found = text.find("}" if in_comment else "{", pos, limit)
        if found < 0:
            return in_comment, limit
        line_start = text.rfind("\n", 0, found) + 1
        pos = text.index("\n", found) + 1
        line = text[line_start:pos - 1]
        if in_comment or line[:1] != "%":
            in_comment = _comment_state(line, in_comment)


def split_games(blocks: Iterable[Block], first_line: int = 1,
                separator: tuple[str, ...] = (),
                window: ByteWindow | None = None) -> Iterator[Chunk]:
    """Group the lines of ``blocks`` (from :func:`decoded_blocks`) into games at
    semi-empty lines outside brace commentary. ``separator``: the semi-empty lines just
    before the stream, when it is a part of a file (see :mod:`pbnkit.pbn.chunks`);
    ``window`` keeps the bytes read, for the games' bytes."""
    parts: list[str] = []  # the current game's lines so far, each ended by "\n"
    separators = list(separator)
    start = at = 0
    line = first_line  # the line number of the block's first line
    offset = 0  # the byte offset of the block
    in_comment = False
    for text, raw, step, starts in blocks:
        if window is not None:
            window.add(raw)
        blanks, in_comment = blank_lines(text, in_comment)
        counted, counted_line = 0, line  # line numbers are counted only as far as needed
        pos = 0
        ends: list[tuple[int, int | None]] = [*blanks, (len(text), None)]
        for blank_start, blank_end in ends:
            if blank_start > pos:
                if not parts:
                    counted_line += text.count("\n", counted, pos)
                    counted, start = pos, counted_line
                    before = counted_line - line  # the block's lines before the game
                    at = offset + (pos + step * before if starts is None else starts[before])
                parts.append(text[pos:blank_start])
            if blank_end is None:
                break  # the end of the block, not a blank line
            if parts:
                yield Chunk("".join(parts)[:-1], start, tuple(separators), at)
                parts, separators = [], []
            separators.append(text[blank_start:blank_end - 1])
            pos = blank_end
        line += text.count("\n")
        offset += len(raw)
    if parts:
        yield Chunk("".join(parts)[:-1], start, tuple(separators), at)
