"""A Parquet dataset: a directory (a local path or a ``pyarrow.fs`` URI such as
``file://``, ``s3://``, ``gs://``) of parts, each written whole by the unit of work that
made it, and a manifest that the writer adds only once every part is there.

A part's name comes from its source file and chunk, so a unit that is run again (a retried
Dask task) replaces its own part instead of adding a second one. Readers take the parts in
record order, by the unit ordinal their names begin with (whatever order the manifest lists
them in), and refuse a directory without a manifest: that dataset is incomplete.
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
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.fs as pafs

from pbnkit.errors import PbnError

# pyarrow.compute and pyarrow.dataset are imported in the functions that use them:
# together they are a large part of pbnkit's start-up, and a conversion needs neither.
if TYPE_CHECKING:
    import pyarrow.dataset as ds

MANIFEST = "_SUCCESS"
MANIFEST_VERSION = 1
#: rows per row group of a Parquet file: a dataset's part, smaller, is one group
ROW_GROUP_ROWS = 100_000
#: partition keys computed from the rows rather than stored in them
DERIVED = {"year": pa.field("year", pa.int16())}
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


def part_stem(ordinal: int, source: str, chunk: int) -> str:
    """``00003-club-1a2b3c4d-0000``: the unit's place in the run, its source file
    (readable, and a digest of the full path) and its chunk of that file. The same unit
    always gets the same name; names sort in record order."""
    digest = hashlib.sha1(os.path.abspath(source).encode("utf-8", "surrogateescape")).hexdigest()
    stem = _UNSAFE.sub("_", Path(source).stem)[:40] or "source"
    return f"{ordinal:05d}-{stem}-{digest[:8]}-{chunk:04d}"


def check_partitioning(names: Sequence[str], schema: pa.Schema) -> None:
    """Refuse what cannot be a partition key: a list column, or no column at all."""
    for name in names:
        if name in DERIVED:
            continue
        if schema.get_field_index(name) < 0:
            raise DatasetError(f"cannot partition by {name!r}: no such column (partition by "
                               f"{', '.join(sorted(DERIVED))} or a column of the archive)")
        if pa.types.is_nested(schema.field(name).type):
            raise DatasetError(f"cannot partition by {name!r}: it holds a list")


def write_unit(where: str, stem: str, table: pa.Table, options: dict[str, Any],
               partition_by: Sequence[str] = ()) -> list[tuple[str, int]]:
    """Write a unit's rows as its part: one file named from ``stem``, or with
    ``partition_by`` one file under each hive directory (``year=2024/``) its rows fall
    in. Gives the files' paths inside the dataset with their row counts.

    Files go straight to their names: a unit that fails half-way leaves a file that the
    manifest will not list, and a unit run again writes the same names."""
    import pyarrow.dataset as ds
    fs, root = filesystem(where)
    written: list[tuple[str, int]] = []

    def visit(file: Any) -> None:
        written.append((file.path[len(root) + 1:], file.metadata.num_rows))

    ds.write_dataset(
        _with_derived(table, partition_by), root, filesystem=fs, format="parquet",
        file_options=ds.ParquetFileFormat().make_write_options(**options),
        basename_template=f"{stem}-{{i}}.parquet",
        partitioning=partitioning(partition_by, table.schema) if partition_by else None,
        existing_data_behavior="overwrite_or_ignore", use_threads=False,
        max_rows_per_group=ROW_GROUP_ROWS, file_visitor=visit)
    return written


def partitioning(names: Sequence[str], schema: pa.Schema) -> ds.Partitioning:
    """Hive directories (``event=Spring%20Pairs/``) for the columns ``names``; their
    values are written URI-encoded, and a null one as ``__HIVE_DEFAULT_PARTITION__``."""
    import pyarrow.dataset as ds
    fields = [DERIVED[name] if name in DERIVED else schema.field(name) for name in names]
    return ds.partitioning(pa.schema(fields), flavor="hive")


def _with_derived(table: pa.Table, names: Sequence[str]) -> pa.Table:
    import pyarrow.compute as pc
    if "year" in names:
        table = table.append_column(DERIVED["year"],
                                    pc.cast(pc.year(table.column("date")), pa.int16()))
    return table


def write_manifest(where: str, parts: Sequence[tuple[str, int]], metadata: dict[str, Any]) -> None:
    """The manifest, last: the parts in record order with their row counts."""
    fs, root = filesystem(where)
    document = {"manifest": MANIFEST_VERSION, **metadata,
                "parts": [{"name": name, "rows": rows} for name, rows in parts]}
    with fs.open_output_stream(f"{root}/{MANIFEST}") as stream:
        stream.write(json.dumps(document, indent=1).encode("utf-8") + b"\n")


def remove_unlisted(where: str, parts: Sequence[tuple[str, int]]) -> None:
    """Delete the Parquet files that the manifest does not list: those of units that
    failed, or of an interrupted run whose units were cut otherwise, so that tools
    reading the whole directory see what pbnkit reads."""
    fs, root = filesystem(where)
    listed = {f"{root}/{name}" for name, _ in parts}
    for info in fs.get_file_info(pafs.FileSelector(root, recursive=True)):
        name = info.path[len(root) + 1:]
        if info.is_file and name.endswith(".parquet") and info.path not in listed \
                and not name.startswith(("_", ".")):
            fs.delete_file(info.path)


def has_manifest(where: str | os.PathLike[str]) -> bool:
    fs, root = filesystem(where)
    return bool(fs.get_file_info(f"{root}/{MANIFEST}").is_file)


_ORDINAL = re.compile(r"([0-9]+)-")


def part_ordinal(path: str) -> int | None:
    """The place in the run of the unit that wrote a part's file: the number its name
    begins with (None when it begins with none)."""
    found = _ORDINAL.match(path.rsplit("/", 1)[-1])
    return int(found.group(1)) if found else None


def read_parts(where: str | os.PathLike[str]) -> list[str]:
    """The paths (on the dataset's filesystem) of the parts, in record order: by the
    ordinal their names begin with, since an engine may list them in the order they were
    done; in the manifest's order among the files of one unit, or when a name has none."""
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
        files = [f"{root}/{part['name']}" for part in document["parts"]]
    except (KeyError, TypeError):
        raise DatasetError(f"{os.fspath(where)}: {MANIFEST} lists no parts") from None
    ordinals = [part_ordinal(file) for file in files]
    if None in ordinals:
        return files
    return [file for _, file in sorted(zip(ordinals, files), key=lambda pair: pair[0] or 0)]


def exists(where: str) -> bool:
    fs, root = filesystem(where)
    return bool(fs.get_file_info(root).type != pafs.FileType.NotFound)


def prepare(where: str, force: bool, resume: bool = False) -> None:
    """Make a remote dataset directory ready: refused if it exists, unless ``force``
    (start again) or ``resume`` (go on with an interrupted run's parts). A local
    directory is written through a hidden directory instead (``atomic.py``)."""
    fs, root = filesystem(where)
    info = fs.get_file_info(root)
    if info.type != pafs.FileType.NotFound:
        if resume:
            if fs.get_file_info(f"{root}/{MANIFEST}").is_file:
                raise DatasetError(f"{where} is complete: there is nothing to resume")
            return
        if not force:
            raise DatasetError(f"{where} exists (use --force to replace it, or --resume to "
                               "finish an interrupted convert)")
        if info.type == pafs.FileType.Directory:
            fs.delete_dir(root)
        else:
            fs.delete_file(root)
    fs.create_dir(root)
