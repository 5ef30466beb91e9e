"""Victory points as the WBF publishes its 2013 continuous tables (RULES.md 3.4): the
formula rounded to two decimals, then corrected so that no IMP is worth more than the one
before it."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

import pytest

from pbnkit.scoring.teams import victory_points, vp_table

TAU = (math.sqrt(5) - 1) / 2


def rounded_formula(margin: int, boards: int) -> int:
    """The uncorrected value in hundredths, restated here from RULES.md 3.4."""
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
    # RULES.md 3.4: N = 24, the rounded values at M = 4, 5, 6 are 10.99, 11.22, 11.46
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
    # 13.75 (steps 0.23, 0.22); M = 12 is 13.28 (RULES.md), a step of 0.24 to M = 13.
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
