"""A run's engine and units, chosen one way for every command and public call: Dask when
a scheduler is named, else a pool of ``jobs`` processes (every usable core by default),
inline when one process is enough; the units of files planned as they are found, small
files handed to a worker several at a time.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pbnkit.pipeline.engines import Bundled, Dask, Engine, Inline, engine, usable_cores
from pbnkit.pipeline.units import BUNDLE_BYTES, Unit, chunk_size, file_size, plan


@dataclass
class Planned:
    engine: Engine
    units: Iterable[Any]  # each with .size (for progress), .chunk and .is_last
    total: int  # the bytes of all the units, for progress


def start(files: Sequence[str | os.PathLike[str]], jobs: int | None,
          scheduler: str | None = None, names: Mapping[str, str] | None = None,
          planner: Callable[[int], Sequence[Any]] | None = None) -> Planned:
    """The engine and units of a run over ``files``, or over what ``planner(jobs)``
    gives (the units of an archive). ``names``: the name to show for some of the files
    (standard input's spool file: its ``--stdin-filename``). Raises
    :class:`~pbnkit.pipeline.engines.EngineError` when the engine cannot start."""
    chosen: Engine | None = Dask(scheduler) if scheduler else None
    count = chosen.jobs if chosen is not None else (
        usable_cores() if jobs is None or jobs < 1 else jobs)
    if planner is not None:
        planned = list(planner(count))
        units: Iterable[Any] = planned
        total, alone = sum(unit.size for unit in planned), len(planned) <= 1
    else:
        paths = [Path(file) for file in files]
        units = shown_as(plan(paths, count), names or {})
        total = sum(map(file_size, paths))
        alone = len(paths) <= 1 and total <= chunk_size(paths, count)
    if scheduler:
        units = map(for_workers, units)
    chosen = chosen or engine(count, alone=alone)
    if planner is None and not isinstance(chosen, Inline):  # units of files, in bytes
        chosen = Bundled(chosen, BUNDLE_BYTES)
    return Planned(chosen, units, total)


def shown_as(units: Iterable[Unit], names: Mapping[str, str]) -> Iterator[Unit]:
    """The units, those of a file in ``names`` (a spool file → the name to show) reading
    that file under that name."""
    for unit in units:
        if unit.path in names:
            unit = replace(unit, path=names[unit.path], source=unit.path)
        yield unit


def for_workers(unit: Any) -> Any:
    """A unit as workers in another working directory, or on another machine that shares
    the files, read it: by an absolute path, resolved here (its file's, or its archive's;
    the name shown stays as given)."""
    if isinstance(unit, Unit):
        return replace(unit, source=os.path.abspath(unit.source or unit.path))
    archive = getattr(unit, "archive", None)  # an archive's unit (export.archive_units)
    if isinstance(archive, str) and "://" not in archive:
        return replace(unit, archive=os.path.abspath(archive))
    return unit
