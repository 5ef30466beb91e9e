"""``SC`` codes about a pairs event as a whole: the TotalScoreTable against pbnkit's own
ranking of the file's results, and the one note per file and kind for score figures that
cannot be checked (PBN 2.1 section 5.10: a TotalScoreTable gives the running or final standings).

pbnkit ranks the pairs of the file's results itself (:mod:`pbnkit.scoring.pairs`): each
ScoreTable row, or record naming its pairs, is a result; the TotalScoreTable must agree
where the file holds the boards it counts.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pbnkit.pbn.records import TagPair
from pbnkit.pbn.tables import read_table
from pbnkit.rules.table_scores import agrees, butler_method, figure_text, read_number
from pbnkit.scoring import imps
from pbnkit.scoring.base import Match, MatchKey, Ranking, Standing
from pbnkit.scoring.pairs import butler_datum, cross_imps
from pbnkit.scoring.teams import standings, with_victory_points
from pbnkit.pickling import by_fields

#: Scoring modifiers whose IMPs a pairs field gives: Butler against the datum, or cross.
FIELD_IMPS = frozenset(("butler", "butler-2", "cross", "cross1", "cross2"))


def field_imps(scores: Sequence[int], scoring: frozenset[str]) -> dict[int, float]:
    """Each N-S score's IMPs in its board's field of ``scores``, by the Scoring tag's
    method (Butler unless it names cross-IMPs)."""
    weights = [1] * len(scores)
    cross = sorted(scoring & {"cross", "cross1", "cross2"})
    if not cross:
        datum = butler_datum(scores, weights, butler_method(scoring))
        return {score: float(imps(score - datum)) for score in scores}
    divisor = {"cross": 1, "cross1": len(scores), "cross2": len(scores) - 1}[cross[0]]
    return {score: total / divisor for score, total in cross_imps(scores, weights).items()}


# -- TotalScoreTable --------------------------------------------------------------------------

#: TotalScoreTable columns for a pair's total, by what they total (PBN 2.1 5.10 names
#: TotalIMP, TotalMP, TotalPercentage; Ruter writes TotalScoreIMP, Magic Contest
#: TotalScoreMP), its percentage, and its victory points (not computed for pairs).
_TOTAL_IMPS = ("TotalIMP", "TotalScoreIMP", "IMP")
_TOTAL_MP = ("TotalMP", "TotalScoreMP", "MP")
_PERCENTAGE = ("TotalPercentage", "TotalScorePercentage", "Percentage")
_VP = ("TotalVP", "TotalScoreVP", "VP")
#: every figure column PBN 2.1 5.10 or real files give a TotalScoreTable: each is
#: compared, or said not to be
_FIGURES = frozenset(_TOTAL_IMPS + _TOTAL_MP + _PERCENTAGE + _VP + (
    "TotalScore", "MeanScore", "MeanIMP", "MeanMP", "MeanPercentage"))
#: a column named like a figure that pbnkit does not know (a session's Score_1, a
#: program's own total): said not to be checked rather than passed over
_FIGURE_NAME = re.compile(r"Total|Mean|Score|IMP|MP|VP|Percentage")


def _is_figure(column: str) -> bool:
    return column in _FIGURES or _FIGURE_NAME.search(column) is not None


@by_fields
@dataclass(frozen=True, slots=True)
class StatedCell:
    column: str
    text: str
    line: int
    position: int


@by_fields
@dataclass(frozen=True, slots=True)
class StatedTotal:
    """One line of a TotalScoreTable: the pair and its cells as written."""

    pair: str
    direction: str | None
    cells: tuple[StatedCell, ...]

    def cell(self, names: Sequence[str]) -> StatedCell | None:
        return next((cell for name in names for cell in self.cells if cell.column == name),
                    None)


@by_fields
@dataclass(frozen=True, slots=True)
class StatedTotals:
    """A game's TotalScoreTable, kept small and picklable for the file's checks."""

    rows: tuple[StatedTotal, ...]
    line: int
    column: int
    #: why the table cannot be compared at all (it names no pair), or None
    unreadable: str | None = None
    #: whose lines these are: pairs (or an individual event's players), or teams
    teams: bool = False


def read_totals(tag: TagPair, spec: str | None) -> StatedTotals | None:
    """The lines of a TotalScoreTable: by PairId, by PlayerId (an individual event: pbnkit
    ranks each player alone), or by TeamId (a team event's standings). None without rows."""
    table = read_table(tag, spec)
    if not table.rows:
        return None
    pair_column = next((table.index(name) for name in ("PairId", "PlayerId", "TeamId")
                        if table.index(name) is not None), None)
    if pair_column is None:
        return StatedTotals((), tag.line, tag.value_column or tag.column,
                            "it names no PairId, PlayerId or TeamId column")
    direction_column = table.index("Direction")
    rows = []
    for texts, cells in zip(table.rows, table.cells):
        direction = None
        if direction_column is not None:
            way = texts[direction_column].replace("-", "").upper()
            direction = way if way in ("NS", "EW") else None
        rows.append(StatedTotal(texts[pair_column], direction, tuple(
            StatedCell(column.name, text, cell.line, cell.column)
            for column, text, cell in zip(table.columns, texts, cells))))
    return StatedTotals(tuple(rows), tag.line, tag.value_column or tag.column,
                        teams=table.columns[pair_column].name == "TeamId")


def check_totals(totals: StatedTotals, rankings: Sequence[Ranking]
                 ) -> tuple[list[tuple[StatedCell, str]], str | None, str | None]:
    """A TotalScoreTable against pbnkit's ranking of the file's results: the cells that
    disagree, each with its message, a note saying why lines could not be checked (None
    when all were), and one saying that pairs were credited their average for boards
    they sat out (None when none was)."""
    if totals.unreadable is not None:
        return [], f"TotalScoreTable not checked: {totals.unreadable}", None
    if not rankings:
        return [], ("TotalScoreTable not checked: its pairs are not named in the file's "
                    "results"), None
    unchecked: list[str] = []
    compared: list[tuple[StatedTotal, Ranking]] = []
    #: the session's boards of each pair credited its average per board played for
    #: the boards it sat out
    credited: dict[str, int] = {}
    for stated in totals.rows:
        lines = [line for line in rankings if line.id == stated.pair
                 and (stated.direction is None or line.direction in (None, stated.direction))]
        if len(lines) != 1:
            unchecked.append(f"pair {stated.pair} has {'no' if not lines else 'no single'} "
                             "ranking line of its own here")
            continue
        (line,) = lines
        boards = stated.cell(("NrBoards",))
        count = read_number(boards.text) if boards is not None else None
        if boards is not None and count != line.boards:
            if count is not None and _credits_average(stated, line, int(count)):
                credited[stated.pair] = int(count)
            else:
                unchecked.append(f"the file holds {line.boards} of pair {stated.pair}'s "
                                 f"{boards.text} boards")
                continue
        compared.append((stated, line))
    found: list[tuple[StatedCell, str]] = []
    for stated, line in compared:
        wrong, columns = _total_cells(stated, line, credited, rankings)
        found += wrong
        unchecked += columns
    sat_out = None
    if credited:
        pair, session = next(iter(credited.items()))
        sat_out = (f"TotalScoreTable credits pairs with their average for the boards they "
                   f"sat out ({len(credited)} here): a total is the pair's mean per board "
                   f"played times the session's boards (pair {pair} first, {session} boards)")
    if not unchecked:
        return found, None, sat_out
    more = len(set(unchecked)) - 1
    return found, (f"TotalScoreTable not fully checked: {unchecked[0]}"
                   + (f" (and {more} more)" if more else "")), sat_out


def _credits_average(stated: StatedTotal, line: Ranking, count: int) -> bool:
    """Whether a pair said to have played more boards than the file holds for it has
    the total of its average over them: a sit-out credited with its mean per board
    played (a convention of scoring programs, seen in the figures)."""
    if count <= line.boards or not line.boards:
        return False
    names = _TOTAL_MP if line.percentage is not None else _TOTAL_IMPS
    cell = stated.cell(names)
    figure = read_number(cell.text.lstrip("^")) if cell is not None else None
    return figure is not None and agrees(figure, line.total / line.boards * count)


def _total_cells(stated: StatedTotal, line: Ranking, credited: dict[str, int],
                 rankings: Sequence[Ranking]
                 ) -> tuple[list[tuple[StatedCell, str]], list[str]]:
    """The cells of a pair's line that disagree with its ranking line, and why the figure
    columns not compared are not. A pair in ``credited`` has its total over the
    session's boards; IMP ranks then follow the credited totals."""
    mean = line.total / line.boards if line.boards else None
    total, boards = line.total, line.boards
    if stated.pair in credited and mean is not None:
        boards = credited[stated.pair]
        total = mean * boards
    if line.percentage is not None:
        expected = [(_TOTAL_MP, total, "total"), (("MeanMP",), mean, "mean"),
                    # every board of a ranked event has the same top (Neuberg)
                    (_PERCENTAGE + ("MeanPercentage",), line.percentage, "percentage"),
                    (("Rank",), line.rank, "rank")]
    else:
        expected = [(_TOTAL_IMPS, total, "total"), (("MeanIMP",), mean, "mean"),
                    (("Rank",), _credited_rank(line, credited, rankings), "rank")]
    found = []
    for names, value, what in expected:
        for cell in stated.cells:
            figure = read_number(cell.text.lstrip("^")) if cell.column in names else None
            if value is None or figure is None or agrees(figure, value):
                continue
            found.append((cell, f"{cell.column} {cell.text} for pair {stated.pair}, but its "
                                f"{line.boards} boards in this file give a {what} of "
                                f"{figure_text(value)}"
                                + (f" (its average over {boards} boards)"
                                   if boards != line.boards and what == "total" else "")))
    compared = {name for names, _, _ in expected for name in names}
    method = "matchpoints" if line.percentage is not None else "IMPs"
    return found, [_why_not(cell.column, "pairs", method) for cell in stated.cells
                   if _is_figure(cell.column) and cell.column not in compared]


def _credited_rank(line: Ranking, credited: dict[str, int],
                   rankings: Sequence[Ranking]) -> int:
    """A pair's IMP rank once the pairs in ``credited`` have their average over the
    session's boards: one more than the pairs of its event with a larger total. The
    file's own NrBoards decide: pbnkit's ranking credits sit-outs whatever the file does
    (``Ranking.credited``), so the ranks are counted again here, on the file's terms."""
    own = round(_credited_total(line, credited), 9)
    return 1 + sum(1 for other in rankings
                   if (other.event, other.section) == (line.event, line.section)
                   and round(_credited_total(other, credited), 9) > own)


def _credited_total(line: Ranking, credited: dict[str, int]) -> float:
    count = credited.get(line.id)
    return line.total / line.boards * count if count and line.boards else line.total


def _why_not(column: str, unit: str, method: str) -> str:
    if column not in _FIGURES:
        return f"pbnkit does not know what {column} counts"
    if column in _VP:
        return f"{unit} are not given victory points ({column})"
    if column in ("TotalScore", "MeanScore"):
        return f"pbnkit adds up no scores of {unit} ({column})"
    return f"pbnkit ranks these {unit} on {method} ({column})"


# -- A team event's TotalScoreTable -----------------------------------------------------------

#: TotalScoreTable columns that may name a team beside its TeamId.
_TEAM_NAMES = ("Names", "TeamName", "Team")


def check_team_totals(totals: StatedTotals, matches: Sequence[Match], key: MatchKey
                      ) -> tuple[list[tuple[StatedCell, str]], str | None, str | None]:
    """A team event's TotalScoreTable, in a record of the event ``key`` names, against the
    file's own matches of that event: each team's victory points (the WBF 2013 scale over
    the boards each match compared), IMPs and rank, as :func:`check_totals` gives its
    findings. The continuous scale is tried first, then the discrete one (whole points,
    as ``score --vp-scale discrete`` gives them): the one the figures follow is taken,
    and the third value says so when it is the discrete one (else None)."""
    found, note = _team_totals(totals, matches, key, "continuous")
    if not found:
        return found, note, None
    discrete, other = _team_totals(totals, matches, key, "discrete")
    if len(discrete) < len(found):
        return discrete, other, ("TotalScoreTable victory points follow the discrete 20-VP "
                                 "scale (whole points), as pbnkit score --vp-scale discrete "
                                 "gives them")
    return found, note, None


def _team_totals(totals: StatedTotals, matches: Sequence[Match], key: MatchKey, scale: str
                 ) -> tuple[list[tuple[StatedCell, str]], str | None]:
    played = [with_victory_points(match, scale=scale) for match in _of_event(matches, key)
              if match.key.home_team and match.key.visit_team and match.winner is not None]
    if not played:
        return [], ("TotalScoreTable not checked: the file holds no team match between "
                    "named teams (HomeTeam, VisitTeam) in both rooms")
    lines = {line.team.strip().casefold(): line for line in standings(played, least=1)}
    boards: Counter[str] = Counter()
    broken: dict[str, Match] = {}
    for match in played:
        for team in (match.key.home_team, match.key.visit_team):
            assert team is not None
            boards[team.strip().casefold()] += len(match.boards)
            if match.problems:
                broken.setdefault(team.strip().casefold(), match)
    found: list[tuple[StatedCell, str]] = []
    unchecked: list[str] = []
    for stated in totals.rows:
        names = [stated.pair] + [cell.text for cell in stated.cells
                                 if cell.column in _TEAM_NAMES]
        name = next((folded for text in names
                     if (folded := text.strip().casefold()) in lines), None)
        if name is None:
            unchecked.append(f"team {stated.pair} plays no match of this file")
            continue
        line, count = lines[name], stated.cell(("NrBoards",))
        if count is not None and read_number(count.text) != boards[name]:
            unchecked.append(f"the file holds {boards[name]} of team {stated.pair}'s "
                             f"{count.text} boards")
            continue
        if name in broken:
            match = broken[name]
            unchecked.append(f"a board of {match.key.home_team} v {match.key.visit_team} "
                             "was not compared (its victory points are not known)")
            continue
        found += _team_cells(stated, line)
        unchecked += [_why_not(cell.column, "teams", "victory points and IMPs")
                      for cell in stated.cells
                      if _is_figure(cell.column) and cell.column not in _VP + _TOTAL_IMPS]
    if not unchecked:
        return found, None
    more = len(set(unchecked)) - 1
    return found, (f"TotalScoreTable not fully checked: {unchecked[0]}"
                   + (f" (and {more} more)" if more else ""))


def _of_event(matches: Sequence[Match], key: MatchKey) -> list[Match]:
    """The matches of the event (event and section) of ``key``; all of them when the file
    holds one event only, whatever ``key`` says (a record of standings without an Event)."""
    events = {(match.key.event, match.key.section) for match in matches}
    same = [match for match in matches if (match.key.event, match.key.section) ==
            (key.event, key.section)]
    return same or (list(matches) if len(events) == 1 else [])


def _team_cells(stated: StatedTotal, line: Standing) -> list[tuple[StatedCell, str]]:
    played = f"its {line.matches} match{'es' if line.matches > 1 else ''} in this file give"
    found: list[tuple[StatedCell, str]] = []
    for names, value, what in ((_VP, line.vp, "victory points"), (("Rank",), line.rank,
                                                                  "rank by victory points")):
        cell = stated.cell(names)
        figure = None if cell is None else read_number(cell.text.lstrip("^"))
        if cell is not None and value is not None and figure is not None and \
                not agrees(figure, value):
            found.append((cell, f"{cell.column} {cell.text} for team {stated.pair}, but "
                                f"{played} {what} of {figure_text(value)}"))
    # A team's IMPs are written as those it won or as their difference: either will do.
    cell = stated.cell(_TOTAL_IMPS)
    figure = None if cell is None else read_number(cell.text.lstrip("^"))
    difference = line.imps_for - line.imps_against
    if cell is not None and figure is not None and not agrees(figure, line.imps_for) and \
            not agrees(figure, difference):
        found.append((cell, f"{cell.column} {cell.text} for team {stated.pair}, but {played} "
                            f"{line.imps_for} IMPs won and {line.imps_against} lost (a "
                            f"difference of {difference:+d})"))
    return found
