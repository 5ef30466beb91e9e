"""Auction bridge 1920 (profile ``auction-1920``), the New York Whist Club's code, on
hand-built rubbers.

Trick values v: C 6, D 7, H 8, S 9, NT 10.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbnkit.model import DECK, Card, Contract, Deal, Hand, Seat, Side, Vulnerability
from pbnkit.scoring import (
    Auction1920Profile,
    BoardResult,
    Entry,
    Hands,
    Line,
    Reason,
)
from tests.deals import deal_with, sheet_helpers

NS, EW = Side.NS, Side.EW
A, B = Line.ABOVE, Line.BELOW


def deal(index: int, declarer: Seat | None, contract: str, tricks: int | None = None,
         hands: Deal | None = None, vulnerability: Vulnerability | None = None) -> BoardResult:
    return BoardResult(index, str(index + 1), declarer, Contract.from_pbn(contract), tricks,
                       vulnerability, Hands.of(hands))


score, rubbers, entries = sheet_helpers(Auction1920Profile())


# -- the seeds' worked examples --------------------------------------------------------------


def test_one_spade_with_ten_tricks_scores_36_below_and_a_game() -> None:
    (rubber,) = rubbers(deal(0, Seat.N, "1S", 10))
    assert rubber.deals[0].entries == (Entry(NS, B, 36, Reason.TRICKS),)  # (10-6)*9
    assert rubber.deals[0].game is NS  # 36 >= 30


def test_one_heart_doubled_with_nine_tricks_scores_48_below_and_150_above() -> None:
    assert entries(deal(0, Seat.N, "1HX", 9)) == [
        Entry(NS, B, 48, Reason.TRICKS),  # (9-6)*8*2
        Entry(NS, A, 50, Reason.INSULT),  # 50 for making it doubled
        Entry(NS, A, 100, Reason.OVERTRICKS),  # 2*50: two tricks over the contract
    ]


# -- what one deal is worth ------------------------------------------------------------------


def test_redoubled_contract_made_scores_four_times_and_100_per_trick_over() -> None:
    assert entries(deal(0, Seat.E, "1CXX", 8)) == [
        Entry(EW, B, 48, Reason.TRICKS),  # (8-6)*6*4
        Entry(EW, A, 100, Reason.INSULT),  # 100 for making it redoubled
        Entry(EW, A, 100, Reason.OVERTRICKS),  # 1*100
    ]


def test_failed_contract_scores_nothing_below_even_with_more_than_six_tricks() -> None:
    assert entries(deal(0, Seat.N, "4S", 9)) == [Entry(EW, A, 50, Reason.UNDERTRICKS)]  # 1*50


@pytest.mark.parametrize(("contract", "tricks", "penalty"), [
    ("3NT", 7, 100),  # 2*50
    ("4SX", 8, 200),  # 2*100
    ("2DXX", 6, 400),  # 2*200
])
def test_undertricks_score_50_100_200_to_the_defenders(
    contract: str, tricks: int, penalty: int
) -> None:
    assert entries(deal(0, Seat.S, contract, tricks)) == [
        Entry(EW, A, penalty, Reason.UNDERTRICKS),
    ]


def test_slam_made_by_declarer_needs_no_bid() -> None:
    assert entries(deal(0, Seat.N, "1NT", 13)) == [
        Entry(NS, B, 70, Reason.TRICKS),  # (13-6)*10
        Entry(NS, A, 100, Reason.SLAM),  # grand slam: 13 tricks won
    ]


def test_little_slam_is_not_doubled() -> None:
    assert entries(deal(0, Seat.N, "6SX", 12)) == [
        Entry(NS, B, 108, Reason.TRICKS),  # (12-6)*9*2
        Entry(NS, A, 50, Reason.INSULT),  # made doubled, no trick over
        Entry(NS, A, 50, Reason.SLAM),  # 50, doubling never multiplies slams
    ]


def test_defenders_who_win_twelve_tricks_score_the_little_slam() -> None:
    assert entries(deal(0, Seat.N, "2C", 1)) == [
        Entry(EW, A, 350, Reason.UNDERTRICKS),  # 8 needed, 1 won: 7*50
        Entry(EW, A, 50, Reason.SLAM),  # E-W won 13-1 = 12
    ]


def test_defenders_who_win_all_thirteen_tricks_score_the_grand_slam() -> None:
    assert entries(deal(0, Seat.W, "1NT", 0)) == [
        Entry(NS, A, 350, Reason.UNDERTRICKS),  # 7*50
        Entry(NS, A, 100, Reason.SLAM),  # N-S won 13
    ]


def test_seven_notrump_down_one_keeps_the_little_slam() -> None:
    assert entries(deal(0, Seat.N, "7NT", 12)) == [
        Entry(EW, A, 50, Reason.UNDERTRICKS),  # 1*50
        Entry(NS, A, 50, Reason.SLAM),  # N-S won 12
    ]


# -- honours: one row of the table, never summed ---------------------------------------------


@pytest.mark.parametrize(("placed", "contract", "side", "points"), [
    # 3 held by one side, however they lie: 2v
    ({"N": "HA HK", "S": "HQ", "E": "HJ", "W": "HT"}, "2H", NS, 16),  # 2*8
    ({"N": "HA HK HQ", "E": "HJ HT"}, "2H", NS, 16),  # 2*8
    ({"N": "SA SK", "E": "SQ SJ", "W": "ST"}, "2S", EW, 18),  # E-W hold 3: 2*9
    # 4 split between the partners: 4v
    ({"N": "DA DK", "S": "DQ DJ", "E": "DT"}, "2D", NS, 28),  # 4*7
    ({"N": "DA DK DQ", "S": "DJ", "W": "DT"}, "2D", NS, 28),  # 4*7
    # 4 in one hand: 8v
    ({"E": "SA SK SQ SJ", "N": "ST"}, "2S", EW, 72),  # 8*9, the seed's example
    # all 5, 3 + 2: 5v
    ({"W": "CA CK CQ", "E": "CJ CT"}, "2C", EW, 30),  # 5*6
    # all 5, 4 + 1: 9v
    ({"S": "HA HK HQ HJ", "N": "HT"}, "2H", NS, 72),  # 9*8
    # all 5 in one hand: 10v
    ({"N": "DA DK DQ DJ DT"}, "2D", NS, 70),  # 10*7
    # no trumps: the aces
    ({"N": "SA HA", "S": "DA", "E": "CA"}, "2NT", NS, 30),  # 3 aces
    ({"N": "SA HA DA", "W": "CA"}, "2NT", NS, 30),  # 3 aces in one hand still 30
    ({"N": "SA HA", "S": "DA CA"}, "2NT", NS, 40),  # all 4 split
    ({"W": "SA HA DA CA"}, "2NT", EW, 100),  # all 4 in one hand
])
def test_honours_table(placed: dict[str, str], contract: str, side: Side, points: int) -> None:
    found = entries(deal(0, Seat.N, contract, 8, deal_with(**placed)))
    assert [e for e in found if e.reason is Reason.HONOURS] == [
        Entry(side, A, points, Reason.HONOURS),
    ]


def test_aces_split_two_and_two_score_no_honours() -> None:
    found = entries(deal(0, Seat.N, "1NT", 7, deal_with(N="SA HA", E="DA CA")))
    assert found == [Entry(NS, B, 10, Reason.TRICKS)]  # (7-6)*10, no honours


def test_honours_score_even_when_the_contract_fails() -> None:
    found = entries(deal(0, Seat.N, "4S", 8, deal_with(N="SA SK SQ SJ ST")))
    assert found == [
        Entry(EW, A, 100, Reason.UNDERTRICKS),  # 2*50
        Entry(NS, A, 90, Reason.HONOURS),  # 10*9
    ]


def test_unknown_deal_scores_no_honours_and_says_so() -> None:
    (rubber,) = rubbers(deal(0, Seat.N, "1S", 7))
    assert [w.kind for w in rubber.warnings[:1]] == ["no-honours"]


# -- games and rubbers -----------------------------------------------------------------------


def test_three_games_from_part_scores_and_the_250_rubber_bonus() -> None:
    (rubber,) = rubbers(
        deal(0, Seat.N, "2H", 8),  # N-S 16 below
        deal(1, Seat.N, "1S", 8),  # N-S 18: 16 + 18 = 34, game
        deal(2, Seat.E, "1D", 7),  # E-W 7
        deal(3, Seat.E, "3C", 10),  # E-W 24: 7 + 24 = 31, game
        deal(4, Seat.N, "2NT", 9),  # N-S 30: game, the second
    )
    assert [d.game for d in rubber.deals] == [None, NS, None, EW, NS]
    assert rubber.finished
    assert rubber.deals[-1].entries[-1] == Entry(NS, A, 250, Reason.RUBBER)
    assert (rubber.below_ns, rubber.above_ns, rubber.total_ns) == (64, 250, 314)  # 16+18+30
    assert rubber.total_ew == 31  # 7 + 24
    assert (rubber.winner, rubber.margin) == ("NS", 283)  # 314 - 31
    assert rubber.rubber_points is None


def test_excess_below_does_not_carry_into_the_next_game() -> None:
    (rubber,) = rubbers(
        deal(0, Seat.N, "1S", 13),  # (13-6)*9 = 63: one game only
        deal(1, Seat.N, "1C", 8),  # (8-6)*6 = 12 in the new game: no game
    )
    assert [d.game for d in rubber.deals] == [NS, None]
    assert rubber.games_ns == 1


def test_equal_totals_draw_and_the_next_rubber_may_stay_unfinished() -> None:
    first, second = rubbers(
        deal(0, Seat.N, "4SX", 7),  # down 3 doubled: E-W 3*100 = 300
        deal(1, Seat.N, "1NT", 10, deal_with(E="SA HA", W="DA", N="CA")),  # N-S 40 game; E-W 30
        deal(2, Seat.S, "1NT", 10, deal_with(N="SA HA", E="DA CA")),  # N-S 40 game, rubber 250
        deal(3, Seat.E, "1NT", 7),  # new rubber: E-W 10, then the file ends
    )
    assert first.finished
    assert (first.total_ns, first.total_ew) == (330, 330)  # 40 + 40 + 250; 300 + 30
    assert (first.winner, first.margin) == ("draw", 0)
    assert not second.finished
    assert second.settlement == ()  # no bonus for an unfinished rubber
    assert (second.total_ew, second.winner) == (10, "EW")
    assert second.warnings[-1].kind == "unfinished-rubber"


def test_side_with_two_games_can_lose_the_rubber_on_points() -> None:
    (rubber,) = rubbers(
        deal(0, Seat.N, "1NT", 10),  # N-S 40: game
        deal(1, Seat.N, "7SXX", 6),  # down 7 redoubled: E-W 7*200 = 1400
        deal(2, Seat.N, "1NT", 10),  # N-S 40: game, rubber 250
    )
    assert (rubber.games_ns, rubber.total_ns, rubber.total_ew) == (2, 330, 1400)
    assert (rubber.winner, rubber.margin) == ("EW", 1070)  # 1400 - 330


def test_there_is_no_vulnerability_and_a_tag_claiming_one_is_reported() -> None:
    (rubber,) = rubbers(
        deal(0, Seat.N, "1S", 10, vulnerability=Vulnerability.NONE),
        deal(1, Seat.N, "1S", 6, vulnerability=Vulnerability.NS),  # down 1: 50, never 100
    )
    assert [d.vulnerability for d in rubber.deals] == [None, None]
    assert rubber.deals[1].entries == (Entry(EW, A, 50, Reason.UNDERTRICKS),)
    assert [w.index for w in rubber.warnings if w.kind == "vulnerability-mismatch"] == [1]


def test_passed_out_deals_are_listed_and_score_nothing() -> None:
    sheet = score(deal(0, None, "Pass"), deal(1, Seat.N, "1S", 7))
    (rubber,) = sheet.rubbers or ()
    assert [(d.index, d.entries) for d in rubber.deals] == [
        (0, ()), (1, (Entry(NS, B, 9, Reason.TRICKS),)),  # (7-6)*9
    ]
    assert [b.score_ns for b in sheet.boards] == [0, 9]


@given(st.permutations(DECK), st.sampled_from(["1C", "1D", "1H", "1S"]))
def test_one_side_always_scores_trump_honours(cards: list[Card], contract: str) -> None:
    # five honours between two sides: one side always holds three or more
    north, east, south, west = (Hand(tuple(cards[i::4])) for i in range(4))
    found = entries(deal(0, Seat.N, contract, 7, Deal((north, east, south, west))))
    assert len([e for e in found if e.reason is Reason.HONOURS]) == 1


@given(st.permutations(DECK))
def test_aces_score_at_most_once_at_no_trumps(cards: list[Card]) -> None:
    north, east, south, west = (Hand(tuple(cards[i::4])) for i in range(4))
    found = entries(deal(0, Seat.N, "1NT", 7, Deal((north, east, south, west))))
    assert len([e for e in found if e.reason is Reason.HONOURS]) <= 1
