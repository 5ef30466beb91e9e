"""Work units of an archive, for ``pbnkit rescore -j``: runs of Parquet row groups that
begin where a source file begins (or anywhere, when no record uses ``#`` inheritance), so
that each unit resolves ``#``/``##`` inheritance on its own exactly as one reading of the
whole archive does. A JSON or JSONL archive is one unit (it can only be read from the
start)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass

import pyarrow.compute as pc
import pyarrow.parquet as pq

from pbnkit.export import dataset
from pbnkit.export.archive import ArchiveError, archive_rows, games_of_rows, parquet_rows
from pbnkit.export.rows import Row
from pbnkit.pbn.records import Game

#: units per job: uneven units still end together
UNITS_PER_JOB = 4


@dataclass(frozen=True, slots=True)
class ArchiveUnit:
    """Row groups of the archive's Parquet files (all of a JSON archive when empty)."""

    archive: str
    segments: tuple[tuple[str, tuple[int, ...]], ...] = ()
    size: int = 0  # rows, for progress
    chunk: int = 0
    chunks: int = 1

    @property
    def is_last(self) -> bool:
        return self.chunk == self.chunks - 1

    def describe(self) -> str:
        return self.archive if self.chunks == 1 else (
            f"{self.archive} (part {self.chunk + 1} of {self.chunks})")

    def rows(self) -> Iterator[Row]:
        if not self.segments:
            yield from archive_rows(self.archive)
            return
        fs, _ = dataset.filesystem(self.archive)
        for path, groups in self.segments:
            with fs.open_input_file(path) as source:
                yield from parquet_rows(source, path, list(groups))

    def games(self) -> Iterator[Game]:
        return games_of_rows(self.rows(), self.archive)


def plan_archive(archive: str | os.PathLike[str], jobs: int) -> list[ArchiveUnit]:
    name = os.fspath(archive)
    if dataset.is_uri(name) or os.path.isdir(name):
        try:
            files = dataset.read_parts(name)
        except dataset.DatasetError as error:
            raise ArchiveError(str(error)) from None
    elif name.lower().endswith(".parquet"):
        files = [name]
    else:
        return [ArchiveUnit(name)]
    fs, _ = dataset.filesystem(name)
    groups: list[tuple[str, int, int, bool]] = []  # file, row group, rows, starts a source
    inherits = False  # some record's tag value starts with '#'
    for path in files:
        try:
            with fs.open_input_file(path) as stream:
                parquet = pq.ParquetFile(stream)
                for number in range(parquet.metadata.num_row_groups):
                    # One row group at a time: memory stays that of a row group.
                    table = parquet.read_row_group(number, columns=["index", "tags"])
                    starts = not table.num_rows or table.column("index")[0].as_py() == 0
                    groups.append((path, number, table.num_rows, starts))
                    values = pc.list_flatten(table.column("tags")).combine_chunks()
                    inherits = inherits or pc.any(
                        pc.starts_with(values.field("value"), "#")).as_py() is True
        except Exception:  # not readable here: one unit, and reading says what is wrong
            return [ArchiveUnit(name)]
    if not inherits:  # no record inherits: any row group may start a unit
        groups = [(path, number, rows, True) for path, number, rows, _ in groups]
    total = sum(rows for _, _, rows, _ in groups)
    target = max(1, total // max(1, jobs * UNITS_PER_JOB))
    runs: list[list[tuple[str, int, int, bool]]] = []
    for group in groups:
        if not runs or (group[3] and sum(g[2] for g in runs[-1]) >= target):
            runs.append([])
        runs[-1].append(group)
    units = []
    for number, run in enumerate(runs):
        segments: list[tuple[str, list[int]]] = []
        for path, group_number, _, _ in run:
            if not segments or segments[-1][0] != path:
                segments.append((path, []))
            segments[-1][1].append(group_number)
        units.append(ArchiveUnit(name, tuple((p, tuple(g)) for p, g in segments),
                                 sum(g[2] for g in run), number, len(runs)))
    return units or [ArchiveUnit(name)]
