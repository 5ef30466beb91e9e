"""SC031 and SC032: a TotalScoreTable against pbnkit's own ranking of the file's results,
cross-IMP averages in a ScoreTable, and the notes on figures that cannot be checked.
Expected figures are worked out by hand: sample_data/README.md section 6 for the Butler
session, the comments for the rest."""

from __future__ import annotations

import re

import pytest

import pbnkit
from pbnkit.diagnostics import Diagnostic, Severity
from pbnkit.rules.scores import ScoreChecks
from tests.conftest import CORPUS, SAMPLE_DATA

BUTLER = SAMPLE_DATA / "pairs_butler.pbn"


def check_text(text: str) -> list[Diagnostic]:
    checks = ScoreChecks()
    found: list[Diagnostic] = []
    for game in pbnkit.read_text(text, "event.pbn"):
        found += checks.add(game)
    return found + checks.finish()


def changed(old: str, new: str) -> str:
    text = BUTLER.read_text(encoding="utf-8")
    assert text.count(old) == 1
    return text.replace(old, new)


def test_the_sample_butler_totals_agree() -> None:
    assert check_text(BUTLER.read_text(encoding="utf-8")) == []


def test_a_changed_total_is_an_error_at_its_cell() -> None:
    # pair 8 (Li): +2 + 10 + 0 = 12 IMPs over its three boards; write 14
    (found,) = check_text(changed(' 2  8  12 3 "Li', ' 2  8  14 3 "Li'))
    assert found.code == "SC031" and found.effective_severity is Severity.ERROR
    assert "TotalIMP 14 for pair 8" in found.message and "total of 12" in found.message
    assert (found.line, found.column) == (25, 8)  # the TotalIMP cell


def test_a_wrong_rank_is_an_error() -> None:
    # pairs 9 and 8 swap places: 9 has 22 IMPs (first), 8 has 12 (second)
    found = check_text(changed(' 1  9  22 3', ' 2  9  22 3'))
    assert [d.code for d in found] == ["SC031"]
    assert "rank of 1" in found[0].message


def test_a_total_for_boards_not_in_the_file_is_noted_not_checked() -> None:
    # pair 5 is said to have played 4 boards; the file holds its 3
    (found,) = check_text(changed(' 5  5   4 3 "Gran', ' 5  5   4 4 "Gran'))
    assert found.code == "SC032" and found.effective_severity is Severity.INFO
    assert "the file holds 3 of pair 5's 4 boards" in found.message


def with_column(name: str, figures: dict[str, str]) -> str:
    """The sample Butler session with a column after TotalIMP: ``figures`` by pair."""
    head, totals = BUTLER.read_text(encoding="utf-8").split("[TotalScoreTable", 1)
    table, rest = totals.split("\n\n", 1)
    table = table.replace("TotalIMP\\3R;NrBoards", f"TotalIMP\\3R;{name};NrBoards")
    for pair, figure in figures.items():
        table = re.sub(rf"^(\s*\d+\s+{pair}\s+-?\d+) ", rf"\g<1> {figure} ", table,
                       count=1, flags=re.MULTILINE)
    return head + "[TotalScoreTable" + table + "\n\n" + rest


# Each pair's IMPs over its 3 boards (sample_data/README.md 6), divided by 3.
MEANS = {"9": "7.33", "8": "4", "1": "3.67", "10": "2", "5": "1.33", "3": "-1",
         "4": "-3.33", "7": "-3.67", "6": "-4.33", "2": "-6"}


def test_mean_imps_are_the_total_over_the_boards_played() -> None:
    assert check_text(with_column("MeanIMP", MEANS)) == []
    (found,) = check_text(with_column("MeanIMP", MEANS | {"9": "7.5"}))
    assert found.code == "SC031" and "MeanIMP 7.5 for pair 9" in found.message
    assert "give a mean of 7.33" in found.message


def test_total_scores_are_noted_not_checked() -> None:
    (found,) = check_text(with_column("TotalScore", dict.fromkeys(MEANS, "100")))
    assert found.code == "SC032"
    assert found.message == ("TotalScoreTable not fully checked: pbnkit adds up no scores "
                             "of pairs (TotalScore)")


CROSS = """[Event "cross"]
[Board "1"]
[Vulnerable "None"]
[Scoring "IMP;Cross2"]
[Contract ""]
[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;IMP_NS;IMP_EW"]
1 4 4S N 10 420 {imp1} -8
2 5 3S N 10 170 0 0
3 6 4S N 9 -50 -8 8
"""


def test_cross2_imps_are_averaged_per_comparison() -> None:
    # 420: vs 170 (250: 6) + vs -50 (470: 10) = 16 over 2 comparisons = 8;
    # 170: -6 + (220: 6) = 0; -50: -16 / 2 = -8
    assert check_text(CROSS.format(imp1="8")) == []
    (found,) = check_text(CROSS.format(imp1="16"))
    assert found.code == "SC028" and "divided by 2 comparisons gives NS +8 IMPs" in found.message


