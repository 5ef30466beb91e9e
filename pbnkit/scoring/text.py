"""The readable score sheet ``pbnkit score`` prints: a table of boards, IMPs per board for
team matches, and the classic two-column rubber sheet with the line."""

from __future__ import annotations

from collections.abc import Iterator

from pbnkit.scoring.base import Line, Match, Rubber
from pbnkit.scoring.report import ScoreReport, joined


def _number(value: float | int | None, digits: int = 0) -> str:
    if value is None:
        return "-"
    return f"{value:.{digits}f}" if digits else str(value)


def render(report: ScoreReport) -> str:
    """The whole sheet as one string."""
    return "".join(pieces(report))


def pieces(report: ScoreReport, lines: int = 1000) -> Iterator[str]:
    """The sheet in pieces of ``lines`` lines, each line ending in a newline, so that a
    long sheet can be written as it is made rather than held whole."""
    return joined((line + "\n" for line in _lines(report)), lines)


def _lines(report: ScoreReport) -> Iterator[str]:
    yield f"Profile: {report.profile}"
    yield from (f"Note: {note}" for note in report.sheet.notes)
    if report.sheet.rubbers is None:
        yield ""
        yield from _boards(report)
    for match in report.sheet.matches or ():
        yield ""
        yield from _match(match)
    for rubber in report.sheet.rubbers or ():
        yield ""
        yield from _rubber(rubber)
    problems = report.sheet.all_problems
    if problems:
        yield from ("", "Not scored or worth a look:")
        yield from (f"  record {p.index}" + (f" (board {p.board})" if p.board else "")
                    + f": {p.message}" for p in problems)


def _boards(report: ScoreReport) -> Iterator[str]:
    pairs = any(row.mp_ns is not None for row in report.sheet.boards)
    head = f"{'board':>6} {'room':<7} {'contract':<8} {'by':<2} {'tricks':>6} {'vul':<4} {'NS score':>8}"
    yield head + ("    MP NS   % NS" if pairs else "")
    yield "-" * (len(head) + (16 if pairs else 0))
    for result, row in zip(report.results, report.sheet.boards):
        line = (f"{result.board or '-':>6} {result.room or '':<7} "
                f"{result.contract.pbn() if result.contract else '-':<8} "
                f"{result.declarer.name if result.declarer else '-':<2} "
                f"{_number(result.tricks):>6} "
                f"{result.vulnerability.pbn() if result.vulnerability else '-':<4} "
                f"{_number(row.score_ns):>8}")
        if pairs:
            line += f" {_number(row.mp_ns, 1):>8} {_number(row.pct_ns, 2):>6}"
        yield line


def _match(match: Match) -> list[str]:
    key = match.key
    title = " / ".join(part for part in (key.event, key.section, key.stage, key.round) if part)
    teams = f"A = {key.home_team or 'N-S in Open'}, B = {key.visit_team or 'E-W in Open'}"
    lines = [f"Team match: {title or '(no event)'} ({teams})",
             f"{'board':>6} {'Open NS':>8} {'Closed NS':>9} {'diff':>6} {'IMPs A':>6}",
             "-" * 39]
    for board in match.boards:
        lines.append(f"{board.board:>6} {board.open_ns:>8} {board.closed_ns:>9} "
                     f"{board.diff:>6} {board.imps:>+6}")
    verdict = {"A": "team A wins", "B": "team B wins", "draw": "a draw", None: "no board compared"}
    lines.append(f"Total: A {match.imps_a} IMPs, B {match.imps_b} IMPs: {verdict[match.winner]}")
    return lines


def _rubber(rubber: Rubber) -> list[str]:
    """Two columns, We (N-S) and They (E-W): bonuses above the line, tricks below it,
    a line drawn under each game."""
    width = 14
    lines = [f"Rubber {rubber.number}" + ("" if rubber.finished else " (unfinished)"),
             f"{'':>14}{'N-S':>{width}}{'E-W':>{width}}"]
    above: list[str] = []
    below: list[str] = []
    for deal in rubber.deals:
        label = f"#{deal.index} {deal.contract.pbn() if deal.contract else '-'}"
        label += f" {deal.declarer.name}" if deal.declarer else ""
        for entry in deal.entries:
            cells = (entry.points, "") if entry.side.value == "NS" else ("", entry.points)
            row = f"{label[:13]:<14}{cells[0]:>{width}}{cells[1]:>{width}}  {entry.reason.value}"
            (above if entry.line is Line.ABOVE else below).append(row)
        if deal.game is not None:
            below.append(f"{'':14}{'-' * (2 * width)}  game {deal.game.value}")
    for entry in rubber.settlement:
        cells = (entry.points, "") if entry.side.value == "NS" else ("", entry.points)
        above.append(f"{'unfinished':<14}{cells[0]:>{width}}{cells[1]:>{width}}  {entry.reason.value}")
    lines += list(reversed(above))  # bonuses are written upward from the line
    lines.append("=" * (14 + 2 * width))
    lines += below
    lines.append(f"{'total':<14}{rubber.total_ns:>{width}}{rubber.total_ew:>{width}}")
    if rubber.winner == "draw":
        lines.append("A draw on equal totals.")
    else:
        points = f" ({rubber.rubber_points} rubber points)" if rubber.rubber_points is not None else ""
        lines.append(f"{rubber.winner} wins by {rubber.margin}{points}; games "
                     f"N-S {rubber.games_ns}, E-W {rubber.games_ew}")
    return lines
