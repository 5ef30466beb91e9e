"""``pbnkit convert`` and ``pbnkit export``: PBN to an archive and back, thin glue over
:mod:`pbnkit.export`. Registered on the ``pbnkit`` group in :mod:`pbnkit.cli`.

Messages and progress go to stderr; exit status 0 on success, 2 when nothing was written
(unreadable input, not an archive, output exists without --force, interrupted).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

import click

from pbnkit.cli_jobs import jobs_options, running
from pbnkit.errors import PbnError
from pbnkit.pbn.reader import iter_files
from pbnkit.progress import Progress

EXIT_TROUBLE = 2

_force = click.option("--force", is_flag=True, help="Replace OUT if it exists.")
_quiet = click.option("-q", "--quiet", is_flag=True, help="No progress or summary on stderr.")


def _expected() -> tuple[type[Exception], ...]:
    """Errors that are the input's or the system's, not pbnkit's: Arrow's only when Arrow
    was loaded (validate and score never load it; loading it costs them time)."""
    if "pyarrow" in sys.modules:
        import pyarrow as pa

        return PbnError, OSError, pa.ArrowException
    return PbnError, OSError


@contextlib.contextmanager
def reported(progress: Progress) -> Iterator[None]:
    """Expected failures become one line on stderr and exit status 2, no traceback."""
    from pbnkit.export.atomic import interruptible

    try:
        with interruptible():
            yield
    except _expected() as error:
        progress.close()
        click.echo(f"pbnkit: {error}", err=True)
        sys.exit(EXIT_TROUBLE)
    except KeyboardInterrupt:
        progress.close()
        click.echo("pbnkit: interrupted; nothing written", err=True)
        sys.exit(EXIT_TROUBLE)
    progress.close()


def pbn_files(paths: tuple[str, ...]) -> list[Path]:
    """The files named and the ``*.pbn`` files under the directories named; a path that
    does not exist is a usage error."""
    files: list[Path] = []
    for path in paths:
        if not Path(path).exists():
            raise click.UsageError(f"no such file or directory: {path}")
        files.extend(iter_files([path]))
    return files


@click.command("convert")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", "out", required=True, type=click.Path(),
              help="OUT.parquet, OUT.json, OUT.jsonl, or a directory for a Parquet dataset.")
@click.option("--no-check", is_flag=True,
              help="Store only what the reader finds, not the rule checks (AU, PL, SC...): "
              "about three times faster on large archives.")
@_force
@_quiet
@jobs_options
def convert_command(paths: tuple[str, ...], out: str, no_check: bool, force: bool,
                    quiet: bool, jobs: int | None, scheduler: str | None) -> None:
    """Convert PBN files into an archive (schema schemas/boards.v1.*): one row per record,
    with everything the PBN held, its derived columns and its diagnostics.

    PATHS are files, or directories searched for *.pbn. The output appears only when
    the whole conversion succeeded. OUT may also be a URI (file://, s3://, gs://) for a
    dataset: its parts are written there, and its _SUCCESS manifest last.
    """
    from pbnkit.export.pipeline import convert

    files = pbn_files(paths)
    if not files:
        raise click.UsageError("no *.pbn files found in " + ", ".join(paths))
    with running("converting", files, jobs, scheduler, quiet) as run, reported(run.progress):
        summary = convert(files, out, force=force, check=not no_check, engine=run.engine,
                          units=run.units,
                          on_unit=lambda unit, records: run.progress.advance(records, unit.size))
    for path in summary.empty:
        click.echo(f"pbnkit: {path}: no records, nothing archived", err=True)
    if not quiet:
        click.echo(f"{summary.records} records from {summary.files} files written to {out} "
                   f"({summary.errors} errors, {summary.warnings} warnings in the records)",
                   err=True)


@click.command("export")
@click.argument("archive", type=click.Path(exists=True))
@click.option("-o", "--output", "out", required=True, type=click.Path(), help="FILE.pbn")
@click.option("--export-format", is_flag=True,
              help="Strict PBN 2.1 export format (PBN.md section 9); otherwise each record's "
              "own content in import format.")
@_force
@_quiet
def export_command(archive: str, out: str, export_format: bool, force: bool,
                   quiet: bool) -> None:
    """Write the records of an archive (.parquet, .json, .jsonl or a Parquet dataset
    directory) back as one PBN file."""
    from pbnkit.export.topbn import export_pbn

    progress = Progress("exporting", enabled=False if quiet else None)
    with reported(progress):
        summary = export_pbn(archive, out, export_format=export_format, force=force,
                             on_game=progress.advance)
    if summary.fallback:
        click.echo(f"pbnkit: warning: some records hold characters outside "
                   f"{'ISO-8859-1' if export_format else 'the declared charset'}; "
                   f"{out} is written in UTF-8", err=True)
    if summary.persistent and len(summary.sources) > 1:
        click.echo(f"pbnkit: warning: the archive holds {len(summary.sources)} source files "
                   "and some use ## values, which carry over into the files after them "
                   "when the PBN is read again", err=True)
    if not quiet:
        click.echo(f"{summary.records} records written to {out} ({summary.encoding})", err=True)
