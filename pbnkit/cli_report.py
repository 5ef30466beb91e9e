"""``pbnkit report`` (the HTML report) and ``pbnkit analyze`` (double-dummy tags), and
the ``--dd`` option of ``pbnkit validate``: glue over :mod:`pbnkit.report` and
:mod:`pbnkit.analysis`."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from pbnkit.cli_archive import Inputs, pbn_inputs, reported, stdin_option
from pbnkit.progress import Progress
from pbnkit.streams import STDIN

if TYPE_CHECKING:
    from pbnkit.diagnostics import Diagnostic
    from pbnkit.pbn.records import Game
    from pbnkit.rules.report import Options, Report

F = TypeVar("F", bound=Callable[..., Any])

EXIT_TROUBLE = 2
_ARCHIVE_SUFFIXES = (".parquet", ".json", ".jsonl")


def _solver_or_exit() -> None:
    """Stop with the way to install the solver when it is missing."""
    from pbnkit.analysis.solver import INSTALL_HINT, available

    if not available():
        click.echo("pbnkit: double-dummy analysis needs the solver of the dd extra; install "
                   f"it with: {INSTALL_HINT}", err=True)
        sys.exit(EXIT_TROUBLE)


def _is_archive(path: str) -> bool:
    """An archive pbnkit convert wrote: a file named so, a dataset directory, or a URI."""
    from pbnkit.export.dataset import has_manifest

    if "://" in path:
        return True
    where = Path(path)
    return where.suffix.lower() in _ARCHIVE_SUFFIXES or (where.is_dir() and has_manifest(where))


def _games(paths: Sequence[str], stdin_filename: str | None) -> Iterator[Game]:
    """The games of PBN files, directories of them, standard input and archives, in the
    order named."""
    from pbnkit.errors import ReadError
    from pbnkit.export.archive import read_archive
    from pbnkit.pipeline.units import Unit

    for path in paths:
        if path != STDIN and _is_archive(path):
            yield from read_archive(path)
            continue
        inputs: Inputs = pbn_inputs((path,), stdin_filename if path == STDIN else None)
        for file in inputs.files:
            name = inputs.names.get(str(file), str(file))
            try:
                # A unit's reader is the one validate uses: it knows every input format.
                yield from Unit(name, 0, source=str(file)).reader()
            except OSError as error:
                raise ReadError(f"cannot read {name}: {error.strerror or error}") from None


@click.command("report")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", required=True, type=click.Path(),
              help="The HTML file to write (- for standard output).")
@click.option("--title", default="Hand records and results", show_default=True,
              help="The page's title.")
@click.option("--layout", type=click.Choice(["full", "hand-records", "results"]),
              default="full", show_default=True,
              help="full: each board with its auction, play and traveller, then the results; "
              "hand-records: the diagrams, HCP, makeable contracts and par, four boards to "
              "an A4 page; results: the rankings or standings, then the travellers.")
@click.option("--dd", "solve", is_flag=True,
              help="Show the makeable contracts and par of deals whose record states none, "
              "solved double dummy, and the par of a stated table without one (needs the "
              "dd extra).")
@click.option("--vp-scale", type=click.Choice(["continuous", "discrete"]),
              default="continuous", show_default=True,
              help="The victory points of team matches: the WBF 2013 continuous scale (two "
              "decimals) or whole points, as for pbnkit score --vp.")
@click.option("--force", is_flag=True, help="Replace an existing output file.")
@stdin_option
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr (with --dd).")
def report_command(paths: tuple[str, ...], output: str, title: str, layout: str, solve: bool,
                   vp_scale: str, force: bool, stdin_filename: str | None,
                   quiet: bool) -> None:
    """Write an HTML report of PBN files or archives: one self-contained page.

    PATHS are PBN files, directories searched for *.pbn, - for standard input, or
    archives written by pbnkit convert (.parquet, a dataset directory, .json, .jsonl).
    Each board is drawn once, however many records hold it: its diagram with the HCP,
    the makeable contracts and par when the records state them (or with --dd), each
    record's auction, play and commentary, and the traveller of its results. Each file
    (an event) ends with its rankings, standings, team match, rubber and Chicago sheets.
    --layout hand-records prints four boards to an A4 page; --layout results is the page
    a club posts: the rankings, then the travellers.
    """
    from pbnkit.export.atomic import OutputError, atomic_file, check_target
    from pbnkit.report import report_html
    from pbnkit.streams import STDOUT

    if solve:
        _solver_or_exit()
    if output != STDOUT:
        try:
            check_target(Path(output), force)
        except OutputError as error:
            raise click.UsageError(str(error)) from None
    progress = Progress("solving", enabled=False if quiet or not solve else None)
    # An archive or file that cannot be read, an output that cannot be written: one
    # line and status 2, as for every command (a closed standard output is not one).
    with reported(progress):
        html = report_html(_games(paths, stdin_filename), title, solve, progress.advance,
                           layout, vp_scale)
        if output != STDOUT:
            with atomic_file(output, force) as stream:
                stream.write(html.encode("utf-8"))
    if output == STDOUT:
        sys.stdout.write(html)
        return
    click.echo(f"pbnkit: wrote {output}", err=True)


@click.command("analyze")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", required=True, type=click.Path(), help="The PBN file to write.")
@click.option("--force", is_flag=True, help="Replace an existing output file.")
@stdin_option
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
def analyze_command(paths: tuple[str, ...], output: str, force: bool,
                    stdin_filename: str | None, quiet: bool) -> None:
    """Add the double-dummy analysis to every whole deal: OptimumResultTable (tricks for
    each declarer and strain), OptimumScore (the par score) and ParContract (the par
    contracts), correcting those the records already have where they stand; every other
    byte of a PBN file is kept (line ends, tag order, layout). Needs the dd extra:
    pip install 'pbnkit[dd]'.

    PATHS are PBN or LIN files, directories searched for them, or - for standard input;
    the output is PBN. The deals are solved 40 to a call of the solver, which uses every
    core.
    """
    from pbnkit.analysis.annotate import analyse_files
    from pbnkit.export.atomic import OutputError, check_target

    _solver_or_exit()
    try:
        check_target(Path(output), force)
    except OutputError as error:
        raise click.UsageError(str(error)) from None
    inputs = pbn_inputs(paths, stdin_filename)
    progress = Progress("analysing", enabled=False if quiet else None)
    with reported(progress):
        summary = analyse_files(inputs.files, output, force, inputs.names, progress.advance)
    left = summary.records - summary.analysed
    click.echo(f"pbnkit: wrote {output}: {summary.analysed} deals analysed"
               + (f", {left} records without a whole deal left as they were" if left else ""),
               err=True)


def double_dummy_option(function: F) -> F:
    """``validate --dd``."""
    return click.option("--dd", "double_dummy", is_flag=True,
                        help="Also solve the deals double dummy and check the "
                        "OptimumResultTable, DoubleDummyTricks, OptimumScore and ParContract "
                        "tags they state (SC041 to SC044; needs the dd extra).")(function)


def check_double_dummy(report: Report, inputs: Inputs, options: Options,
                       echo: Callable[[Diagnostic], str] | None) -> None:
    """``validate --dd``: add the findings on the double-dummy tags to ``report``
    (printed at once, formatted by ``echo``, when validate prints as it goes)."""
    from pbnkit.rules.double_dummy import add_to_report

    _solver_or_exit()
    listed = add_to_report(report, inputs.files, inputs.names, options, keep=echo is None)
    if echo is not None and listed:
        click.echo("\n".join(map(echo, listed)))
