"""``pbnkit score``, ``pbnkit rescore`` and :func:`pbnkit.score`: a worker turns a unit's
games into compact board results (:func:`score_unit`, :func:`rescore_unit`); the parent
gathers them in unit order and scores them all at once (matchpoints, team matches and
rubbers need the whole field). Imported by every worker process before its first
unit."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from pbnkit.errors import ReadError
from pbnkit.pipeline import collector
from pbnkit.pipeline.engines import Engine, Inline
from pbnkit.pipeline.runs import start
from pbnkit.pipeline.units import Unit
from pbnkit.pbn.records import Game
from pbnkit.scoring.base import BoardResult
from pbnkit.scoring.duplicate import board_score
from pbnkit.scoring.records import results_of
from pbnkit.scoring.text import board_lines

if TYPE_CHECKING:  # Arrow, which it needs, would weigh on the start-up of pbnkit score
    from pbnkit.export.archive_units import ArchiveUnit
    from pbnkit.scoring.report import ScoreReport, TeamOptions


@dataclass(slots=True)
class ScoredUnit:
    results: list[BoardResult]
    #: the first Scoring tag of each file in the unit, by path, in order
    scoring: dict[str | None, str]
    #: each result's duplicate score (None: not scorable), made here, beside the other
    #: workers, rather than for every result in the parent after the last unit; the
    #: little work is lost if the profile turns out not to be duplicate
    board_scores: list[int | None]
    #: each result's line of the printed sheet's table of boards
    #: (:func:`~pbnkit.scoring.text.board_lines`), when asked for; made here for the same
    #: reason. A duplicate sheet's row has the result's board score, which the line shows.
    sheet_lines: list[str] | None = None


def score_unit(unit: Unit, sheet_lines: bool = False) -> ScoredUnit:
    """The board results of a unit of PBN files (and with ``sheet_lines``, their lines
    of the printed sheet)."""
    try:
        return _scored(unit.reader(), sheet_lines)
    except OSError as error:
        raise ReadError(f"cannot read {unit.path}: {error.strerror or error}") from None


def rescore_unit(unit: ArchiveUnit, sheet_lines: bool = False) -> ScoredUnit:
    """The board results of a unit of an archive (and their lines of the sheet)."""
    return _scored(unit.games(), sheet_lines)


def _scored(games: Iterable[Game], sheet_lines: bool) -> ScoredUnit:
    results: list[BoardResult] = []
    scoring: dict[str | None, str] = {}
    for game in games:
        if game.path not in scoring and game.value("Scoring"):
            scoring[game.path] = game.value("Scoring") or ""
        results.extend(results_of(game))
    board_scores = [board_score(result)[0] for result in results]
    lines = board_lines(results, board_scores) if sheet_lines else None
    return ScoredUnit(results, scoring, board_scores, lines)


@dataclass(slots=True)
class Gathered:
    """What the units of a run gave, in unit order: their results, each result's
    duplicate score, each file's first Scoring tag, and the lines of the sheet's table of
    boards when every unit made them."""

    results: list[BoardResult] = field(default_factory=list)
    board_scores: list[int | None] = field(default_factory=list)
    scoring: dict[str | None, str] = field(default_factory=dict)
    sheet_lines: list[str] | None = field(default_factory=list)


def gather(engine: Engine, units: Iterable[Any], function: Callable[..., ScoredUnit],
           sheet_lines: bool = False,
           advance: Callable[[int, int], None] | None = None) -> Gathered:
    """Run ``function`` (:func:`score_unit` or :func:`rescore_unit`) on every unit and
    gather what they give, in order. ``sheet_lines``: the units make the lines of the
    printed sheet too, when they run in other processes (made here, after the last unit,
    they kept a core idle). ``advance(results, bytes)`` is told of the work done."""
    if sheet_lines and not isinstance(engine, Inline):
        function = partial(function, sheet_lines=True)
    gathered = Gathered()
    heads = gathered.sheet_lines
    for unit, scored in engine.map(function, units):
        gathered.results.extend(scored.results)
        gathered.board_scores.extend(scored.board_scores)
        if heads is not None and scored.sheet_lines is not None:
            heads.extend(scored.sheet_lines)
        else:
            heads = None
        for path, value in scored.scoring.items():
            gathered.scoring.setdefault(path, value)
        if advance is not None:
            advance(len(scored.results), unit.size)
    gathered.sheet_lines = heads
    return gathered


def scored(gathered: Gathered, profile: str | None, teams: TeamOptions,
           neuberg: bool = True) -> ScoreReport:
    """The report of what the units gave: the field, matches and rubbers scored here,
    from every unit's results. Raises
    :class:`~pbnkit.scoring.report.MixedProfilesError` when files without ``profile``
    name different ones."""
    from pbnkit.scoring.report import score_collected

    with collector.paused():  # the whole field's scores: no cycles among them
        return score_collected(gathered.results, gathered.scoring, profile, teams,
                               gathered.board_scores, neuberg)


def held(engine: Engine) -> contextlib.AbstractContextManager[None]:
    """Where a run's results are held, from the first unit to the end of the output: the
    collector paused when they come from other processes (:mod:`.collector`)."""
    return collector.gathering(not isinstance(engine, Inline))


def score(paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
          profile: str | None = None, teams: TeamOptions | None = None,
          neuberg: bool = True, jobs: int | None = 1) -> ScoreReport:
    """The report ``pbnkit score`` gives for PBN or LIN files (its JSON document is
    ``report.json_pieces()`` joined): each result's score, and the field, matches and
    rubbers the profile makes of them. Without ``profile``, each file's first Scoring
    tag decides. ``jobs``: processes to use (None: every usable core).

    >>> report = score("sample_data/team_match.pbn")
    >>> report.sheet.matches[0].imps_a
    19
    """
    from pbnkit.scoring.report import TeamOptions

    files = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    run = start(files, jobs)
    try:
        with held(run.engine):
            gathered = gather(run.engine, run.units, score_unit)
            return scored(gathered, profile, teams or TeamOptions(), neuberg)
    finally:
        run.engine.close()

