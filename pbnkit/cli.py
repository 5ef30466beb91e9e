"""The ``pbnkit`` command: thin glue over the library, one function per command.

Data goes to stdout (or ``-o``; ``-o -`` is stdout), progress and messages to stderr; a
PBN input ``-`` is stdin. Exit codes: 0 clean, 1 findings of error severity, 2 usage, I/O
or internal errors.
"""

from __future__ import annotations

import json
import os
import warnings
import sys
from functools import partial
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
from click.core import ParameterSource

from pbnkit import __version__
from pbnkit.cli_archive import (convert_command, export_command, pbn_inputs, reported,
                                stdin_option, upgrade_command)
from pbnkit.cli_jobs import ArchivePath, Run, jobs_options, running
from pbnkit.diagnostics import CODES, Severity
from pbnkit.scoring import PROFILES
from pbnkit.streams import STDOUT, check_output, to_stdout

if TYPE_CHECKING:
    from pbnkit.jobs.work import ScoredUnit
    from pbnkit.scoring.base import BoardResult
    from pbnkit.scoring.report import ScoreReport

F = TypeVar("F", bound=Callable[..., Any])

EXIT_CLEAN, EXIT_FINDINGS, EXIT_TROUBLE = 0, 1, 2


def _prefixes(values: tuple[str, ...]) -> tuple[str, ...]:
    """``--select AU,PL --select SC`` → ("AU", "PL", "SC")."""
    return tuple(p.strip().upper() for value in values for p in value.split(",") if p.strip())


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """A warning from the library (an archive out of order...) as one line for people."""
    click.echo(f"pbnkit: warning: {message}", err=True)


