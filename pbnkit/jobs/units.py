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
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pbnkit.pbn.chunks import ReadSummary, Resume, merge, plan_chunks, summary
from pbnkit.pbn.reader import PbnReader
from pbnkit.pbn.split import codec_of, detect

#: chunks of a large file: small enough to keep every worker busy to the end and to
#: keep memory flat (a unit's results are held until the parent merges them, so the
#: largest unit sets the peak, whatever the input's size), large enough that a unit's
#: start-up cost is lost in its work (2 MB is about 3,000 boards with full play)
MIN_CHUNK = 512 << 10
MAX_CHUNK = 2 << 20
#: chunks per job when files are cut: uneven chunks still end together
CHUNKS_PER_JOB = 4


@dataclass(frozen=True, slots=True)
class Unit:
    """A file, or chunk ``chunk`` of the ``chunks`` a large file was cut into."""

    path: str
    size: int  # bytes of the file this unit covers, for progress
    chunk: int = 0
    chunks: int = 1
    resume: Resume | None = None
    #: the file's encoding as one reading names it, known before reading (chunks only)
    encoding: str | None = None
    #: position among all the units of a run (a file named twice gives two units)
    ordinal: int = 0

    @property
    def is_last(self) -> bool:
        return self.chunk == self.chunks - 1

    def describe(self) -> str:
        return self.path if self.chunks == 1 else f"{self.path} (part {self.chunk + 1} of {self.chunks})"

    def reader(self, strict: bool = False) -> PbnReader:
        return PbnReader(self.path, strict=strict, resume=self.resume)


#: what a unit's reader found that belongs to its file rather than to a game
UnitEnd = ReadSummary


def end_of(reader: PbnReader) -> UnitEnd:
    return summary(reader)


def merge_ends(ends: Sequence[UnitEnd], path: str, strict: bool) -> UnitEnd:
    """The file's encoding, problems outside any game and trailer, as one reading of it
    gives them, from those of its units in order."""
    if len(ends) == 1:  # a whole file: its reader saw everything
        return ends[0]
    return merge(ends, path, strict)


def file_encoding(path: str) -> str:
    """The file's encoding as a whole reading names it, found before reading it: one pass
    of the codec over the bytes, at C speed, tells whether any line needs the Latin-1
    fallback (line ends are ASCII, so a block decodes exactly when all its lines do)."""
    with open(path, "rb") as stream:
        pending = stream.read(MIN_CHUNK)
        encoding = detect(pending)
        codec = codec_of(encoding)
        pending = pending[3:] if encoding.bom else pending
        while True:
            block = stream.read(MIN_CHUNK)
            data = pending + block
            cut = len(data) if not block else max(data.rfind(b"\n"), data.rfind(b"\r")) + 1
            try:
                data[:cut].decode(codec)
            except UnicodeDecodeError:
                encoding.fallback_lines.append(0)
                break
            pending = data[cut:]
            if not block:
                break
    return encoding.name


def plan(files: Sequence[Path], jobs: int) -> list[Unit]:
    """Units for ``files`` in order: a file each, and large files cut in chunks, so that
    several jobs can share one file and a long run shows progress as it goes."""
    sizes = [os.stat(path).st_size if Path(path).is_file() else 0 for path in files]
    target = min(MAX_CHUNK, max(MIN_CHUNK, sum(sizes) // (jobs * CHUNKS_PER_JOB) + 1))
    units: list[Unit] = []
    for path, size in zip(files, sizes):
        name = os.fspath(path)
        resumes = plan_chunks(name, target) if size > target else []
        if len(resumes) <= 1:
            units.append(Unit(name, size, ordinal=len(units)))
            continue
        encoding = file_encoding(name)
        for number, resume in enumerate(resumes):
            units.append(Unit(name, resume.end - resume.start, number, len(resumes), resume,
                              encoding, len(units)))
    return units
