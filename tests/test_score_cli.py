"""``pbnkit score`` on the hand-made sample files. Every expected number below was worked
out by hand from the laws; the arithmetic is in sample_data/README.md, section by section."""

from __future__ import annotations

import json

import jsonschema
import pytest
from click.testing import CliRunner

import pbnkit
from pbnkit.cli import main
from pbnkit.scoring.report import MixedProfilesError, score_games
from tests.conftest import SAMPLE_DATA, SCHEMAS


def score_json(*args) -> dict:
    result = CliRunner().invoke(main, ["score", "--format", "json", *map(str, args)])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    jsonschema.validate(document, json.loads((SCHEMAS / "score-report.v2.json").read_text()))
    return document


def test_team_match_board_scores_follow_law_77():
    document = score_json(SAMPLE_DATA / "team_match.pbn")
    assert document["profile"] == "duplicate"
    # README 1.1: +420, +170, +300, +620, -680, -1430, +140, -200 in file order.
    assert [b["score_ns"] for b in document["boards"]] == [420, 170, 300, 620, -680, -1430, 140, -200]
    assert [b["contract"] for b in document["boards"]] == ["4S", "3S", "4SX", "4H", "4H", "6H", "2S", "3SX"]
    assert [b["declarer"] for b in document["boards"]] == ["N", "N", "W", "S", "W", "W", "N", "N"]


def test_team_match_imps_and_winner():
    (match,) = score_json(SAMPLE_DATA / "team_match.pbn")["matches"]
    # README 1.2: differences +250, -320, +750, +340 -> 6, -8, 13, 8 IMPs; 1.3: A +19.
    assert [(b["diff"], b["imps"]) for b in match["boards"]] == [(250, 6), (-320, -8), (750, 13), (340, 8)]
    assert (match["imps_a"], match["imps_b"], match["winner"]) == (19, -19, "A")
    assert match["key"]["home_team"] == "Aurora"


def test_contract_rubber_sheet():
    first, second = score_json(SAMPLE_DATA / "rubber_contract.pbn")["rubbers"]
    # README 2.2: below NS 220 / EW 120, above NS 680 / EW 150, NS by 630 = 6 rubber points.
    assert (first["below"], first["above"]) == ({"NS": 220, "EW": 120}, {"NS": 680, "EW": 150})
    assert (first["winner"], first["margin"], first["rubber_points"]) == ("NS", 630, 6)
    assert first["finished"] and first["games"] == {"NS": 2, "EW": 1}
    # README 2.3: unfinished, EW 300 for the game and NS 100 for the part score.
    assert not second["finished"]
    assert sorted((e["side"], e["points"]) for e in second["settlement"]) == [("EW", 300), ("NS", 100)]
    assert second["total"] == {"NS": 140, "EW": 430}
    assert (second["winner"], second["margin"], second["rubber_points"]) == ("EW", 290, 3)


def test_contract_rubber_honours_and_rubber_bonus_are_on_deal_five():
    first = score_json(SAMPLE_DATA / "rubber_contract.pbn")["rubbers"][0]
    deal5 = first["deals"][4]
    assert {(e["reason"], e["points"]) for e in deal5["entries"]} == {
        ("tricks", 120), ("honours", 100), ("rubber", 500)}  # README 2.1, deal 5


def test_auction_1920_rubber():
    (rubber,) = score_json(SAMPLE_DATA / "rubber_auction1920.pbn")["rubbers"]
    # README 3.2: below 68 / 68, above 368 / 306, NS by 62; no rubber points in 1920.
    assert rubber["below"] == {"NS": 68, "EW": 68}
    assert rubber["above"] == {"NS": 368, "EW": 306}
    assert (rubber["winner"], rubber["margin"], rubber["rubber_points"]) == ("NS", 62, None)
    first_deal = {(e["side"], e["line"], e["reason"], e["points"]) for e in rubber["deals"][0]["entries"]}
    assert first_deal == {("NS", "below", "tricks", 36), ("NS", "above", "honours", 72)}


def test_text_sheet_for_a_team_match():
    result = CliRunner().invoke(main, ["score", str(SAMPLE_DATA / "team_match.pbn")])
    assert result.exit_code == 0
    # sample_data/README.md: boards +6, -8, +13, +8 for Aurora (home, team A): Aurora won
    # 6 + 13 + 8 = 27 IMPs, Borealis 8; 27 - 8 = 19.
    assert "Total IMPs: Aurora 27, Borealis 8: Aurora win by 19" in result.output
    assert " board  Open NS Closed NS   diff IMPs Aurora IMPs Borealis" in result.output
    assert "     2      300       620   -320                         8" in result.output