class _Commands(click.Group):
    """The command group, turning an unexpected exception (a pbnkit bug) into one line on
    stderr and exit status 2; ``PBNKIT_DEBUG=1`` shows the traceback instead."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            with warnings.catch_warnings():
                warnings.showwarning = _show_warning
                return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as error:
            if os.environ.get("PBNKIT_DEBUG"):
                raise
            click.echo(f"pbnkit: internal error: {type(error).__name__}: {error} (a pbnkit "
                       "bug: please report it; PBNKIT_DEBUG=1 shows the traceback)", err=True)
            ctx.exit(EXIT_TROUBLE)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pbnkit")
def main() -> None:
    """Read, validate, score and archive PBN (Portable Bridge Notation) hand records.

    \b
    pbnkit validate FILES...   check syntax, tags, deals, auctions, play and results
    pbnkit score FILES...      score under duplicate, rubber, chicago or auction-1920 rules
    pbnkit convert FILES... -o ARCHIVE   PBN to Parquet, JSON or JSONL
    pbnkit rescore ARCHIVE --profile P   score an archive under any profile
    pbnkit export ARCHIVE -o FILE.pbn    archive back to PBN
    pbnkit codes [CODE]        explain the diagnostic codes

    A FILE - reads standard input, -o - writes to standard output.
    """


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text: one 'path:line:col: CODE [name] message' line per "
              "finding; json: one document (schemas/validate-report.v1.json).")
@click.option("--select", multiple=True, metavar="PREFIXES",
              help="Only codes starting with these prefixes, e.g. --select AU,PL or SC001.")
@click.option("--ignore", multiple=True, metavar="PREFIXES",
              help="Leave out codes starting with these prefixes, e.g. --ignore TG003.")
@click.option("--strict", is_flag=True,
              help="Also check PBN 2.1 export format (PBN 2.1 section 3).")
@click.option("--min-severity", type=click.Choice(["error", "warning", "info"]),
              default="warning", show_default=True,
              help="Least severe findings to list (counts always include all).")
@stdin_option
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
@jobs_options
def validate(paths: tuple[str, ...], output_format: str, select: tuple[str, ...],
             ignore: tuple[str, ...], strict: bool, min_severity: str,
             stdin_filename: str | None, quiet: bool, jobs: int | None,
             scheduler: str | None) -> None:
    """Check PBN files: syntax (SY), tags (TG), deals (DL), auctions (AU), play (PL) and
    stated results and scores (SC).

    PATHS are files, directories searched for *.pbn, or - for standard input (named
    by --stdin-filename). Exit status: 0 when no error-severity finding, 1 when there
    is one, 2 for usage or I/O errors.
    """
    from pbnkit.rules.report import FileValidation, Options, Report, check_unit

    inputs = pbn_inputs(paths, stdin_filename)
    report = Report()
    options = Options(strict, _prefixes(select), _prefixes(ignore), Severity(min_severity))
    with running("validating", inputs.files, jobs, scheduler, quiet,
                 names=inputs.names) as run:
        validation = FileValidation("", options)
        for unit, checked in run.engine.map(partial(check_unit, options), run.units):
            if unit.chunk == 0:
                validation = FileValidation(unit.path, options)
            run.progress.advance(validation.add(checked), unit.size)
            if not unit.is_last:
                continue
            file_report, diagnostics = validation.finish()
            report.files.append(file_report)
            report.diagnostics.extend(diagnostics)
            if file_report.failure:
                click.echo(f"pbnkit: {unit.path}: {file_report.failure}", err=True)
    with to_stdout():
        if output_format == "json":
            click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
        else:
            for diagnostic in report.diagnostics:
                click.echo(diagnostic.format())
            click.echo(f"{len(report.files)} files, {report.games} games: "
                       f"{report.errors} errors, {report.warnings} warnings")
    if report.failures:
        sys.exit(EXIT_TROUBLE)
    sys.exit(EXIT_FINDINGS if report.errors else EXIT_CLEAN)


PROFILE_HELP = ("duplicate (Law 77 scores, matchpoints, IMP team matches), rubber (contract "
                "rubber bridge), chicago (four-deal bridge, in chukkers) or auction-1920 "
                "(auction bridge, 1920 American code). Default: what the first Scoring tag "
                "selects (Rubber, Chicago, Auction1920, else duplicate; a word naming no "
                "system is warned about).")


def _profile_option(function: F) -> F:
    return click.option("--profile", type=click.Choice(sorted(PROFILES)), help=PROFILE_HELP)(function)


def _score_output(report: ScoreReport, output_format: str, output: str | None, force: bool) -> None:
    """Print the report (``-o -``: as JSON), or write it to ``-o`` (.json, or .parquet:
    one file per table)."""
    from pbnkit.scoring.text import pieces

    if output is None or output == STDOUT:
        as_json = output == STDOUT or output_format == "json"
        # Written as it is made: a large report is never held whole as one string.
        text = report.json_pieces() if as_json else pieces(report)
        with to_stdout():
            for piece in text:
                click.echo(piece, nl=False)
            if as_json:
                click.echo()  # the document ends without one
        return
    from pbnkit.export.score_tables import write_score

    for written in write_score(report, Path(output), force=force):
        click.echo(f"pbnkit: wrote {written}", err=True)


def _check_score_output(output: str | None) -> None:
    if output == STDOUT:
        source = click.get_current_context().get_parameter_source("output_format")
        if source is ParameterSource.COMMANDLINE and \
                click.get_current_context().params["output_format"] != "json":
            raise click.BadParameter("-o - writes the JSON document; leave out --format text",
                                     param_hint="--format")
        return
    check_output(output, parquet=output is not None and Path(output).suffix == ".parquet",
                 dash="JSON")
    if output is not None and Path(output).suffix not in (".json", ".parquet"):
        raise click.BadParameter("the name must end in .json or .parquet, or be - for "
                                 "standard output", param_hint="-o")


OUTPUT_HELP = ("Write to FILE.json, to FILE.parquet (as FILE.boards.parquet, "
               "FILE.matches.parquet, FILE.rubbers.parquet), or with - the JSON document to "
               "standard output (Parquet cannot go there).")


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@_profile_option
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text: a readable sheet; json: one document "
              "(schemas/score-report.v1.json).")
@click.option("-o", "--output", type=click.Path(), help=OUTPUT_HELP)
@click.option("--force", is_flag=True, help="Replace existing output files.")
@stdin_option
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
@jobs_options
def score(paths: tuple[str, ...], profile: str | None, output_format: str,
          output: str | None, force: bool, stdin_filename: str | None, quiet: bool,
          jobs: int | None, scheduler: str | None) -> None:
    """Score the records of PBN files.

    PATHS are files, directories searched for *.pbn, or - for standard input (named
    by --stdin-filename). Tricks come from the Result tag or, without one, from a
    complete play; contract and declarer from their tags or the auction. Duplicate
    gives each record's N-S score, matchpoints when a board was played several times,
    and IMPs for team matches (Room "Open" against Room "Closed"); the rubber profiles
    give the score sheet of each rubber, deals in file order.
    """
    from pbnkit.jobs.work import score_unit

    _check_score_output(output)
    inputs = pbn_inputs(paths, stdin_filename)
    with running("scoring", inputs.files, jobs, scheduler, quiet, names=inputs.names) as run:
        report = _scored(run, score_unit, profile)
    with reported(run.progress):
        _score_output(report, output_format, output, force)


def _scored(run: Run, function: Callable[[Any], ScoredUnit], profile: str | None) -> ScoreReport:
    """Score what the units give back, in order (the field, matches and rubbers are
    computed here, from every unit's results)."""
    from pbnkit.scoring.report import MixedProfilesError, score_collected

    results: list[BoardResult] = []
    scoring: dict[str | None, str] = {}
    with reported(run.progress):
        for unit, scored in run.engine.map(function, run.units):
            results.extend(scored.results)
            for path, value in scored.scoring.items():
                scoring.setdefault(path, value)
            run.progress.advance(len(scored.results), unit.size)
    try:
        return score_collected(results, scoring, profile)
    except MixedProfilesError as error:
        raise click.UsageError(str(error)) from None


@main.command()
@click.argument("archive", type=ArchivePath())
@click.option("--profile", type=click.Choice(sorted(PROFILES)), required=True,
              help=PROFILE_HELP.split(" Default:")[0])
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="As for pbnkit score.")
@click.option("-o", "--output", type=click.Path(), help="As for pbnkit score: FILE.json, "
              "FILE.parquet, or - for JSON on standard output.")
