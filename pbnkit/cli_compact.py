"""``pbnkit compact``: a dataset's small parts merged into parts of a target size, thin
glue over :mod:`pbnkit.export.compact`. Registered on the ``pbnkit`` group in
:mod:`pbnkit.cli`.

A command of its own rather than a ``convert`` option: it works on any complete dataset
(one converted before, finished by ``--resume``, written on a cluster, or upgraded),
needs none of the source files, and leaves a convert's parts, which ``--resume`` and a
retried task rely on, as they are until the conversion is whole.
"""

from __future__ import annotations

import re

import click

from pbnkit.cli_archive import reported
from pbnkit.progress import Progress

_SIZE = re.compile(r"\s*([0-9]+)\s*([kmgt]?)i?b?\s*", re.IGNORECASE)
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def byte_size(ctx: click.Context, param: click.Parameter, value: str) -> int:
    """A number of bytes: ``134217728``, ``128MB``, ``128M`` or ``1GiB`` (powers of 1024)."""
    found = _SIZE.fullmatch(value)
    if not found or int(found.group(1)) < 1:
        raise click.BadParameter(f"{value!r} is not a size (such as 128MB, 1GB or 500000)",
                                 ctx, param)
    return int(found.group(1)) * _UNITS[found.group(2).lower()]


@click.command("compact")
@click.argument("archive", metavar="DATASET")
@click.option("--target-bytes", metavar="SIZE", callback=byte_size, default="128MB",
              show_default=True,
              help="A merged part's size at most (K, M, G: powers of 1024).")
@click.option("--target-rows", type=click.IntRange(min=1), default=1_000_000,
              show_default=True, help="A merged part's records at most.")
@click.option("-q", "--quiet", is_flag=True, help="No summary on stderr.")
def compact_command(archive: str, target_bytes: int, target_rows: int, quiet: bool) -> None:
    """Merge the small parts of a Parquet dataset (a directory or URI that convert
    wrote) into parts of up to --target-bytes and --target-rows, in place.

    Record order, the _SUCCESS manifest and the partition directories are kept: rescore,
    export, the library and other readers read the same records, from fewer files. In a
    partitioned dataset, parts merge only with their neighbours in the same directory.
    Run it once the dataset is complete; cut short, the dataset stays readable, and
    compact run again finishes."""
    from pbnkit.export.compact import compact
    from pbnkit.export.dataset import locked

    with reported(Progress("compacting", enabled=False)), locked(archive):
        done = compact(archive, target_bytes, target_rows)
    if not quiet:
        click.echo(f"pbnkit: {archive}: {done.parts_before} parts ({_mb(done.bytes_before)}) "
                   f"became {done.parts_after} ({_mb(done.bytes_after)})", err=True)


def _mb(size: int) -> str:
    return f"{size / (1 << 20):.1f} MiB"
