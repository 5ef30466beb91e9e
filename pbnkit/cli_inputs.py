"""Compressed inputs, read as if they were plain files: a ``.pbn.gz`` or ``.lin.gz``, and
the PBN and LIN members of a ``.zip``.

Each is copied, decompressed, to a private temporary file that lasts as long as the
command (as standard input is), so that the units of any ``-j`` read it as any file; it is
shown, stored and reported under its own name: ``week1.pbn.gz``, or ``events.zip/week1.pbn``
for a member.

A source is counted as it is decompressed, and refused (its copy removed) as soon as it
passes its :class:`Limits`: a few kilobytes of a "zip bomb" would otherwise fill the
temporary directory before any check.
"""

from __future__ import annotations

import gzip
import io
import lzma
import os
import re
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from pbnkit.formats.files import FILE_SUFFIXES

_BLOCK = 1 << 20

#: the environment variables that set the limits (docs/cli.md)
SIZE_VARIABLE = "PBNKIT_MAX_UNPACKED"
RATIO_VARIABLE = "PBNKIT_MAX_RATIO"
#: a source's decompressed bytes at most: far above the largest real hand records (tens
#: of megabytes for a season of a club), and what a temporary directory can spare
MAX_UNPACKED = 1 << 30
#: decompressed bytes per compressed byte at most: gzip packs PBN files 2 to 27 times
#: (the corpus), deflate can reach 1,032 (a run of one byte)
MAX_RATIO = 100
#: the ratio is not held against the first bytes: a small file of one board repeated
#: packs well past it, and costs nothing to unpack
RATIO_FREE = 16 << 20
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


class UnpackError(OSError):
    """A compressed file that cannot be read (damaged, or not what its name says); the
    message says why, without the file's name."""


@dataclass(frozen=True, slots=True)
class Limits:
    """How far a compressed source may unpack: ``size`` bytes, and ``ratio`` times its
    compressed bytes (past :data:`RATIO_FREE`); 0 sets no limit."""

    size: int = MAX_UNPACKED
    ratio: int = MAX_RATIO

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Limits:
        """The limits set by ``PBNKIT_MAX_UNPACKED`` (bytes, or a number and K, M, G or
        T) and ``PBNKIT_MAX_RATIO``, else the defaults; ValueError names a bad value."""
        size, ratio = environ.get(SIZE_VARIABLE, "").strip(), environ.get(RATIO_VARIABLE, "").strip()
        return cls(_size(size) if size else MAX_UNPACKED, _ratio(ratio) if ratio else MAX_RATIO)

    def breach(self, unpacked: int, compressed: int) -> str | None:
        """Why ``unpacked`` bytes from ``compressed`` are too many; None when they are not."""
        if self.size and unpacked > self.size:
            return f"it unpacks to more than {_shown(self.size)}, the limit ({SIZE_VARIABLE})"
        if self.ratio and unpacked > max(RATIO_FREE, self.ratio * compressed):
            return (f"it unpacks to more than {self.ratio} times its {_shown(compressed)}, "
                    f"the limit ({RATIO_VARIABLE})")
        return None


def _size(text: str) -> int:
    match = re.fullmatch(r"(\d{1,15})\s*([kmgt]?)(?:i?b)?", text, re.IGNORECASE)
    if match is None:
        raise ValueError(f"{SIZE_VARIABLE}={text!r}: not a size (bytes, or a number and K, "
                         "M, G or T; 0 for no limit)")
    return int(match[1]) * _UNITS[match[2].lower()]


def _ratio(text: str) -> int:
    if not re.fullmatch(r"\d{1,9}", text):
        raise ValueError(f"{RATIO_VARIABLE}={text!r}: not a whole number (0 for no limit)")
    return int(text)


def _shown(size: int) -> str:
    for unit in "TGMK":
        scale = _UNITS[unit.lower()]
        if size >= scale:
            return f"{size / scale:.4g} {unit}iB"
    return f"{size} bytes"


class _Refused(Exception):
    """A source past its limits: its copy is removed."""


@dataclass(frozen=True, slots=True)
class Unpacked:
    """What a compressed file gave: the decompressed copies with the names to show, in
    the archive's order, and the members refused with why (past a limit, or a name
    another member has)."""

    copies: tuple[tuple[Path, str], ...]
    refused: tuple[tuple[str, str], ...] = ()


