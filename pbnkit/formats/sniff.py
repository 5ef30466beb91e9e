"""Which format a file is, and its reader: the one place that knows every format.

A file named ``*.lin`` (any case) is LIN, ``*.pbn`` PBN; any other name is decided by
its first bytes. Bytes that look like neither format are neither, whatever the name, and
:func:`not_records` says what they look like instead. A new format adds its test to
:func:`sniff` and its reader to :func:`open_reader`.
"""

from __future__ import annotations

import io
import os
import re
from codecs import BOM_UTF8
from collections.abc import Iterator
from typing import TYPE_CHECKING

from pbnkit.diagnostics import Diagnostic
from pbnkit.formats.reader import HEAD_SIZE, Reader, Source, bytes_of, head_of
from pbnkit.lin.reader import LinReader
from pbnkit.pbn.reader import PbnReader
from pbnkit.records import Game

if TYPE_CHECKING:
    from pbnkit.pbn.chunks import Resume

#: a sloppy file may open with lines of other text (a mail's header, a program's banner):
#: a tag pair or LIN pair starting a line this near the start still makes it PBN or LIN.
#: Further on, one is only an example quoted in a text (a README, a web page).
SNIFF_SIZE = 1 << 10
_PBN_TAG = re.compile(rb'(?:^|\n)[ \t]*\[[ \t]*[A-Za-z0-9_]+[ \t]*"')
_PBN_START = re.compile(rb"[ \t\r\n]*[\[%{;]")
_LIN_START = re.compile(rb"[ \t\r\n]*[A-Za-z][A-Za-z0-9]?\|")
_LIN_PAIR = re.compile(rb"(?:^|[|\n])(?:md|pn|qx|vg|mb|pc)\|", re.IGNORECASE)
#: an archive pbnkit convert wrote, or any JSON: checked before PBN, whose comments and
#: tag pairs also open with { and [ (but never with {"name": or [{)
_PARQUET = b"PAR1"
_JSON_START = re.compile(
    rb'[ \t\r\n]*(?:\{[ \t\r\n]*"(?:[^"\\\n]|\\.)*"[ \t\r\n]*:|\[[ \t\r\n]*[{\["\]])')
_BOARDS_JSON = re.compile(rb'[ \t\r\n]*\{[ \t\r\n]*"(?:path|schema)"')
_ARCHIVE_READERS = "pbnkit rescore, export or report"


def sniff(head: bytes, name: str | None = None) -> str | None:
    """``"lin"``, ``"pbn"`` or None (neither) for a file's first bytes and its name. A
    file whose bytes look like neither is neither, whatever its name; otherwise the
    extension decides (``.lin``, ``.pbn`` in any case), else the bytes."""
    head = head[len(BOM_UTF8):] if head.startswith(BOM_UTF8) else head
    if head.startswith(_PARQUET) or _JSON_START.match(head):
        return None
    if b"\x00" in head:
        return "pbn"  # binary data or UTF-16: the PBN reader says which, once (SY009)
    start = head[:SNIFF_SIZE]
    if not head.strip() or _PBN_START.match(head) or _PBN_TAG.search(start):
        content: str | None = "pbn"
    elif _LIN_START.match(head) or _LIN_PAIR.search(start):
        content = "lin"
    else:
        return None
    suffix = os.path.splitext(name or "")[1].lower()
    return suffix[1:] if suffix in (".lin", ".pbn") else content


def sniff_file(path: str, name: str | None = None) -> str | None:
    """:func:`sniff` for a file on disk, shown as ``name`` (default: ``path``)."""
    return sniff(head_of(path), name or path)


def looks_like(head: bytes) -> str:
    """What a file that :func:`sniff` finds neither PBN nor LIN looks like, and what reads
    it, when pbnkit does: one phrase for the one message about the file."""
    head = head[len(BOM_UTF8):] if head.startswith(BOM_UTF8) else head
    if head.startswith(_PARQUET):
        return (f"a Parquet file, as the archives pbnkit convert writes are: read those "
                f"with {_ARCHIVE_READERS}")
    if _BOARDS_JSON.match(head):
        return f"an archive written by pbnkit convert: use {_ARCHIVE_READERS}"
    if _JSON_START.match(head):
        return "JSON"
    return "a text file with no PBN tag pair ([Event \"...\"]) nor LIN pair (pn|...|)"


def not_records(path: str, name: str | None = None) -> str | None:
    """Why a file on disk is no input of the readers (it is neither PBN nor LIN, by its
    first bytes and ``name``, default ``path``): the message that names what it is; None
    for a file they read (binary data too, which the PBN reader reports once, SY009)."""
    head = head_of(path)
    if sniff(head, name or path) is not None:
        return None
    return f"not PBN or LIN: {looks_like(head)}"


def open_reader(source: Source, path: str | None = None, strict: bool = False,
                resume: Resume | None = None) -> Reader:
    """The reader of a file, PBN or LIN: by the extension of its name (``path``, else the
    source's own), else by its first bytes. A file on disk that is neither gets a reader
    that yields no game and says so once (SY303); a stream that is neither is read as
    PBN, whose reader says what is wrong where."""
    if resume is not None:
        return PbnReader(source, path, strict, resume)  # only PBN files are cut in parts
    name = path if path is not None else (
        os.fspath(source) if isinstance(source, (str, os.PathLike)) else None)
    head = head_of(source)
    kind = sniff(head, name)
    if kind == "lin":
        # A file shorter than the head is read already (a BBO hand record is one board,
        # some 500 bytes): opening it again would cost more than reading it.
        whole = isinstance(source, (str, os.PathLike)) and 0 < len(head) < HEAD_SIZE
        return LinReader(source, path, strict, data=head if whole else None)
    if kind is None and isinstance(source, (str, os.PathLike)):
        return UnknownFormatReader(source, path, strict)
    return PbnReader(source, path, strict)


class UnknownFormatReader(Reader):
    """A file that is neither PBN nor LIN: no game, its bytes kept, one diagnostic."""

    def __iter__(self) -> Iterator[Game]:
        data = bytes_of(self._source)
        self.original_head, self.original_tail = data, b""
        self.diagnostics.append(Diagnostic(
            "SY303", f"neither PBN nor LIN ({looks_like(data)}): nothing read", 1, 1,
            self.path))
        return iter(())


def read(source: Source, path: str | None = None, strict: bool = False,
         resume: Resume | None = None) -> Reader:
    """Read a PBN or LIN file lazily: ``for game in pbnkit.read("event.pbn"): ...``.

    ``source`` is a path or an open binary (or text) file. Games are parsed as the
    iteration reaches them, so memory stays bounded by the largest game. ``strict`` adds
    the text-level export-format checks (tabs, CRLF line ends, game separation).
    ``resume`` reads one part of a seekable PBN file (see :mod:`pbnkit.pbn.chunks`). A
    LIN file (by its name, else its bytes) is read by :mod:`pbnkit.lin` into the same
    games.
    """
    return open_reader(source, path, strict, resume)


def read_text(text: str, path: str | None = None) -> list[Game]:
    """All games of a PBN or LIN string (convenient in tests and notebooks)."""
    data = text.encode("utf-8")
    if sniff(data, path) == "lin":
        return list(LinReader(io.BytesIO(data), path))
    return list(PbnReader(io.BytesIO(data), path))
