"""The WBF IMP scale and the two-room team match: Law 78B of the Laws of Duplicate Bridge."""

from __future__ import annotations

import csv
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbnkit.model import Contract, Seat, Vulnerability
from pbnkit.scoring import BoardResult, DuplicateProfile, MatchKey, imps

ORACLES = Path(__file__).resolve().parents[1].parent / "shared" / "oracles"

# Every band of the scale as the WBF prints it: (lowest, highest, IMPs).
BANDS = [
    (0, 10, 0), (20, 40, 1), (50, 80, 2), (90, 120, 3), (130, 160, 4), (170, 210, 5),
    (220, 260, 6), (270, 310, 7), (320, 360, 8), (370, 420, 9), (430, 490, 10),
    (500, 590, 11), (600, 740, 12), (750, 890, 13), (900, 1090, 14), (1100, 1290, 15),
    (1300, 1490, 16), (1500, 1740, 17), (1750, 1990, 18), (2000, 2240, 19),
    (2250, 2490, 20), (2500, 2990, 21), (3000, 3490, 22), (3500, 3990, 23),
]


def test_difference_of_250_is_6_imps() -> None:
    assert imps(250) == 6  # 220-260 -> 6


@pytest.mark.parametrize(("lowest", "highest", "won"), BANDS)
def test_both_ends_of_each_band(lowest: int, highest: int, won: int) -> None:
    assert imps(lowest) == won
    assert imps(highest) == won
    assert imps(-highest) == -won


def test_4000_and_more_is_24_imps() -> None:
    assert imps(4000) == 24
    assert imps(7600) == 24
    assert imps(-4000) == -24


def test_scale_matches_the_oracle() -> None:
    path = ORACLES / "imps.csv"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 501  # 0-5000 in steps of 10
    assert [(int(r["diff"]), imps(int(r["diff"]))) for r in rows] == [
        (int(r["diff"]), int(r["imps"])) for r in rows
    ]


@given(st.integers(-10_000, 10_000))
def test_imps_are_antisymmetric(difference: int) -> None:
    assert imps(-difference) == -imps(difference)


@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_a_bigger_difference_never_wins_fewer_imps(a: int, b: int) -> None:
    low, high = sorted((a, b))
    assert 0 <= imps(low) <= imps(high) <= 24


# -- the team match --------------------------------------------------------------------------

SEED_MATCH = MatchKey(event="Home match", home_team="A", visit_team="B")


def played(index: int, board: str, room: str, declarer: Seat, contract: str, tricks: int,
           key: MatchKey = SEED_MATCH) -> BoardResult:
    number = int(board)
    return BoardResult(
        index, board, declarer, Contract.from_pbn(contract), tricks,
        Vulnerability.for_board(number), room=room, match_key=key,
    )


def test_seed_example_gives_6_imps_to_team_a() -> None:
    sheet = DuplicateProfile().score([
        played(0, "1", "Open", Seat.N, "4S", 10),  # team A N-S: 4*30 + 300 = +420
        played(1, "1", "Closed", Seat.N, "3S", 10),  # team B N-S: 3*30 + 30 + 50 = +170
    ])
    assert sheet.matches is not None
    (match,) = sheet.matches
    (board,) = match.boards
    assert (board.open_ns, board.closed_ns) == (420, 170)
    assert board.diff == 250  # 420 - 170
    assert board.imps == 6  # 220-260
    assert (match.imps_a, match.imps_b, match.winner) == (6, -6, "A")


def test_four_board_match_totals_signed_imps_and_names_the_winner() -> None:
    sheet = DuplicateProfile().score([
        played(0, "1", "Open", Seat.N, "4S", 10),  # +420 (None vul)
        played(1, "1", "Closed", Seat.N, "3S", 10),  # +170: diff 250, +6
        played(2, "2", "Open", Seat.N, "4HX", 8),  # N-S vul, down 2 doubled: -(200+300) = -500
        played(3, "2", "Closed", Seat.N, "4H", 9),  # N-S vul, down 1: -100; diff -400, -9
        played(4, "3", "Open", Seat.E, "3NT", 9),  # E-W vul: -(100 + 500) = -600
        played(5, "3", "Closed", Seat.W, "3NT", 9),  # -600 as well: diff 0, 0
        played(6, "4", "Closed", Seat.S, "1NT", 7),  # all vul: +90
        played(7, "4", "Open", Seat.E, "2S", 8),  # -(60 + 50) = -110; diff -110 - 90 = -200, -5
    ])
    assert sheet.matches is not None
    (match,) = sheet.matches
    assert [(b.board, b.diff, b.imps) for b in match.boards] == [
        ("1", 250, 6), ("2", -400, -9), ("3", 0, 0), ("4", -200, -5),
    ]
    assert match.imps_a == -8  # 6 - 9 + 0 - 5
    assert match.imps_b == 8
    assert match.winner == "B"
    assert match.problems == ()
    # each team's IMPs as its score card adds them: A won 6 on board 1, B 9 + 5 = 14
    assert (match.won_a, match.won_b) == (6, 14)
    assert match.verdict() == "A 6, B 14: B win by 8"  # the teams are named "A" and "B"


def test_a_match_without_team_names_calls_the_teams_a_and_b() -> None:
    unnamed = MatchKey(event="Club teams")
    sheet = DuplicateProfile().score([
        played(0, "1", "Open", Seat.N, "4S", 10, unnamed),  # +420
        played(1, "1", "Closed", Seat.N, "3S", 10, unnamed),  # +170: diff 250, +6 to A
    ])
    (match,) = sheet.matches or ()
    assert match.teams == ("A", "B")
    assert match.verdict() == "A 6, B 0: team A wins by 6"