# An individual event's board, nobody vulnerable: 4S= +420, 3S+1 +170, 4S-1 -50. MP1 top
# 4: +420 gets 4 for North and South (100%), 0 for East and West; +170 2 and 2 (50%); -50
# 0 (0%) and 4 (100%).
INDIVIDUAL = """[Board "1"]
[Vulnerable "None"]
[ScoreTable "PlayerId_North;PlayerId_East;PlayerId_South;PlayerId_West;Contract;Declarer;\
Result;Score_NS;MP_North;MP_East;MP_South;MP_West;Percentage_North;Percentage_East"]
1  2  3  4 4S N 10  420 4 0 4 0 100   0
5  6  7  8 3S N 10  170 2 2 2 2  50  50
9 10 11 12 4S N  9  -50 0 4 0 {mp_west} 0 100
"""


def test_individual_columns_follow_the_tables_scores() -> None:
    assert check_text(INDIVIDUAL.format(mp_west="4")) == []
    (found,) = check_text(INDIVIDUAL.format(mp_west="3"))
    assert found.code == "SC027" and (found.line, found.column) == (6, 31)
    assert "MP_West 3 but -50 for N-S gets 4 among the table's 3 scores" in found.message


def test_individual_columns_of_a_field_with_an_artificial_score_are_noted_once() -> None:
    text = INDIVIDUAL.format(mp_west="4").replace(" -50 0 4", " ^-50 0 4")
    (found,) = check_text(text + "\n" + text.replace('"1"', '"2"', 1))
    assert found.code == "SC032" and found.effective_severity is Severity.INFO
    assert found.message == (
        "MP_North, MP_East, MP_South, MP_West, Percentage_North, Percentage_East not checked "
        "in a ScoreTable where a row's score is artificial or unknown")


def test_an_individual_total_score_table_is_checked_player_by_player() -> None:
    # players keep their seats: North-South and East-West are ranked apart; player 10
    # (East, -50 for N-S) has 4 of 4, 100%, first of the E-W players
    totals = ('[TotalScoreTable "Rank;PlayerId;TotalMP;TotalPercentage"]\n'
              "1 1 4 100\n1 10 4 100\n3 6 2 50\n5 {pct_2} 0 0\n")
    text = INDIVIDUAL.format(mp_west="4")
    assert check_text(text + totals.format(pct_2="2")) == []
    (found,) = check_text(text + totals.replace("1 10 4 100", "1 10 3 100").format(pct_2="2"))
    assert found.code == "SC031"
    assert "TotalMP 3 for pair 10, but its 1 boards in this file give a total of 4" \
        in found.message


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")
def test_the_ruter_totals_are_checked_and_a_change_is_caught() -> None:
    # pair 3 has 50 IMPs over its 21 boards (first); the TotalScoreTable agrees line by line
    ruter = CORPUS / "richardschneider__pbn" / "test" / "sample" / "ruter71.pbn"
    text = ruter.read_text(encoding="utf-8")
    assert check_text(text) == []
    (found,) = check_text(text.replace(' 1  -  3 2 "N-S"  50', ' 1  -  3 2 "N-S"  52', 1))
    assert found.code == "SC031" and "TotalScoreIMP 52 for pair 3" in found.message


def test_a_total_score_table_of_teams_without_matches_is_noted_not_checked() -> None:
    text = """[Board "1"]
[Vulnerable "None"]
[Declarer "N"]
[Contract "4S"]
[Result "10"]
[TotalScoreTable "Rank;TeamId;TotalVP"]
1 7 34.34
2 3 20.00
"""
    (found,) = check_text(text)
    assert found.code == "SC032" and "holds no team match between named teams" in found.message


# sample_data/README.md 7.3, worked by hand: Aurora won 27 IMPs and lost none, 14.39 +
# 19.95 = 34.34 VP; Borealis 7 and 7, 5.61 + 14.39 = 20.00; Cirrus 1 and 28, 0.05 + 5.61 =
# 5.66. Each team played two matches of two boards. Teams are named by TeamId or Names;
# TotalIMP is the IMPs won (Aurora, Cirrus) or their difference (Borealis).
STANDINGS = """[TotalScoreTable "Rank;TeamId;Names;TotalIMP;TotalVP;NrBoards"]
1 1 "Aurora" 27 34.34 4
2 Borealis - 0 20.00 4
3 3 "Cirrus" 1 5.66 4
"""


def round_robin(standings: str = STANDINGS) -> str:
    return (SAMPLE_DATA / "teams_round_robin.pbn").read_text(encoding="utf-8") + standings


