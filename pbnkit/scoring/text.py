"""The readable score sheet ``pbnkit score`` prints: a table of boards, IMPs per board for
team matches, the pairs' rankings and the teams' standings, the classic two-column rubber sheet with the line, and a table per Chicago
chukker. Deals are named by board number; with several files, by file too. A rubber or
chukker holding a deal that could not be scored says so in its title and its totals."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import repeat
from operator import attrgetter, is_not
from typing import Any

from pbnkit.model import Seat, Side, Vulnerability
from pbnkit.scoring.base import (BoardResult, Line, Match, Problem, Ranking, Reason, Rubber,
                                 RubberDeal, Standing, UnscoredMatch)
from pbnkit.scoring.report import ScoreReport, joined


def _number(value: float | int | None, digits: int = 0) -> str:
    if value is None:
        return "-"
    return f"{value:.{digits}f}" if digits else str(value)


def render(report: ScoreReport) -> str:
    """The whole sheet as one string."""
    return "".join(pieces(report))


def pieces(report: ScoreReport, lines: int = 1000,
           heads: Sequence[str] | None = None) -> Iterator[str]:
    """The sheet in pieces of ``lines`` lines, each line ending in a newline, so that a
    long sheet can be written as it is made rather than held whole. ``heads``: the
    lines of the table of boards as :func:`board_lines` makes them, made already."""
    return joined((line + "\n" for line in _lines(report, heads)), lines)


def _lines(report: ScoreReport, heads: Sequence[str] | None) -> Iterator[str]:
    # With several files, every section and problem names its file.
    several = len({result.path for result in report.results}) > 1
    yield f"Profile: {report.profile}"
    yield from (f"Note: {note}" for note in report.sheet.notes)
    if report.sheet.rubbers is None:
        yield ""
        yield from _boards(report, several, heads)
    for match in report.sheet.matches or ():
        yield ""
        yield from _match(match)
    yield from _rankings(report.sheet.rankings)
    yield from _standings(report.sheet.standings, report.sheet.unscored_matches)
    for rubber in report.sheet.rubbers or ():
        yield ""
        if rubber.unit == "chukker":
            yield from _chukker(rubber, several)
        else:
            yield from _rubber(rubber, several)
    problems = report.sheet.all_problems
    if problems:
        yield from ("", "Not scored or worth a look:")
        yield from (f"  {_where(p, several)}: {p.message}" for p in problems)


def _where(problem: Problem, several: bool) -> str:
    """Where a problem is: the file (when several are scored), record and board."""
    place = [problem.path or "-"] if several else []
    if problem.index is not None:
        place.append(f"record {problem.index}" + (f" (board {problem.board})"
                                                   if problem.board else ""))
    return ", ".join(place) or "file"


def _boards(report: ScoreReport, several: bool,
            heads: Sequence[str] | None) -> Iterator[str]:
    rows = report.sheet.boards
    matchpoints = _any_given(rows, "mp_ns")
    butler = _any_given(rows, "datum")
    cross = _any_given(rows, "cross_sum")
    pairs = _any_given(report.results, "pairs")
    head = _BOARD_LINE % ("board", "room", "contract", "by", "tricks", "vul ", "NS score")
    extra = ((f" {'pairs':>9}" if pairs else "") + ("    MP NS   % NS" if matchpoints else "")
             + (f" {'datum':>6} {'IMP NS':>6}" if butler else "")
             + (f" {'sum':>5} {'IMP NS':>6}" if cross else ""))
    yield head + extra
    yield "-" * (len(head) + len(extra))
    if heads is not None and len(heads) != len(rows):
        raise ValueError(f"{len(heads)} lines for {len(rows)} boards")
    # made as they are written, when not made already: the table is never held whole
    lines = iter(heads) if heads is not None else _board_lines(
        report.results, map(attrgetter("score_ns"), rows))
    if not (several or extra):  # hand records: the lines as they are
        yield from lines
        return
    path: str | None | bool = False  # no file named yet
    for result, row, line in zip(report.results, rows, lines, strict=True):
        if several and result.path != path:
            path = result.path
            yield f"File: {path or '-'}"
        if pairs:
            played = f"{result.pairs.ns}-{result.pairs.ew}" if result.pairs else "-"
            line += f" {played:>9}"
        if matchpoints:
            line += f" {_number(row.mp_ns, 1):>8} {_number(row.pct_ns, 2):>6}"
        if butler:
            line += f" {_number(row.datum):>6} {_figure(row.imp_ns):>6}"
        if cross:
            line += f" {_number(row.cross_sum):>5} {_figure(row.imp_ns):>6}"
        yield line


def board_lines(results: Sequence[BoardResult], scores: Sequence[int | None]) -> list[str]:
    """Each result's line of the sheet's table of boards, up to its N-S score (``scores``,
    in the same order): all that a line needs of no other record. ``-j`` workers make
    them beside each other, each for its own results, rather than the parent for every
    record after the last unit, with a core idle."""
    return list(_board_lines(results, scores))


def _board_lines(results: Iterable[BoardResult],
                 scores: Iterable[int | None]) -> Iterator[str]:
    # A sheet has a line per record: names come from tables, padded to their columns,
    # not from an enum's properties and a method call per line (much of the sheet's
    # time), and the line is one %-format, not seven format calls.
    # The tables are looked up by identity: a Contract's and an Enum's hash and equality
    # are methods in Python, slow beside an int's. A contract's id stays
    # its own while ``results`` holds it, and an Enum member is one object for good.
    contracts: dict[int, str] = {id(None): "-       "}
    for result, score in zip(results, scores, strict=True):
        contract = contracts.get(id(result.contract))
        if contract is None and result.contract is not None:
            contract = contracts[id(result.contract)] = f"{result.contract.pbn():<8}"
        elif result.adjusted is not None:  # the director's award, as written
            contract = f"{result.adjusted.text:<8}"
        tricks = result.tricks
        yield _BOARD_LINE % (result.board or "-", result.room or "", contract,
                             _SEATS[id(result.declarer)], "-" if tricks is None else tricks,
                             _VULNERABILITIES[id(result.vulnerability)],
                             "-" if score is None else score)


#: a board's line up to its N-S score: board, room, contract, by, tricks, vul, score (the
#: contract, seat and vulnerability come padded)
_BOARD_LINE = "%6s %-7s %s %s %6s %s %8s"
_SEATS: dict[int, str] = {id(None): "- ", **{id(seat): f"{seat.name:<2}" for seat in Seat}}
_VULNERABILITIES: dict[int, str] = {
    id(None): "-   ", **{id(vulnerability): f"{vulnerability.pbn():<4}"
                         for vulnerability in Vulnerability}}


def _any_given(rows: Sequence[Any], name: str) -> bool:
    """Whether a row's field ``name`` is not None: one pass in C over a row per record."""
    return any(map(is_not, map(attrgetter(name), rows), repeat(None)))


