"""Unfinished contract rubbers (Law 80 of the Laws of Rubber Bridge), and rubbers that hold a deal
that cannot be scored. Every figure is worked out by hand in the comment beside it.

Law 80: 300 only when a single game has been completed (its winners score it); 100 only
when a single side has a part score in the game in progress.
"""

from __future__ import annotations

from pbnkit.model import Contract, Seat, Side
from pbnkit.scoring import BoardResult, Entry, Line, Reason, RubberProfile
from pbnkit.scoring.text import render
from pbnkit.scoring.report import ScoreReport, score_results
from tests.deals import sheet_helpers

NS, EW = Side.NS, Side.EW
A = Line.ABOVE


def deal(index: int, declarer: Seat | None, contract: str | None, tricks: int | None = None,
         board: str | None = None) -> BoardResult:
    return BoardResult(index, board if board is not None else str(index + 1), declarer,
                       None if contract is None else Contract.from_pbn(contract), tricks)


score, rubbers, _ = sheet_helpers(RubberProfile())


def test_part_scores_on_both_sides_give_nothing() -> None:
    (rubber,) = rubbers(
        deal(0, Seat.N, "2H", 8),  # N-S 2 x 30 = 60 below
        deal(1, Seat.E, "2H", 8),  # E-W 60 below
    )
    assert rubber.settlement == ()  # two part scores: neither side is the only one
    assert (rubber.total_ns, rubber.total_ew) == (60, 60)  # not 160 - 160
    assert (rubber.winner, rubber.margin) == ("draw", 0)


def test_one_game_all_gives_nothing_for_games() -> None:
    (rubber,) = rubbers(
        deal(0, Seat.N, "4S", 10),  # N-S 4 x 30 = 120: game
        deal(1, Seat.E, "3NT", 9),  # E-W 40 + 30 + 30 = 100: game, one game all
    )
    assert rubber.settlement == ()
    assert (rubber.total_ns, rubber.total_ew) == (120, 100)  # no 300 to either side
    assert rubber.warnings[-1].message == (
        "the rubber is unfinished; Law 80 gives nothing for games, one game each")


def test_one_game_all_and_a_single_part_score_gives_only_the_100() -> None:
    (rubber,) = rubbers(
        deal(0, Seat.N, "4S", 10),  # N-S 120: game
        deal(1, Seat.E, "4H", 10),  # E-W 120: game, one game all
        deal(2, Seat.W, "1NT", 7),  # E-W 40: the only part score in the third game
    )
    assert rubber.settlement == (Entry(EW, A, 100, Reason.UNFINISHED),)
    assert (rubber.total_ns, rubber.total_ew) == (120, 260)  # 120; 120 + 40 + 100


def test_the_only_game_with_part_scores_on_both_sides_gives_only_the_300() -> None:
    (rubber,) = rubbers(
        deal(0, Seat.S, "4H", 10),  # N-S 120: game
        deal(1, Seat.S, "2C", 8),  # N-S 2 x 20 = 40
        deal(2, Seat.E, "2D", 8),  # E-W 40: both sides have a part score
    )
    assert rubber.settlement == (Entry(NS, A, 300, Reason.UNFINISHED),)
    assert (rubber.total_ns, rubber.total_ew) == (460, 40)  # 120 + 40 + 300; 40


def test_a_part_score_closed_off_by_a_game_does_not_count() -> None:
    (rubber,) = rubbers(
        deal(0, Seat.E, "2S", 8),  # E-W 60 below
        deal(1, Seat.N, "4S", 10),  # N-S 120: game; E-W's 60 no longer counts toward game
    )
    assert rubber.settlement == (Entry(NS, A, 300, Reason.UNFINISHED),)
    assert (rubber.total_ns, rubber.total_ew) == (420, 60)  # 120 + 300; 60, no 100


def test_nothing_below_the_line_gives_nothing() -> None:
    (rubber,) = rubbers(
        deal(0, Seat.N, "4S", 9),  # down 1, not vulnerable: E-W 50 above
        deal(1, None, "Pass"),
    )
    assert rubber.settlement == ()
    assert (rubber.total_ns, rubber.total_ew) == (0, 50)


# -- rubbers holding a deal that cannot be scored ---------------------------------------------


def test_a_deal_without_result_marks_the_rubber_incomplete() -> None:
    sheet = score(
        deal(0, Seat.N, "4S", 10),  # N-S 120: game
        deal(1, Seat.E, "4H"),  # no result: worth an unknown figure
    )
    assert sheet.rubbers is not None
    (rubber,) = sheet.rubbers
    assert not rubber.complete
    assert [d.index for d in rubber.unscored] == [1]
    assert [(d.scored, d.entries) for d in rubber.deals][1] == (False, ())
    # the board row has no score rather than a 0 that looks real
    assert [b.score_ns for b in sheet.boards] == [120, None]
    assert [p.kind for p in rubber.warnings if p.kind != "no-honours"] == [
        "unscored-deal", "unfinished-rubber", "incomplete-rubber"]
    assert rubber.warnings[-1].message == (
        "rubber 1 is incomplete: board 2 could not be scored, so its totals are not final")


def test_incomplete_rubber_says_so_in_text_and_json() -> None:
    report = score_results([deal(0, Seat.N, "4S", 10), deal(1, Seat.E, None, board="7")],
                           "rubber")
    text = render(report)
    assert "Rubber 1 (unfinished; INCOMPLETE: Bd 7 - E not scored)" in text
    assert "total so far" in text
    assert "these totals are not final" in text
    (rubber,) = report.to_json()["rubbers"]
    assert rubber["complete"] is False
    assert [d["scored"] for d in rubber["deals"]] == [True, False]


def test_complete_rubber_is_marked_complete() -> None:
    report = score_results([deal(0, Seat.N, "4S", 10)], "rubber")
    (rubber,) = report.to_json()["rubbers"]
    assert (rubber["complete"], rubber["unit"], rubber["number"]) == (True, "rubber", 1)
    assert "INCOMPLETE" not in render(report)


# -- sheets name deals by board --------------------------------------------------------------


def test_rubber_sheet_names_deals_by_board_number() -> None:
    report = ScoreReport("rubber", (), score(
        deal(0, Seat.N, "4S", 10, board="12"),  # record 0 is board 12
        deal(1, Seat.E, "2H", 8, board=""),  # no board: named by record
    ))
    text = render(report)
    assert "Bd 12 4S N" in text
    assert "rec 1 2H E" in text
    assert "#0" not in text
