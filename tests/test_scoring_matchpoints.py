"""Matchpoints and percentages of a pairs event: Law 78A."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbnkit.model import Contract, Seat, Vulnerability
from pbnkit.rules.table_scores import Fit
from pbnkit.scoring import (
    BoardResult,
    DuplicateProfile,
    MatchpointScale,
    ScoreField,
    matchpoints,
)


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


# -- sorting and counting gives what comparing every pair gives ---------------------------------


def pairwise_points(results: list[int], position: int, win: float) -> float:
    """The reference: result ``position`` compared with every other result, one pair at
    a time."""
    mine = results[position]
    return sum(win if mine > other else win / 2 if mine == other else 0.0
               for j, other in enumerate(results) if j != position)


# few distinct scores, so that ties are common
fields = st.lists(st.sampled_from([-200, -50, 0, 110, 420, 450]), min_size=1, max_size=30)


@given(fields, st.sampled_from(list(MatchpointScale)))
def test_matchpoints_by_sorting_equal_matchpoints_by_comparing_every_pair(
    scores: list[int], scale: MatchpointScale
) -> None:
    expected = [pairwise_points(scores, i, scale.value) for i in range(len(scores))]
    assert matchpoints(scores, scale) == expected


@given(st.lists(st.tuples(st.sampled_from([-100, 0, 90, 620]), st.integers(1, 4)), min_size=1,
                max_size=12),
       st.sampled_from(list(MatchpointScale)), st.booleans())
def test_weighted_table_fit_equals_comparing_every_pair(
    rows: list[tuple[int, int]], scale: MatchpointScale, count_self: bool
) -> None:
    scores, weights = [s for s, _ in rows], [w for _, w in rows]
    fit = Fit.of(scores, weights, scale, count_self)
    # a row of weight w is w results
    results = [score for score, weight in rows for _ in range(weight)]
    count = len(results)
    assert fit.count == count
    for score in scores:
        if count < 2:
            assert fit.points_of(score) is None
            continue
        win = float(scale.value)
        points = pairwise_points(results, results.index(score), win)
        top = win * (count - 1)
        expected = (points + win / 2, top + win) if count_self else (points, top)
        assert fit.points_of(score) == expected
    assert fit.points_of(12345) is None  # nobody scored it


def test_a_large_field_of_one_board_is_matchpointed_by_sorting() -> None:
    # 20,000 results would take minutes pair by pair
    scores = [(n * 7919) % 2000 * 10 for n in range(20_000)]
    points = matchpoints(scores)
    field = ScoreField(scores)
    assert field.count == 20_000
    assert points[0] == field.points(scores[0])
    assert sum(points) == 20_000 * 19_999
