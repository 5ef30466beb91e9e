"""Victory points as the WBF publishes its 2013 continuous tables: the
formula rounded to two decimals, then corrected so that no IMP is worth more than the one
before it; and the discrete 20-point scale in whole points, as the EBU publishes it."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

import pytest

from pbnkit.scoring.teams import discrete_vp_tops, victory_points, vp_table

TAU = (math.sqrt(5) - 1) / 2


def rounded_formula(margin: int, boards: int) -> int:
    """The uncorrected value in hundredths, restated here from the WBF's formula."""
    blitz = 15 * math.sqrt(boards)
    winner = min(20.0, 10 + 10 * (1 - TAU ** (3 * margin / blitz)) / (1 - TAU ** 3))
    return int(Decimal(winner).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP) * 100)


BOARD_COUNTS = [*range(1, 65), 72, 96, 128]


@pytest.mark.parametrize("boards", BOARD_COUNTS)
def test_no_imp_is_worth_more_than_the_one_before(boards) -> None:
    table = vp_table(boards)
    steps = [later - earlier for earlier, later in zip(table, table[1:])]
    assert all(later <= earlier for earlier, later in zip(steps, steps[1:]))
    assert table[0] == 1000 and table[-1] == 2000 and 2000 not in table[:-1]


@pytest.mark.parametrize("boards", BOARD_COUNTS)
def test_the_correction_only_raises_and_only_by_hundredths(boards) -> None:
    # A raise can make the step below it grow in turn, so a long match's near-flat stretch
    # near 20 is lifted by a few hundredths: up to 0.04 at 128 boards, 0.03 at 64 or fewer.
    for margin, value in enumerate(vp_table(boards)):
        assert 0 <= value - rounded_formula(margin, boards) <= 4, (boards, margin)


def test_the_table_ends_where_the_formula_reaches_twenty() -> None:
    # 24 boards: X = 15 x sqrt(24) = 73.48, so 20.00 is reached at M = 74 (margins 0-74)
    assert len(vp_table(24)) == 75
    assert victory_points(74, 24) == victory_points(300, 24) == (20.0, 0.0)


def test_the_wbf_example_of_the_correction() -> None:
    # The WBF table: N = 24, the rounded values at M = 4, 5, 6 are 10.99, 11.22, 11.46
    # (X = 73.4847; 3M/X = 0.163299, 0.204124, 0.244949; tau to those = 0.924427,
    # 0.906443, 0.888810; 10 + 10 x (1 - that) / 0.763932 = 10.989, 11.225, 11.456).
    # Steps 0.23 then 0.24: M = 5 is raised to 11.23 (steps 0.24, 0.23).
    assert victory_points(4, 24) == (10.99, 9.01)
    assert victory_points(5, 24) == (11.23, 8.77)
    assert victory_points(-5, 24) == (8.77, 11.23)
    assert victory_points(6, 24) == (11.46, 8.54)


def test_sixteen_boards_fourteen_imps_is_raised_by_a_hundredth() -> None:
    # N = 16: X = 15 x 4 = 60, 3M/X = M/20. M = 13, 14, 15: tau^0.65 = 0.731405,
    # tau^0.70 = 0.714017, tau^0.75 = 0.697043; 10 x (1 - that) / 0.763932 = 3.51595,
    # 3.74356, 3.96576: rounded 13.52, 13.74, 13.97. Steps 0.22 then 0.23, so M = 14 becomes
    # 13.75 (steps 0.23, 0.22); M = 12 is 13.28 (the WBF table), a step of 0.24 to M = 13.
    assert victory_points(13, 16) == (13.52, 6.48)
    assert victory_points(14, 16) == (13.75, 6.25)
    assert victory_points(15, 16) == (13.97, 6.03)
    assert victory_points(12, 16) == (13.28, 6.72)


def test_a_rounded_value_whose_steps_already_shrink_is_kept() -> None:
    # N = 2: X = 15 x sqrt(2) = 21.2132; M = 6: 3M/X = 0.848528, tau^that = 0.664803,
    # 10 x 0.335197 / 0.763932 = 4.38779: 14.39, as sample_data/README.md 7.2 works it.
    assert victory_points(6, 2) == (14.39, 5.61)


def test_a_match_has_at_least_one_board() -> None:
    with pytest.raises(ValueError, match="at least one board"):
        victory_points(3, 0)


# -- The discrete scale ---------------------------------------------------------------------

R = TAU ** 3


def floored_top(whole: int, boards: int) -> int:
    """The top margin of the ``whole`` VP band before the correction, restated: where the
    uncapped formula 10 + 10 x (1 - R^(M/X)) / (1 - R) reaches whole + 0.5, rounded down."""
    blitz = 15 * math.sqrt(boards)
    return math.floor(blitz * math.log(1 - (1 - R) * (whole + 0.5 - 10) / 10) / math.log(R))


def formula(margin: int, boards: int) -> float:
    """The continuous formula, uncapped and unrounded."""
    return 10 + 10 * (1 - TAU ** (3 * margin / (15 * math.sqrt(boards)))) / (1 - R)


def discrete(margin: int, boards: int) -> float:
    return victory_points(margin, boards, "discrete")[0]


