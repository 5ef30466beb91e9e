"""Chicago, four-deal bridge (profile ``chicago``), as the ACBL's rules give it, on hand-built
chukkers. Every figure is worked out by hand in the comment beside it.

Reminders: vulnerability by place (1 neither, 2 and 3 the dealer's side, 4 both); a
passed-out deal is dealt again at the same place; a game earns 300 / 500 at once; a part
score made on deal 4 that completes no game earns 100; no rubber or unfinished bonus.
"""

from __future__ import annotations

import json

import jsonschema
import pytest

import pbnkit
from pbnkit.model import Contract, Seat, Side, Vulnerability
from pbnkit.scoring import (
    BoardResult,
    ChicagoProfile,
    Entry,
    Hands,
    Line,
    Reason,
    find_profile,
)
from pbnkit.scoring.chicago import place_vulnerability
from pbnkit.scoring.report import score_games
from pbnkit.scoring.text import render
from tests.conftest import SCHEMAS
from tests.deals import deal_with, sheet_helpers

NS, EW = Side.NS, Side.EW
A, B = Line.ABOVE, Line.BELOW
SCHEMA = json.loads((SCHEMAS / "score-report.v2.json").read_text())


def deal(index: int, dealer: Seat | None, declarer: Seat | None, contract: str | None,
         tricks: int | None = None, vulnerability: Vulnerability | None = None,
         board: str | None = None, **placed: str) -> BoardResult:
    return BoardResult(
        index, board, declarer, None if contract is None else Contract.from_pbn(contract),
        tricks, vulnerability, Hands.of(deal_with(**placed)) if placed else None, dealer)


score, chukkers, _ = sheet_helpers(ChicagoProfile())


def test_chicago_is_registered_and_chosen_by_its_scoring_keyword() -> None:
    assert find_profile("chicago").name == "chicago"
    games = pbnkit.read_text('[Scoring "Chicago"]\n[Board "1"]\n[Dealer "N"]\n'
                             '[Contract "2S"]\n[Declarer "N"]\n[Result "8"]\n')
    assert score_games(games).profile == "chicago"


@pytest.mark.parametrize(("place", "dealer", "vulnerability"), [
    (1, Seat.N, Vulnerability.NONE),
    (2, Seat.E, Vulnerability.EW),  # the dealer's side
    (3, Seat.S, Vulnerability.NS),
    (3, Seat.W, Vulnerability.EW),
    (4, Seat.W, Vulnerability.ALL),
])
def test_vulnerability_comes_from_the_place_in_the_chukker(
    place: int, dealer: Seat, vulnerability: Vulnerability,
) -> None:
    assert place_vulnerability(place, dealer.side) is vulnerability


def test_the_rules_example_chukker() -> None:
    (chukker,) = chukkers(
        deal(0, Seat.N, Seat.N, "2S", 8),  # place 1, nobody vul: N-S 60 below
        deal(1, Seat.E, Seat.E, "4H", 10),  # place 2, E-W vul: 120 + game 500
        deal(2, Seat.S, Seat.S, "1NT", 7),  # place 3: N-S 40 (the earlier 60 is closed off)
        deal(3, Seat.W, Seat.N, "2C", 9),  # place 4: 40 + 20 over; 40 + 40 = 80 < 100: +100
    )
    assert chukker.finished and chukker.complete and chukker.unit == "chukker"
    assert [d.place for d in chukker.deals] == [1, 2, 3, 4]
    assert [d.vulnerability for d in chukker.deals] == [
        Vulnerability.NONE, Vulnerability.EW, Vulnerability.NS, Vulnerability.ALL]
    assert chukker.deals[1].entries == (
        Entry(EW, B, 120, Reason.TRICKS), Entry(EW, A, 500, Reason.GAME))
    assert chukker.deals[3].entries == (
        Entry(NS, B, 40, Reason.TRICKS), Entry(NS, A, 20, Reason.OVERTRICKS),
        Entry(NS, A, 100, Reason.PART_SCORE))
    # N-S 60 + 40 + (40 + 20) + 100 = 260; E-W 120 + 500 = 620
    assert (chukker.total_ns, chukker.total_ew) == (260, 620)
    assert (chukker.winner, chukker.margin, chukker.rubber_points) == ("EW", 360, None)
    assert chukker.settlement == ()


def test_a_passed_out_deal_is_dealt_again_at_the_same_place() -> None:
    (chukker,) = chukkers(
        deal(0, Seat.N, None, "Pass"),  # place 1, not counted
        deal(1, Seat.N, Seat.N, "4S", 10),  # place 1 again, nobody vul: 120 + game 300
        deal(2, Seat.E, Seat.N, "4S", 9),  # place 2, E-W vul; N-S not: down 1, E-W 50
        deal(3, Seat.S, Seat.S, "3NT", 9),  # place 3, N-S vul: 100 + game 500
        deal(4, Seat.W, Seat.E, "1S", 7),  # place 4, all vul: E-W 30 + part score 100
    )
    assert chukker.finished
    assert [d.place for d in chukker.deals] == [1, 1, 2, 3, 4]
    assert chukker.deals[0].entries == ()
    # N-S 120 + 300 + 100 + 500 = 1020; E-W 50 + 30 + 100 = 180
    assert (chukker.total_ns, chukker.total_ew) == (1020, 180)