def test_the_sample_round_robin_standings_agree() -> None:
    assert check_text(round_robin()) == []


def test_wrong_victory_points_of_a_team_are_an_error_at_their_cell() -> None:
    (found,) = check_text(round_robin(STANDINGS.replace("34.34", "34.00")))
    assert found.code == "SC031" and found.effective_severity is Severity.ERROR
    assert found.message == ("TotalVP 34.00 for team 1, but its 2 matches in this file give "
                             "victory points of 34.34")
    assert (found.line, found.column) == (254, 17)


def test_standings_on_the_discrete_scale_are_accepted_and_noted() -> None:
    # Over two boards the discrete scale gives 14 for a 6 IMP win and 20 for 21 IMPs:
    # Aurora 14 + 20 = 34, Borealis 6 + 14 = 20, Cirrus 0 + 6 = 6. Written to two
    # decimals they are not the continuous scale's 34.34, 20.00 and 5.66.
    discrete = STANDINGS.replace("34.34", "34.00").replace("5.66", "6.00")
    (found,) = check_text(round_robin(discrete))
    assert found.code == "SC035" and "discrete 20-VP scale" in found.message
    # a figure that follows neither scale is still an error, on the scale the rest follow
    (wrong,) = [d for d in check_text(round_robin(discrete.replace("20.00", "19.00")))
                if d.code == "SC031"]
    assert "victory points of 20" in wrong.message


def test_a_wrong_team_rank_or_imps_are_errors() -> None:
    swapped = STANDINGS.replace("2 Borealis", "3 Borealis").replace("3 3 ", "2 3 ")
    assert [d.code for d in check_text(round_robin(swapped))] == ["SC031", "SC031"]
    (found,) = check_text(round_robin(STANDINGS.replace(" 27 34.34", " 25 34.34")))
    assert "27 IMPs won and 0 lost (a difference of +27)" in found.message


def test_team_lines_the_file_cannot_give_are_noted_not_checked() -> None:
    # Borealis is said to have played 6 boards, the file holds 4; team 9 plays no match here
    standings = STANDINGS.replace("20.00 4", "20.00 6") + '4 9 "Nimbus" 0 0 0\n'
    (found,) = check_text(round_robin(standings))
    assert found.code == "SC032" and found.effective_severity is Severity.INFO
    assert found.message == ("TotalScoreTable not fully checked: the file holds 4 of team "
                             "Borealis's 6 boards (and 1 more)")


def test_a_lone_matchs_victory_points_are_checked() -> None:
    # sample_data/README.md 1.3: Aurora beat Borealis by 19 IMPs over 4 boards. X = 15 x
    # sqrt(4) = 30, tau^(57 / 30) = 0.4008, 10 + 10 x 0.5992 / 0.763932 = 17.84; 20 - 17.84
    # = 2.16
    match = (SAMPLE_DATA / "team_match.pbn").read_text(encoding="utf-8")
    standings = '[TotalScoreTable "Rank;TeamId;TotalVP"]\n1 Aurora 17.84\n2 Borealis 2.16\n'
    assert check_text(match + standings) == []
    (found,) = check_text(match + standings.replace("2.16", "3.16"))
    assert found.code == "SC031" and "victory points of 2.16" in found.message


def results(scoring: str, *imps: str) -> str:
    """Three results of board 1, nobody vulnerable: 4S= +420, 3S+1 +170, 4S-1 -50."""
    plays = (("4S", "10"), ("3S", "10"), ("4S", "9"))
    return "\n".join(
        f'[Board "1"]\n[Vulnerable "None"]\n[Scoring "{scoring}"]\n[Declarer "N"]\n'
        f'[Contract "{contract}"]\n[Result "{tricks}"]\n[ScoreIMP "NS {figure}"]\n'
        for (contract, tricks), figure in zip(plays, imps))


def test_butler_imps_of_the_files_results_are_checked() -> None:
    # datum (420 + 170 - 50) / 3 = 180: 420 -> 240: 6; 170 -> -10: 0; -50 -> -230: -6
    assert check_text(results("IMP;Butler", "6", "0", "-6")) == []
    (found,) = check_text(results("IMP;Butler", "5", "0", "-6"))
    assert found.code == "SC033" and found.effective_severity is Severity.WARNING
    assert "gets NS 6 IMPs among the 3 results" in found.message


def test_cross1_imps_are_divided_by_the_number_of_scores() -> None:
    # sums 16, 0, -16 over 3 scores: 5.33, 0, -5.33
    assert check_text(results("IMP;Cross1", "5.33", "0", "-5.33")) == []
    assert [d.code for d in check_text(results("IMP;Cross1", "16", "0", "-16"))] == [
        "SC033", "SC033"]


