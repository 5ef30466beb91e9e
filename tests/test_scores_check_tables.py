"""SC026-SC029: a game's ScoreTable against its own contracts, results and scores.

Expected figures are worked out by hand (Laws of Duplicate Bridge, Laws 77 and 78), with
the arithmetic beside them.
"""

from __future__ import annotations

import pbnkit
from pbnkit.diagnostics import Diagnostic, Severity
from pbnkit.rules.scores import ScoreChecks
from pbnkit.rules.table_scores import agrees, read_number
from pbnkit.scoring.duplicate import score_ns


def check(text: str) -> list[Diagnostic]:
    checks = ScoreChecks()
    found: list[Diagnostic] = []
    for game in pbnkit.read_text(text, "table.pbn"):
        found += checks.add(game)
    return found + checks.finish()


def codes(found: list[Diagnostic]) -> list[str]:
    return [d.code for d in found]


def board(columns: str, rows: str, *, number: str = "1", tags: str = "") -> str:
    return f'[Board "{number}"]\n{tags}[ScoreTable "{columns}"]\n{rows}'


# -- SC026 table-score-mismatch ------------------------------------------------------------------

# Board 2, no Vulnerable tag: N-S vulnerable by the board number.
SCORED = (
    "4S   N 10  620 -\n"    # 120 + 500 (vulnerable game) = 620 to N-S
    "3NT  E  9  -   400\n"  # 40 + 60 + 300 (E-W not vulnerable) = 400 to E-W
    "2H   W  7  50  -\n"    # down 1, E-W not vulnerable: 50 to N-S
    "Pass -  -  0   -\n"    # passed out
    "-    -  -  ^60 -\n"    # an artificial score is not compared
    "?    ?  ?  999 -\n"    # unknown contract: not compared
)
COLUMNS = r"Contract\4L;Declarer;Result\2R;Score_NS\4R;Score_EW\4R"


def test_table_scores_that_follow_from_the_rows_pass() -> None:
    assert check(board(COLUMNS, SCORED, number="2")) == []


def test_table_score_that_disagrees_is_an_error_at_the_cell() -> None:
    # 4S by S with 11 tricks, vulnerable: 120 + 30 + 500 = 650, not 620
    found = check(board(COLUMNS, SCORED + "4S S 11 620 -\n", number="2"))
    assert codes(found) == ["SC026"]
    (wrong,) = found
    assert wrong.effective_severity is Severity.ERROR
    assert (wrong.line, wrong.column) == (9, 9)  # row 7, its fourth cell
    assert (wrong.path, wrong.board) == ("table.pbn", "2")
    assert "Score_NS 620 but 4S by S with 11 tricks, vulnerable" in wrong.message
    assert "+650 for NS" in wrong.message


def test_score_ew_is_checked_with_the_sign_turned() -> None:
    # 3NT by E with 9 tricks on board 2: E-W not vulnerable, 400 to E-W
    assert codes(check(board(COLUMNS, "3NT E 9 - 600\n", number="2"))) == ["SC026"]


def test_vulnerable_tag_wins_over_the_board_number() -> None:
    # board 2 but Vulnerable None: 4S= is 420
    text = board(COLUMNS, "4S N 10 420 -\n", number="2", tags='[Vulnerable "None"]\n')
    assert check(text) == []


def test_result_in_any_form() -> None:
    # 4S by N, N-S 10 tricks / E-W 3 tricks: 420 not vulnerable
    assert check(board("Contract;Declarer;Result;Score_NS",
                       '4S N "NS 10" 420\n4S S "EW 3" 420\n')) == []


# -- SC027 table-matchpoints-mismatch ------------------------------------------------------------

# Three scores: +420, +170, -50. MP1 top 2 x (3 - 1) = 4:
#   +420 beats two: 4 (E-W 0); +170 beats one: 2 (E-W 2); -50: 0 (E-W 4); percentages x 25.
MP_COLUMNS = "Score_NS;MP_NS;MP_EW;Percentage_NS;Percentage_EW"
MP_ROWS = "420 4 0 100 0\n170 2 2 50 50\n-50 0 4 0 100\n"