@click.option("--force", is_flag=True, help="Replace existing output files.")
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
@jobs_options
def rescore(archive: str, profile: str, output_format: str, output: str | None,
            force: bool, quiet: bool, jobs: int | None, scheduler: str | None) -> None:
    """Score an archive written by pbnkit convert (.parquet, a Parquet dataset directory or
    URI, .json or .jsonl) under any profile, without the original PBN files. The output
    is the same as pbnkit score's.
    """
    from pbnkit.export.archive_units import plan_archive
    from pbnkit.jobs.work import rescore_unit

    _check_score_output(output)
    with running("rescoring", [], jobs, scheduler, quiet,
                 plan=lambda count: plan_archive(archive, count)) as run:
        report = _scored(run, rescore_unit, profile)
    with reported(run.progress):
        _score_output(report, output_format, output, force)


@main.command()
@click.argument("code", required=False)
@click.option("--format", "output_format", type=click.Choice(["text", "markdown"]),
              default="text", show_default=True)
def codes(code: str | None, output_format: str) -> None:
    """List every diagnostic code, or explain one (e.g. pbnkit codes AU001)."""
    from pbnkit.codes import all_codes, describe, markdown

    if code:
        entry = CODES.get(code.upper())
        if entry is None:
            raise click.UsageError(f"unknown code {code!r}; 'pbnkit codes' lists them")
        click.echo(describe(entry))
    elif output_format == "markdown":
        click.echo(markdown(), nl=False)
    else:
        for entry in all_codes():
            click.echo(f"{entry.code}  {entry.severity.value:<7}  {entry.name:<32} {entry.summary}")


main.add_command(convert_command)
main.add_command(export_command)
main.add_command(upgrade_command)

if __name__ == "__main__":
    main()
