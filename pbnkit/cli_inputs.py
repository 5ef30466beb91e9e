"""Compressed inputs, read as if they were plain files: a ``.pbn.gz`` or ``.lin.gz``, and
the PBN and LIN members of a ``.zip``.

Each is copied, decompressed, to a private temporary file that lasts as long as the
command (as standard input is), so that the units of any ``-j`` read it as any file; it is
shown, stored and reported under its own name: ``week1.pbn.gz``, or ``events.zip/week1.pbn``
for a member.
"""

from __future__ import annotations

import gzip
import io
import os
import shutil
import tempfile
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import IO

from pbnkit.formats.files import FILE_SUFFIXES

_BLOCK = 1 << 20


class UnpackError(OSError):
    """A compressed file that cannot be read (damaged, or not what its name says); the
    message says why, without the file's name."""


def unpack(path: Path, directory: Path,
           skipped: Callable[[Path, str], None]) -> list[tuple[Path, str]]:
    """(the decompressed copy in ``directory``, the name to show) for a compressed file:
    one for a ``.gz``, one per PBN or LIN member of a ``.zip``, in the archive's order.
    ``skipped(name, why)`` hears of the members left out."""
    copies: list[tuple[Path, str]] = []
    kind = ".gz" if path.name.lower().endswith(".gz") else ".zip"
    try:
        if kind == ".gz":
            with gzip.open(path, "rb") as source:
                return [(_copy(source, directory, path.name[:-3]), os.fspath(path))]
        with zipfile.ZipFile(path) as archive:
            for member in archive.infolist():
                name = Path(path, member.filename)
                if member.is_dir():
                    continue
                if not member.filename.lower().endswith(FILE_SUFFIXES):
                    skipped(name, f"not a {' or '.join(FILE_SUFFIXES)} file")
                    continue
                with archive.open(member) as source:
                    copies.append((_copy(source, directory, member.filename), os.fspath(name)))
    except (gzip.BadGzipFile, EOFError, zipfile.BadZipFile, zipfile.LargeZipFile,
            zlib.error) as error:
        # a truncated download, or a member whose compressed bytes are damaged
        raise UnpackError(f"cannot read: a damaged {kind} file ({error})") from None
    except OSError as error:
        raise UnpackError(f"cannot read: {error.strerror or error}") from None
    return copies


def _copy(source: io.BufferedIOBase | IO[bytes], directory: Path, name: str) -> Path:
    """The bytes in a new file of ``directory`` whose name ends as ``name`` does (``.pbn``
    or ``.lin``: the readers go by it)."""
    fd, copy = tempfile.mkstemp(dir=directory, suffix=f"-{Path(name).name}")
    with os.fdopen(fd, "wb") as out:
        shutil.copyfileobj(source, out, _BLOCK)
    return Path(copy)
