"""The unit functions of ``pbnkit score`` and ``rescore``: a worker turns a unit's games
into compact board results; the parent scores them all at once (matchpoints, team matches
and rubbers need the whole field). Imported by every worker process before its first
unit."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbnkit.errors import ReadError
from pbnkit.jobs.units import Unit, collector_paused
from pbnkit.pbn.records import Game
from pbnkit.scoring.base import BoardResult
from pbnkit.scoring.duplicate import board_score
from pbnkit.scoring.records import results_of
from pbnkit.scoring.text import board_lines

if TYPE_CHECKING:  # Arrow, which it needs, would weigh on the start-up of pbnkit score
    from pbnkit.export.archive_units import ArchiveUnit


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
    with collector_paused():
        for game in games:
            if game.path not in scoring and game.value("Scoring"):
                scoring[game.path] = game.value("Scoring") or ""
            results.extend(results_of(game))
        board_scores = [board_score(result)[0] for result in results]
        lines = board_lines(results, board_scores) if sheet_lines else None
    return ScoredUnit(results, scoring, board_scores, lines)
