"""The reader interface: every format's reader is a :class:`Reader`, and yields
:class:`~pbnkit.records.Game` records.

A command or the library takes any reader alike: it iterates over the games, then reads
what belongs to no game (``diagnostics``, ``trailer``), how the bytes were decoded
(``encoding``) and the file's bytes before its first game and after its last
(``original_head``, ``original_tail``). Only the reading differs between formats. What
they share lives here: the sources a reader takes, the encoding it reports, and the
grammars' place.
"""

from __future__ import annotations

import io
import os
from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import BinaryIO, TextIO

from pbnkit.diagnostics import Diagnostic
from pbnkit.records import Element, Game

#: a path, or an open binary (or text) file
Source = str | os.PathLike[str] | BinaryIO | TextIO


@dataclass
class Encoding:
    """How the file's bytes were decoded; ``name`` is final once reading ends."""

    declared: str | None = None
    bom: bool = False
    fallback_lines: list[int] = field(default_factory=list)
    #: the fallback lines of an undeclared file that held bytes 0x80-0x9F, read as
    #: Windows-1252 (curly quotes, dashes): Latin-1 has only control characters there
    windows_1252_lines: list[int] = field(default_factory=list)
    #: line ends other than CRLF (export format wants CRLF only)
    bare_line_ends: int = 0

    @property
    def name(self) -> str:
        if self.bom:
            base = "utf-8 (bom)"
        elif self.declared:
            base = f"{self.declared} (declared)"
        elif not self.fallback_lines:
            return "utf-8"
        else:
            return "windows-1252 (fallback)" if self.windows_1252_lines else "latin-1 (fallback)"
        return base + (" + latin-1 (fallback)" if self.fallback_lines else "")


class Reader(ABC):
    """Iterate over the games of one file, lazily.

    After (or during) iteration: ``encoding`` says how the bytes were decoded,
    ``diagnostics`` holds the problems that belong to no game, ``trailer`` holds
    commentary after the last game, and ``original_head`` and ``original_tail`` the
    file's bytes before its first game and after its last (see ``Game.original``). A
    game is given out when the next one is found; ``reached`` is then the line where
    that one starts: the games still to come, and the problems outside a game still to
    be found, are at that line or after it.
    """

    def __init__(self, source: Source, path: str | None = None, strict: bool = False):
        self._source = source
        self.strict = strict
        if path is None and isinstance(source, (str, os.PathLike)):
            path = os.fspath(source)
        self.path = path
        self.encoding_info = Encoding()
        self.diagnostics: list[Diagnostic] = []
        self.trailer: tuple[Element, ...] = ()
        self.games_read = 0
        #: a line at or before every line still to be read (see above); 0 until known
        self.reached = 0
        #: the file's bytes before its first game (all of them when it has none), and
        #: after its last game; None until known, and when this read (a part of the
        #: file) does not reach the file's start or end
        self.original_head: bytes | None = None
        self.original_tail: bytes | None = None

    @property
    def encoding(self) -> str:
        return self.encoding_info.name

    @property
    def resume(self) -> object | None:
        """The part of the file read (see :class:`pbnkit.pbn.reader.PbnReader`); None:
        the whole file, as every format's reader reads it but PBN's, which reads parts."""
        return None

    @abstractmethod
    def __iter__(self) -> Iterator[Game]:
        """The file's games, in order, each once."""


def bytes_of(source: Source) -> bytes:
    """All the bytes of a file named or open (a text stream's text in UTF-8)."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as stream:
            return stream.read()
    data = source.read()
    return data.encode("utf-8") if isinstance(data, str) else data


#: how many first bytes tell a file's format (:func:`head_of`)
HEAD_SIZE = 64 << 10


def head_of(source: Source) -> bytes:
    """The first bytes of a file, to tell its format; none when it cannot be read now
    (its reader then says why, as it reads)."""
    if isinstance(source, (str, os.PathLike)):
        if not os.path.isfile(source) and os.path.exists(source):
            return b""  # a pipe (a FIFO, <(...)) is read once: by its reader, from its start
        try:
            with open(source, "rb") as stream:
                return stream.read(HEAD_SIZE)
        except OSError:
            return b""
    if isinstance(source, io.TextIOBase) or not source.seekable():
        return b""
    where = source.tell()
    head = source.read(HEAD_SIZE)
    source.seek(where)
    return head if isinstance(head, bytes) else head.encode("utf-8")


def grammar_file(name: str) -> Path:
    """A format's grammar (``pbn.lark``, ``lin.lark``) inside the installed wheel, else
    the repository's ``grammars/``."""
    packaged = resources.files("pbnkit") / "grammars" / name
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "grammars" / name