def test_matchpoints_that_follow_from_the_tables_scores_pass() -> None:
    assert check(board(MP_COLUMNS, MP_ROWS)) == []


def test_matchpoints_that_disagree_are_an_error_at_the_cell() -> None:
    (found,) = check(board(MP_COLUMNS, MP_ROWS.replace("170 2 2", "170 3 2")))
    assert found.code == "SC027" and found.effective_severity is Severity.ERROR
    assert (found.line, found.column) == (4, 5)  # row 2, MP_NS
    assert "+170 for N-S gets 2 among the table's 3 scores (MP1)" in found.message


def test_percentages_are_compared_to_the_precision_written() -> None:
    # +420 twice, +170, -50: top 6; +420: 2 x 2 + 1 (the tie) = 5 -> 83.33%; +170: 2 -> 33.33%
    rows = "420 83.3\n420 83\n170 33.33\n-50 0\n"
    assert check(board("Score_NS;Percentage_NS", rows)) == []
    assert codes(check(board("Score_NS;Percentage_NS", rows.replace("83.3\n", "83.5\n")))) \
        == ["SC027"]


def test_multiplicity_counts_a_row_several_times() -> None:
    # the same field as above written as +420 x2: 5 MP, +170: 2, -50: 0
    assert check(board("Score_NS;Multiplicity;MP_NS", "420 2 5\n170 1 2\n-50 1 0\n")) == []
    assert codes(check(board("Score_NS;Multiplicity;MP_NS", "420 1 5\n170 1 2\n-50 1 0\n"))) \
        == ["SC027"]  # once each: +420 gets 4


def test_mp2_when_scoring_says_so() -> None:
    # MP2: top 1 x (3 - 1) = 2; +420: 2, +170: 1, -50: 0
    assert check(board("Score_NS;MP_NS", "420 2\n170 1\n-50 0\n",
                       tags='[Scoring "MP;MP2"]\n')) == []


def test_tables_that_tie_each_score_with_itself_are_accepted() -> None:
    # the reference verifier's sample: top 4 + 2 = 6; +420: (4 + 1)/6 = 83.3%;
    # +170: (2 + 1)/6 = 50%; -50: (0 + 1)/6 = 16.7%
    assert check(board("Score_NS;Percentage_NS", "420 83.3\n170 50.0\n-50 16.7\n")) == []


def test_matchpoints_with_an_artificial_score_are_factored_and_a_note_says_so() -> None:
    # +420 and -50 get 2 and 0 between them (top 2), factored to three results (Neuberg):
    # (2 + 1) x 3 / 2 - 1 = 3.5 and (0 + 1) x 3 / 2 - 1 = 0.5 of a top of 2 x 2 = 4; the
    # average plus (^60) gets 60 % of 4 = 2.4
    (found,) = check(board("Score_NS;MP_NS", "420 3.5\n^60 2.4\n-50 0.5\n"))
    assert found.code == "SC035" and found.effective_severity is Severity.INFO
    assert "factored to the whole table" in found.message


def test_matchpoints_with_an_artificial_score_on_the_boards_own_top_are_accepted() -> None:
    # unfactored: 2 and 0 of a top of 2; the award 60 % of 2 = 1.2
    (found,) = check(board("Score_NS;MP_NS", "420 2\n^60 1.2\n-50 0\n"))
    assert found.code == "SC035" and "own top, unfactored" in found.message


def test_a_wrong_share_for_an_artificial_score_is_an_error() -> None:
    # factored, as the other two rows say: the award's 60 % of 4 is 2.4, not 4.0
    found = check(board("Score_NS;MP_NS", "420 3.5\n^60 4.0\n-50 0.5\n"))
    assert codes(found) == ["SC027", "SC035"]
    assert "the artificial score ^60 gets 2.4" in found[0].message
    assert (found[0].line, found[0].column) == (4, 5)


