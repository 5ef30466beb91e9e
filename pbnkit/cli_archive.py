"""``pbnkit convert`` and ``pbnkit export``: PBN to an archive and back, thin glue over
:mod:`pbnkit.export`. Registered on the ``pbnkit`` group in :mod:`pbnkit.cli`.

Messages and progress go to stderr; exit status 0 on success, 2 when nothing was written
(unreadable input, not an archive, output exists without --force), 130 when
interrupted. ``-`` reads PBN from stdin, ``-o -`` writes to stdout (:mod:`pbnkit.streams`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import click

from pbnkit.cli_jobs import EXIT_INTERRUPTED, jobs_options, running
from pbnkit.errors import PbnError
from pbnkit.interrupts import held, interruptible
from pbnkit.progress import Progress
from pbnkit.streams import (STDIN, STDIN_NAME, STDOUT, LiveStdin, check_output, live_stdin,
                            output_path, shown, spooled_stdin)

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

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
def reported(progress: Progress, kept: Callable[[], str | None] = lambda: None) -> Iterator[None]:
    """Expected failures become one line on stderr and exit status 2, no traceback.
    ``kept()`` tells what of the work was kept for a later run, if any."""
    try:
        with interruptible():
            yield
    except _expected() as error:
        progress.close()
        click.echo(f"pbnkit: {error}", err=True)
        _tell_kept(kept)
        sys.exit(EXIT_TROUBLE)
    except KeyboardInterrupt:
        progress.close()
        left = kept()
        click.echo("pbnkit: interrupted" + ("" if left else "; nothing written"), err=True)
        _tell_kept(kept)
        sys.exit(EXIT_INTERRUPTED)
    progress.close()


def _tell_kept(kept: Callable[[], str | None]) -> None:
    left = kept()
    if left:
        click.echo(f"pbnkit: {left}", err=True)


def stdin_option(function: F) -> F:
    """``--stdin-filename NAME``, for the commands that read PBN files."""
    return click.option(
        "--stdin-filename", metavar="NAME",
        help="The name of standard input (-) in messages and output (diagnostics, reports, "
             "the archive's path column): the output is the one a file of that name gives. "
             f"Default: {STDIN_NAME}.")(function)


@dataclass
class Inputs:
    files: list[Path] = field(default_factory=list)
    #: the name to show for a file: standard input's spool file → --stdin-filename
    names: dict[str, str] = field(default_factory=dict)
    #: compressed files that cannot be read, by name, with why (``keep_going``)
    unreadable: dict[str, str] = field(default_factory=dict)
    #: standard input still to be read, with ``live``: its spool file is among ``files``
    live: LiveStdin | None = None


def pbn_inputs(paths: tuple[str, ...], stdin_filename: str | None = None,
               verbose: bool = False, keep_going: bool = False, live: bool = False) -> Inputs:
    """The files named, the ``*.pbn`` and ``*.lin`` files (in any case) under the
    directories named, and for ``-`` standard input, copied to a temporary file that lasts
    as long as the command; compressed ones (``.pbn.gz``, ``.lin.gz``, the PBN and LIN
    members of a ``.zip``) are decompressed to such files, shown under their own names.
    A path that does not exist, or no input file at all, is a usage error, found before
    standard input is read. ``verbose``: every file passed over in a directory (or a
    .zip) is named on stderr, with the reason. A compressed file that cannot be read
    (damaged, or unpacking past the limits of ``PBNKIT_MAX_UNPACKED`` and
    ``PBNKIT_MAX_RATIO``), or a member of a .zip refused, stops the command with status 2,
    as does a directory or file found that cannot be looked at, or a file that is neither
    PBN nor LIN by its first bytes (an archive, a README); with ``keep_going`` each is left
    out and named in ``unreadable`` instead, for the command to report with the files it
    reads. ``live``:
    standard input is not read yet but as its games are checked (``Inputs.live``), its
    spool file filled as it is read."""
    if paths.count(STDIN) > 1:
        raise click.UsageError("- (standard input) may be given only once")
    if stdin_filename is not None and STDIN not in paths:
        raise click.UsageError("--stdin-filename names standard input: give - among the paths")
    if stdin_filename == "":
        raise click.BadParameter("the name may not be empty", param_hint="--stdin-filename")
    for path in paths:
        if path != STDIN and not Path(path).exists():
            raise click.UsageError(f"no such file or directory: {path}")
    from pbnkit.cli_inputs import Limits, Unpacked, UnpackError, unpack
    from pbnkit.formats.files import COMPRESSED_SUFFIXES, FILE_SUFFIXES, iter_files
    from pbnkit.formats.sniff import not_records

    def skipped(path: Path, why: str) -> None:
        if verbose:
            click.echo(f"pbnkit: skipped {path}: {why}", err=True)

    try:
        limits = Limits.from_environment()
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    inputs = Inputs()

    def unread(name: str, why: str) -> None:
        if not keep_going:
            click.echo(f"pbnkit: {name}: {why}", err=True)
            sys.exit(EXIT_TROUBLE)
        inputs.unreadable[name] = why

    def unreadable(path: Path, why: str) -> None:
        unread(os.fspath(path), why)

    def admitted(file: Path, name: str) -> bool:
        # One message for a file that is not records, rather than one SY001 per line of
        # a README or an empty sheet from an archive.
        why = not_records(os.fspath(file), name)
        if why is not None:
            unread(name, why)
        return why is None

    found = [[] if path == STDIN else list(iter_files(
        [path], FILE_SUFFIXES + COMPRESSED_SUFFIXES, skipped, unreadable)) for path in paths]
    if not any(found) and STDIN not in paths and not inputs.unreadable:
        raise click.UsageError("no PBN or LIN files found in " + ", ".join(paths)
                               + " (directories are searched for *.pbn and *.lin, any case)")
    unpacked: Path | None = None
    for path, files in zip(paths, found):
        if path == STDIN:
            if live:  # not read yet: its reader says what it is, once (SY303)
                inputs.live = _spooled(live_stdin)
                spool = inputs.live.path
            else:
                spool = _spooled(spooled_stdin)
                if not admitted(spool, stdin_filename or STDIN_NAME):
                    continue
            inputs.names[os.fspath(spool)] = stdin_filename or STDIN_NAME
            inputs.files.append(spool)
            continue
        for file in files:
            if not file.name.lower().endswith(COMPRESSED_SUFFIXES):
                if admitted(file, os.fspath(file)):
                    inputs.files.append(file)
                continue
            with held():  # a signal between making it and noting it would leave it
                unpacked = unpacked or Path(click.get_current_context().with_resource(
                    tempfile.TemporaryDirectory(prefix="pbnkit-unpacked-")))
            try:
                got = unpack(file, unpacked, skipped, limits)
            except UnpackError as error:
                got = Unpacked((), ((os.fspath(file), str(error)),))
            for name, why in got.refused:
                unread(name, why)
            for copy, name in got.copies:
                if admitted(copy, name):
                    inputs.names[os.fspath(copy)] = name
                    inputs.files.append(copy)
    return inputs


def _spooled(spool: Callable[[], contextlib.AbstractContextManager[T]]) -> T:
    """Standard input in a temporary file (``spooled_stdin``, or ``live_stdin`` to be read
    later), removed when the command's context closes (whatever the way the command
    ends)."""
    try:
        return click.get_current_context().with_resource(spool())
    except KeyboardInterrupt:
        click.echo("pbnkit: interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    except OSError as error:
        click.echo(f"pbnkit: cannot read standard input: {error.strerror or error}", err=True)
    sys.exit(EXIT_TROUBLE)


@click.command("convert")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", "out", required=True, type=click.Path(),
              help="OUT.parquet, OUT.json, OUT.jsonl, a directory for a Parquet dataset, or "
              "- for JSONL on standard output (never Parquet: it cannot be read from a pipe); "
              "OUT.pbn or OUT.lin converts the files to one PBN or LIN file instead.")
@click.option("--no-check", is_flag=True,
              help="Store only what the reader finds, not the rule checks (AU, PL, SC...): "
              "about three times faster on large archives.")
@click.option("--partition-by", "partition_by", metavar="COLUMNS", multiple=True,
              help="For a dataset: hive directories by these columns, comma-separated "
              "(year, or a column of one value per board: event, site, scoring...).")
@click.option("--resume", is_flag=True,
              help="For a dataset: finish the work of an interrupted or failed run of the "
              "same command, converting only the units it had not finished.")
@stdin_option
@_force
@_quiet
@jobs_options
def convert_command(paths: tuple[str, ...], out: str, no_check: bool,
                    partition_by: tuple[str, ...], resume: bool, stdin_filename: str | None,
                    force: bool, quiet: bool, jobs: int | None, scheduler: str | None) -> None:
    """Convert PBN files into an archive (schema schemas/boards.v2.*): one row per record,
    with everything the PBN held, its derived columns and its diagnostics.

    PATHS are files, directories searched for *.pbn and *.lin, or - for standard input (named
    by --stdin-filename); an archive or a file that is neither PBN nor LIN stops the
    command with status 2 (rescore, export and report read archives). The output appears
    only when the whole conversion succeeded;
    with -o - it then goes to standard output, one JSON record per line. OUT may also be
    a URI (file://, s3://, gs://) for a dataset: its parts are written there, and its
    _SUCCESS manifest last.

    A dataset keeps the work done when a run stops (Ctrl-C, an error): run the same
    command with --resume to finish it.
    """
    from pbnkit.export.columns import no_pandas_objects
    from pbnkit.pipeline.convert import convert, kept_work
    from pbnkit.export.rows import common_root

    no_pandas_objects()
    columns = tuple(c.strip() for spec in partition_by for c in spec.split(",") if c.strip())

    check_output(out, parquet=Path(out).suffix.lower() not in (".json", ".jsonl"),
                 dash="JSONL")
    inputs = pbn_inputs(paths, stdin_filename)
    if Path(out).suffix.lower() in (".pbn", ".lin"):
        _convert_to_file(inputs, out, Path(out).suffix.lower()[1:], force, quiet)
        return
    with (output_path(out, ".jsonl") as target,
          running("converting", inputs.files, jobs, scheduler, quiet, names=inputs.names) as run,
          reported(run.progress, lambda: kept_work(target))):
        summary = convert(inputs.files, target, force=force, check=not no_check,
                          engine=run.engine, units=run.units,
                          on_unit=lambda unit, records: run.progress.advance(records, unit.size),
                          partition_by=columns, resume=resume,
                          root=common_root([inputs.names.get(os.fspath(f), os.fspath(f))
                                            for f in inputs.files]))
    for path in summary.empty:
        click.echo(f"pbnkit: {path}: no records (its bytes are kept on a row of their own)", err=True)
    if not quiet:
        click.echo(f"{summary.records} records from {summary.files} files written to "
                   f"{shown(out)} ({summary.errors} errors, {summary.warnings} warnings in "
                   "the records)", err=True)


def _convert_to_file(inputs: Inputs, out: str, to: str, force: bool, quiet: bool) -> None:
    """PBN and LIN files to one PBN or LIN file, board by board, with no archive between."""
    from pbnkit.export.tolin import convert_files

    progress = Progress("converting", enabled=False if quiet else None)
    with reported(progress):
        summary = convert_files(inputs.files, out, to, force=force, on_game=progress.advance)
    if not quiet:
        click.echo(f"{summary.records} records from {len(inputs.files)} files written to "
                   f"{out}", err=True)


def _export_originals(archive: str, out: str, export_format: bool, force: bool,
                      quiet: bool) -> None:
    from pbnkit.export.original import original_rows, write_originals

    if export_format or out == STDOUT:
        raise click.UsageError("--original writes the source files under a directory: "
                               "not with --export-format or -o -")
    with reported(Progress("exporting", enabled=False)):
        written = write_originals(original_rows(archive), out, force=force)
    if not quiet:
        click.echo(f"{len(written)} source files written under {out}", err=True)


def _export_lin(archive: str, out: str, force: bool, quiet: bool) -> None:
    from pbnkit.export.tolin import export_lin

    progress = Progress("exporting", enabled=False if quiet else None)
    with output_path(out, ".lin") as target, reported(progress):
        summary = export_lin(archive, target, force=force, on_game=progress.advance)
    if not quiet:
        click.echo(f"{summary.records} records written to {shown(out)} (LIN, utf-8)", err=True)


@click.command("upgrade")
@click.argument("archive", type=click.Path(exists=True))
@click.option("-o", "--output", "out", required=True, type=click.Path(),
              help="NEW.parquet, NEW.json, NEW.jsonl, or a directory for a Parquet dataset.")
@_force
@_quiet
def upgrade_command(archive: str, out: str, force: bool, quiet: bool) -> None:
    """Rewrite an archive of an older boards schema version as the current version.

    Readers (rescore, export, the library) read older archives as they are; upgrading
    gives tools that read the files directly the current columns. An upgraded archive
    keeps the findings stored at conversion, and has no original bytes: convert the
    source files again for those."""
    from pbnkit.export.schema import SCHEMA_VERSION
    from pbnkit.export.upgrade import upgrade_archive

    with reported(Progress("upgrading", enabled=False)):
        summary = upgrade_archive(archive, out, force=force)
    if not quiet:
        click.echo(f"{summary.records} records upgraded from schema version {summary.version} "
                   f"to {SCHEMA_VERSION}: {out}", err=True)


@click.command("export")
@click.argument("archive", type=click.Path(exists=True))
@click.option("-o", "--output", "out", required=True, type=click.Path(),
              help="FILE.pbn or FILE.lin, or - for standard output.")
@click.option("--to", "to", type=click.Choice(["pbn", "lin"]), default=None,
              help="The format written: PBN or BBO LIN (one board a line). Default: by the "
              "extension of FILE (.lin is LIN), else PBN.")
@click.option("--export-format", is_flag=True,
              help="Strict PBN 2.1 export format (PBN 2.1 section 3); otherwise each record's "
              "own content in import format.")
@click.option("--original", is_flag=True,
              help="Write every source file back byte for byte, as it was converted, under "
              "the directory OUT, each by its stored source name.")
@_force
@_quiet
def export_command(archive: str, out: str, to: str | None, export_format: bool,
                   original: bool, force: bool, quiet: bool) -> None:
    """Write the records of an archive (.parquet, .json, .jsonl or a Parquet dataset
    directory) back as one PBN file, or with --to lin (or -o FILE.lin) one LIN file; with
    -o -, to standard output once it is whole.
    With --original, the source files themselves, byte for byte, under a directory."""
    from pbnkit.export.topbn import export_pbn

    if original:
        _export_originals(archive, out, export_format, force, quiet)
        return
    check_output(out, parquet=False, dash="PBN")
    if (to or ("lin" if out.lower().endswith(".lin") else "pbn")) == "lin":
        if export_format:
            raise click.UsageError("--export-format is PBN's: not with LIN output")
        _export_lin(archive, out, force, quiet)
        return
    progress = Progress("exporting", enabled=False if quiet else None)
    with output_path(out, ".pbn") as target, reported(progress):
        summary = export_pbn(archive, target, export_format=export_format, force=force,
                             on_game=progress.advance)
    if summary.fallback:
        click.echo(f"pbnkit: warning: some records hold characters outside "
                   f"{'ISO-8859-1' if export_format else 'the declared charset'}; "
                   f"{shown(out)} is written in UTF-8", err=True)
    if summary.persistent and len(summary.sources) > 1:
        click.echo(f"pbnkit: warning: the archive holds {len(summary.sources)} source files "
                   "and some use ## values, which carry over into the files after them "
                   "when the PBN is read again", err=True)
    if not quiet:
        click.echo(f"{summary.records} records written to {shown(out)} ({summary.encoding})",
                   err=True)