def test_a_level_match_reads_as_a_draw() -> None:
    sheet = DuplicateProfile().score([
        played(0, "1", "Open", Seat.N, "4S", 10),  # +420
        played(1, "1", "Closed", Seat.N, "3S", 10),  # +170: +6 to A
        played(2, "8", "Open", Seat.N, "3S", 10),  # +170
        played(3, "8", "Closed", Seat.N, "4S", 10),  # +420: +6 to B
    ])
    (match,) = sheet.matches or ()
    assert match.verdict() == "A 6, B 6: a draw"


def test_level_match_is_a_draw() -> None:
    sheet = DuplicateProfile().score([
        played(0, "1", "Open", Seat.N, "4S", 10),  # +420
        played(1, "1", "Closed", Seat.N, "3S", 10),  # +170: diff 250, +6
        played(2, "8", "Open", Seat.N, "3S", 10),  # board 8 none vul: +170
        played(3, "8", "Closed", Seat.N, "4S", 10),  # +420: diff -250, -6
    ])
    assert sheet.matches is not None
    (match,) = sheet.matches
    assert match.imps_a == 0  # 6 - 6
    assert match.winner == "draw"


def test_board_in_one_room_only_or_twice_in_a_room_is_reported_and_left_out() -> None:
    sheet = DuplicateProfile().score([
        played(0, "1", "Open", Seat.N, "4S", 10),  # +420
        played(1, "1", "Closed", Seat.N, "3S", 10),  # +170: +6
        played(2, "2", "Open", Seat.N, "4H", 10),  # no Closed result
        played(3, "3", "Closed", Seat.N, "1NT", 7),
        played(4, "3", "Closed", Seat.N, "2NT", 8),  # two Closed results, no guessing
        played(5, "3", "Open", Seat.N, "1NT", 7),
    ])
    assert sheet.matches is not None
    (match,) = sheet.matches
    assert [b.board for b in match.boards] == ["1"]
    assert match.imps_a == 6
    assert [(p.kind, p.board, p.index) for p in match.problems] == [
        ("one-room-only", "2", 2), ("repeated-in-room", "3", 4),
    ]


def test_a_single_table_result_is_never_converted_to_imps() -> None:
    # Records of one room only are no team match: no match, and no board to compare.
    sheet = DuplicateProfile().score([played(0, "1", "Open", Seat.N, "4S", 10)])
    assert sheet.matches == ()
    assert [p.kind for p in sheet.all_problems] == ["one-room-match"]
    assert sheet.boards[0].score_ns == 420  # still scored as a board


def test_records_of_the_open_room_only_make_no_team_match_but_one_problem() -> None:
    sheet = DuplicateProfile().score([
        played(0, "1", "Open", Seat.N, "4S", 10, replace(SEED_MATCH, round="2")),  # +420
        played(1, "2", "Open", Seat.N, "3S", 10, replace(SEED_MATCH, round="2")),  # +170
        played(2, "3", "Open", Seat.N, "3S", 10, replace(SEED_MATCH, round="2")),
    ])
    assert sheet.matches == ()
    # 3S+1 at board 3 (E-W vulnerable, N-S not): 90 + 30 + 50 = 170
    assert [b.score_ns for b in sheet.boards] == [420, 170, 170]
    # one problem for the match, not one per board, at its first record
    (unscored,) = sheet.unscored_matches
    assert (unscored.room, unscored.boards, unscored.board_range) == ("Open", ("1", "2", "3"),
                                                                      "1-3")
    (problem,) = sheet.all_problems
    assert (problem.kind, problem.index, problem.board) == ("one-room-match", 0, None)
    assert problem.message == ("team match Home match / 2 (A v B) is not scored: its 3 boards "
                               "(1-3) were played in the Open room only, so no board can be "
                               "compared")


def test_a_match_whose_closed_room_lacks_every_board_is_listed_beside_the_others() -> None:
    played_out = replace(SEED_MATCH, round="1")
    closed_only = replace(SEED_MATCH, round="2", home_team="C", visit_team="D")
    sheet = DuplicateProfile().score([
        played(0, "1", "Open", Seat.N, "4S", 10, played_out),  # +420
        played(1, "1", "Closed", Seat.N, "3S", 10, played_out),  # +170: +6
        played(2, "5", "Closed", Seat.N, "4S", 10, closed_only),
        played(3, "7", "Closed", Seat.N, "4S", 10, closed_only),
    ])
    assert [m.key for m in sheet.matches or ()] == [played_out]
    assert [(u.key, u.room, u.board_range) for u in sheet.unscored_matches] == [
        (closed_only, "Closed", "5, 7")]
    assert [(p.kind, p.index) for p in sheet.all_problems] == [("one-room-match", 2)]


def test_records_of_different_events_make_different_matches() -> None:
    other = MatchKey(event="Home match", round="2", home_team="A", visit_team="B")
    sheet = DuplicateProfile().score([
        played(0, "1", "Open", Seat.N, "4S", 10),  # +420
        played(1, "1", "Open", Seat.N, "3S", 10, other),  # +170
        played(2, "1", "Closed", Seat.N, "3S", 10),  # +170: first match 250, +6
        played(3, "1", "Closed", Seat.N, "4S", 10, other),  # +420: second match -250, -6
    ])
    assert sheet.matches is not None
    assert [(m.key, m.imps_a) for m in sheet.matches] == [(SEED_MATCH, 6), (other, -6)]


def test_room_other_than_open_or_closed_is_reported() -> None:
    sheet = DuplicateProfile().score([played(0, "1", "Lounge", Seat.N, "4S", 10)])
    assert [(p.kind, p.index) for p in sheet.problems] == [("unknown-room", 0)]
    assert sheet.matches == ()
