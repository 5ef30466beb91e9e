"""The ``pbnkit`` command: thin glue over the library, one function per command.

Data goes to stdout (or ``-o``; ``-o -`` is stdout), progress and messages to stderr; a
PBN input ``-`` is stdin. Exit codes: 0 clean, 1 findings at or above ``--fail-on``, 2
usage, settings or input errors, 101 an internal error (a pbnkit bug), 130 interrupted
(Ctrl-C or SIGTERM); a reader of stdout that stops early (``| head``) ends the command quietly.
"""

from __future__ import annotations

import contextlib
import json
import os
import warnings
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
from click.core import ParameterSource

from pbnkit import __version__
from pbnkit.cli_archive import (convert_command, export_command, pbn_inputs, reported,
                                stdin_option, upgrade_command)
from pbnkit.cli_compact import compact_command
from pbnkit.cli_jobs import ArchivePath, Run, jobs_options, running
from pbnkit.cli_report import (analyze_command, check_double_dummy, double_dummy_option,
                                report_command)
from pbnkit.diagnostics import CODES, Code, Diagnostic, Severity
from pbnkit.interrupts import interruptible
from pbnkit.streams import STDOUT, check_output, to_stdout

if TYPE_CHECKING:
    from pbnkit.config import Config
    from pbnkit.streams import LiveStdin
    from pbnkit.rules.report import Options, Report
    from pbnkit.pipeline.score import ScoredUnit
    from pbnkit.scoring.report import ScoreReport

F = TypeVar("F", bound=Callable[..., Any])

EXIT_CLEAN, EXIT_FINDINGS, EXIT_TROUBLE = 0, 1, 2
#: a pbnkit bug, told apart from anything the input or the user did (ty's number)
EXIT_INTERNAL = 101
#: as a shell reports a command stopped by Ctrl-C (128 + SIGINT)
EXIT_INTERRUPTED = 130
#: as a shell reports a filter stopped by its reader leaving (128 + SIGPIPE), as cat's
EXIT_CLOSED_PIPE = 141


def _prefixes(values: tuple[str, ...]) -> tuple[str, ...]:
    """``--select AU,PL --select SC`` → ("AU", "PL", "SC")."""
    return tuple(p.strip().upper() for value in values for p in value.split(",") if p.strip())


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """A warning from the library (an archive out of order...) as one line for people."""
    click.echo(f"pbnkit: warning: {message}", err=True)