def test_part_scores_combine_into_a_game_at_the_completing_sides_vulnerability() -> None:
    (chukker,) = chukkers(
        deal(0, Seat.N, Seat.N, "2S", 8),  # place 1: N-S 60 below
        deal(1, Seat.E, Seat.S, "2S", 8),  # place 2, E-W vul: N-S 60; 120 >= 100, game 300
    )
    assert [d.game for d in chukker.deals] == [None, NS]
    assert chukker.deals[1].entries[-1] == Entry(NS, A, 300, Reason.GAME)  # N-S not vul
    assert chukker.total_ns == 420  # 60 + 60 + 300


def test_a_game_closes_off_both_sides_part_scores() -> None:
    (chukker,) = chukkers(
        deal(0, Seat.N, Seat.E, "2H", 8),  # place 1: E-W 60
        deal(1, Seat.E, Seat.N, "4S", 10),  # place 2: N-S 120 game, 300 (E-W vul, not N-S)
        deal(2, Seat.S, Seat.E, "2H", 8),  # place 3: E-W 60, not 120: no game
    )
    assert [d.game for d in chukker.deals] == [None, NS, None]
    assert not chukker.finished  # three deals of four


def test_the_fourth_deal_part_score_counts_whatever_the_earlier_part_scores() -> None:
    (chukker,) = chukkers(
        deal(0, Seat.N, Seat.E, "2H", 8),  # place 1: E-W 60 below
        deal(1, Seat.E, Seat.N, "3NT", 8),  # place 2, E-W vul: N-S down 1 not vul, E-W 50
        deal(2, Seat.S, Seat.S, "4S", 9),  # place 3, N-S vul: down 1, E-W 100
        deal(3, Seat.W, Seat.N, "1C", 7),  # place 4: N-S 20 + part score 100
    )
    assert chukker.deals[3].entries == (
        Entry(NS, B, 20, Reason.TRICKS), Entry(NS, A, 100, Reason.PART_SCORE))
    assert (chukker.total_ns, chukker.total_ew) == (120, 210)  # 20 + 100; 60 + 50 + 100


def test_a_game_on_the_fourth_deal_earns_the_game_bonus_not_the_part_score() -> None:
    (chukker,) = chukkers(
        deal(0, Seat.N, None, "Pass"),
        deal(1, Seat.N, Seat.N, "1C", 6),  # place 1: down 1, E-W 50
        deal(2, Seat.E, Seat.N, "1C", 6),  # place 2, N-S not vul: E-W 50
        deal(3, Seat.S, Seat.N, "1C", 6),  # place 3, N-S vul: E-W 100
        deal(4, Seat.W, Seat.N, "6S", 12, N="SA SK SQ SJ"),
        # place 4, all vul: 180 below, game 500, little slam 750, honours 100 (N AKQJ)
    )
    assert chukker.deals[-1].entries == (
        Entry(NS, B, 180, Reason.TRICKS), Entry(NS, A, 750, Reason.SLAM),
        Entry(NS, A, 100, Reason.HONOURS), Entry(NS, A, 500, Reason.GAME))
    assert (chukker.total_ns, chukker.total_ew) == (1530, 200)  # 180+750+100+500; 50+50+100


def test_a_failed_contract_on_the_fourth_deal_earns_no_part_score() -> None:
    (chukker,) = chukkers(
        deal(0, Seat.N, Seat.N, "1C", 7),  # place 1: N-S 20
        deal(1, Seat.E, Seat.N, "1C", 7),  # place 2: N-S 20
        deal(2, Seat.S, Seat.N, "1C", 7),  # place 3: N-S 20
        deal(3, Seat.W, Seat.N, "2H", 7),  # place 4, all vul: down 1, E-W 100
    )
    assert chukker.deals[3].entries == (Entry(EW, A, 100, Reason.UNDERTRICKS),)
    assert (chukker.total_ns, chukker.total_ew) == (60, 100)


def test_vulnerable_tag_that_disagrees_with_the_place_is_warned_about() -> None:
    (chukker,) = chukkers(
        deal(0, Seat.N, Seat.N, "2S", 8, Vulnerability.NONE),  # place 1: agrees
        deal(1, Seat.E, Seat.N, "2S", 8, Vulnerability.NONE),  # place 2, dealer E: EW
    )
    assert [(w.kind, w.index, w.message) for w in chukker.warnings
            if w.kind == "vulnerability-mismatch"] == [
        ("vulnerability-mismatch", 1,
         "Vulnerable is None, but the deal's place in the chukker makes it EW")]


