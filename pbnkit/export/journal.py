"""What a dataset convert has finished, unit by unit, so that an interrupted run can be
taken up where it stopped (``convert --resume``) instead of started again.

The parent writes one small JSON file per unit under ``_progress/`` in the dataset, once
the unit's part is written and merged: which files it wrote, its counts, and the problems
its reader found outside any game (a later chunk of the same file needs them). A unit is
taken as done only when its entry matches it exactly: the same source file (path, size,
modification time), the same byte range, the same options and pbnkit version, and its
files are all there. Anything else is converted again; the part it writes replaces any
left over. The directory starts with ``_``, so dataset readers skip it; it is removed
when the manifest is written.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from typing import Any

import pyarrow.fs as pafs

from pbnkit import __version__
from pbnkit.export.dataset import filesystem
from pbnkit.export.rows import Row

PROGRESS = "_progress"


def identity(path: str, chunk: int, start: int, end: int, options: dict[str, Any]) -> dict[str, Any]:
    """What must be the same for a unit's earlier part to stand for this run's unit."""
    stat = os.stat(path)
    return {"path": os.path.abspath(path), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns,
            "chunk": chunk, "start": start, "end": end, "pbnkit": __version__, **options}


def record(where: str, stem: str, unit: dict[str, Any], files: Sequence[tuple[str, int]],
           counts: tuple[int, int, int], problems: list[Row]) -> None:
    """Note a merged unit as done (written after its files, so a crash in between only
    means the unit is converted again)."""
    fs, root = filesystem(where)
    entry = {"unit": unit, "files": [list(file) for file in files],
             "counts": list(counts), "problems": problems}
    fs.create_dir(f"{root}/{PROGRESS}")
    with fs.open_output_stream(f"{root}/{PROGRESS}/{stem}.json") as stream:
        stream.write(json.dumps(entry).encode("utf-8"))


def load(where: str) -> dict[str, dict[str, Any]]:
    """The entries of the units an earlier run finished, by part stem; unreadable
    entries (a run stopped while writing one) are left out."""
    fs, root = filesystem(where)
    selector = pafs.FileSelector(f"{root}/{PROGRESS}", allow_not_found=True)
    entries: dict[str, dict[str, Any]] = {}
    for info in fs.get_file_info(selector):
        if not info.is_file or not info.base_name.endswith(".json"):
            continue
        try:
            with fs.open_input_stream(info.path) as stream:
                entries[info.base_name[:-len(".json")]] = json.loads(stream.read())
        except (OSError, ValueError):
            continue
    return entries


def whole_files(entries: Iterable[dict[str, Any]]) -> set[str]:
    """The source files whose every chunk has an entry: chunks that follow each other
    from the file's first to its last byte."""
    ranges: dict[str, list[tuple[int, int, int, int]]] = {}
    for entry in entries:
        unit = entry["unit"]
        ranges.setdefault(unit["path"], []).append(
            (unit["chunk"], unit["start"], unit["end"], unit["size"]))
    whole = set()
    for path, chunks in ranges.items():
        chunks.sort()
        if chunks[0][0] == 0 and chunks[-1][2] == chunks[-1][3] and all(
                later[0] == earlier[0] + 1 and later[1] == earlier[2]
                for earlier, later in zip(chunks, chunks[1:])):
            whole.add(path)
    return whole


def files_present(where: str, files: Sequence[Sequence[Any]]) -> bool:
    fs, root = filesystem(where)
    return all(info.is_file for info in fs.get_file_info([f"{root}/{name}" for name, _ in files]))


def clear(where: str) -> None:
    fs, root = filesystem(where)
    if fs.get_file_info(f"{root}/{PROGRESS}").type == pafs.FileType.Directory:
        fs.delete_dir(f"{root}/{PROGRESS}")
