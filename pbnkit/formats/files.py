"""Which files a command reads: the files named, and the hand records under the
directories named, found by their names' suffixes."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

#: what directories are searched for, in any case (``2H-3H.PBN`` too): PBN files, and
#: LIN files (Bridge Base Online's own format, read into the same games)
FILE_SUFFIXES = (".pbn", ".lin")
#: compressed hand records, which the command line reads too (pbnkit.cli_inputs)
COMPRESSED_SUFFIXES = (".pbn.gz", ".lin.gz", ".zip")
#: directories whose files are never hand records of the user's (version control's own)
_NOT_SEARCHED = frozenset((".git", ".hg", ".svn"))


def iter_files(paths: Iterable[str | os.PathLike[str]], suffixes: tuple[str, ...] = FILE_SUFFIXES,
               skipped: Callable[[Path, str], None] | None = None,
               unreadable: Callable[[Path, str], None] | None = None) -> Iterator[Path]:
    """Files named, and the files under directories named whose names end in one of
    ``suffixes`` in any case, in sorted order. ``skipped(path, why)`` hears of every other
    file under them, and of each directory left out; ``unreadable(path, why)`` of each
    directory that cannot be listed and each file of those names that cannot be looked
    at (no permission), whose hand records are lost (default: ``skipped``)."""
    ignored = skipped or (lambda path, why: None)
    for entry in paths:
        entry = Path(entry)
        if entry.is_dir():
            yield from _searched(entry, suffixes, ignored, unreadable or ignored)
        else:
            yield entry


def _searched(top: Path, suffixes: tuple[str, ...], skipped: Callable[[Path, str], None],
              unreadable: Callable[[Path, str], None]) -> list[Path]:
    found: list[Path] = []
    seen: set[str] = set()
    wanted = f"not a {', '.join(suffixes[:-1])} or {suffixes[-1]} file" if len(suffixes) > 1 \
        else f"not a {suffixes[0]} file"
    # Links to directories are followed (a folder of links to event folders is common),
    # each real directory once (under its first name in sorted order), so that a link to
    # a parent cannot loop forever.
    def unlisted(error: OSError) -> None:
        unreadable(Path(error.filename), f"cannot read: {error.strerror or error}")

    for directory, subdirectories, names in os.walk(top, onerror=unlisted, followlinks=True):
        subdirectories.sort()
        here = Path(directory)
        real = os.path.realpath(directory)
        if real in seen:
            skipped(here, "a link to a directory searched already")
            subdirectories.clear()
            continue
        seen.add(real)
        for name in [d for d in subdirectories if d in _NOT_SEARCHED]:
            skipped(here / name, "version control data")
            subdirectories.remove(name)
        for name in names:
            path = here / name
            lower = name.lower()
            if not lower.endswith(suffixes):
                skipped(path, wanted)
            else:
                try:
                    regular = stat.S_ISREG(os.stat(path).st_mode)
                except OSError as error:  # in a directory that may be listed, not searched
                    unreadable(path, f"cannot read: {error.strerror or error}")
                    continue
                if regular:
                    found.append(path)
                else:
                    skipped(path, "not a regular file")
    return sorted(found)


def file_digest(path: str | os.PathLike[str]) -> bytes:
    """The SHA-256 of a file's bytes: what a record id is derived from
    (:func:`pbnkit.export.rows.record_id`), read once per file."""
    with open(path, "rb") as stream:
        return hashlib.file_digest(stream, "sha256").digest()