def test_without_a_dealer_the_board_number_then_the_vulnerable_tag_decide() -> None:
    (chukker,) = chukkers(
        deal(0, None, Seat.N, "1NT", 7),  # place 1: nobody vul, no dealer needed
        deal(1, None, Seat.N, "3NT", 8, board="3"),  # board 3 dealt by S: N-S vul, down 1: 100
        deal(2, None, Seat.N, "3NT", 8, Vulnerability.EW),  # the tag: N-S not vul, 50
        deal(3, None, Seat.N, "1NT", 7),  # place 4: all vul, 40 + part score 100
    )
    assert [d.vulnerability for d in chukker.deals] == [
        Vulnerability.NONE, Vulnerability.NS, Vulnerability.EW, Vulnerability.ALL]
    assert (chukker.total_ns, chukker.total_ew) == (180, 150)  # 40 + 40 + 100; 100 + 50


def test_a_deal_of_place_2_without_dealer_board_or_tag_is_not_scored() -> None:
    sheet = score(
        deal(0, Seat.N, Seat.N, "1NT", 7),  # place 1: N-S 40
        deal(1, None, Seat.N, "3NT", 9),  # place 2: vulnerability unknown
    )
    assert sheet.rubbers is not None
    (chukker,) = sheet.rubbers
    assert not chukker.complete
    assert [d.scored for d in chukker.deals] == [True, False]
    assert [b.score_ns for b in sheet.boards] == [40, None]


def test_an_unscorable_deal_counts_among_the_four_and_marks_the_chukker_incomplete() -> None:
    first, second = chukkers(
        deal(0, Seat.N, Seat.N, "1NT", 7),  # place 1: N-S 40
        deal(1, Seat.E, Seat.N, "3NT"),  # place 2: no result
        deal(2, Seat.S, Seat.N, "1NT", 7),  # place 3: N-S 40 (80 in all)
        deal(3, Seat.W, Seat.N, "1NT", 7),  # place 4: 40: 120 >= 100, game, vul 500
        deal(4, Seat.N, Seat.E, "1NT", 7),  # a new chukker, place 1: E-W 40
    )
    assert (first.finished, first.complete) == (True, False)
    assert (first.total_ns, first.total_ew) == (620, 0)  # 40 + 40 + 40 + 500, not final
    assert [w.kind for w in first.warnings if w.kind != "no-honours"] == [
        "unscored-deal", "incomplete-chukker"]
    assert (second.number, second.finished, second.complete) == (2, False, True)
    assert [d.place for d in second.deals] == [1]
    assert second.warnings[-1].kind == "unfinished-chukker"
    assert second.settlement == ()  # no bonus for an unfinished chukker


def test_chukkers_in_text_and_json() -> None:
    text = "".join(
        f'[Scoring "Chicago"]\n[Board "{n}"]\n[Dealer "{dealer}"]\n[Vulnerable "{vul}"]\n'
        f'[Declarer "{declarer}"]\n[Contract "{contract}"]\n[Result "{tricks}"]\n\n'
        for n, dealer, vul, declarer, contract, tricks in (
            (1, "N", "None", "N", "2S", 8),  # the rules example, as a file
            (2, "E", "EW", "E", "4H", 10),
            (3, "S", "NS", "S", "1NT", 7),
            (4, "W", "All", "N", "2C", 9),
        ))
    report = score_games(pbnkit.read_text(text))
    document = report.to_json()
    jsonschema.validate(document, SCHEMA)
    (chukker,) = document["rubbers"]
    assert (chukker["unit"], chukker["complete"], chukker["finished"]) == (
        "chukker", True, True)
    assert [d["place"] for d in chukker["deals"]] == [1, 2, 3, 4]
    assert [d["dealer"] for d in chukker["deals"]] == ["N", "E", "S", "W"]
    assert chukker["total"] == {"NS": 260, "EW": 620}
    sheet = render(report)
    assert "Chukker 1" in sheet
    assert "game EW, bonus 500" in sheet and "part score on deal 4, bonus 100" in sheet
    assert "EW wins by 360" in sheet


def test_the_sample_chicago_evening() -> None:
    document = score_games(pbnkit.read(SCHEMAS.parent / "sample_data" / "chicago_evening.pbn"))
    report = document.to_json()
    jsonschema.validate(report, SCHEMA)
    assert report["profile"] == "chicago"
    (chukker,) = report["rubbers"]
    # sample_data/README.md 4.1: the passed-out record 1 is dealt again at place 1
    assert [d["place"] for d in chukker["deals"]] == [1, 1, 2, 3, 4]
    assert [d["vulnerable"] for d in chukker["deals"]] == ["None", "None", "EW", "NS", "All"]
    # README 4.1: 0, +430, +100, -60, +160 from N-S
    assert [b["score_ns"] for b in report["boards"]] == [0, 430, 100, -60, 160]
    # README 4.2: below 160 / 40, above 530 / 20, NS 690 - 60 = 630
    assert (chukker["below"], chukker["above"]) == ({"NS": 160, "EW": 40}, {"NS": 530, "EW": 20})
    assert (chukker["winner"], chukker["margin"], chukker["finished"]) == ("NS", 630, True)
    assert chukker["complete"] is True
    assert [p["kind"] for p in report["problems"]] == []
