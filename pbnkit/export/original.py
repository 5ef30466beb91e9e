"""The source files of an archive, byte for byte, from the ``original`` columns.

Each row keeps its record's bytes as read (``original``: from the line of its first tag
pair up to the next record), the first row of a file the bytes before its first record
(``original_head``) and the last row the bytes after its last (``original_tail``). A file
without records has one row of its own (``index`` null) whose ``original_head`` is the
whole file. So a file is its first row's head, every row's original and its last row's
tail, in record order: :func:`original_files` puts them together, :func:`write_originals`
writes the files under a directory, each named by its ``source`` column.

A source name is a relative path; one that would leave the directory (absolute, a drive,
``..``) is refused, never followed.
"""

from __future__ import annotations

import base64
import hashlib
import os
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath, PureWindowsPath


from pbnkit.export.atomic import atomic_directory
from pbnkit.export.rows import Row
from pbnkit.export.schema import ORIGINAL_COLUMNS
from pbnkit.export.sinks import ArchiveError


class OriginalError(ArchiveError):
    """The rows cannot give a source file back: an archive without the original bytes
    (written by pbnkit before schema version 2), rows out of record order, or a source
    name that would leave the output directory."""


@dataclass(slots=True)
class OriginalFile:
    """One source file: its name (the ``source`` column) and its bytes, in pieces."""

    source: str
    pieces: list[bytes] = field(default_factory=list)

    @property
    def data(self) -> bytes:
        return b"".join(self.pieces)


def _bytes(row: Row, column: str, number: int) -> bytes | None:
    """A binary column's value: bytes from Parquet, base64 text from JSON."""
    value = row.get(column)
    if value is None or isinstance(value, bytes):
        return value
    try:
        return base64.b64decode(value)
    except (TypeError, ValueError) as error:  # binascii.Error is a ValueError
        raise OriginalError(f"row {number}: {column} is not base64 text ({error})") from None


def original_files(rows: Iterable[Row]) -> Iterator[OriginalFile]:
    """The source files of rows in record order (as an archive stores them: by file, then
    by ``index``), each as soon as its last row is read."""
    current: OriginalFile | None = None
    index = -1
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, dict):
            raise OriginalError(f"row {number}: not a boards record (not a JSON object)")
        head, tail = _bytes(row, "original_head", number), _bytes(row, "original_tail", number)
        original = _bytes(row, "original", number)
        name = row.get("source") or row.get("path")
        where = f"row {number} ({name}, record {row.get('index')})"
        if head is not None:
            if current is not None:
                raise OriginalError(f"{where}: the file before it has no end (original_tail)")
            if not isinstance(name, str):
                raise OriginalError(f"{where}: no source name")
            current, index = OriginalFile(name), -1
            current.pieces.append(head)
        elif original is None and row.get("index") is not None:
            raise OriginalError(f"{where}: the archive does not keep the original bytes "
                                "(schema version 1, or upgraded from it)")
        elif current is None or name != current.source:
            raise OriginalError(f"{where}: not in record order (a file's first row is not "
                                "first)")
        if row.get("index") is not None:
            if original is None:
                raise OriginalError(f"{where}: the archive does not keep the original bytes "
                                    "(schema version 1, or upgraded from it)")
            if type(row["index"]) is not int:
                raise OriginalError(f"{where}: the record's index is not a number")
            if row["index"] <= index:
                raise OriginalError(f"{where}: not in record order")
            index = row["index"]
            current.pieces.append(original)
        if tail is not None:
            current.pieces.append(tail)
            yield current
            current = None
    if current is not None:
        raise OriginalError(f"the rows of {current.source} end before the file's end "
                            "(original_tail)")


def safe_path(directory: Path, source: str) -> Path:
    """Where ``source`` goes under ``directory``; refuses a name that would leave it."""
    parts = PurePosixPath(source.replace("\\", "/")).parts
    if (not parts or "://" in source or "\0" in source or PurePosixPath(source).is_absolute()
            or PureWindowsPath(source).drive or PureWindowsPath(source).is_absolute()
            or any(part in ("..", ".") for part in parts)):
        raise OriginalError(f"source {source!r} is not a relative path inside the output "
                            "directory; refusing to write it")
    return directory.joinpath(*parts)


class OriginalNameWarning(UserWarning):
    """Two sources of one name hold different bytes: the later one is written under
    another name."""


def write_originals(rows: Iterable[Row], out: str | os.PathLike[str],
                    force: bool = False) -> list[str]:
    """Write the source files of rows in record order under the directory ``out``, each
    at its ``source`` name, atomically: the directory appears whole, or not at all. The
    names written, in order.

    Two sources of one name (a file given twice to convert, duplicate zip members,
    ``--stdin-filename`` equal to an input's name, an edited archive) are one file when
    their bytes are the same; otherwise the later one is written as ``NAME~2`` (``~3``...,
    before the suffix: ``club~2.pbn``), with an :class:`OriginalNameWarning`, so that no
    source is lost. A name that differs only in letter case is kept apart the same way:
    on a filesystem that folds case the two would be one file."""
    written: list[str] = []
    digests: dict[str, bytes] = {}  # a name written, folded → the digest of its bytes
    with atomic_directory(out, force) as directory:
        for found in original_files(rows):
            hashed = hashlib.sha256()
            for piece in found.pieces:
                hashed.update(piece)
            digest = hashed.digest()
            name = found.source
            number = 1
            while digests.get(name.casefold(), digest) != digest:
                number += 1
                name = _numbered(found.source, number)
            if name.casefold() in digests:
                continue  # the same bytes again
            if name != found.source:
                warnings.warn(OriginalNameWarning(
                    f"two sources are named {found.source} and hold different bytes: "
                    f"the later one is written as {name}"), stacklevel=2)
            target = safe_path(directory, name)
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "xb") as stream:  # never over another source
                stream.writelines(found.pieces)
            digests[name.casefold()] = digest
            written.append(name)
    return written


def _numbered(source: str, number: int) -> str:
    """``club.pbn`` → ``club~2.pbn``: a name for another source of the same name."""
    path = PurePosixPath(source.replace("\\", "/"))
    return str(path.with_name(f"{path.stem}~{number}{path.suffix}"))


def original_rows(archive: str | os.PathLike[str]) -> Iterator[Row]:
    """The ``original`` columns (and the names and indexes) of an archive's rows, in
    record order, whatever order they are stored in."""
    from pbnkit.export.archive import archive_rows

    return archive_rows(archive, ORIGINAL_COLUMNS)