#: The EBU's 20-VP tables as published: the first IMP margin of each band from 10 VP to 20
#: VP (16 and 24 boards), and the Dutch club page's 20-board row as far as it quotes it
#: (0-1 IMPs 10, 2-5 11, 6-9 12). The last start is where 20 VP begins.
PUBLISHED = {
    16: [0, 2, 5, 9, 13, 18, 23, 29, 36, 44, 54],
    24: [0, 2, 6, 11, 16, 22, 28, 35, 44, 54, 66],
}
PUBLISHED_20_BOARDS = [(0, 1, 10), (2, 5, 11), (6, 9, 12)]


@pytest.mark.parametrize("boards", sorted(PUBLISHED))
def test_the_discrete_scale_is_the_published_one(boards) -> None:
    starts = PUBLISHED[boards]
    for whole, (first, after) in enumerate(zip(starts, starts[1:]), start=10):
        for margin in range(first, after):
            assert victory_points(margin, boards, "discrete") == (whole, 20 - whole), margin
            assert victory_points(-margin, boards, "discrete") == (20 - whole, whole), margin
    assert discrete(starts[-1], boards) == discrete(starts[-1] + 100, boards) == 20.0
    assert discrete(starts[-1] - 1, boards) == 19.0


def test_the_twenty_board_row_of_the_dutch_club_page() -> None:
    for first, last, whole in PUBLISHED_20_BOARDS:
        assert [discrete(margin, 20) for margin in range(first, last + 1)] == \
            [whole] * (last - first + 1)


def test_sixteen_boards_worked_by_hand() -> None:
    # N = 16: X = 15 x 4 = 60; R = tau^3 = 0.236068, 1 - R = 0.763932, ln R = -1.443635.
    # t_10 = floor(60 x ln(1 - 0.763932 x 0.05) / ln R) = floor(60 x ln 0.961803 / ln R)
    #      = floor(60 x -0.038945 / -1.443635) = floor(60 x 0.026977) = floor(1.6186) = 1
    # t_11 = floor(60 x ln(1 - 0.763932 x 0.15) / ln R) = floor(60 x ln 0.885410 / ln R)
    #      = floor(60 x 0.084304) = floor(5.0582) = 5
    # t_12 = floor(60 x ln 0.809017 / ln R) = floor(60 x 0.146807) = floor(8.8084) = 8
    # t_13 = floor(60 x ln 0.732624 / ln R) = floor(60 x 0.215514) = floor(12.9308) = 12
    # Bands: draw -1..1 (3 margins), 11 VP 2-5 (4), 12 VP 6-8 (3), 13 VP 9-12 (4). The 12
    # VP band is narrower than the 11 VP one, so t_11 is lowered to 4: 11 VP 2-4 (3, not
    # narrower than the draw's 3), 12 VP 5-8 (4), 13 VP 9-12 (4), as the EBU prints it.
    assert [floored_top(whole, 16) for whole in (10, 11, 12, 13)] == [1, 5, 8, 12]
    assert discrete_vp_tops(16)[:4] == (1, 4, 8, 12)
    assert [discrete(margin, 16) for margin in (0, 1, 2, 4, 5, 8, 9, 12)] == \
        [10, 10, 11, 11, 12, 12, 13, 13]
    assert victory_points(-5, 16, "discrete") == (8.0, 12.0)


def test_without_the_correction_the_published_eleven_vp_bands_are_missed() -> None:
    # Floor alone makes 16 boards' 11 VP band 2-5 and 24 boards' 2-6; the EBU prints 2-4
    # and 2-5 (PUBLISHED): 5 IMPs over 16 boards and 6 over 24 are worth 12, not 11.
    assert floored_top(11, 16) == 5 and floored_top(11, 24) == 6
    assert discrete(5, 16) == discrete(6, 24) == 12.0


@pytest.mark.parametrize("boards", range(1, 65))
def test_discrete_bands_widen_and_the_points_are_whole_and_share_twenty(boards) -> None:
    # t_19 = floor(X x ln(1 - (1 - R) x 0.95) / ln R) = floor(X x 0.896114) < X = 15 x sqrt(N),
    # which is 120 at 64 boards: a margin of 120 is worth 20 for every N here
    margins = range(0, 121)
    points = [victory_points(margin, boards, "discrete") for margin in margins]
    assert points[0] == (10.0, 10.0) and points[-1] == (20.0, 0.0)
    assert all(winner + loser == 20 and winner == int(winner) for winner, loser in points)
    assert all(victory_points(-m, boards, "discrete") == points[m][::-1] for m in margins)
    winners = [winner for winner, _ in points]
    assert winners == sorted(winners)
    # every VP from 10 to 20 is reached, and no band is narrower than the one below it
    widths = [2 * winners.count(10.0) - 1] + [winners.count(float(whole))
                                              for whole in range(11, 20)]
    assert all(width >= 1 for width in widths)
    assert all(later >= earlier for earlier, later in zip(widths, widths[1:]))
    # the correction only lowers a top: the formula is still at most whole + 0.5 there
    for whole, top in enumerate(discrete_vp_tops(boards), start=10):
        assert top <= floored_top(whole, boards)
        assert formula(top, boards) <= whole + 0.5 < formula(floored_top(whole, boards) + 1,
                                                             boards)


def test_an_unknown_scale_is_refused() -> None:
    with pytest.raises(ValueError, match="continuous or discrete"):
        victory_points(3, 16, "quarter")
    with pytest.raises(ValueError, match="at least one board"):
        victory_points(3, 0, "discrete")