def _figure(value: float | None) -> str:
    """IMPs as the event gives them: whole, or averaged to two decimals."""
    if value is None:
        return "-"
    return str(int(value)) if value == int(value) else f"{value:.2f}"


def _rankings(rankings: Sequence[Ranking]) -> Iterator[str]:
    """One table per event, section and direction, best first."""
    title: tuple[str | None, ...] | None = None
    last = {(line.event, line.section, line.direction if line.within_direction else None):
            line for line in rankings}
    for line in rankings:
        field = line.direction if line.within_direction else None
        if (line.event, line.section, field) != title:
            title = (line.event, line.section, field)
            named = " / ".join(part for part in (line.event, line.section) if part)
            way = {"NS": ", N-S", "EW": ", E-W"}.get(field or "", "")
            yield ""
            yield f"Ranking: {named or '(no event)'}{way}"
            figures = "      MP      %" if line.percentage is not None else "     IMPs"
            yield f"{'rank':>4} {'pair':>6} {'boards':>6}{figures}  names"
        figure = (f" {line.total:>7.1f} {line.percentage:>6.2f}" if line.percentage is not None
                  else f" {_figure(line.total):>8}" if line.credited is None
                  else f" {line.credited:>7.2f}*")
        yield f"{line.rank:>4} {line.id:>6} {line.boards:>6}{figure}  {line.names or ''}"
        if line is last.get((line.event, line.section, field)) and any(
                other.credited is not None for other in rankings
                if (other.event, other.section) == (line.event, line.section)):
            yield ("   * its IMPs credited with its average per board played for the "
                   "boards it sat out")


