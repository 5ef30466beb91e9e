"""``SC036``: the results that ``pbnkit score`` cannot score, found by ``validate`` too.

Scoring never guesses: a result it cannot score is left out of its board's field and its
pairs' totals, and listed among the report's problems. The same result is a finding here,
with its line and column, so that a file ``validate`` calls clean is one ``score`` scores
whole. Both ask :func:`~pbnkit.scoring.duplicate.board_score`, so they cannot disagree.

A ScoreTable row that cannot be scored is a warning: the table says a table played the
board, and that result is lost. A record of its own with a contract but no result (a deal
saved after the auction) is information; a hand record with no contract is no result at
all, and nothing is said of it.
"""

from __future__ import annotations

from pbnkit.diagnostics import Diagnostic, Severity
from pbnkit.pbn.records import Game
from pbnkit.pbn.tables import Table
from pbnkit.rules.stated_scores import ScoreRecord
from pbnkit.scoring.duplicate import board_score


def not_scored(game: Game, record: ScoreRecord, table: Table | None) -> list[Diagnostic]:
    """The SC036 findings of one game: its ScoreTable rows that cannot be scored, or the
    record itself when it states a contract that cannot be. ``table``: the game's
    ScoreTable, read."""
    result = record.result
    if record.rows:
        assert table is not None
        cells = table.cells
        found = []
        for row in record.rows:
            _, problem = board_score(row)
            if problem is not None and row.row is not None:
                cell = cells[row.row - 1][0]
                found.append(record.diagnostic("SC036", problem.message, cell.line,
                                               cell.column))
        return found
    if record.ns is not None or (result.contract is None and result.adjusted is None):
        return []
    _, problem = board_score(result)
    if problem is None:
        return []
    tag = game.tag("Contract")
    line, column = (tag.line, tag.value_column or tag.column) if tag is not None else (
        game.line, 1)
    return [record.diagnostic("SC036", problem.message, line, column, Severity.INFO)]