def test_json_report_gives_each_teams_imps_and_names():
    (match,) = score_json(SAMPLE_DATA / "team_match.pbn")["matches"]
    # as the text sheet: Aurora 6 + 13 + 8 = 27, Borealis 8; the net figures stay signed
    assert (match["team_a"], match["team_b"]) == ("Aurora", "Borealis")
    assert (match["imps_won_a"], match["imps_won_b"]) == (27, 8)
    assert (match["imps_a"], match["imps_b"], match["winner"]) == (19, -19, "A")


def test_text_sheet_for_a_rubber():
    result = CliRunner().invoke(main, ["score", str(SAMPLE_DATA / "rubber_contract.pbn")])
    assert "NS wins by 630 (6 rubber points)" in result.output
    assert "Rubber 2 (unfinished)" in result.output


def test_profile_option_rescores_a_rubber_under_1920_rules():
    document = score_json("--profile", "auction-1920", SAMPLE_DATA / "rubber_contract.pbn")
    assert document["profile"] == "auction-1920"
    # Deal 1, 2H by N making 9: (9-6) x 8 = 24 below in the 1920 code.
    entries = document["rubbers"][0]["deals"][0]["entries"]
    assert ("NS", "below", "tricks", 24) in {(e["side"], e["line"], e["reason"], e["points"]) for e in entries}


def test_files_selecting_different_profiles_need_a_profile():
    result = CliRunner().invoke(main, ["score", str(SAMPLE_DATA)])
    assert result.exit_code == 2 and "--profile" in result.output
    with pytest.raises(MixedProfilesError):
        score_games(g for p in sorted(SAMPLE_DATA.glob("*.pbn")) for g in pbnkit.read(p))


def test_passed_out_record_scores_zero_with_contract_pass():
    games = pbnkit.read_text('[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                             '[Contract "Pass"]\n[Declarer ""]\n[Result ""]\n')
    (board,) = score_games(games).to_json()["boards"]
    assert (board["contract"], board["score_ns"], board["declarer"]) == ("Pass", 0, None)


def test_result_missing_takes_tricks_from_the_complete_play():
    text = (SAMPLE_DATA / "team_match.pbn").read_text()
    games = [g for g in pbnkit.read_text(text.replace('[Result "10"]', '[Result ""]', 1))]
    board = score_games(games).to_json()["boards"][0]
    assert (board["tricks"], board["score_ns"]) == (10, 420)  # from the 13 played tricks


def test_hand_record_without_results_is_listed_not_scored():
    games = pbnkit.read_text('[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
                             '[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]\n')
    report = score_games(games).to_json()
    assert report["boards"][0]["score_ns"] is None and report["boards"][0]["contract"] is None
    assert report["problems"]


PAIRS = "".join(
    f'[Event "Pairs"]\n[Scoring "{scoring}"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
    f'[Declarer "N"]\n[Contract "{contract}"]\n[Result "{tricks}"]\n\n'
    for scoring, contract, tricks in (("MP;MP2", "4S", 10), ("MP;MP2", "4S", 11), ("MP;MP2", "3S", 10))
)


def test_pairs_matchpoints_follow_the_scoring_modifier():
    # N-S scores 420, 450, 170 (Law 77). MP2 gives 1 per score beaten: 1, 2, 0 of a top of 2,
    # so 50%, 100% and 0%. MP1 doubles the matchpoints; the percentages stay.
    boards = score_games(pbnkit.read_text(PAIRS)).to_json()["boards"]
    assert [(b["score_ns"], b["mp_ns"], b["pct_ns"]) for b in boards] == [
        (420, 1.0, 50.0), (450, 2.0, 100.0), (170, 0.0, 0.0)]
    mp1 = score_games(pbnkit.read_text(PAIRS.replace("MP;MP2", "MP"))).to_json()["boards"]
    assert [b["mp_ns"] for b in mp1] == [2.0, 4.0, 0.0]


def test_results_of_different_deals_under_one_board_number_are_not_matchpointed():
    deal_a = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
    deal_b = "N:2.5432.5432.5432 AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876"
    text = "".join(
        f'[Event "Pairs"]\n[Board "1"]\n[Vulnerable "None"]\n[Deal "{deal}"]\n'
        f'[Declarer "N"]\n[Contract "4S"]\n[Result "{tricks}"]\n\n'
        for deal, tricks in ((deal_a, 10), (deal_a, 11), (deal_b, 9)))
    boards = score_games(pbnkit.read_text(text)).to_json()["boards"]
    # The two results of deal A: 420 against 450 (Law 77), 0 and 2 matchpoints (MP1).
    assert [b["mp_ns"] for b in boards] == [0.0, 2.0, None]