def _standings(standings: Sequence[Standing],
               unscored: Sequence[UnscoredMatch]) -> Iterator[str]:
    """One table per event and section, best first, then the event's matches that could
    not be scored (their records are all in one room): they are not in the table."""
    events: dict[tuple[str | None, str | None], list[Standing]] = {}
    for line in standings:
        events.setdefault((line.event, line.section), []).append(line)
    for (event, section), lines in events.items():
        named = " / ".join(part for part in (event, section) if part)
        yield ""
        yield f"Standings: {named or '(no event)'}"
        yield f"{'rank':>4} {'team':<20} {'matches':>7} {'IMPs +':>6} {'IMPs -':>6} {'VP':>6}"
        for line in lines:
            yield (f"{line.rank:>4} {line.team:<20} {line.matches:>7} {line.imps_for:>6} "
                   f"{line.imps_against:>6} {_number(line.vp, 2):>6}")
        yield from (f"Not scored, so not in these standings: {match.title}, boards "
                    f"{match.board_range}: {match.room} room only" for match in unscored
                    if (match.key.event, match.key.section) == (event, section))


def _match(match: Match) -> list[str]:
    key = match.key
    title = " / ".join(part for part in (key.event, key.section, key.stage, key.round) if part)
    team_a, team_b = match.teams
    teams = (f"{team_a} v {team_b}, {team_a} N-S in Open" if key.home_team and key.visit_team
             else "A = N-S in Open, B = E-W in Open")
    # Each team's IMPs in a column of its own, as on a score card; the columns are as wide
    # as the team names.
    heads = f"IMPs {team_a}", f"IMPs {team_b}"
    widths = [max(6, len(head)) for head in heads]
    head = (f"{'board':>6} {'Open NS':>8} {'Closed NS':>9} {'diff':>6} "
            f"{heads[0]:>{widths[0]}} {heads[1]:>{widths[1]}}")
    lines = [f"Team match: {title or '(no event)'} ({teams})", head, "-" * len(head)]
    for board in match.boards:
        won_a = board.imps if board.imps > 0 else ""
        won_b = -board.imps if board.imps < 0 else ""
        lines.append(f"{board.board:>6} {_number(board.open_ns, 0):>8} "
                     f"{_number(board.closed_ns, 0):>9} "
                     f"{board.adjusted or board.diff:>6} {won_a:>{widths[0]}} "
                     f"{won_b:>{widths[1]}}".rstrip())
    lines.append(f"Total IMPs: {match.verdict()}")
    if match.vp_a is not None:
        lines.append(f"Victory points: {team_a} {match.vp_a:.2f}, {team_b} {match.vp_b:.2f}")
    return lines


def _deal_label(deal: RubberDeal) -> str:
    """A deal by its board number (its record number when the Board tag is missing)."""
    name = f"Bd {deal.board}" if deal.board else f"rec {deal.index}"
    contract = deal.contract.pbn() if deal.contract else "-"
    return f"{name} {contract}" + (f" {deal.declarer.name}" if deal.declarer else "")


def _title(rubber: Rubber, several: bool) -> str:
    """``Rubber 2 (file a.pbn; unfinished; INCOMPLETE: ...)``."""
    states = [f"file {rubber.path or '-'}"] if several else []
    if not rubber.finished:
        states.append("unfinished")
    if not rubber.complete:
        states.append("INCOMPLETE: " + ", ".join(
            f"{_deal_label(deal)} not scored" for deal in rubber.unscored))
    name = "Chukker" if rubber.unit == "chukker" else "Rubber"
    return f"{name} {rubber.number}" + (f" ({'; '.join(states)})" if states else "")


