"""A Parquet dataset: a directory (a local path or a ``pyarrow.fs`` URI such as
``file://``, ``s3://``, ``gs://``) of parts, each written whole by the unit of work that
made it, and a manifest that the writer adds only once every part is there.

A part's name comes from its source file and chunk, so a unit that is run again (a retried
Dask task) replaces its own part instead of adding a second one. Readers take the parts in
the manifest's order and refuse a directory without one: that dataset is incomplete.
Other tools read the directory as one table (``pyarrow.dataset`` and DuckDB skip the
``_``-prefixed manifest).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from pbnkit.errors import PbnError

MANIFEST = "_SUCCESS"
MANIFEST_VERSION = 1
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


class DatasetError(PbnError):
    """A dataset cannot be written or read there."""


def is_uri(where: str | os.PathLike[str]) -> bool:
    return "://" in os.fspath(where)


def filesystem(where: str | os.PathLike[str]) -> tuple[pafs.FileSystem, str]:
    """The filesystem and the path on it of a directory or URI."""
    name = os.fspath(where)
    if not is_uri(name):
        return pafs.LocalFileSystem(), os.path.abspath(name)
    try:
        found: tuple[pafs.FileSystem, str] = pafs.FileSystem.from_uri(name)
        return found
    except (pa.ArrowException, ValueError) as error:
        raise DatasetError(f"cannot use {name}: {error}") from None


def part_name(ordinal: int, source: str, chunk: int) -> str:
    """``00003-club-1a2b3c4d-0000.parquet``: the unit's place in the run, its source file
    (readable, and a digest of the full path) and its chunk of that file. The same unit
    always gets the same name; names sort in record order."""
    digest = hashlib.sha1(os.path.abspath(source).encode("utf-8", "surrogateescape")).hexdigest()
    stem = _UNSAFE.sub("_", Path(source).stem)[:40] or "source"
    return f"{ordinal:05d}-{stem}-{digest[:8]}-{chunk:04d}.parquet"


def write_part(where: str, name: str, table: pa.Table, options: dict[str, Any]) -> None:
    """Write one part whole (with the writer ``options`` of ``pq.write_table``): to a
    hidden name first, then moved into place."""
    fs, root = filesystem(where)
    hidden = f"{root}/.{name}.tmp"
    with fs.open_output_stream(hidden) as stream:
        pq.write_table(table, stream, **options)
    fs.move(hidden, f"{root}/{name}")


def write_manifest(where: str, parts: Sequence[tuple[str, int]], metadata: dict[str, Any]) -> None:
    """The manifest, last: the parts in record order with their row counts."""
    fs, root = filesystem(where)
    document = {"manifest": MANIFEST_VERSION, **metadata,
                "parts": [{"name": name, "rows": rows} for name, rows in parts]}
    with fs.open_output_stream(f"{root}/{MANIFEST}") as stream:
        stream.write(json.dumps(document, indent=1).encode("utf-8") + b"\n")


def has_manifest(where: str | os.PathLike[str]) -> bool:
    fs, root = filesystem(where)
    return bool(fs.get_file_info(f"{root}/{MANIFEST}").is_file)


def read_parts(where: str | os.PathLike[str]) -> list[str]:
    """The paths (on the dataset's filesystem) of the parts, in record order."""
    fs, root = filesystem(where)
    try:
        with fs.open_input_stream(f"{root}/{MANIFEST}") as stream:
            document = json.loads(stream.read())
    except FileNotFoundError:
        raise DatasetError(f"{os.fspath(where)}: no {MANIFEST} manifest: the dataset is "
                           "incomplete (an interrupted or failed convert)") from None
    except (OSError, ValueError) as error:
        raise DatasetError(f"{os.fspath(where)}: unreadable {MANIFEST} manifest ({error})") from None
    try:
        return [f"{root}/{part['name']}" for part in document["parts"]]
    except (KeyError, TypeError):
        raise DatasetError(f"{os.fspath(where)}: {MANIFEST} lists no parts") from None


def prepare(where: str, force: bool) -> None:
    """Make a remote dataset directory ready: refused if it exists, unless ``force``.
    (A local directory is written atomically through a hidden directory instead.)"""
    fs, root = filesystem(where)
    info = fs.get_file_info(root)
    if info.type != pafs.FileType.NotFound:
        if not force:
            raise DatasetError(f"{where} exists (use --force to replace it)")
        if info.type == pafs.FileType.Directory:
            fs.delete_dir(root)
        else:
            fs.delete_file(root)
    fs.create_dir(root)