def test_team_figures_pbnkit_does_not_give_are_noted() -> None:
    # MeanIMP of a team may be per board or per match: said, not compared
    (found,) = check_text(round_robin(STANDINGS.replace("NrBoards", "MeanIMP")))
    assert found.code == "SC032"
    assert found.message == ("TotalScoreTable not fully checked: pbnkit ranks these teams on "
                             "victory points and IMPs (MeanIMP)")


# A matchpoint Mitchell of one board, nobody vulnerable: +420 (1 v 4) beats both (4 of 4,
# 100%), +170 (2 v 5) beats -50 (2, 50%), -50 (3 v 6) nothing (0, 0%); E-W the rest.
MP_EVENT = """[Event "mp"]
[Board "1"]
[Vulnerable "None"]
[Scoring "MP"]
[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS"]
1 4 4S N 10 420
2 5 3S N 10 170
3 6 4S N  9 -50
[TotalScoreTable "Rank;PairId;Direction;{columns}"]
1 1 NS 4 100{extra}
2 2 NS {pair_2} 50{extra}
3 3 NS 0 0{extra}
1 6 EW 4 100{extra}
2 5 EW 2 50{extra}
3 4 EW 0 0{extra}
"""


def test_total_score_mp_as_magic_contest_writes_it_is_checked() -> None:
    columns = "TotalScoreMP;TotalPercentage"
    assert check_text(MP_EVENT.format(columns=columns, pair_2="2", extra="")) == []
    (found,) = check_text(MP_EVENT.format(columns=columns, pair_2="3", extra=""))
    assert found.code == "SC031" and "TotalScoreMP 3 for pair 2" in found.message
    assert "total of 2" in found.message


def test_a_figure_column_pbnkit_does_not_know_is_noted() -> None:
    # a session column (Score_1): named like a figure, not in PBN 2.1 5.10
    text = MP_EVENT.format(columns="TotalMP;TotalPercentage;Score_1", pair_2="2",
                           extra=" 7")
    (found,) = check_text(text)
    assert found.code == "SC032"
    assert "pbnkit does not know what Score_1 counts" in found.message


# Butler-2, nobody vulnerable. Board 1: +420 (1 v 4), +170 (2 v 5), -50 (3 v 6): the
# extremes left out, datum +170; +420: 250 -> 6, +170: 0, -50: -220 -> -6 IMPs.
# Board 2, pairs 3 and 6 sit out: +170 (1 v 5), -50 (2 v 4); two results, both kept:
# datum (170 - 50) / 2 = 60; +170: 110 -> 3, -50: -110 -> -3.
# Totals: 1: 6 + 3 = 9 (2 boards); 2: 0 - 3 = -3 (2); 3: -6 (1); 4: -6 + 3 = -3 (2);
# 5: 0 - 3 = -3 (2); 6: +6 (1). Credited with its average over the session's 2 boards,
# pair 3 has -6 x 2 = -12 and pair 6 +12; ranked on those: 6 first (12), 1 (9),
# 2, 4 and 5 third (-3), 3 sixth (-12).
SIT_OUT = """[Event "sit-out"]
[Board "1"]
[Vulnerable "None"]
[Scoring "IMP;Butler-2"]
[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;IMP_NS;ButlerDatum"]
1 4 4S N 10 420 6 170
2 5 3S N 10 170 0 170
3 6 4S N  9 -50 -6 170

[Event "sit-out"]
[Board "2"]
[Vulnerable "None"]
[Scoring "IMP;Butler-2"]
[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;IMP_NS;ButlerDatum"]
1 5 2H N 10 170 3 60
2 4 2H N  7 -50 -3 60
[TotalScoreTable "Rank;PairId;TotalScoreIMP;NrBoards"]
1 6 12 2
2 1 9 2
3 2 -3 2
3 4 -3 2
3 5 -3 2
6 3 {pair_3} 2
"""


def test_a_sit_out_credited_with_its_average_is_accepted_and_noted() -> None:
    (found,) = check_text(SIT_OUT.format(pair_3="-12"))
    assert found.code == "SC035" and found.effective_severity is Severity.INFO
    assert "credits pairs with their average for the boards they sat out (2 here)" \
        in found.message
    # -10 is not pair 3's average over 2 boards: its line is noted, not checked
    found = check_text(SIT_OUT.format(pair_3="-10"))
    assert [d.code for d in found] == ["SC032", "SC035"]
    assert "the file holds 1 of pair 3's 2 boards" in found[0].message


def test_a_rank_that_ignores_the_credited_average_is_an_error() -> None:
    # pair 6's credited 12 ranks first, not pair 1's 9
    text = SIT_OUT.format(pair_3="-12").replace("1 6 12 2\n2 1 9 2", "2 6 12 2\n1 1 9 2")
    found = check_text(text)
    assert [d.code for d in found] == ["SC031", "SC031", "SC035"]
    assert "rank of 1" in found[0].message and "rank of 2" in found[1].message