def _rubber(rubber: Rubber, several: bool) -> list[str]:
    """Two columns, We (N-S) and They (E-W): bonuses above the line, tricks below it,
    a line drawn under each game."""
    width, label_width = 14, 14
    lines = [_title(rubber, several),
             f"{'':{label_width}}{'N-S':>{width}}{'E-W':>{width}}"]
    above: list[str] = []
    below: list[str] = []
    for deal in rubber.deals:
        label = _deal_label(deal)[:label_width - 1]
        if not deal.scored:
            above.append(f"{label:<{label_width}}{'?':>{width}}{'?':>{width}}  not scored")
        for entry in deal.entries:
            cells = (entry.points, "") if entry.side.value == "NS" else ("", entry.points)
            row = (f"{label:<{label_width}}{cells[0]:>{width}}{cells[1]:>{width}}  "
                   f"{entry.reason.value}")
            (above if entry.line is Line.ABOVE else below).append(row)
        if deal.game is not None:
            below.append(f"{'':{label_width}}{'-' * (2 * width)}  game {deal.game.value}")
    for entry in rubber.settlement:
        cells = (entry.points, "") if entry.side.value == "NS" else ("", entry.points)
        above.append(f"{'unfinished':<{label_width}}{cells[0]:>{width}}{cells[1]:>{width}}  "
                     f"{entry.reason.value}")
    lines += list(reversed(above))  # bonuses are written upward from the line
    lines.append("=" * (label_width + 2 * width))
    lines += below
    lines += _totals(rubber, label_width, width)
    return lines


def _chukker(rubber: Rubber, several: bool) -> list[str]:
    """A Chicago chukker: one row per deal, with its place and vulnerability, then the
    points of each side (above and below the line together: a chukker adds them all)."""
    lines = [_title(rubber, several),
             f"{'deal':>4} {'board':>6} {'dealer':<6} {'vul':<4} {'contract':<8} {'by':<2} "
             f"{'tricks':>6} {'N-S':>6} {'E-W':>6}  notes",
             "-" * 64]
    for deal in rubber.deals:
        notes = chukker_notes(deal)
        ns = _number(deal.points(Side.NS)) if deal.scored else "?"
        ew = _number(deal.points(Side.EW)) if deal.scored else "?"
        lines.append(
            f"{_number(deal.place):>4} {deal.board or '-':>6} "
            f"{deal.dealer.name if deal.dealer else '-':<6} "
            f"{deal.vulnerability.pbn() if deal.vulnerability else '-':<4} "
            f"{deal.contract.pbn() if deal.contract else '-':<8} "
            f"{deal.declarer.name if deal.declarer else '-':<2} {_number(deal.tricks):>6} "
            f"{ns:>6} {ew:>6}  {', '.join(notes)}".rstrip())
    lines += _totals(rubber, 42, 7)
    return lines


def chukker_notes(deal: RubberDeal) -> list[str]:
    """What a chukker's sheet says of a deal beside its points: a redeal, the bonuses
    (game, or the part score on deal 4), an unscored deal."""
    passed = deal.contract is not None and deal.contract.is_passed_out
    notes = ["passed out: dealt again"] if passed else []
    notes += [f"game {e.side.value}, bonus {e.points}" if e.reason is Reason.GAME
              else f"part score on deal 4, bonus {e.points}" for e in deal.entries
              if e.reason in (Reason.GAME, Reason.PART_SCORE)]
    if not deal.scored:
        notes.append("not scored")
    return notes


def _totals(rubber: Rubber, label_width: int, width: int) -> list[str]:
    """The total line and the verdict; an incomplete sheet says its totals are not final."""
    label = "total so far" if not rubber.complete else "total"
    lines = [f"{label:<{label_width}}{rubber.total_ns:>{width}}{rubber.total_ew:>{width}}"]
    if not rubber.complete:
        lines.append(f"Incomplete: {len(rubber.unscored)} deal(s) could not be scored; "
                     "these totals are not final.")
    elif rubber.winner == "draw":
        lines.append("A draw on equal totals.")
    else:
        points = ("" if rubber.rubber_points is None
                  else f" ({rubber.rubber_points} rubber points)")
        games = f"; games N-S {rubber.games_ns}, E-W {rubber.games_ew}"
        lines.append(f"{rubber.winner} wins by {rubber.margin}{points}"
                     + ("" if rubber.unit == "chukker" else games))
    return lines
