"""The unit functions of ``pbnkit score`` and ``rescore``: a worker turns a unit's games
into compact board results; the parent scores them all at once (matchpoints, team matches
and rubbers need the whole field). Imported by every worker process before its first
unit."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbnkit.errors import PbnError
from pbnkit.jobs.units import Unit, collector_paused
from pbnkit.pbn.records import Game
from pbnkit.scoring.base import BoardResult
from pbnkit.scoring.duplicate import board_score
from pbnkit.scoring.records import results_of

if TYPE_CHECKING:  # Arrow, which it needs, is a third of the start-up of pbnkit score
    from pbnkit.export.archive_units import ArchiveUnit


class ReadError(PbnError):
    """An input file cannot be read."""


@dataclass(slots=True)
class ScoredUnit:
    results: list[BoardResult]
    #: the first Scoring tag of each file in the unit, by path, in order
    scoring: dict[str | None, str]
    #: each result's duplicate score (None: not scorable), made here, beside the other
    #: workers, rather than for every result in the parent after the last unit; a few
    #: microseconds a result, lost if the profile turns out not to be duplicate
    board_scores: list[int | None]


def score_unit(unit: Unit) -> ScoredUnit:
    """The board results of a unit of PBN files."""
    try:
        return _scored(unit.reader())
    except OSError as error:
        raise ReadError(f"cannot read {unit.path}: {error.strerror or error}") from None


def rescore_unit(unit: ArchiveUnit) -> ScoredUnit:
    """The board results of a unit of an archive."""
    return _scored(unit.games())


def _scored(games: Iterable[Game]) -> ScoredUnit:
    results: list[BoardResult] = []
    scoring: dict[str | None, str] = {}
    with collector_paused():
        for game in games:
            if game.path not in scoring and game.value("Scoring"):
                scoring[game.path] = game.value("Scoring") or ""
            results.extend(results_of(game))
        board_scores = [board_score(result)[0] for result in results]
    return ScoredUnit(results, scoring, board_scores)