def test_no_matchpoints_with_an_unknown_score_in_the_field_and_a_note_says_why() -> None:
    # score leaves the row out (SC036), and its field is not known
    lost, found = check(board("Score_NS;MP_NS", "420 9\n? 9\n-50 9\n"))
    assert lost.code == "SC036"
    assert found.code == "SC032" and found.effective_severity is Severity.INFO
    assert "MP_NS not checked in a ScoreTable where a row's score is artificial" \
        in found.message


def test_ranks_follow_the_ns_scores_ties_sharing_the_better_rank() -> None:
    # +420 twice: rank 1 (nobody better); +170: two better, rank 3; -50: rank 4
    rows = "1 420 2\n3 170 1\n4 -50 1\n"
    assert check(board("Rank;Score_NS;Multiplicity", rows)) == []
    (found,) = check(board("Rank;Score_NS;Multiplicity", rows.replace("3 170", "2 170")))
    assert found.code == "SC027" and (found.line, found.column) == (4, 1)
    assert "Rank 2 but +170 for N-S ranks 3 among the table's 4 scores" in found.message


def test_ranks_of_a_field_with_an_artificial_score_are_noted() -> None:
    # ^170 is no share of a top (over 100 %): score leaves the row out, and says so
    lost, found = check(board("Rank;Score_NS", "1 420\n2 ^170\n3 -50\n"))
    assert lost.code == "SC036" and "ScoreTable row 2" in lost.message
    assert found.code == "SC032" and found.message.startswith("Rank not checked")


# -- SC029 table-matchpoints-unexplained ---------------------------------------------------------


def test_a_table_whose_figures_mostly_do_not_follow_is_reported_once() -> None:
    # 2 scores: +500 gets 100% (or 75% tied with itself), +470 0% (25%): neither fits
    (found,) = check(board("Score_NS;Percentage_NS", "500 99.4\n470 98.4\n"))
    assert found.code == "SC029" and found.effective_severity is Severity.WARNING
    assert (found.line, found.column) == (2, 14)  # the ScoreTable tag's value


# -- SC028 table-imps-mismatch -------------------------------------------------------------------


def test_imps_against_the_tables_datum() -> None:
    # datum (120 + 50 - 440) / 3 = -90 (Butler: three scores, none left out);
    # 120 - (-90) = 210: 5 IMPs (170-210); 50 - (-90) = 140: 4 IMPs (130-160);
    # -440 - (-90) = -350: -8 IMPs (320-360)
    columns = "Score_NS;IMP_NS;IMP_EW;ButlerDatum"
    butler = '[Scoring "IMP;Butler"]\n'
    assert check(board(columns, "120 5 -5 -90\n50 4 -4 -90\n-440 -8 8 -90\n",
                       tags=butler)) == []
    (found,) = check(board(columns, "120 5 -5 -90\n50 3 -4 -90\n-440 -8 8 -90\n",
                           tags=butler))
    assert found.code == "SC028" and "NS +4 IMPs" in found.message
    assert (found.line, found.column) == (5, 4)


def test_datum_column_is_checked_against_the_tables_scores() -> None:
    # Butler-2 (PBN 2.1 section 3.4.12): +600, +300, -100 leave +300: datum +300;
    # IMPs 300 -> 7, 0, -400 -> -9
    columns = "Score_NS;IMP_NS;ButlerDatum"
    butler_2 = '[Scoring "IMP;Butler-2;Mean"]\n'
    assert check(board(columns, "600 7 300\n300 0 300\n-100 -9 300\n",
                       tags=butler_2)) == []
    # 270 is the mean of all three (800 / 3 = 266.7): not the Butler-2 datum; each row's
    # IMPs follow its stated datum (330 -> 8, 30 -> 1, -370 -> -9)
    found = check(board(columns, "600 8 270\n300 1 270\n-100 -9 270\n", tags=butler_2))
    assert codes(found) == ["SC034"]
    assert "ButlerDatum 270 but the Butler-2 datum of the table's 3 scores is +300" \
        in found[0].message and "(and 2 more rows)" in found[0].message
    assert (found[0].line, found[0].column) == (4, 7)  # row 1, its datum cell


