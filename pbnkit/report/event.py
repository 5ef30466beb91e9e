"""An event as a page shows it: its boards, each drawn once with its traveller, then its
results (rankings, standings, the team match sheet, rubber and Chicago sheets) from the
score sheet of :mod:`pbnkit.scoring`. Every figure is text here, formatted as a sheet
prints it, so the templates never print a float."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path
from typing import Any

from pbnkit.analysis.records import deal_setting
from pbnkit.digits import whole_number
from pbnkit.model.cards import Card, Side
from pbnkit.model.values import parse_or_none
from pbnkit.pbn.records import Game
from pbnkit.pbn.tables import read_table
from pbnkit.report.views import (BoardView, GridView, Mark, VULNERABLE_NAMES, board_view,
                                 grid_view, mark_card, mark_contract, stated_table)
from pbnkit.scoring.base import (BoardResult, BoardScore, Line, Match, Problem, Ranking,
                                 Rubber)
from pbnkit.scoring.report import TeamOptions, score_games
from pbnkit.scoring.text import chukker_notes


@dataclass(frozen=True, slots=True)
class TravellerRow:
    contract: Mark | None
    declarer: str | None
    lead: Mark | None
    tricks: int | None
    plus_ns: int | None
    plus_ew: int | None
    mp_ns: str
    mp_ew: str
    pct_ns: str
    #: a pairs event's IMPs (Butler or cross-IMPs), or a team board's IMPs for N-S
    imp_ns: str
    ns_pair: str | None
    ew_pair: str | None
    room: str | None
    #: an artificial score a director awarded instead of a result (``A+``, ``60%``)
    adjusted: str | None


@dataclass(frozen=True, slots=True)
class Traveller:
    board: str
    anchor: str
    rows: tuple[TravellerRow, ...]
    #: which figures and columns the rows have
    matchpoints: bool
    imps: bool
    pairs: bool
    rooms: bool
    leads: bool


@dataclass(frozen=True, slots=True)
class BoardGroup:
    """One board of an event as a page draws it: the diagram once, for every record of
    that board and deal, with its traveller under it."""

    anchor: str
    #: the record whose diagram, dealer, vulnerability and grid are drawn
    board: BoardView
    #: the records that bring more than a result: their own auction, play or commentary
    records: tuple[BoardView, ...]
    traveller: Traveller | None
    #: a printed page ends after this board (full layout)
    page_end: bool = False


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
    #: the victory points of each team, when a scale gives them
    vp_a: str
    vp_b: str


@dataclass(frozen=True, slots=True)
class RankingView:
    rank: int
    pair: str
    names: str
    direction: str
    boards: int
    total: str
    percentage: str


@dataclass(frozen=True, slots=True)
class StandingView:
    rank: int
    team: str
    matches: int
    imps_for: int
    imps_against: int
    vp: str


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
    #: site, date, how it is scored: said once, under the event's heading
    meta: tuple[str, ...]
    groups: tuple[BoardGroup, ...]
    rankings: tuple[RankingView, ...]
    #: "Matchpoints" or "IMPs": what the rankings total
    ranked_on: str
    standings: tuple[StandingView, ...]
    matches: tuple[MatchView, ...]
    rubbers: tuple[WeTheyView, ...]
    chukkers: tuple[ChukkerView, ...]
    problems: tuple[str, ...]

    @property
    def travellers(self) -> tuple[Traveller, ...]:
        """The travellers, in board order."""
        found = [group.traveller for group in self.groups if group.traveller is not None]
        return tuple(sorted(found, key=lambda t: _board_order(t.board)))

    @property
    def hand_pages(self) -> tuple[tuple[BoardGroup, ...], ...]:
        """The boards four to a printed page, as clubs print hand records."""
        groups = sorted(self.groups, key=lambda g: _board_order(g.board.board or ""))
        return tuple(tuple(groups[at:at + 4]) for at in range(0, len(groups), 4))


def figure(value: float | None, digits: int) -> str:
    """A figure as a sheet prints it: ``digits`` decimals (a whole number with none)."""
    if value is None:
        return ""
    return f"{value:.{digits}f}" if digits else str(round(value))


def decimals(values: Iterable[float | None], least: int, most: int = 2) -> int:
    """The decimals a column needs: ``least``, more when a value has more (up to
    ``most``: Neuberg's factor and the IMPs of a Butler datum give long fractions)."""
    for digits in range(least, most):
        if all(value is None or abs(value * 10 ** digits - round(value * 10 ** digits))
               < 1e-6 for value in values):
            return digits
    return most


def _score_text(row: BoardScore, mp_digits: int) -> str | None:
    """``N-S +420``, with matchpoints and percentage where the board has them."""
    if row.score_ns is None:
        return None
    side = "N-S" if row.score_ns >= 0 else "E-W"
    text = f"{side} +{abs(row.score_ns)}" if row.score_ns else "0"
    if row.mp_ns is not None:
        text += f" \u00b7 {figure(row.mp_ns, mp_digits)} MP N-S"
        if row.pct_ns is not None:
            text += f" ({figure(row.pct_ns, 2)}%)"
    return text


def solved_grids(games: Sequence[Game],
                 on_batch: Callable[[int], None] | None = None) -> dict[int, GridView]:
    """The solver's grid for each record with a whole deal that states no table of its
    own, by record index; 40 deals to a batch call, each batch told to ``on_batch``."""
    from pbnkit.analysis.solver import BATCH, solve_with_par

    wanted = ((game.index, setting) for game in games
              if stated_table(game) is None and (setting := deal_setting(game)) is not None)
    grids = {}
    while batch := list(islice(wanted, BATCH)):
        for (index, _), (table, par) in zip(batch, solve_with_par([s for _, s in batch])):
            grids[index] = grid_view(table, par)
        if on_batch is not None:
            on_batch(len(batch))
    return grids


def _group_key(game: Game) -> tuple[str, ...]:
    """Records of the same board and deal are one board on the page; a record that names
    no board stands alone."""
    board = (game.value("Board") or "").strip()
    if not board:
        return ("#", str(game.index))
    return (board, "".join((game.value("Deal") or "").split()))


def _anchor(board: str | None, ordinal: int, event: int, taken: set[str]) -> str:
    """``board-1`` for Board 1 (the board as numbered, else its place), ``e2-board-1``
    in the second event, ``board-1-2`` for a second deal under the same number."""
    name = board if board and board.isdigit() else str(ordinal)
    base = f"{'' if event == 0 else f'e{event + 1}-'}board-{name}"
    anchor, count = base, 1
    while anchor in taken:
        count += 1
        anchor = f"{base}-{count}"
    taken.add(anchor)
    return anchor


def _shown_alone(view: BoardView) -> bool:
    return view.auction is not None or view.play is not None or bool(view.commentary)


def _leads(games: Sequence[Game]) -> dict[tuple[int, int | None], Mark]:
    """The opening lead of each result: a record's Lead tag, a ScoreTable row's Lead."""
    found: dict[tuple[int, int | None], Mark] = {}
    for game in games:
        lead = parse_or_none(Card.from_pbn, (game.value("Lead") or "").strip())
        if lead is not None:
            found[game.index, None] = mark_card(lead)
        tag = game.tag("ScoreTable")
        if tag is None:
            continue
        table = read_table(tag, game.value("ScoreTable"))
        column = table.index("Lead")
        if column is None:
            continue
        for number, row in enumerate(table.rows, 1):
            card = parse_or_none(Card.from_pbn, row[column].strip()) \
                if column < len(row) else None
            if card is not None:
                found[game.index, number] = mark_card(card)
    return found


def event_view(path: str | None, games: Sequence[Game], solve: bool = False,
               on_batch: Callable[[int], None] | None = None, number: int = 0,
               teams: TeamOptions = TeamOptions()) -> EventView:
    """One file's (or archive source's) boards and results."""
    report = score_games(games, teams=teams)
    sheet = report.sheet
    mp_digits = decimals((v for row in sheet.boards for v in (row.mp_ns, row.mp_ew)), 1)
    imp_digits = decimals((row.imp_ns for row in sheet.boards), 0)
    own = {result.index: row for result, row in zip(report.results, sheet.boards)
           if result.row is None}
    grids = solved_grids(games, on_batch) if solve else {}
    views = {game.index: board_view(game, _score_text(own[game.index], mp_digits)
                                    if game.index in own else None,
                                    grids.get(game.index), solve) for game in games}
    keyed: dict[tuple[str, ...], list[Game]] = {}
    for game in games:
        keyed.setdefault(_group_key(game), []).append(game)
    team_imps = {index: imps for match in sheet.matches or () for board in match.boards
                 for index, imps in ((board.open_index, board.imps),
                                     (board.closed_index, -board.imps))}
    rows_of: dict[int, list[tuple[BoardResult, BoardScore]]] = defaultdict(list)
    for result, row in zip(report.results, sheet.boards):
        rows_of[result.index].append((result, row))
    leads = _leads(games)
    rubbers = sheet.rubbers is not None
    taken: set[str] = set()
    groups = []
    for ordinal, members in enumerate(keyed.values(), 1):
        first = views[members[0].index]
        shown = next((views[g.index] for g in members if views[g.index].grid), first)
        board = first if shown is first else replace(first, grid=shown.grid)
        anchor = _anchor(first.board, ordinal, number, taken)
        played = [pair for game in members for pair in rows_of[game.index]
                  if pair[0].contract is not None or pair[0].adjusted is not None]
        traveller = None
        if len(played) > 1 and not rubbers:
            rows = tuple(_traveller_row(result, row, (mp_digits, imp_digits), leads, team_imps)
                         for result, row in played)
            traveller = Traveller(first.board or "?", anchor, rows,
                                  any(r.mp_ns for r in rows), any(r.imp_ns for r in rows),
                                  any(r.ns_pair or r.ew_pair for r in rows),
                                  any(r.room for r in rows), any(r.lead for r in rows))
        records = tuple(views[g.index] for g in members
                        if _shown_alone(views[g.index]) or traveller is None)
        groups.append(BoardGroup(anchor, board, records, traveller))
    title = (games[0].value("Event") or "").strip() if games else ""
    first_game = games[0] if games else None
    results = any(r.contract is not None or r.adjusted is not None for r in report.results)
    scored_as = f"scored as {report.profile}" if results and not rubbers else None
    meta = tuple(value for value in (
        None if first_game is None else _plain(first_game.value("Site")),
        None if first_game is None else _plain(first_game.value("Date")),
        scored_as) if value)
    by_index = {result.index: result.board for result in report.results}
    vp_digits = 0 if teams.scale == "discrete" else 2
    return EventView(
        title=title or (Path(path).name if path else "Boards"), meta=meta,
        groups=_paged(groups), rankings=_rankings(sheet.rankings, mp_digits),
        ranked_on="IMPs" if any(r.percentage is None for r in sheet.rankings)
        else "Matchpoints",
        standings=tuple(StandingView(s.rank, s.team, s.matches, s.imps_for, s.imps_against,
                                     figure(s.vp, vp_digits)) for s in sheet.standings),
        matches=tuple(_match(match, vp_digits) for match in sheet.matches or ()),
        rubbers=tuple(_wethey(r) for r in sheet.rubbers or () if r.unit != "chukker"),
        chukkers=tuple(_chukker(r) for r in sheet.rubbers or () if r.unit == "chukker"),
        problems=tuple(_problem(p, by_index) for p in sheet.all_problems))


def _plain(text: str | None) -> str | None:
    text = (text or "").strip()
    return text if text not in ("", "?", "-", "#") else None


def _problem(problem: Problem, boards: dict[int, str | None]) -> str:
    """A problem line that names its board: ``Board 7: ...``."""
    board = problem.board or (None if problem.index is None else boards.get(problem.index))
    message = problem.message
    if board and f"board {board}".lower() not in message.lower():
        return f"Board {board}: {message}"
    return message


def _rankings(rankings: Sequence[Ranking], mp_digits: int) -> tuple[RankingView, ...]:
    imps = any(r.percentage is None for r in rankings)
    digits = decimals((r.total for r in rankings), 0) if imps else \
        max(mp_digits, decimals((r.total for r in rankings), 1))
    return tuple(RankingView(r.rank, r.id, r.names or "", r.direction or "", r.boards,
                             figure(r.total, digits), figure(r.percentage, 2))
                 for r in rankings)


def _paged(groups: Sequence[BoardGroup]) -> tuple[BoardGroup, ...]:
    """The full layout's pages: two boards, with their travellers, to a page; a board
    with its play, or with the auctions of several records, takes a page alone."""
    paged: list[BoardGroup] = []
    waiting = False
    for group in groups:
        alone = any(view.play is not None for view in group.records) or \
            sum(view.auction is not None for view in group.records) > 1
        if alone and waiting:
            paged[-1] = replace(paged[-1], page_end=True)
        end = alone or waiting
        waiting = not end
        paged.append(replace(group, page_end=end))
    return tuple(paged)


def _board_order(board: str) -> tuple[int, str]:
    number = whole_number(board.strip())
    return (number, "") if number is not None else (1 << 62, board)


def _traveller_row(result: BoardResult, row: BoardScore, digits: tuple[int, int],
                   leads: dict[tuple[int, int | None], Mark],
                   team_imps: dict[int, int]) -> TravellerRow:
    """One result line; ``digits``: the decimals of the event's matchpoints and IMPs."""
    mp_digits, imp_digits = digits
    score = row.score_ns
    pairs = result.pairs
    imps = getattr(row, "imp_ns", None)
    if imps is None and result.row is None and result.index in team_imps:
        imps = team_imps[result.index]
    return TravellerRow(
        contract=None if result.contract is None else mark_contract(result.contract),
        declarer=None if result.declarer is None else result.declarer.name,
        lead=leads.get((result.index, result.row)),
        tricks=result.tricks,
        plus_ns=score if score is not None and score > 0 else None,
        plus_ew=-score if score is not None and score < 0 else None,
        mp_ns=figure(row.mp_ns, mp_digits), mp_ew=figure(row.mp_ew, mp_digits),
        pct_ns=figure(row.pct_ns, 2),
        imp_ns=figure(imps, imp_digits),
        ns_pair=None if pairs is None else _pair(pairs.ns, pairs.ns_names),
        ew_pair=None if pairs is None else _pair(pairs.ew, pairs.ew_names),
        room=result.room,
        adjusted=None if result.adjusted is None else str(result.adjusted))


def _pair(pair_id: str, names: str | None) -> str:
    return f"{pair_id} {names}" if names else pair_id


def _match(match: Match, vp_digits: int) -> MatchView:
    key = match.key
    title = " / ".join(part for part in (key.event, key.section, key.stage, key.round) if part)
    team_a, team_b = match.teams
    seats = (f"{team_a} v {team_b}, {team_a} N-S in the Open room"
             if key.home_team and key.visit_team
             else "A = N-S in the Open room, B = E-W in the Open room")
    return MatchView(title or "Team match", team_a, team_b, seats, match.boards, match.won_a,
                     match.won_b, match.verdict(), figure(match.vp_a, vp_digits),
                     figure(match.vp_b, vp_digits))


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
                on_batch: Callable[[int], None] | None = None,
                teams: TeamOptions = TeamOptions(victory_points=True)) -> list[EventView]:
    """The games grouped by the file they come from, in order: one event per file."""
    by_path: dict[str | None, list[Game]] = {}
    for game in games:
        by_path.setdefault(game.path, []).append(game)
    return [event_view(path, group, solve, on_batch, number, teams)
            for number, (path, group) in enumerate(by_path.items())]
