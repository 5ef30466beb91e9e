"""Contract rubber (profile ``rubber``), by the Laws of Rubber Bridge, on hand-built rubbers."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from pbnkit.model import Contract, Deal, Seat, Side, Vulnerability
from pbnkit.scoring import (
    BoardResult,
    Entry,
    Hands,
    Line,
    Reason,
    RubberProfile,
)
from pbnkit.scoring.base import ROUNDING_NOTE, hundreds
from tests.deals import deal_with, sheet_helpers

NS, EW = Side.NS, Side.EW
A, B = Line.ABOVE, Line.BELOW


def deal(index: int, declarer: Seat | None, contract: str, tricks: int | None = None,
         vulnerability: Vulnerability | None = None, hands: Deal | None = None) -> BoardResult:
    return BoardResult(index, str(index + 1), declarer, Contract.from_pbn(contract), tricks,
                       vulnerability, Hands.of(hands))


score, rubbers, entries = sheet_helpers(RubberProfile())


# -- what one deal is worth ------------------------------------------------------------------


def test_only_bid_tricks_go_below_the_line() -> None:
    assert entries(deal(0, Seat.N, "1S", 9)) == [
        Entry(NS, B, 30, Reason.TRICKS),  # 1*30 bid
        Entry(NS, A, 60, Reason.OVERTRICKS),  # 2*30 over, not vulnerable
    ]


def test_doubled_contract_made_scores_double_tricks_insult_and_overtricks() -> None:
    assert entries(deal(0, Seat.N, "2HX", 9)) == [
        Entry(NS, B, 120, Reason.TRICKS),  # 2*30*2
        Entry(NS, A, 100, Reason.OVERTRICKS),  # 1 * 100 doubled, not vulnerable
        Entry(NS, A, 50, Reason.INSULT),
    ]


def test_redoubled_contract_made_scores_four_times_and_insult_100() -> None:
    assert entries(deal(0, Seat.E, "1CXX", 8)) == [
        Entry(EW, B, 80, Reason.TRICKS),  # 1*20*4
        Entry(EW, A, 200, Reason.OVERTRICKS),  # 1 * 2*100 redoubled, not vulnerable
        Entry(EW, A, 100, Reason.INSULT),
    ]


def test_undertricks_go_to_the_defenders_above_the_line() -> None:
    assert entries(deal(0, Seat.N, "3NT", 7)) == [Entry(EW, A, 100, Reason.UNDERTRICKS)]  # 2*50
    assert entries(deal(0, Seat.W, "4SX", 6)) == [
        Entry(NS, A, 800, Reason.UNDERTRICKS),  # 100 + 200 + 200 + 300
    ]


def test_slam_bid_and_made_earns_its_bonus() -> None:
    assert entries(deal(0, Seat.S, "6D", 12)) == [
        Entry(NS, B, 120, Reason.TRICKS),  # 6*20
        Entry(NS, A, 500, Reason.SLAM),  # little slam, not vulnerable
    ]
    assert entries(deal(0, Seat.S, "7NT", 13)) == [
        Entry(NS, B, 220, Reason.TRICKS),  # 40 + 6*30
        Entry(NS, A, 1000, Reason.SLAM),  # grand slam, not vulnerable
    ]


def test_slam_not_bid_earns_no_bonus() -> None:
    assert entries(deal(0, Seat.S, "4S", 13)) == [
        Entry(NS, B, 120, Reason.TRICKS),  # 4*30
        Entry(NS, A, 90, Reason.OVERTRICKS),  # 3*30
    ]


def test_passed_out_deal_scores_nothing_but_is_listed() -> None:
    (rubber,) = rubbers(deal(0, None, "Pass"))
    assert [(d.index, d.entries) for d in rubber.deals] == [(0, ())]


# -- honours ---------------------------------------------------------------------------------


def test_four_trump_honours_in_one_hand_score_100() -> None:
    hands = deal_with(N="SA SK SQ SJ", E="ST")
    assert entries(deal(0, Seat.S, "4S", 10, hands=hands))[-1] == Entry(NS, A, 100, Reason.HONOURS)


def test_five_trump_honours_in_one_hand_score_150() -> None:
    hands = deal_with(S="HA HK HQ HJ HT")
    assert entries(deal(0, Seat.S, "2H", 8, hands=hands))[-1] == Entry(NS, A, 150, Reason.HONOURS)


def test_four_aces_in_one_hand_at_no_trumps_score_150() -> None:
    hands = deal_with(W="SA HA DA CA")
    assert entries(deal(0, Seat.N, "3NT", 9, hands=hands))[-1] == Entry(EW, A, 150, Reason.HONOURS)


def test_honours_go_to_the_holder_even_when_the_contract_fails() -> None:
    hands = deal_with(E="DA DK DQ DJ", N="DT")
    assert entries(deal(0, Seat.N, "5D", 10, hands=hands)) == [
        Entry(EW, A, 50, Reason.UNDERTRICKS),  # 1*50, not vulnerable
        Entry(EW, A, 100, Reason.HONOURS),  # 4 of 5 diamond honours with East
    ]


def test_split_honours_and_three_aces_score_nothing() -> None:
    split = deal_with(N="SA SK", S="SQ SJ", E="ST")
    assert entries(deal(0, Seat.N, "4S", 10, hands=split)) == [Entry(NS, B, 120, Reason.TRICKS)]
    three_aces = deal_with(N="SA HA DA", E="CA")
    assert entries(deal(0, Seat.N, "1NT", 7, hands=three_aces)) == [
        Entry(NS, B, 40, Reason.TRICKS),
    ]


def test_unknown_deal_scores_no_honours_and_says_so() -> None:
    (rubber,) = rubbers(deal(0, Seat.N, "4S", 10))
    assert [w.index for w in rubber.warnings if w.kind == "no-honours"] == [0]


def test_incomplete_deal_scores_no_honours_and_says_so() -> None:
    partial = Deal.from_pbn("N:AKQJ.AKQ.AKQ.AKQ - - -")
    (rubber,) = rubbers(deal(0, Seat.N, "4S", 10, hands=partial))
    assert rubber.deals[0].entries == (Entry(NS, B, 120, Reason.TRICKS),)
    assert any(w.kind == "no-honours" and "incomplete" in w.message for w in rubber.warnings)


# -- games, vulnerability and rubbers --------------------------------------------------------


def test_game_is_reached_from_part_scores() -> None:
    (rubber,) = rubbers(
        deal(0, Seat.N, "1NT", 7),  # 40 below
        deal(1, Seat.S, "3C", 9),  # 60 below: 40 + 60 = 100, game
    )
    assert [d.game for d in rubber.deals] == [None, NS]
    assert (rubber.games_ns, rubber.games_ew) == (1, 0)


def test_a_game_closes_off_the_opponents_part_score() -> None:
    (rubber,) = rubbers(
        deal(0, Seat.E, "2S", 8),  # E-W 60 below
        deal(1, Seat.N, "4H", 10),  # N-S 120: game
        deal(2, Seat.E, "2S", 8),  # E-W 60 again: 60, not 120, in the new game
    )
    assert [d.game for d in rubber.deals] == [None, NS, None]


def test_rubbers_follow_each_other_with_bonus_700_then_500() -> None:
    first, second = rubbers(
        deal(0, Seat.N, "4S", 10, Vulnerability.NONE),  # N-S 120: game 1
        deal(1, Seat.S, "3NT", 9, Vulnerability.NS),  # N-S 100: game 2, rubber, E-W no game
        deal(2, Seat.E, "4H", 10, Vulnerability.NONE),  # new rubber: E-W 120, game
        deal(3, Seat.N, "5D", 11, Vulnerability.NONE),  # N-S 100 game; tag should say EW
        deal(4, Seat.W, "3NT", 10, Vulnerability.ALL),  # E-W 100 + over 30: game 2, rubber
    )
    assert first.finished and second.finished
    assert (first.number, second.number) == (1, 2)
    assert [d.index for d in first.deals] == [0, 1]
    assert first.deals[-1].entries[-1] == Entry(NS, A, 700, Reason.RUBBER)  # losers had no game
    assert first.total_ns == 920  # 120 + 100 + 700
    assert (first.total_ew, first.winner, first.margin) == (0, "NS", 920)
    assert first.rubber_points == 9  # 920 / 100 = 9.2 -> 9
    assert [d.vulnerability for d in second.deals] == [
        Vulnerability.NONE, Vulnerability.EW, Vulnerability.ALL,
    ]
    assert second.deals[-1].entries[-1] == Entry(EW, A, 500, Reason.RUBBER)  # N-S had a game
    assert (second.below_ew, second.above_ew) == (220, 530)  # 120 + 100; 30 + 500
    assert (second.total_ns, second.total_ew) == (100, 750)
    assert (second.winner, second.margin) == ("EW", 650)  # 750 - 100
    assert second.rubber_points == 6  # 650 / 100 = 6.5, an exact 50 rounds down
    assert [(w.kind, w.index) for w in second.warnings if w.kind != "no-honours"] == [
        ("vulnerability-mismatch", 3),
    ]


def test_vulnerability_comes_from_games_won_not_from_the_tag() -> None:
    (rubber,) = rubbers(
        deal(0, Seat.N, "4S", 10),  # N-S game: now vulnerable
        deal(1, Seat.N, "4S", 7, Vulnerability.NONE),  # down 3 vulnerable: 300, not 150
    )
    assert rubber.deals[1].entries == (Entry(EW, A, 300, Reason.UNDERTRICKS),)  # 3*100
    assert [w.message for w in rubber.warnings if w.kind == "vulnerability-mismatch"] == [
        "Vulnerable is None, but the games won so far make it NS",
    ]


def test_unfinished_rubber_gives_300_for_a_game_and_100_for_a_part_score() -> None:
    (rubber,) = rubbers(
        deal(0, Seat.N, "4S", 10),  # N-S 120: game
        deal(1, Seat.E, "2H", 8),  # E-W 60: part score
    )
    assert not rubber.finished
    assert rubber.settlement == (
        Entry(NS, A, 300, Reason.UNFINISHED),
        Entry(EW, A, 100, Reason.UNFINISHED),
    )
    assert (rubber.total_ns, rubber.total_ew) == (420, 160)  # 120 + 300; 60 + 100
    assert (rubber.winner, rubber.margin, rubber.rubber_points) == ("NS", 260, 3)  # 2.6 -> 3
    assert rubber.warnings[-1].kind == "unfinished-rubber"


def test_unfinished_rubber_side_with_game_and_part_score_gets_both() -> None:
    (rubber,) = rubbers(
        deal(0, Seat.N, "4S", 10),  # N-S 120: game
        deal(1, Seat.N, "1NT", 7),  # N-S 40: part score
    )
    assert rubber.settlement == (
        Entry(NS, A, 300, Reason.UNFINISHED),
        Entry(NS, A, 100, Reason.UNFINISHED),
    )
    assert rubber.total_ns == 560  # 120 + 40 + 300 + 100


def test_rubber_ends_mid_file_and_an_unfinished_one_follows() -> None:
    first, second = rubbers(
        deal(0, Seat.N, "4S", 10),  # N-S game
        deal(1, Seat.N, "4S", 10),  # N-S game: rubber over
        deal(2, None, "Pass"),  # first deal of the next rubber
    )
    assert first.finished and not second.finished
    assert [d.index for d in second.deals] == [2]
    assert second.settlement == ()
    assert (second.total_ns, second.total_ew, second.winner) == (0, 0, "draw")


def test_a_rubber_never_runs_on_into_the_next_file() -> None:
    first, second = rubbers(
        replace(deal(0, Seat.N, "4S", 10), path="a.pbn"),  # N-S game in a.pbn
        replace(deal(0, Seat.N, "4S", 10), path="b.pbn"),  # a first game again in b.pbn
    )
    assert (first.games_ns, first.finished, first.total_ns) == (1, False, 420)  # 120 + 300
    assert (second.number, second.games_ns, second.finished) == (2, 1, False)


def test_board_rows_give_each_deals_figures() -> None:
    sheet = score(
        deal(0, Seat.N, "1S", 9),  # N-S 30 below, 60 above
        deal(1, Seat.E, "3NT", 8),  # down 1: N-S 50 above
    )
    assert [(b.rubber, b.above_ns, b.below_ns, b.above_ew, b.below_ew, b.score_ns)
            for b in sheet.boards] == [(1, 60, 30, 0, 0, 90), (1, 50, 0, 0, 0, 50)]
    assert sheet.matches is None
    assert ROUNDING_NOTE in sheet.notes


def test_rubber_points_round_to_the_nearest_hundred_with_50_toward_zero() -> None:
    assert hundreds(1240) == 12
    assert hundreds(1250) == 12  # the exact half rounds down
    assert hundreds(1260) == 13
    assert hundreds(0) == 0


# -- properties ------------------------------------------------------------------------------

results = st.lists(
    st.tuples(
        st.sampled_from(list(Seat)), st.integers(1, 7), st.sampled_from("CDHS"),
        st.sampled_from(["", "X", "XX"]), st.integers(0, 13), st.booleans(),
    ),
    max_size=30,
).map(lambda rows: [
    deal(i, seat, "Pass" if passed else f"{level}{strain}{risk}", tricks)
    for i, (seat, level, strain, risk, tricks, passed) in enumerate(rows)
])


@given(results)
def test_every_deal_lands_in_exactly_one_rubber_and_only_the_last_may_be_unfinished(
    played: list[BoardResult],
) -> None:
    scored = rubbers(*played)
    assert [d.index for r in scored for d in r.deals] == [r.index for r in played]
    assert all(r.finished for r in scored[:-1])
    for rubber in scored:
        most, least = sorted((rubber.games_ns, rubber.games_ew), reverse=True)
        assert most == 2 if rubber.finished else most <= 1
        assert least <= 1
        games = sum(1 for d in rubber.deals if d.game is not None)
        assert games == rubber.games_ns + rubber.games_ew
        assert rubber.total_ns - rubber.total_ew in (rubber.margin, -rubber.margin)
        for side, total in ((NS, rubber.total_ns), (EW, rubber.total_ew)):
            written = sum(d.points(side) for d in rubber.deals)
            assert total == written + sum(e.points for e in rubber.settlement if e.side is side)
        last = rubber.deals[-1].entries[-1:]
        assert rubber.finished == (last != () and last[0].reason is Reason.RUBBER)


@given(results)
def test_vulnerability_follows_the_games_won_before_each_deal(played: list[BoardResult]) -> None:
    for rubber in rubbers(*played):
        won = {NS: 0, EW: 0}
        for d in rubber.deals:
            assert d.vulnerability == Vulnerability.of_sides(won[NS] > 0, won[EW] > 0)
            if d.game is not None:
                won[d.game] += 1
