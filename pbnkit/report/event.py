"""An event as a page shows it: its boards, then its results (travellers, rankings, the
team match sheet, rubber and Chicago sheets) from the score sheet of
:mod:`pbnkit.scoring`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from pbnkit.analysis.records import deal_setting
from pbnkit.model.cards import Side
from pbnkit.digits import whole_number
from pbnkit.pbn.records import Game
from pbnkit.report.views import (BoardView, GridView, Mark, VULNERABLE_NAMES, board_view,
                                 grid_view, mark_contract, stated_grid)
from pbnkit.scoring.base import BoardResult, BoardScore, Line, Match, Rubber
from pbnkit.scoring.report import ScoreReport, score_games
from pbnkit.scoring.text import chukker_notes


@dataclass(frozen=True, slots=True)
class TravellerRow:
    contract: Mark | None
    declarer: str | None
    tricks: int | None
    plus_ns: int | None
    plus_ew: int | None
    mp_ns: str
    mp_ew: str
    pct_ns: str
    #: a pairs event's IMPs (Butler or cross-IMPs), when it is scored so
    imp_ns: str
    ns_pair: str | None
    ew_pair: str | None


@dataclass(frozen=True, slots=True)
class Traveller:
    board: str
    rows: tuple[TravellerRow, ...]
    #: which figures the rows have: matchpoints, IMPs
    matchpoints: bool
    imps: bool


@dataclass(frozen=True, slots=True)
class MatchView:
    title: str
    #: the teams as the sheet names them: home and visitors, else A and B
    team_a: str
    team_b: str
    #: who sat where: team A is N-S in the Open room
    seats: str
    boards: tuple[Any, ...]
    #: the IMPs each team won, board by board, added up
    imps_a: int
    imps_b: int
    verdict: str


@dataclass(frozen=True, slots=True)
class SheetRow:
    ns: str
    ew: str
    why: str
    game: bool = False


@dataclass(frozen=True, slots=True)
class WeTheyView:
    title: str
    above: tuple[SheetRow, ...]
    below: tuple[SheetRow, ...]
    total_ns: int
    total_ew: int
    total_label: str
    verdict: str


@dataclass(frozen=True, slots=True)
class ChukkerDeal:
    place: str
    board: str
    dealer: str
    vulnerable: str
    contract: Mark | None
    declarer: str
    tricks: str
    ns: str
    ew: str
    notes: str


@dataclass(frozen=True, slots=True)
class ChukkerView:
    title: str
    deals: tuple[ChukkerDeal, ...]
    total_ns: int
    total_ew: int
    total_label: str
    verdict: str


@dataclass(frozen=True, slots=True)
class EventView:
    title: str
    meta: tuple[str, ...]
    boards: tuple[BoardView, ...]
    #: the boards after which a printed page ends (by record index)
    page_ends: frozenset[int]
    travellers: tuple[Traveller, ...]
    pairs: bool
    rankings: tuple[Any, ...]
    matches: tuple[MatchView, ...]
    rubbers: tuple[WeTheyView, ...]
    chukkers: tuple[ChukkerView, ...]
    problems: tuple[str, ...]


def _figure(value: float | None, digits: int) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def _score_text(row: BoardScore) -> str | None:
    """``N-S +420``, with matchpoints and percentage where the board has them."""
    if row.score_ns is None:
        return None
    side = "N-S" if row.score_ns >= 0 else "E-W"
    text = f"{side} +{abs(row.score_ns)}" if row.score_ns else "0"
    if row.mp_ns is not None:
        text += f" \u00b7 {row.mp_ns:.1f} MP N-S"
        if row.pct_ns is not None:
            text += f" ({row.pct_ns:.2f}%)"
    return text


def _own_rows(report: ScoreReport) -> dict[int, BoardScore]:
    """Each record's own scored row, by record index (a record's ScoreTable rows, when
    scoring gives them, belong to its traveller, not to the record)."""
    return {result.index: row for result, row in zip(report.results, report.sheet.boards)
            if getattr(result, "row", None) is None}


def solved_grids(games: Sequence[Game],
                 on_batch: Callable[[int], None] | None = None) -> dict[int, GridView]:
    """The solver's grid for each record with a whole deal that states no table of its
    own, by record index; 40 deals to a batch call, each batch told to ``on_batch``."""
    from pbnkit.analysis.solver import BATCH, solve_with_par

    wanted = ((game.index, setting) for game in games
              if stated_grid(game) is None and (setting := deal_setting(game)) is not None)
    grids = {}
    while batch := list(islice(wanted, BATCH)):
        for (index, _), (table, par) in zip(batch, solve_with_par([s for _, s in batch])):
            grids[index] = grid_view(table, par)
        if on_batch is not None:
            on_batch(len(batch))
    return grids


def _page_ends(boards: Sequence[BoardView]) -> frozenset[int]:
    """Two hand records to a printed page; a board with its play takes a page alone."""
    ends: list[int] = []
    waiting: BoardView | None = None
    for board in boards:
        if board.play is not None:
            if waiting is not None:
                ends.append(waiting.index)
            ends.append(board.index)
            waiting = None
        elif waiting is None:
            waiting = board
        else:
            ends.append(board.index)
            waiting = None
    return frozenset(ends)


def event_view(path: str | None, games: Sequence[Game], solve: bool = False,
               on_batch: Callable[[int], None] | None = None) -> EventView:
    """One file's (or archive source's) boards and results."""
    report = score_games(games)
    rows = _own_rows(report)
    grids = solved_grids(games, on_batch) if solve else {}
    boards = tuple(board_view(game, _score_text(rows[game.index]) if game.index in rows else
                              None, grids.get(game.index)) for game in games)
    first = games[0] if games else None
    title = (first.value("Event") or "").strip() if first is not None else ""
    meta = tuple(value for value in (
        None if first is None else (first.value("Site") or "").strip(),
        None if first is None else (first.value("Date") or "").strip(),
        path, f"scored as {report.profile}") if value)
    sheet = report.sheet
    matches = tuple(_match(match) for match in sheet.matches or ())
    rubbers = tuple(_wethey(r) for r in sheet.rubbers or () if r.unit != "chukker")
    chukkers = tuple(_chukker(r) for r in sheet.rubbers or () if r.unit == "chukker")
    travellers = () if matches or sheet.rubbers is not None else _travellers(report)
    return EventView(
        title=title or (path or "Boards"), meta=meta, boards=boards,
        page_ends=_page_ends(boards), travellers=travellers,
        pairs=any(r.ns_pair or r.ew_pair for t in travellers for r in t.rows),
        rankings=tuple(getattr(sheet, "rankings", ())), matches=matches, rubbers=rubbers,
        chukkers=chukkers, problems=tuple(p.message for p in sheet.all_problems))


def _travellers(report: ScoreReport) -> tuple[Traveller, ...]:
    """The results of each board played more than once, in board order."""
    by_board: dict[str, list[tuple[BoardResult, BoardScore]]] = defaultdict(list)
    for result, row in zip(report.results, report.sheet.boards):
        if result.board is not None:
            by_board[result.board].append((result, row))
    found = []
    for board, played in sorted(by_board.items(), key=lambda item: _board_order(item[0])):
        if len(played) < 2:
            continue
        rows = tuple(_traveller_row(result, row) for result, row in played)
        found.append(Traveller(board, rows, any(r.mp_ns for r in rows),
                               any(r.imp_ns for r in rows)))
    return tuple(found)


def _board_order(board: str) -> tuple[int, str]:
    number = whole_number(board.strip())
    return (number, "") if number is not None else (1 << 62, board)


def _traveller_row(result: BoardResult, row: BoardScore) -> TravellerRow:
    score = row.score_ns
    pairs = getattr(result, "pairs", None)
    return TravellerRow(
        contract=None if result.contract is None else mark_contract(result.contract),
        declarer=None if result.declarer is None else result.declarer.name,
        tricks=result.tricks,
        plus_ns=score if score is not None and score > 0 else None,
        plus_ew=-score if score is not None and score < 0 else None,
        mp_ns=_figure(row.mp_ns, 1), mp_ew=_figure(row.mp_ew, 1), pct_ns=_figure(row.pct_ns, 2),
        imp_ns=_figure(getattr(row, "imp_ns", None), 2),
        ns_pair=None if pairs is None else _pair(pairs.ns, pairs.ns_names),
        ew_pair=None if pairs is None else _pair(pairs.ew, pairs.ew_names))


def _pair(pair_id: str, names: str | None) -> str:
    return f"{pair_id} {names}" if names else pair_id


def _match(match: Match) -> MatchView:
    key = match.key
    title = " / ".join(part for part in (key.event, key.section, key.stage, key.round) if part)
    team_a, team_b = match.teams
    seats = (f"{team_a} v {team_b}, {team_a} N-S in the Open room"
             if key.home_team and key.visit_team
             else "A = N-S in the Open room, B = E-W in the Open room")
    return MatchView(title or "Team match", team_a, team_b, seats, match.boards, match.won_a,
                     match.won_b, match.verdict())


def _deal_name(board: str | None, index: int) -> str:
    return f"Board {board}" if board else f"Record {index}"


def _verdict(rubber: Rubber) -> str:
    if not rubber.complete:
        return (f"Incomplete: {len(rubber.unscored)} deal(s) could not be scored; the "
                "totals are not final.")
    if rubber.winner == "draw":
        return "A draw on equal totals."
    points = "" if rubber.rubber_points is None else f" ({rubber.rubber_points} rubber points)"
    return f"{rubber.winner} wins by {rubber.margin}{points}"


def _title(rubber: Rubber) -> str:
    name = "Chukker" if rubber.unit == "chukker" else "Rubber"
    state = "" if rubber.finished else " (unfinished)"
    return f"{name} {rubber.number}{state}"


def _wethey(rubber: Rubber) -> WeTheyView:
    """The sheet as written at the table: bonuses above the line, written upward from
    it; trick scores below, ruled off under each game."""
    above: list[SheetRow] = []
    below: list[SheetRow] = []
    for deal in rubber.deals:
        name = _deal_name(deal.board, deal.index)
        if not deal.scored:
            above.append(SheetRow("?", "?", f"{name}: not scored"))
        for entry in deal.entries:
            ns, ew = (str(entry.points), "") if entry.side is Side.NS else ("", str(entry.points))
            row = SheetRow(ns, ew, f"{name}: {entry.reason.value}")
            (above if entry.line is Line.ABOVE else below).append(row)
        if deal.game is not None and below:
            below[-1] = SheetRow(below[-1].ns, below[-1].ew, below[-1].why, game=True)
    for entry in rubber.settlement:
        ns, ew = (str(entry.points), "") if entry.side is Side.NS else ("", str(entry.points))
        above.append(SheetRow(ns, ew, "rubber not finished"))
    return WeTheyView(_title(rubber), tuple(reversed(above)), tuple(below), rubber.total_ns,
                      rubber.total_ew, "total" if rubber.complete else "total so far",
                      _verdict(rubber))


def _chukker(rubber: Rubber) -> ChukkerView:
    deals = []
    for deal in rubber.deals:
        notes = chukker_notes(deal)
        deals.append(ChukkerDeal(
            place="" if deal.place is None else str(deal.place), board=deal.board or "",
            dealer="" if deal.dealer is None else deal.dealer.name,
            vulnerable="" if deal.vulnerability is None else
            VULNERABLE_NAMES[deal.vulnerability],
            contract=None if deal.contract is None else mark_contract(deal.contract),
            declarer="" if deal.declarer is None else deal.declarer.name,
            tricks="" if deal.tricks is None else str(deal.tricks),
            ns=str(deal.points(Side.NS)) if deal.scored else "?",
            ew=str(deal.points(Side.EW)) if deal.scored else "?", notes=", ".join(notes)))
    return ChukkerView(_title(rubber), tuple(deals), rubber.total_ns, rubber.total_ew,
                       "total" if rubber.complete else "total so far", _verdict(rubber))


def event_views(games: Iterable[Game], solve: bool = False,
                on_batch: Callable[[int], None] | None = None) -> list[EventView]:
    """The games grouped by the file they come from, in order: one event per file."""
    by_path: dict[str | None, list[Game]] = {}
    for game in games:
        by_path.setdefault(game.path, []).append(game)
    return [event_view(path, group, solve, on_batch) for path, group in by_path.items()]
