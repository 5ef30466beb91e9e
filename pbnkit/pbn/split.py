"""Cut a PBN byte stream into games, lazily: decode lines, find semi-empty lines outside
``{...}`` commentary, and hand each game's text on with its first line number.

Memory is bounded by the largest game, never the file.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO, Protocol

_CHUNK = 1 << 20
_EOL = re.compile(rb"\r\n|\r|\n")
_CHARSET = re.compile(rb"^%[^\r\n]*charset\s*=\s*\"?([A-Za-z0-9_.:-]+)", re.IGNORECASE | re.MULTILINE)
_UTF8_BOM = codecs.BOM_UTF8


@dataclass
class Encoding:
    """How the file's bytes were decoded; ``name`` is final once reading ends."""

    declared: str | None = None
    bom: bool = False
    fallback_lines: list[int] = field(default_factory=list)
    #: line ends other than CRLF (export format wants CRLF only)
    bare_line_ends: int = 0

    @property
    def name(self) -> str:
        if self.bom:
            base = "utf-8 (bom)"
        elif self.declared:
            base = f"{self.declared} (declared)"
        else:
            base = "latin-1 (fallback)" if self.fallback_lines else "utf-8"
            return base
        return base + (" + latin-1 (fallback)" if self.fallback_lines else "")


class _Readable(Protocol):
    def read(self, size: int) -> bytes: ...


def _raw_lines(stream: _Readable, encoding: Encoding) -> Iterator[bytes]:
    """Lines without their ends; LF, CRLF and lone CR all end a line."""
    pending = b""
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            break
        data = pending + chunk
        # A CR at the very end may be the first half of a CRLF: keep it for later.
        cut = len(data) - 1 if data.endswith(b"\r") else len(data)
        crlf = data.count(b"\r\n", 0, cut)
        encoding.bare_line_ends += data.count(b"\n", 0, cut) + data.count(b"\r", 0, cut) - 2 * crlf
        start = 0
        for match in _EOL.finditer(data, 0, cut):
            yield data[start:match.start()]
            start = match.end()
        pending = data[start:]
    if pending:
        parts = _EOL.split(pending)
        # A final line end closes the last line; it does not open an empty one.
        yield from parts[:-1] if pending.endswith((b"\r", b"\n")) else parts


def _detect(stream: BinaryIO, encoding: Encoding) -> bytes:
    """Read the first chunk, strip a BOM, find a ``charset=`` escape line."""
    head = stream.read(_CHUNK)
    if head.startswith(_UTF8_BOM):
        encoding.bom = True
        head = head[len(_UTF8_BOM):]
    first_tag = head.find(b"[")
    match = _CHARSET.search(head, 0, first_tag if first_tag >= 0 else len(head))
    if match and not encoding.bom:
        name = match[1].decode("ascii").lower()
        try:
            codecs.lookup(name)
            encoding.declared = name
        except LookupError:
            pass
    return head


class _Rewound:
    """The stream with its already-read head put back in front."""

    def __init__(self, head: bytes, stream: BinaryIO):
        self._head = head
        self._stream = stream

    def read(self, size: int) -> bytes:
        if self._head:
            head, self._head = self._head, b""
            return head
        return self._stream.read(size)


def decoded_lines(stream: BinaryIO, encoding: Encoding) -> Iterator[str]:
    """Decode line by line: BOM or declared charset, else UTF-8, falling back to
    Latin-1 for a line that is not UTF-8 (every byte string is Latin-1)."""
    head = _detect(stream, encoding)
    codec = "utf-8" if encoding.bom or not encoding.declared else encoding.declared
    for number, raw in enumerate(_raw_lines(_Rewound(head, stream), encoding), start=1):
        try:
            yield raw.decode(codec)
        except UnicodeDecodeError:
            encoding.fallback_lines.append(number)
            yield raw.decode("latin-1")


@dataclass(frozen=True, slots=True)
class Chunk:
    """The text of one game (lines joined by ``\\n``) and its first line number.

    ``separator`` is the semi-empty lines before it, as written: export format wants
    exactly one truly empty line between games and none before the first.
    """

    text: str
    line: int
    separator: tuple[str, ...] = ()


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


def _next_special(text: str, pos: int) -> int:
    match = _SPECIAL.search(text, pos)
    return match.start() if match else -1


def _string_end(text: str, pos: int) -> int:
    match = _STRING_END.match(text, pos)
    assert match is not None
    return match.end()


def split_games(lines: Iterator[str]) -> Iterator[Chunk]:
    """Group lines into games at semi-empty lines outside brace commentary."""
    buffer: list[str] = []
    separator: list[str] = []
    start = 0
    in_comment = False
    for number, text in enumerate(lines, start=1):
        if not in_comment and not text.strip(" \t\v\f"):
            if buffer:
                yield Chunk("\n".join(buffer), start, tuple(separator))
                buffer, separator = [], []
            separator.append(text)
            continue
        if not buffer:
            start = number
        buffer.append(text)
        if in_comment or ("{" in text and text[:1] != "%"):
            in_comment = _comment_state(text, in_comment)
    if buffer:
        yield Chunk("\n".join(buffer), start, tuple(separator))