def test_plain_butler_datum_of_all_scores_is_noted_as_the_standards_reading() -> None:
    # five scores 450 420 170 170 -50: pbnkit leaves out 450 and -50: 760 / 3 = 253.3 ->
    # 250; the mean of all five is 1160 / 5 = 232 -> 230, as PBN 2.1 words plain Butler
    columns = "Score_NS;Datum"
    rows = "450 230\n420 230\n170 230\n170 230\n-50 230\n"
    (found,) = check(board(columns, rows, tags='[Scoring "IMP;Butler"]\n'))
    assert found.code == "SC035" and "mean of all its 5 scores (+230)" in found.message
    # 240 is neither: an error
    assert codes(check(board(columns, rows.replace("230", "240"),
                             tags='[Scoring "IMP;Butler"]\n'))) == ["SC034"]


def test_an_expert_datum_is_noted_not_checked() -> None:
    (found,) = check(board("Score_NS;Datum", "420 400\n170 400\n",
                           tags='[Scoring "IMP;Experts"]\n'))
    assert found.code == "SC032" and "Datum not checked" in found.message


def test_cross_imps_sum_against_every_other_score() -> None:
    # +420: imps(250) + imps(470) = 6 + 10 = 16; +170: -6 + imps(220) = -6 + 6 = 0;
    # -50: -10 - 6 = -16
    cross = '[Scoring "IMP;Cross"]\n'
    assert check(board("Score_NS;IMP_NS", "420 16\n170 0\n-50 -16\n", tags=cross)) == []
    assert codes(check(board("Score_NS;IMP_NS", "420 16\n170 1\n-50 -16\n", tags=cross))) \
        == ["SC028"]


def test_imps_without_a_datum_are_not_checked_and_a_note_says_why() -> None:
    (found,) = check(board("Score_NS;IMP_NS", "420 99\n170 -99\n",
                           tags='[Scoring "IMP;Butler"]\n'))
    assert found.code == "SC032" and "it has no datum column" in found.message


def test_matchpoints_under_an_imp_scoring_are_noted_not_checked() -> None:
    # the IMPs are checked: 420 - 170 = 250, 6 IMPs
    (found,) = check(board("Score_NS;IMP_NS;Percentage_NS", "420 6 100\n170 -6 0\n",
                           tags='[Scoring "IMP;Cross"]\n'))
    assert found.code == "SC032"
    assert "Percentage_NS not checked in a ScoreTable where Scoring says 'cross'" \
        in found.message


def test_cross2_imps_of_a_single_result_are_noted_not_checked() -> None:
    # one comparison fewer than results: nothing to divide by
    (found,) = check(board("Score_NS;IMP_NS", "420 0\n", tags='[Scoring "IMP;Cross2"]\n'))
    assert found.code == "SC032" and "where it holds one result" in found.message


def test_victory_points_in_a_score_table_are_noted_not_checked() -> None:
    (found,) = check(board("Score_NS;VP_NS;VP_EW", "420 12 8\n170 8 12\n"))
    assert found.code == "SC032" and found.message.startswith("VP_NS, VP_EW not checked")


# -- the arithmetic ------------------------------------------------------------------------------


def test_figures_agree_within_one_unit_of_their_last_digit() -> None:
    assert agrees(read_number("57.6"), 57.65)  # type: ignore[arg-type]
    assert agrees(read_number("57.7"), 57.65)  # type: ignore[arg-type]
    assert not agrees(read_number("57.8"), 57.65)  # type: ignore[arg-type]
    assert agrees(read_number("620"), 620)  # type: ignore[arg-type]
    assert not agrees(read_number("620"), 630)  # type: ignore[arg-type]
    assert read_number("+550") == 550 and read_number("100.") == 100
    assert read_number("1e3") is None and read_number("NaN") is None


