"""Matchpoints and percentages of a pairs event: RULES.md section 3.4."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbnkit.model import Contract, Seat, Vulnerability
from pbnkit.scoring import BoardResult, DuplicateProfile, MatchpointScale, matchpoints


def test_mp1_gives_2_per_score_beaten_and_1_per_tie() -> None:
    # 420 beats 170 and -50 (2+2) and ties the other 420 (1): 5
    # 170 beats -50 (2): 2; -50 beats nothing: 0
    assert matchpoints([420, 170, 420, -50]) == [5, 2, 5, 0]


def test_mp2_gives_1_per_score_beaten_and_a_half_per_tie() -> None:
    # 420: 1 + 1 + 0.5 = 2.5; 170: 1; -50: 0
    assert matchpoints([420, 170, 420, -50], MatchpointScale.MP2) == [2.5, 1, 2.5, 0]


def pair_result(index: int, declarer: Seat, contract: str, tricks: int,
                board: str = "1") -> BoardResult:
    return BoardResult(index, board, declarer, Contract.from_pbn(contract), tricks,
                       Vulnerability.NONE)


FIELD = [
    pair_result(0, Seat.N, "4S", 10),  # +420
    pair_result(1, Seat.N, "3S", 10),  # +170
    pair_result(2, Seat.S, "4S", 10),  # +420
    pair_result(3, Seat.N, "4S", 9),  # down 1: -50
]


def test_pairs_board_gets_matchpoints_and_percentages_for_both_directions() -> None:
    boards = DuplicateProfile().score(FIELD).boards
    # top: 2 * (4 - 1) = 6
    assert [b.mp_ns for b in boards] == [5, 2, 5, 0]
    assert [b.mp_ew for b in boards] == [1, 4, 1, 6]  # 6 - mp_ns
    assert [b.pct_ns for b in boards] == pytest.approx([500 / 6, 200 / 6, 500 / 6, 0])
    assert [b.pct_ew for b in boards] == pytest.approx([100 / 6, 400 / 6, 100 / 6, 100])


def test_profile_uses_mp2_when_asked() -> None:
    boards = DuplicateProfile(MatchpointScale.MP2).score(FIELD).boards
    # top: 1 * (4 - 1) = 3
    assert [b.mp_ns for b in boards] == [2.5, 1, 2.5, 0]
    assert [b.pct_ns for b in boards] == pytest.approx([250 / 3, 100 / 3, 250 / 3, 0])


def test_board_played_once_gets_no_matchpoints() -> None:
    boards = DuplicateProfile().score(FIELD + [pair_result(4, Seat.E, "2H", 8, "2")]).boards
    assert boards[4].score_ns == -110  # 60 + 50 to E-W
    assert (boards[4].mp_ns, boards[4].pct_ns) == (None, None)


def test_boards_of_a_team_match_get_no_matchpoints() -> None:
    results = [
        BoardResult(0, "1", Seat.N, Contract.from_pbn("4S"), 10, room="Open"),
        BoardResult(1, "1", Seat.N, Contract.from_pbn("3S"), 10, room="Closed"),
    ]
    assert [b.mp_ns for b in DuplicateProfile().score(results).boards] == [None, None]


@given(st.lists(st.integers(-50, 50).map(lambda n: n * 10), min_size=2, max_size=12),
       st.sampled_from(list(MatchpointScale)))
def test_matchpoints_on_a_board_add_up_to_all_comparisons(
    scores: list[int], scale: MatchpointScale
) -> None:
    # each pair of scores shares one comparison's worth of points
    count = len(scores)
    assert sum(matchpoints(scores, scale)) == scale.value * count * (count - 1) / 2
