"""``-j/--jobs`` and ``--scheduler``, shared by the commands that read many records, and
the run of a command's units with progress on stderr.

Imported by every command, ``pbnkit --version`` included: the engines and the reader are
imported only when a run starts.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from pbnkit.errors import PbnError
from pbnkit.progress import Progress

if TYPE_CHECKING:
    from pbnkit.pipeline.engines import Engine

F = TypeVar("F", bound=Callable[..., Any])

EXIT_TROUBLE = 2
EXIT_INTERRUPTED = 130  # as a shell reports a command stopped by Ctrl-C


def jobs_options(function: F) -> F:
    """``-j N`` and ``--scheduler ADDRESS`` (also ``PBNKIT_SCHEDULER``)."""
    function = click.option(
        "--scheduler", metavar="ADDRESS", envvar="PBNKIT_SCHEDULER",
        help="Run on a Dask cluster, e.g. tcp://scheduler.example:8786 (also "
             "PBNKIT_SCHEDULER; needs pip install 'pbnkit[dask]'). Output is the same as with "
             "-j 1.")(function)
    return click.option(
        "-j", "--jobs", cls=_JobsOption, type=click.IntRange(min=1), metavar="N",
        help="Processes to use (default: every usable core, {cores} here; -j 1 runs "
             "serially). Large files are cut at game boundaries, so one file uses every "
             "core too; the output is the same at any -j.")(function)


class _JobsOption(click.Option):
    """``-j``, whose help counts the usable cores when it is shown, not at every start."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        from pbnkit.pipeline.engines import usable_cores

        if self.help is not None:
            self.help = self.help.replace("{cores}", str(usable_cores()))
        return super().get_help_record(ctx)


@dataclass
class Run:
    engine: Engine
    units: Iterable[Any]  # each with .size (for progress), .chunk and .is_last
    progress: Progress


class ArchivePath(click.Path):
    """An archive: an existing file or directory, or a URI that pyarrow.fs reads."""

    def __init__(self) -> None:
        super().__init__(exists=True)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        if isinstance(value, str) and "://" in value:
            return value
        return super().convert(value, param, ctx)


@contextlib.contextmanager
def running(label: str, files: Sequence[Path], jobs: int | None, scheduler: str | None,
            quiet: bool, plan: Callable[[int], Sequence[Any]] | None = None,
            names: Mapping[str, str] | None = None) -> Iterator[Run]:
    """The engine, the units (of ``files``, found as the work goes, or what ``plan(jobs)``
    gives) and a progress bar over their size; a failure to start, a failed unit or
    Ctrl-C becomes one line on stderr and exit status 2 (130 for Ctrl-C). ``names``: the
    name to show for some of the files (standard input's spool file →
    ``--stdin-filename``)."""
    from pbnkit.pipeline.engines import EngineError
    from pbnkit.pipeline.runs import start

    try:
        planned = start(files, jobs, scheduler, names, plan)
    except EngineError as error:
        raise click.UsageError(str(error)) from None
    except PbnError as error:
        click.echo(f"pbnkit: {error}", err=True)
        sys.exit(EXIT_TROUBLE)
    chosen, total = planned.engine, planned.total
    progress = Progress(label, enabled=False if quiet else None, total=total)
    try:
        yield Run(chosen, planned.units, progress)
    except KeyboardInterrupt:
        progress.close()
        click.echo("pbnkit: interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
    finally:
        progress.close()
        chosen.close()
