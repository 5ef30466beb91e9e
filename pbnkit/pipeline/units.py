"""Work units: a whole PBN file, or a chunk of a large one cut at a game boundary with
the state the reader needs to start there (inherited ``#``/``##`` values, the charset,
line and game numbers), so that any engine can read it on its own.

Reading a unit gives exactly the games a reading of the whole file gives for that range;
what belongs to the whole file (its encoding name, the problems outside any game, the
commentary after the last game) is merged by the parent from every unit's
:class:`UnitEnd`.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pbnkit.formats.files import file_digest
from pbnkit.formats.reader import Reader
from pbnkit.formats.sniff import open_reader, sniff_file
from pbnkit.pbn.chunks import ReadSummary, Resume, iter_chunks, summary, tail_shares
from pbnkit.pbn.encoding import file_encoding

#: chunks of a large file: small enough to keep every worker busy to the end and to
#: keep memory flat (a unit's results are held until the parent merges them, so the
#: largest unit sets the peak, whatever the input's size), large enough that a unit's
#: start-up cost is lost in its work (2 MB is about 3,000 boards with full play)
MIN_CHUNK = 512 << 10
MAX_CHUNK = 2 << 20
#: chunks per job when files are cut: uneven chunks still end together
CHUNKS_PER_JOB = 4
#: smaller files go to a worker together, at least this many bytes at a time: enough
#: that handing them over costs little beside reading them (a hand-over costs what a
#: file of one board does), few enough that the jobs still end together
BUNDLE_BYTES = MIN_CHUNK // 4


@dataclass(frozen=True, slots=True)
class Unit:
    """A file, or chunk ``chunk`` (from 0) of a large file, the last one ``is_last``."""

    path: str
    size: int  # bytes of the file this unit covers, for progress
    chunk: int = 0
    is_last: bool = True  # the file's last chunk
    resume: Resume | None = None
    #: the file's encoding as one reading names it, known before reading (chunks only)
    encoding: str | None = None
    #: position among all the units of a run (a file named twice gives two units)
    ordinal: int = 0
    #: where the bytes are read from when not at ``path`` (standard input spooled to a
    #: temporary file): ``path`` is then only the name shown and stored
    source: str | None = None
    #: the SHA-256 of the whole file, which its record ids come from: made once per file
    #: by the parent for chunks (a chunk alone cannot know it), by the worker for a file
    digest: bytes | None = None

    def describe(self) -> str:
        return self.path if self.resume is None else f"{self.path} (part {self.chunk + 1})"

    def reader(self, strict: bool = False) -> Reader:
        """The unit's reader: PBN or LIN, by the name shown and the bytes."""
        return open_reader(self.source or self.path, self.path, strict=strict,
                           resume=self.resume)


#: what a unit's reader found that belongs to its file rather than to a game
UnitEnd = ReadSummary


def end_of(reader: Reader) -> UnitEnd:
    return summary(reader)


def file_size(path: str | os.PathLike[str]) -> int:
    """The bytes of a regular file; 0 for anything else (a pipe, a directory, a file that
    is gone: its reader says what is wrong). One system call: ``Path.is_file`` and then
    ``os.stat`` were two, for each file of a folder of thousands, three times over."""
    try:
        status = os.stat(path)
    except (OSError, ValueError):
        return 0
    return status.st_size if stat.S_ISREG(status.st_mode) else 0


def chunk_size(files: Sequence[Path], jobs: int) -> int:
    """How large a chunk of a large file is, for ``jobs`` jobs sharing ``files``."""
    total = sum(map(file_size, files))
    return min(MAX_CHUNK, max(MIN_CHUNK, total // (jobs * CHUNKS_PER_JOB) + 1))


def plan(files: Sequence[Path], jobs: int) -> Iterator[Unit]:
    """Units for ``files`` in order, as they are found: a file each, and large files cut
    in chunks, so that several jobs can share one file and a long run shows progress as
    it goes. Lazy: the first units are at work while a large file is still being cut."""
    target = chunk_size(files, jobs)
    # the last chunks of each file shrink, for jobs to end together (not worth it alone)
    tail = (tail_shares(jobs), MIN_CHUNK) if jobs > 1 else None
    ordinal = 0
    for path in files:
        name = os.fspath(path)
        size = file_size(name)
        if size <= target or sniff_file(name) != "pbn":  # only PBN files are cut
            yield Unit(name, size, ordinal=ordinal)
            ordinal += 1
            continue
        chunk, previous = 0, None
        for resume in iter_chunks(name, target, tail):
            if previous is not None:
                yield Unit(name, _bytes(previous, chunk), chunk, False, previous,
                           ordinal=ordinal)
                chunk, ordinal = chunk + 1, ordinal + 1
            previous = resume
        assert previous is not None
        whole = chunk == 0  # not cut after all
        yield Unit(name, _bytes(previous, chunk), chunk, True, None if whole else previous,
                   ordinal=ordinal)
        ordinal += 1


def _bytes(part: Resume, chunk: int) -> int:
    """The bytes a chunk stands for in the progress over the file (the first one also
    counts a BOM before its start, so the chunks add up to the file's size)."""
    return part.end - (0 if chunk == 0 else part.start)


def with_encodings(units: Iterable[Unit]) -> Iterator[Unit]:
    """The units, each chunk carrying its file's encoding name and digest (the archive's
    encoding column is the file's, and record ids come from the whole file's bytes, which
    a chunk alone cannot know), and so each unit read from a ``source`` (its ``path``
    names no file)."""
    known: dict[str, tuple[str, bytes]] = {}
    for unit in units:
        if unit.resume is not None or unit.source is not None:
            read = unit.source or unit.path
            if read not in known:
                known[read] = file_encoding(read), file_digest(read)
            unit = replace(unit, encoding=known[read][0], digest=known[read][1])
        yield unit
