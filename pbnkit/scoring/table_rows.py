"""The results of a ScoreTable: one :class:`BoardResult` per row.

Pairs-event files (the output of club scoring programs) often give each board once, with
no contract of its own, and the whole field's results in its ScoreTable: a row per table
with the pair numbers, contract, declarer, result and score. Each row is then a result of
the board, as a record of its own would be. A row that gives no contract but a plain
score (some tables list only the scores, with a Multiplicity) keeps that score; a row
with an artificial score (``^60``, ``A+``, a Contract cell ``A``) keeps the award, which
the field scores as a share of the board's top.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pbnkit.model import PASSED_OUT, Contract, Seat
from pbnkit.model.adjusted import ArtificialScore, read_artificial, stated_imps
from pbnkit.digits import whole_number
from pbnkit.pbn.records import Game
from pbnkit.pbn.tables import Table, is_artificial, is_not_relevant, is_unknown, read_table
from pbnkit.replay.tags import read_contract, read_declarer, read_result
from pbnkit.scoring.base import BoardResult, Pairs


def table_results(game: Game, record: BoardResult) -> list[BoardResult] | None:
    """The rows of ``game``'s ScoreTable as results of ``record``'s board; None when the
    game has no ScoreTable with rows."""
    tag = game.tag("ScoreTable")
    if tag is None:
        return None
    table = read_table(tag, game.value("ScoreTable"))
    if not table.rows or not any(column.name == "Contract" or column.name.startswith("Score_")
                                 for column in table.columns):
        return None  # no results: Ruter writes a team event's matches in a ScoreTable too
    cells = _Cells(table)
    rows = [cells.result(row, record) for row in range(len(table.rows))
            if not cells.sits_out(row)]
    names = _ranked_names(game)
    if not names:
        return rows
    return [row if row.pairs is None else replace(row, pairs=replace(
        row.pairs, ns_names=row.pairs.ns_names or names.get(row.pairs.ns),
        ew_names=row.pairs.ew_names or names.get(row.pairs.ew))) for row in rows]


def row_awards(table: Table) -> list[ArtificialScore | None]:
    """The artificial score of each row of a ScoreTable, None for a row with a result: as
    :func:`table_results` reads them, for the checks of the table's figures."""
    cells = _Cells(table)
    return [cells.adjusted(row) for row in range(len(table.rows))]


def _ranked_names(game: Game) -> dict[str, str]:
    """The pairs' names by PairId in the game's TotalScoreTable (scoring programs write
    the names there, and only the pair numbers in each board's ScoreTable)."""
    tag = game.tag("TotalScoreTable")
    if tag is None:
        return {}
    cells = _Cells(read_table(tag, game.value("TotalScoreTable")))
    names = {}
    for row in range(len(cells.table.rows)):
        pair_id, name = _plain(cells.text(row, "PairId")), _plain(cells.text(row, "Names"))
        if pair_id is not None and name is not None:
            names[pair_id] = name
    return names


def _plain(text: str | None) -> str | None:
    """A cell's text, or None when it is absent, unknown (?) or not relevant (-)."""
    if text is None or is_unknown(text) or is_not_relevant(text) or not text.strip():
        return None
    return text.strip()