def test_score_ns_with_old_mp() -> None:
    from pbnkit.model import Contract, Seat, Vulnerability

    # 4HX by E, 6 tricks (down 4), nobody vulnerable: 100 + 200 + 200 + 300 = 800 to N-S;
    # OldMP: 100 + 200 + 200 + 200 = 700
    contract = Contract.from_pbn("4HX")
    assert score_ns(contract, Seat.E, 6, Vulnerability.NONE) == 800
    assert score_ns(contract, Seat.E, 6, Vulnerability.NONE, old_mp=True) == 700
    # vulnerable, OldMP changes nothing: 200 + 300 x 3 = 1100
    assert score_ns(contract, Seat.E, 6, Vulnerability.EW, old_mp=True) == 1100


# -- Neuberg: a board with fewer results than the event's most --------------------------------

# A pairs event, nobody vulnerable. Board 1 has three results, board 2 two: pbnkit score
# factors board 2 to three results (Neuberg's formula): (MP + 1) x 3 / 2 - 1.
# Board 1: +420 beats both (4 of 4), +170 beats -50 (2), -50 nothing (0).
EVENT = """[Event "club"]
[Board "1"]
[Vulnerable "None"]
[Scoring "MP"]
[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;MP_NS;MP_EW"]
1 4 4S N 10  420 4 0
2 5 3S N 10  170 2 2
3 6 4S N  9  -50 0 4

[Event "club"]
[Board "2"]
[Vulnerable "None"]
[Scoring "MP"]
[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;{columns}"]
1 5 4S N 10  420 {first}
2 6 3S N 10  170 {second}
"""


def event(columns: str, first: str, second: str) -> str:
    return EVENT.format(columns=columns, first=first, second=second)


def test_neuberg_factored_table_figures_are_accepted_and_noted() -> None:
    # +420: raw 2 of 2 -> (2 + 1) x 3 / 2 - 1 = 3.5 of 4 (87.5%); E-W 0.5 (12.5%)
    # +170: raw 0 -> (0 + 1) x 3 / 2 - 1 = 0.5 of 4 (12.5%); E-W 3.5 (87.5%)
    found = check(event("MP_NS;MP_EW;Percentage_NS", "3.5 0.5 87.5", "0.5 3.5 12.5"))
    assert codes(found) == ["SC035"]
    assert "factored to it (Neuberg), as pbnkit score factors them (board 2 first, 2 " \
        "results)" in found[0].message


def test_plain_table_figures_of_a_short_board_are_accepted_and_noted() -> None:
    # unfactored: +420 2 of a top of 2 (100%), +170 0 (0%)
    found = check(event("MP_NS;MP_EW;Percentage_NS", "2 0 100", "0 2 0"))
    assert codes(found) == ["SC035"]
    assert "are plain, not factored (Neuberg)" in found[0].message


def test_factored_figures_that_are_wrong_are_errors() -> None:
    # 3.5 of 4 is right for +420; 1.5 and 2.5 for +170 are neither 0.5 and 3.5 (Neuberg)
    # nor 0 and 2 (plain)
    found = check(event("MP_NS;MP_EW", "3.5 0.5", "1.5 2.5"))
    assert codes(found) == ["SC027", "SC027", "SC035"]
    assert "MP_NS 1.5 but +170 for N-S gets 0.5 among the table's 2 scores (MP1, Neuberg " \
        "from 2 results to 3)" in found[0].message


def test_figures_factored_to_another_field_are_warned_about() -> None:
    # percentages factored to 4 results: +420 (2 + 1) x 4 / 2 - 1 = 5 of 6 = 83.33%,
    # +170 (0 + 1) x 4 / 2 - 1 = 1 of 6 = 16.67%; but the event's boards have at most 3
    found = check(event("Percentage_NS", "83.33", "16.67"))
    assert codes(found) == ["SC029"]
    assert "factored (Neuberg) from 2 results to 4, but the event's boards have at most 3" \
        in found[0].message