class _Commands(click.Group):
    """The command group: Ctrl-C or SIGTERM is one line and status 130, a closed
    standard output ends the command quietly, and an unexpected exception (a pbnkit bug)
    is one line on stderr and status 101; ``PBNKIT_DEBUG=1`` shows the traceback instead."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            with interruptible(), warnings.catch_warnings():
                warnings.showwarning = _show_warning
                return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except KeyboardInterrupt:
            click.echo("pbnkit: interrupted", err=True)
            ctx.exit(EXIT_INTERRUPTED)
        except BrokenPipeError:
            _stdout_closed()
            ctx.exit(EXIT_CLOSED_PIPE)
        except Exception as error:
            if os.environ.get("PBNKIT_DEBUG"):
                raise
            missing = _missing_module(error)
            if missing is not None:  # a broken installation, not a bug
                click.echo(f"pbnkit: the module {missing!r}, which pbnkit needs, is not "
                           "installed: install pbnkit again (pip install pbnkit)", err=True)
                ctx.exit(EXIT_TROUBLE)
            click.echo(f"pbnkit: internal error: {type(error).__name__}: {error} (a pbnkit "
                       "bug: please report it; PBNKIT_DEBUG=1 shows the traceback)", err=True)
            ctx.exit(EXIT_INTERNAL)


def _missing_module(error: BaseException | None) -> str | None:
    """The module that could not be imported, when ``error`` (or what caused it, as in a
    worker's failure) is a failed import: pbnkit imports some of its dependencies only
    when a command needs them."""
    while error is not None:
        if isinstance(error, ModuleNotFoundError) and error.name:
            return error.name
        error = error.__cause__
    return None


def _stdout_closed() -> None:
    """Point standard output where the interpreter's last flush at exit cannot fail."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


class SettingsError(click.ClickException):
    """A settings file pbnkit cannot use: status 2, as a usage error."""

    exit_code = EXIT_TROUBLE


#: the commands that read the settings file, and what of it becomes their option defaults
_SETTINGS_COMMANDS = ("validate", "score", "rescore")


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pbnkit")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Read, validate, score and archive PBN (Portable Bridge Notation) hand records.

    \b
    pbnkit validate FILES...   check syntax, tags, deals, auctions, play and results
    pbnkit score FILES...      score under duplicate, rubber, chicago or auction-1920 rules
    pbnkit convert FILES... -o ARCHIVE   PBN to Parquet, JSON or JSONL
    pbnkit rescore ARCHIVE --profile P   score an archive under any profile
    pbnkit export ARCHIVE -o FILE.pbn    archive back to PBN
    pbnkit report FILES... -o PAGE.html  hand records and results as a web page
    pbnkit analyze FILES... -o FILE.pbn  add double-dummy tables and par (dd extra)
    pbnkit codes [CODE]        explain the diagnostic codes

    A FILE - reads standard input, -o - writes to standard output. Settings (codes to
    select and ignore, per-file ignores, strict, profile) come from a pbnkit.toml or the
    [tool.pbnkit] table of a pyproject.toml, in this directory or the nearest above it.
    """
    # pyarrow imports numpy, whose OpenBLAS starts a thread per core that spins a while
    # before it sleeps, on the cores the workers need; pbnkit does no linear algebra.
    # Set before any import of pyarrow, and inherited by the workers.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if ctx.invoked_subcommand not in _SETTINGS_COMMANDS:
        return
    from pbnkit.config import ConfigError, find, load

    try:
        settings = load(find(Path.cwd()))
    except ConfigError as error:
        raise SettingsError(str(error)) from None
    ctx.obj = settings
    if settings.profile is not None:
        ctx.default_map = {"score": {"profile": settings.profile},
                           "rescore": {"profile": settings.profile}}


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--output-format", "--format", "output_format",
              type=click.Choice(["text", "json", "sarif", "github"]), default="text",
              show_default=True, help="text: one 'path:line:col: CODE [name] message' line per "
              "finding, then a summary; json: one document (schemas/validate-report.v1.json); "
              "sarif: a SARIF 2.1.0 log (code scanning); github: GitHub Actions annotations.")
@click.option("--select", multiple=True, metavar="PREFIXES",
              help="Only codes starting with these prefixes, e.g. --select AU,PL or SC001 "
              "(instead of the settings file's select).")
@click.option("--ignore", multiple=True, metavar="PREFIXES",
              help="Leave out codes starting with these prefixes, e.g. --ignore TG003 (besides "
              "the settings file's ignore).")
@click.option("--strict/--no-strict", default=None,
              help="Also check PBN 2.1 export format (PBN 2.1 section 3). Default: the "
              "settings file's strict, else off.")
@click.option("--min-severity", type=click.Choice(["error", "warning", "info"]),
              default="warning", show_default=True,
              help="Least severe findings to list (counts always include all).")
@click.option("--fail-on", type=click.Choice(["error", "warning"]), default="error",
              show_default=True, help="Exit with status 1 when a finding of this severity, or "
              "a more severe one, is found (listed or not).")
@click.option("--exit-zero", is_flag=True,
              help="Exit with status 0 whatever the findings (unreadable files still give 2).")
@click.option("--statistics", is_flag=True,
              help="List how many findings of each code instead of the findings (text or json).")
@click.option("--fix", is_flag=True, help="Rewrite the safe fixes in place first (P -> Pass, "
              "3N -> 3NT, Love or - -> None, 2025-03-01 -> 2025.03.01, blanks ending a "
              "value), atomically and touching nothing else; then list what remains.")
@click.option("--diff", is_flag=True, help="Print the safe fixes as a unified diff and "
              "write nothing; exit 1 when there is one.")
@double_dummy_option
@stdin_option
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
@click.option("-v", "--verbose", is_flag=True,
              help="Name on stderr the settings file used and each file passed over in the "
              "directories searched, with the reason.")
@jobs_options
@click.pass_obj
def validate(settings: Config | None, paths: tuple[str, ...], output_format: str,
             select: tuple[str, ...], ignore: tuple[str, ...], strict: bool | None,
             min_severity: str, fail_on: str, exit_zero: bool, statistics: bool,
             fix: bool, diff: bool, double_dummy: bool, stdin_filename: str | None, quiet: bool, verbose: bool,
             jobs: int | None, scheduler: str | None) -> None:
    """Check PBN files: syntax (SY), tags (TG), deals (DL), auctions (AU), play (PL) and
    stated results and scores (SC).

    PATHS are files, directories searched for *.pbn and *.lin (in any case; .pbn.gz,
    .lin.gz and .zip files are read as what they hold), or - for standard input (named by
    --stdin-filename); a file that is neither PBN nor LIN (an archive: read it with
    rescore, export or report) is an input error. Findings are listed in file and line order
    while the files are read (game by game with -j 1; see docs/cli.md). Exit status: 0 when no finding reaches --fail-on
    (or with --exit-zero), 1 when one does, 2 for usage, settings or input errors (a
    file that cannot be read), 101 for an internal error, 130 when interrupted.
    """
    from pbnkit.config import Config as Defaults
    from pbnkit.rules.report import FileReport, Options, Report

    settings = settings or Defaults()
    if statistics and output_format not in ("text", "json"):
        raise click.UsageError("--statistics lists counts as text or json, not "
                               + output_format)
    if verbose and settings.path is not None:
        click.echo(f"pbnkit: settings from {settings.path}", err=True)
    options = Options(settings.strict if strict is None else strict,
                      _codes(select, "--select") or settings.select,
                      settings.ignore + _codes(ignore, "--ignore"), Severity(min_severity),
                      settings.per_file_ignores, os.fspath(settings.root))
    # text and github lines go out as the games are checked; the other forms need the
    # whole run
    streamed = output_format in ("text", "github") and not statistics
    # standard input is then checked as it comes (the fixes need the whole of it first)
    inputs = pbn_inputs(paths, stdin_filename, verbose, keep_going=True,
                        live=streamed and not (fix or diff))
    if fix or diff:
        from pbnkit.cli_fix import fix_files

        fixed = fix_files(inputs.files, inputs.names, options.select, options.ignore, diff)
        if diff:
            sys.exit(EXIT_FINDINGS if fixed else EXIT_CLEAN)
    line = _github_line if output_format == "github" else Diagnostic.format
    report = Report()
    # a damaged .zip or .gz is one unreadable file among the others, which are still checked
    for name, why in inputs.unreadable.items():
        report.files.append(FileReport(name, failure=why))
        click.echo(f"pbnkit: {name}: {why}", err=True)
    with running("validating", inputs.files, jobs, scheduler, quiet,
                 names=inputs.names) as run:
        _validated(run, options, line if streamed else None, report, inputs.live)
    if double_dummy:
        check_double_dummy(report, inputs, options, line if streamed else None)
    _validate_output(report, output_format, statistics, Severity(min_severity))
    failed = [f.failure or "" for f in report.failures]
    if failed:
        sys.exit(EXIT_INTERNAL if any(f.startswith("internal error") for f in failed)
                 else EXIT_TROUBLE)
    found = report.errors + (report.warnings if fail_on == "warning" else 0)
    sys.exit(EXIT_FINDINGS if found and not exit_zero else EXIT_CLEAN)


def _validated(run: Run, options: Options, line: Callable[[Diagnostic], str] | None,
               report: Report, live: LiveStdin | None = None) -> None:
    """Check every unit and merge the findings file by file into ``report``
    (:func:`~pbnkit.pipeline.validate.validate_units`). With ``line``, each finding is
    printed as soon as no finding still to come can precede it."""
    from pbnkit.pipeline.validate import validate_units

    for diagnostics, file_report in validate_units(
            run.engine, run.units, options, streamed=line is not None, live=live,
            advance=run.progress.advance):
        if file_report is None:
            assert line is not None
            _print(run, line, diagnostics)
            continue
        report.files.append(file_report)
        if file_report.failure:
            click.echo(f"pbnkit: {file_report.path}: {file_report.failure}", err=True)
        if line is None:
            report.diagnostics.extend(diagnostics)
        else:
            _print(run, line, diagnostics)


def _print(run: Run, line: Callable[[Diagnostic], str], diagnostics: list[Diagnostic]) -> None:
    if not diagnostics:
        return
    if run.progress.enabled:
        click.echo("\r\x1b[K", err=True, nl=False)  # the progress line, redrawn next
    click.echo("\n".join(map(line, diagnostics)))


def _codes(values: tuple[str, ...], option: str) -> tuple[str, ...]:
    """``--select AU,PL --select SC`` → ("AU", "PL", "SC"); a prefix of no code is a usage
    error, with the nearest code."""
    from pbnkit.codes import UnknownCodeError, checked_prefixes

    try:
        return checked_prefixes(_prefixes(values), option)
    except UnknownCodeError as error:
        raise click.UsageError(str(error)) from None


def _github_line(diagnostic: Diagnostic) -> str:
    from pbnkit.rules.outputs import github

    return github(diagnostic)


def _validate_output(report: Report, output_format: str, statistics: bool,
                     min_severity: Severity) -> None:
    """What goes to stdout once every file is checked: the summary, the counts, or the
    whole document."""
    from pbnkit.rules import outputs

    if statistics:
        counts = outputs.statistics(report.diagnostics)
        if output_format == "json":
            text = json.dumps([{"code": code, "name": CODES[code].name, "count": count}
                               for code, count in counts], indent=2)
        else:
            text = "\n".join(outputs.statistics_text(counts))
    elif output_format == "json":
        text = json.dumps(report.to_json(), indent=2, ensure_ascii=False)
    elif output_format == "sarif":
        text = json.dumps(outputs.sarif(report, __version__), indent=2, ensure_ascii=False)
    elif output_format == "github":
        return
    else:
        infos = f", {report.infos} info" if min_severity is Severity.INFO else ""
        text = (f"{len(report.files)} files, {report.games} games: {report.errors} errors, "
                f"{report.warnings} warnings{infos}")
    if text:
        click.echo(text)


PROFILE_HELP = ("duplicate (Law 77 scores, matchpoints, IMP team matches), rubber (contract "
                "rubber bridge), chicago (four-deal bridge, in chukkers) or auction-1920 "
                "(auction bridge, 1920 American code). Default: what the first Scoring tag "
                "selects (Rubber, Chicago, Auction1920, else duplicate; a word naming no "
                "system is warned about).")


class _Profiles(click.Choice):  # type: ignore[type-arg]
    """The scoring profiles, looked up the first time an option needs them: importing the
    scoring modules would slow the start of every command, ``pbnkit --version`` too."""

    def __init__(self) -> None:
        super().__init__(())
        del self.choices  # from now on __getattr__ gives it

    def __getattr__(self, name: str) -> Any:
        if name != "choices":
            raise AttributeError(name)
        from pbnkit.scoring import PROFILES

        self.choices = tuple(sorted(PROFILES))
        return self.choices


def _profile_option(function: F) -> F:
    return click.option("--profile", type=_Profiles(), help=PROFILE_HELP)(function)


def _vp_options(function: F) -> F:
    """``--vp``, ``--vp-boards``, ``--vp-scale`` and ``--neuberg``, for score and rescore
    alike."""
    function = click.option(
        "--vp-scale", type=click.Choice(["continuous", "discrete"]), default="continuous",
        show_default=True,
        help="With --vp: continuous gives the WBF 2013 continuous 20-point scale, to two "
        "decimals; discrete gives whole victory points, on the 20-point scale the EBU "
        "publishes (the WBF's 2013 discrete scales: the continuous formula cut into bands "
        "of IMP margins, each VP costing at least as many IMPs as the one before).")(function)
    function = click.option(
        "--vp-boards", type=click.IntRange(min=1), metavar="N",
        help="With --vp: the boards each match was scheduled for (default: the boards "
        "compared in that match).")(function)
    function = click.option(
        "--neuberg/--no-neuberg", default=True, show_default=True,
        help="Pairs events: factor a board with fewer results than the most played, or "
        "with artificial scores (A+, A-, ^60...), up to the full top (Neuberg); "
        "--no-neuberg scores each such board on its own top, unfactored, as some club "
        "programs do.")(function)
    return click.option(
        "--vp", "victory_points", is_flag=True,
        help="Give each team match victory points on the WBF 2013 continuous 20-point "
        "scale, as the WBF's published tables give them (the formula rounded to two "
        "decimals, then corrected so that no IMP is worth more than the one before), or "
        "in whole points with --vp-scale discrete, and rank the teams of an event by "
        "them.")(function)


def _score_output(report: ScoreReport, output_format: str, output: str | None, force: bool,
                  heads: Sequence[str] | None = None, archive: str | None = None) -> None:
    """Print the report (``-o -``: as JSON), or write it to ``-o`` (.json, or .parquet:
    one file per table). ``heads``: the lines of the printed sheet's table of boards,
    made by the workers; ``archive``: the archive rescored, whose record ids the tables
    keep (else they come from the files scored)."""
    from pbnkit.scoring.text import pieces

    if output is None or output == STDOUT:
        as_json = output == STDOUT or output_format == "json"
        # Written as it is made: a large report is never held whole as one string.
        text = report.json_pieces() if as_json else pieces(report, heads=heads)
        with to_stdout():
            for piece in text:
                click.echo(piece, nl=False)
            if as_json:
                click.echo()  # the document ends without one
        return
    from pbnkit.export.score_tables import archive_record_ids, file_record_ids, write_score

    record_ids = None
    if Path(output).suffix == ".parquet":
        record_ids = archive_record_ids(archive) if archive is not None else file_record_ids()
    for written in write_score(report, Path(output), force=force, record_ids=record_ids):
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
               "FILE.matches.parquet, FILE.rubbers.parquet, FILE.rankings.parquet, "
               "FILE.standings.parquet, FILE.problems.parquet), or with - the JSON document "
               "to standard output (Parquet cannot go there).")


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@_profile_option
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text: a readable sheet; json: one document "
              "(schemas/score-report.v2.json).")
@click.option("-o", "--output", type=click.Path(), help=OUTPUT_HELP)
@click.option("--force", is_flag=True, help="Replace existing output files.")
@_vp_options
@stdin_option
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
@jobs_options
def score(paths: tuple[str, ...], profile: str | None, output_format: str,
          output: str | None, force: bool, victory_points: bool, vp_boards: int | None,
          vp_scale: str, neuberg: bool, stdin_filename: str | None, quiet: bool,
          jobs: int | None, scheduler: str | None) -> None:
    """Score the records of PBN files.

    PATHS are files, directories searched for *.pbn and *.lin, or - for standard input
    (named by --stdin-filename); an archive (rescore scores those) or another file that
    is neither PBN nor LIN stops the command with status 2. Tricks come from the Result
    tag or, without one, from a
    complete play; contract and declarer from their tags or the auction; a record
    without a contract of its own is scored from its ScoreTable, row by row. Duplicate
    gives each result's N-S score; for a pairs event each board's matchpoints (or
    Butler or cross-IMPs, as the Scoring tag says) and the pairs' ranking; IMPs for team
    matches (Room "Open" against Room "Closed"), with victory points and standings
    under --vp. The rubber profiles give the score sheet of each rubber, deals in file
    order.
    """
    from pbnkit.pipeline.score import score_unit

    _check_score_output(output)
    inputs = pbn_inputs(paths, stdin_filename)
    _score_and_write(running("scoring", inputs.files, jobs, scheduler, quiet,
                             names=inputs.names),
                     score_unit, profile, victory_points, vp_boards, output_format, output,
                     force, neuberg, vp_scale)


def _score_and_write(runner: contextlib.AbstractContextManager[Run],
                     function: Callable[..., ScoredUnit], profile: str | None,
                     victory_points: bool, vp_boards: int | None, output_format: str,
                     output: str | None, force: bool, neuberg: bool = True,
                     vp_scale: str = "continuous", archive: str | None = None) -> None:
    """Run the units, score what they give (:func:`~pbnkit.pipeline.score.gather`,
    :func:`~pbnkit.pipeline.score.scored`) and write the report, held as
    :func:`~pbnkit.pipeline.score.held` says; it is freed before the collector resumes,
    rather than gone over by it."""
    from pbnkit.pipeline.score import gather, held, scored
    from pbnkit.scoring.report import MixedProfilesError, TeamOptions

    with contextlib.ExitStack() as holding:
        with runner as run:
            holding.enter_context(held(run.engine))
            with reported(run.progress):
                gathered = gather(run.engine, run.units, function,
                                  sheet_lines=output is None and output_format == "text",
                                  advance=run.progress.advance)
            heads = gathered.sheet_lines
            try:
                report = scored(gathered, profile,
                                TeamOptions(victory_points, vp_boards, vp_scale), neuberg)
            except MixedProfilesError as error:
                raise click.UsageError(str(error)) from None
            del gathered
        with reported(run.progress):
            _score_output(report, output_format, output, force, heads, archive)
        del report, heads


@main.command()
@click.argument("archive", type=ArchivePath())
@click.option("--profile", type=_Profiles(), required=True,
              help=PROFILE_HELP.split(" Default:")[0])
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="As for pbnkit score.")
@click.option("-o", "--output", type=click.Path(), help="As for pbnkit score: FILE.json, "
              "FILE.parquet, or - for JSON on standard output.")
@click.option("--force", is_flag=True, help="Replace existing output files.")
@_vp_options
@click.option("-q", "--quiet", is_flag=True, help="No progress on stderr.")
@jobs_options
def rescore(archive: str, profile: str, output_format: str, output: str | None,
            force: bool, victory_points: bool, vp_boards: int | None, vp_scale: str,
            neuberg: bool, quiet: bool, jobs: int | None, scheduler: str | None) -> None:
    """Score an archive written by pbnkit convert (.parquet, a Parquet dataset directory or
    URI, .json or .jsonl) under any profile, without the original PBN files. The output
    is the same as pbnkit score's.
    """
    from pbnkit.export.archive_units import plan_archive
    from pbnkit.export.columns import no_pandas_objects
    from pbnkit.pipeline.score import rescore_unit

    no_pandas_objects()
    _check_score_output(output)
    _score_and_write(running("rescoring", [], jobs, scheduler, quiet,
                             plan=lambda count: plan_archive(archive, count)),
                     rescore_unit, profile, victory_points, vp_boards, output_format, output,
                     force, neuberg, vp_scale, archive)


@main.command()
@click.argument("code", required=False)
@click.option("--format", "output_format", type=click.Choice(["text", "markdown"]),
              default="text", show_default=True)
def codes(code: str | None, output_format: str) -> None:
    """List every diagnostic code, explain one (pbnkit codes AU001), or list a family's
    (pbnkit codes AU)."""
    from pbnkit.codes import all_codes, describe, find, markdown

    if code:
        entry = find(code)
        if entry is not None:
            click.echo(describe(entry))
            return
        prefixes = _codes((code,), "pbnkit codes")  # a family, or a prefix: its codes
        for entry in all_codes():
            if entry.code.startswith(prefixes):
                click.echo(_listed(entry))
    elif output_format == "markdown":
        click.echo(markdown(), nl=False)
    else:
        for entry in all_codes():
            click.echo(_listed(entry))


def _listed(entry: Code) -> str:
    return f"{entry.code}  {entry.severity.value:<7}  {entry.name:<32} {entry.summary}"


main.add_command(convert_command)
main.add_command(export_command)
main.add_command(upgrade_command)
main.add_command(report_command)
main.add_command(analyze_command)
main.add_command(compact_command)

if __name__ == "__main__":
    main()