class _Cells:
    """A ScoreTable read cell by cell, by column name."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.columns = {column.name: number for number, column in
                        reversed(list(enumerate(table.columns)))}

    def text(self, row: int, name: str) -> str | None:
        column = self.columns.get(name)
        return None if column is None else self.table.rows[row][column]

    def result(self, row: int, record: BoardResult) -> BoardResult:
        adjusted = self.adjusted(row)
        contract, declarer, tricks = self._play(row) if adjusted is None else (None, None, None)
        stated = self._score(row) if contract is None and adjusted is None else None
        return BoardResult(
            record.index, record.board, declarer, contract, tricks, record.vulnerability,
            record.hands, record.dealer, record.room, record.path, record.match_key,
            pairs=self._pairs(row), row=row + 1, weight=self._weight(row), stated_ns=stated,
            adjusted=adjusted,
        )

    def sits_out(self, row: int) -> bool:
        """Whether the row is a pair's sit-out (a bye: Magic Contest writes ``Bye`` in its
        score cells and ``-`` for the missing pair), which is no result of the board."""
        return any((self.text(row, name) or "").strip().lower() == "bye"
                   for name in ("Score_NS", "Score_EW", "Contract"))

    def adjusted(self, row: int) -> ArtificialScore | None:
        """The row's artificial score, when it has one instead of a result: in its score
        cells (``^60``, ``A+``, ``60%``; each side's own when both are given), or in its
        Contract cell (``A``, ``A6040``), with the IMPs its IMP_NS or IMP_EW cell states."""
        ns = read_artificial(self.text(row, "Score_NS"))
        ew = read_artificial(self.text(row, "Score_EW"), ew=True)
        award = ns if ew is None else ew if ns is None else ArtificialScore(
            ns.ns, ew.ew, f"{ns.text} {ew.text}")
        if award is None:
            award = read_artificial(self.text(row, "Contract"))
        if award is None:
            return None
        for name, sign in (("IMP_NS", 1), ("IMP_EW", -1)):
            text = _plain(self.text(row, name))
            imps = stated_imps(text)
            if imps is not None:
                return replace(award, imps=sign * imps)
        return award

    def _play(self, row: int) -> tuple[Contract | None, Seat | None, int | None]:
        contract = read_contract(_plain(self.text(row, "Contract")))
        if contract is None or contract is PASSED_OUT:
            return contract, None, None
        declarer_tag = read_declarer(_plain(self.text(row, "Declarer")))
        declarer = declarer_tag.seat if declarer_tag is not None else None
        result = read_result(_plain(self.text(row, "Result")))
        return contract, declarer, None if result is None else result.tricks_of(declarer)

    def _score(self, row: int) -> int | None:
        """The row's N-S score as written: Score_NS, else minus Score_EW (tables often
        fill only the side that scored); None for an artificial or missing score."""
        for name, sign in (("Score_NS", 1), ("Score_EW", -1)):
            text = _plain(self.text(row, name))
            if text is None:
                continue
            if is_artificial(text):
                return None
            number = text.removeprefix("+")
            figure = whole_number(number.removeprefix("-"))
            if figure is not None:
                return -sign * figure if number.startswith("-") else sign * figure
        return None

    def _weight(self, row: int) -> int:
        text = _plain(self.text(row, "Multiplicity"))
        weight = whole_number(text) if text is not None else None
        return weight if weight else 1

    def _pairs(self, row: int) -> Pairs | None:
        ns, ew = (_plain(self.text(row, f"PairId_{side}")) for side in ("NS", "EW"))
        if ns is None or ew is None:
            return self._players(row)
        return Pairs(ns, ew, _plain(self.text(row, "Names_NS")),
                     _plain(self.text(row, "Names_EW")))


    def _players(self, row: int) -> Pairs | None:
        """The four players of an individual event's row (PlayerId_North...)."""
        north, east, south, west = (_plain(self.text(row, f"PlayerId_{seat}"))
                                    for seat in ("North", "East", "South", "West"))
        if north is None or east is None or south is None or west is None:
            return None
        return Pairs(f"{north}+{south}", f"{east}+{west}",
                     players=(north, east, south, west))


def record_pairs(values: Sequence[str | None]) -> Pairs | None:
    """The pairs of a record of its own: its PairNS and PairEW tags, with the names of
    North and South, East and West (``values``: PairNS, PairEW, North, South, East,
    West); None without both pair tags."""
    ns, ew, north, south, east, west = (_plain(value) for value in values)
    if ns is None or ew is None:
        return None
    return Pairs(ns, ew, _partnership(north, south), _partnership(east, west))


def _partnership(first: str | None, second: str | None) -> str | None:
    names = [name for name in (first, second) if name is not None]
    return " - ".join(names) or None
