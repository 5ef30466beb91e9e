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

import contextlib
import hashlib
import json
import os
import re
import unicodedata
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq

from pbnkit.errors import PbnError
from pbnkit.export.atomic import output_lock

# pyarrow.compute and pyarrow.dataset are imported in the functions that use them:
# together they are a large part of pbnkit's start-up, and a conversion needs neither.
if TYPE_CHECKING:
    import pyarrow.dataset as ds

MANIFEST = "_SUCCESS"
#: 2: a column's partition key is ``<column>_key``, the column kept in the files; no key
#: is null; the partitioning entries name their keys
MANIFEST_VERSION = 2
#: rows per row group of a Parquet file: a dataset's part, smaller, is one group
ROW_GROUP_ROWS = 100_000
#: partition keys computed from the rows rather than stored in them
DERIVED = {"year": pa.field("year", pa.int16())}
#: the directory key of a year not known (no date): a null key, hive's
#: ``__HIVE_DEFAULT_PARTITION__``, is one that pandas cannot read beside other values
UNKNOWN_YEAR = 0
KEY_SUFFIX = "_key"
#: the directory value of a null (see key_value)
NO_VALUE = "none"
#: the characters of a value kept in a directory key (a name of at most 255 bytes)
KEY_TEXT = 48
_PLAIN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9 _.-]{0,62}[A-Za-z0-9_-])?")
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")
_UNSAFE_KEY = re.compile(r"[^A-Za-z0-9 _.-]+")


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
    """Refuse what cannot be a partition key: a list column, no column at all, a key
    given twice, or a column whose key would take another column's name."""
    if len(set(names)) < len(names):
        raise DatasetError(f"cannot partition by {', '.join(names)}: a column given twice")
    for name in names:
        if name in DERIVED:
            continue
        if schema.get_field_index(name) < 0:
            raise DatasetError(f"cannot partition by {name!r}: no such column (partition by "
                               f"{', '.join(sorted(DERIVED))} or a column of the archive)")
        if pa.types.is_nested(schema.field(name).type):
            raise DatasetError(f"cannot partition by {name!r}: it holds a list")
        if schema.get_field_index(key_name(name)) >= 0:
            raise DatasetError(f"cannot partition by {name!r}: its key {key_name(name)!r} "
                               "is a column's name")


def write_unit(where: str, stem: str, table: pa.Table, options: dict[str, Any],
               partition_by: Sequence[str] = ()) -> list[tuple[str, int]]:
    """Write a unit's rows as its part: one file named from ``stem``, or with
    ``partition_by`` one file under each hive directory (``year=2024/``) its rows fall
    in, the rows in their order. Gives the files' paths inside the dataset with their
    row counts.

    Files go straight to their names: a unit that fails half-way leaves a file that the
    manifest will not list, and a unit run again writes the same names. The unit's files
    are numbered across its directories, not in each: on a filesystem that folds case,
    ``event_key=Pairs`` and ``event_key=PAIRS`` are one directory, and a second file of
    the same name would replace the first."""
    fs, root = filesystem(where)
    groups = _partitions(table, partition_by) if partition_by else [("", table)]
    written: list[tuple[str, int]] = []
    for number, (directory, rows) in enumerate(groups):
        name = f"{directory}{stem}-{number}.parquet"
        if directory:
            fs.create_dir(f"{root}/{directory}", recursive=True)
        with fs.open_output_stream(f"{root}/{name}") as stream:
            pq.write_table(rows, stream, row_group_size=ROW_GROUP_ROWS, **options)
        written.append((name, rows.num_rows))
    return written


def key_name(name: str) -> str:
    """The directory key of partitioning by ``name``: ``year`` as it is; a column's
    ``<column>_key``, for the column itself stays whole in the files, under its name."""
    return name if name in DERIVED else f"{name}{KEY_SUFFIX}"