def unpack(path: Path, directory: Path, skipped: Callable[[Path, str], None],
           limits: Limits = Limits()) -> Unpacked:
    """The decompressed copies in ``directory`` of a compressed file: one for a ``.gz``,
    one per PBN or LIN member of a ``.zip``. ``skipped(name, why)`` hears of the members
    left out as no hand records. UnpackError when the file cannot be read, a ``.gz``
    past ``limits`` included; a member past them is refused, the others read."""
    copies: list[tuple[Path, str]] = []
    refused: list[tuple[str, str]] = []
    kind = ".gz" if path.name.lower().endswith(".gz") else ".zip"
    try:
        if kind == ".gz":
            with open(path, "rb") as raw, gzip.GzipFile(fileobj=raw) as source:
                compressed = os.fstat(raw.fileno()).st_size
                copy = _copy(source, directory, path.name[:-3], limits, compressed)
                return Unpacked(((copy, os.fspath(path)),))
        with zipfile.ZipFile(path) as archive:
            _check_start(archive)
            size = os.path.getsize(path)
            seen: set[str] = set()
            for member in archive.infolist():
                name = Path(path, member.filename)
                if member.is_dir():
                    continue
                if not member.filename.lower().endswith(FILE_SUFFIXES):
                    skipped(name, f"not a {' or '.join(FILE_SUFFIXES)} file")
                    continue
                shown = os.fspath(name)
                why = _unreadable_member(member, seen)
                seen.add(member.filename)
                if why is None:
                    try:
                        with archive.open(member) as source:
                            copies.append((_copy(source, directory, member.filename, limits,
                                                 min(member.compress_size, size)), shown))
                        continue
                    except _Refused as error:
                        why = str(error)
                    except NotImplementedError as error:  # deflate64, a newer method
                        why = f"cannot read: {error}"
                refused.append((shown, why))
    except _Refused as error:
        raise UnpackError(str(error)) from None
    except (gzip.BadGzipFile, EOFError, zipfile.BadZipFile, zipfile.LargeZipFile,
            zlib.error, lzma.LZMAError) as error:
        # a truncated download, or a member whose compressed bytes are damaged
        _remove(copies)
        raise UnpackError(f"cannot read: a damaged {kind} file ({error})") from None
    except OSError as error:
        _remove(copies)
        raise UnpackError(f"cannot read: {error.strerror or error}") from None
    return Unpacked(tuple(copies), tuple(refused))


def _check_start(archive: zipfile.ZipFile) -> None:
    """A zip's first member starts its file. When it does not, the directory found at the
    end is not the file's own: a zip cut off before its directory that holds a zip (stored
    as it is) would be read as that inner zip, the rest lost without a word."""
    first = min((member.header_offset for member in archive.infolist()), default=0)
    if first:
        raise zipfile.BadZipFile(f"{first} bytes before its first member: cut off, or not "
                                 "the zip's own directory")


def _unreadable_member(member: zipfile.ZipInfo, seen: set[str]) -> str | None:
    if member.filename in seen:
        # read both, they would be one source twice (an archive's, export --original's)
        return ("not read: the .zip holds another member of this name, read in its place; "
                "this one is lost")
    if member.flag_bits & 0x1:
        return "cannot read: the member is encrypted"
    return None


def _copy(source: io.BufferedIOBase | IO[bytes], directory: Path, name: str, limits: Limits,
          compressed: int) -> Path:
    """The bytes in a new file of ``directory`` whose name ends as ``name`` does (``.pbn``
    or ``.lin``: the readers go by it); _Refused, and no file, past ``limits``."""
    fd, copy = tempfile.mkstemp(dir=directory, suffix=f"-{Path(name).name}")
    unpacked = 0
    try:
        with os.fdopen(fd, "wb") as out:
            while block := source.read(_BLOCK):
                unpacked += len(block)
                why = limits.breach(unpacked, compressed)
                if why is not None:
                    raise _Refused(f"cannot read: {why}")
                out.write(block)
    except BaseException:
        os.unlink(copy)
        raise
    return Path(copy)


def _remove(copies: list[tuple[Path, str]]) -> None:
    """The copies of a file that turned out damaged: the disk is theirs until the command
    ends otherwise."""
    for copy, _ in copies:
        copy.unlink(missing_ok=True)