def key_value(value: Any) -> str:
    """The directory value of a column's value: the value itself when it is short and
    made of ASCII letters and digits, inner spaces, ``.``, ``_`` and ``-`` (a name that
    every filesystem, object store and reader keeps as it is: no ``%``, which readers
    decode); otherwise its letters without accents, other characters as spaces, cut to
    :data:`KEY_TEXT` characters, and a digest of the whole value, so that two values
    never share a directory. A null is :data:`NO_VALUE`."""
    if value is None:
        return NO_VALUE
    text = value if isinstance(value, str) else str(value)
    if _PLAIN.fullmatch(text) and text.lower() != NO_VALUE:
        return text
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    readable = " ".join(_UNSAFE_KEY.sub(" ", ascii_text).split())[:KEY_TEXT].strip(" _.-")
    digest = hashlib.sha1(text.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    return f"{readable}-{digest}" if readable else digest


def partitioning(names: Sequence[str], schema: pa.Schema) -> ds.Partitioning:
    """Hive directories (``year=2024/event_key=Spring Pairs/``) of the keys of
    ``names``: ``year`` an int16, a column's key a string (:func:`key_value`)."""
    import pyarrow.dataset as ds
    fields = [DERIVED[name] if name in DERIVED else pa.field(key_name(name), pa.string())
              for name in names]
    return ds.partitioning(pa.schema(fields), flavor="hive")


def _partitions(table: pa.Table, names: Sequence[str]) -> list[tuple[str, pa.Table]]:
    """The rows of each directory (``year=2024/scoring_key=IMP/``), in the order of
    their first rows; each directory's rows in their order."""
    keys = [_keys(table, name) for name in names]
    rows_of: dict[tuple[str, ...], list[int]] = {}
    for row, key in enumerate(zip(*keys)):
        rows_of.setdefault(key, []).append(row)
    return [("".join(f"{key_name(name)}={value}/" for name, value in zip(names, key)),
             table.take(pa.array(rows, pa.int64()))) for key, rows in rows_of.items()]


def _keys(table: pa.Table, name: str) -> list[str]:
    """The directory value of each row for the key ``name``."""
    if name == "year":
        import pyarrow.compute as pc
        return [str(UNKNOWN_YEAR if year is None else year)
                for year in pc.year(table.column("date")).to_pylist()]
    known: dict[Any, str] = {}  # a unit's rows share few values: each is made once
    keys = []
    for value in table.column(name).to_pylist():
        key = known.get(value)
        if key is None:
            key = known[value] = key_value(value)
        keys.append(key)
    return keys


def write_manifest(where: str, parts: Sequence[tuple[str, int]], metadata: dict[str, Any],
                   version: int = MANIFEST_VERSION) -> None:
    """The manifest, last: the parts in record order with their row counts; from version
    2 each partitioning entry (``{"name": "event", "type": ...}``) with the directory key
    it makes (``"key": "event_key"``). ``version`` is an older one for a dataset written
    so (see ``compact``). Written beside and moved into place, so that the manifest a
    reader finds is always a whole one."""
    fs, root = filesystem(where)
    document = {"manifest": version, **metadata,
                "parts": [{"name": name, "rows": rows} for name, rows in parts]}
    if "partitioning" in metadata and version >= 2:
        document["partitioning"] = [{**entry, "key": key_name(entry["name"])}
                                    for entry in metadata["partitioning"]]
    with fs.open_output_stream(f"{root}/{MANIFEST}.new") as stream:
        stream.write(json.dumps(document, indent=1).encode("utf-8") + b"\n")
    fs.move(f"{root}/{MANIFEST}.new", f"{root}/{MANIFEST}")


def read_manifest(where: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of a complete dataset, as written; :class:`DatasetError` when there
    is none (an incomplete dataset) or it lists no parts."""
    fs, root = filesystem(where)
    try:
        with fs.open_input_stream(f"{root}/{MANIFEST}") as stream:
            document = json.loads(stream.read())
    except FileNotFoundError:
        raise DatasetError(f"{os.fspath(where)}: no {MANIFEST} manifest: the dataset is "
                           "incomplete (an interrupted or failed convert)") from None
    except (OSError, ValueError) as error:
        raise DatasetError(f"{os.fspath(where)}: unreadable {MANIFEST} manifest ({error})") from None
    if not isinstance(document, dict) or not isinstance(document.get("parts"), list) or \
            not all(isinstance(part, dict) and "name" in part for part in document["parts"]):
        raise DatasetError(f"{os.fspath(where)}: {MANIFEST} lists no parts")
    return document


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


_SPAN = re.compile(r"([0-9]+)-([0-9]+)-compacted\.parquet")


def part_span(path: str) -> tuple[int, int] | None:
    """The first and last ordinals of the units a part's file holds: a compacted part's
    name gives both (``00003-00057-compacted.parquet``), another part's its one."""
    name = path.rsplit("/", 1)[-1]
    merged = _SPAN.fullmatch(name)
    if merged:
        return int(merged.group(1)), int(merged.group(2))
    ordinal = part_ordinal(name)
    return None if ordinal is None else (ordinal, ordinal)


def missing_parts(where: str, names: Sequence[str]) -> list[str]:
    """The parts of ``names`` (inside the dataset) that are not files there."""
    fs, root = filesystem(where)
    infos = fs.get_file_info([f"{root}/{name}" for name in names])
    return [name for name, info in zip(names, infos) if not info.is_file]


def check_parts(where: str | os.PathLike[str], parts: Sequence[dict[str, Any]]) -> None:
    """The manifest's parts are what the directory holds, or :class:`DatasetError`
    naming what a reading would lose or make up: a listed part that is missing, a part
    whose rows are not the manifest's count, a Parquet file that holds units no listed
    part holds (the manifest omits its records). A file whose units a listed part holds
    too is what a compaction cut short left (see ``compact``): its rows are read once,
    from the listed part."""
    fs, root = filesystem(where)
    label = os.fspath(where)
    names = [str(part["name"]) for part in parts]
    missing = missing_parts(os.fspath(where), names)
    if missing:
        raise DatasetError(f"{label}: the {MANIFEST} manifest lists {len(missing)} part(s) "
                           f"that are missing, {_named_few(missing)}: their records are "
                           "lost (the dataset was changed after it was written)")
    for part in parts:
        with fs.open_input_file(f"{root}/{part['name']}") as stream:
            try:
                rows = pq.ParquetFile(stream).metadata.num_rows
            except pa.ArrowException as error:
                raise DatasetError(f"{label}/{part['name']}: not a readable Parquet file "
                                   f"({error})") from None
        if rows != part.get("rows"):
            raise DatasetError(f"{label}/{part['name']}: {rows} rows, but the {MANIFEST} "
                               f"manifest says {part.get('rows')}: the part was changed "
                               "after it was written")
    spans = [part_span(name) for name in names]
    held = {ordinal for span in spans if span is not None
            for ordinal in range(span[0], span[1] + 1)}
    listed = set(names)
    omitted = []
    for info in fs.get_file_info(pafs.FileSelector(root, recursive=True)):
        name = info.path[len(root) + 1:]
        if not info.is_file or not name.endswith(".parquet") or name in listed or \
                name.startswith(("_", ".")) or "/." in name or "/_" in name:
            continue
        span = part_span(name)
        if span is None or not held.issuperset(range(span[0], span[1] + 1)):
            omitted.append(name)
    if omitted:
        raise DatasetError(f"{label}: {len(omitted)} Parquet file(s) hold records that the "
                           f"{MANIFEST} manifest does not list, {_named_few(sorted(omitted))}: "
                           "a reading would lose them (the dataset was changed after it "
                           "was written)")


def _named_few(names: Sequence[str], few: int = 3) -> str:
    shown = ", ".join(names[:few])
    return shown + (f" and {len(names) - few} more" if len(names) > few else "")


def read_parts(where: str | os.PathLike[str]) -> list[str]:
    """The paths (on the dataset's filesystem) of the parts, in record order: by the
    ordinal their names begin with, since an engine may list them in the order they were
    done; in the manifest's order among the files of one unit, or when a name has none.
    :class:`DatasetError` when the manifest and the parts disagree (see
    :func:`check_parts`): a reading is never short or long without a word."""
    _, root = filesystem(where)
    parts = read_manifest(where)["parts"]
    check_parts(where, parts)
    files = [f"{root}/{part['name']}" for part in parts]
    ordinals = [part_ordinal(file) for file in files]
    if None in ordinals:
        return files
    return [file for _, file in sorted(zip(ordinals, files), key=lambda pair: pair[0] or 0)]


@contextlib.contextmanager
def locked(where: str | os.PathLike[str]) -> Iterator[None]:
    """Hold the lock of a local dataset (a path or a ``file://`` URI) for the block, as
    every writer of a local output does (``atomic.output_lock``). An object store has no
    such lock: two writers of one dataset there are the user's to keep apart."""
    fs, root = filesystem(where)
    if isinstance(fs, pafs.LocalFileSystem):
        with output_lock(root):
            yield
    else:
        yield


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
