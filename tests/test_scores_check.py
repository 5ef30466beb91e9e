"""SC020-SC025 and SC030: stated score tags against what the records are worth.

Expected figures are worked out by hand from the Laws of Duplicate Bridge and of Rubber
Bridge, with the arithmetic beside them.
"""

from __future__ import annotations

from decimal import Decimal

import pbnkit
from pbnkit.diagnostics import Diagnostic, Severity
from pbnkit.model import Side
from pbnkit.rules.scores import ScoreChecks, read_rubber, read_stated


def check(*games: str, profile: str | None = None) -> list[Diagnostic]:
    """Run the checks over games joined into one file, as validate will."""
    checks = ScoreChecks(profile)
    found: list[Diagnostic] = []
    for game in pbnkit.read_text("\n".join(games), "event.pbn"):
        found += checks.add(game)
    return found + checks.finish()


def codes(found: list[Diagnostic]) -> list[str]:
    return [d.code for d in found]


def record(*tags: str, board: str = "1", vulnerable: str | None = "None", declarer: str = "N",
           contract: str = "4S", result: str = "10", event: str = "Club") -> str:
    head = [f'[Event "{event}"]', f'[Board "{board}"]']
    if vulnerable is not None:
        head.append(f'[Vulnerable "{vulnerable}"]')
    head += [f'[Declarer "{declarer}"]', f'[Contract "{contract}"]', f'[Result "{result}"]']
    return "\n".join(head + list(tags)) + "\n"


# -- reading the tags --------------------------------------------------------------------------


def test_score_forms_are_read_with_signs_and_blanks() -> None:
    (game,) = pbnkit.read_text('[Score "NS +550"]\n[ScoreIMP " EW 3.5  NS -3.5"]\n'
                               '[ScoreMP "-100"]\n[ScorePercentage "NS x"]\n')
    tags = {name: game.tag(name) for name in ("Score", "ScoreIMP", "ScoreMP", "ScorePercentage")}
    score = read_stated(tags["Score"], "NS +550")  # type: ignore[arg-type]
    assert score is not None and score.sides == ((Side.NS, Decimal(550)),)
    imps = read_stated(tags["ScoreIMP"], " EW 3.5  NS -3.5")  # type: ignore[arg-type]
    assert imps is not None
    assert imps.sides == ((Side.EW, Decimal("3.5")), (Side.NS, Decimal("-3.5")))
    bare = read_stated(tags["ScoreMP"], "-100")  # type: ignore[arg-type]
    assert bare is not None and bare.bare == -100 and bare.claims(Side.EW) == [(Side.EW, -100)]
    assert read_stated(tags["ScorePercentage"], "NS x") is None  # type: ignore[arg-type]
    assert read_stated(tags["Score"], "NS 1 NS 2") is None  # type: ignore[arg-type]


def test_score_rubber_forms() -> None:
    (game,) = pbnkit.read_text('[ScoreRubber "x"]\n')
    tag = game.tag("ScoreRubber")
    assert tag is not None
    stated = read_rubber(tag, "EW 300/40 NS 50 / 70  ")
    assert stated is not None and stated.sides == ((Side.EW, (300, 40)), (Side.NS, (50, 70)))
    bare = read_rubber(tag, "300/40")
    assert bare is not None and bare.bare == (300, 40)
    assert read_rubber(tag, "NS 1/2 NS 3/4") is None
    assert read_rubber(tag, "NS -50/0") is None


# -- SC020 score-mismatch ------------------------------------------------------------------------


def test_score_that_matches_law_77_passes() -> None:
    # 4S by N, 10 tricks, not vulnerable: 4 x 30 = 120 + 300 game = 420 for N-S
    assert check(record('[Score "NS 420"]')) == []
    assert check(record('[Score "+420"]')) == []  # bare: declarer's side
    assert check(record('[Score "EW -420 NS 420"]')) == []


def test_score_that_disagrees_is_an_error_at_the_tag() -> None:
    (found,) = check(record('[Score "NS 450"]'))
    assert found.code == "SC020" and found.effective_severity is Severity.ERROR
    assert (found.line, found.column) == (7, 9)  # [Score " is eight characters
    assert (found.path, found.board) == ("event.pbn", "1")
    assert "scores NS +420" in found.message


def test_bare_score_is_declarer_sides() -> None:
    # 3NT by E, 9 tricks, board 2 (N-S vulnerable, E-W not): 40 + 30 + 30 + 300 = 400 to E-W
    game = record('[Score "400"]', board="2", vulnerable=None, declarer="E", contract="3NT",
                  result="9")
    assert check(game) == []
    assert codes(check(game.replace('"400"', '"NS 400"'))) == ["SC020"]


def test_vulnerability_comes_from_the_board_number_without_a_vulnerable_tag() -> None:
    # board 4 is vulnerable for all: 4H by S, 10 tricks: 120 + 500 = 620
    assert check(record('[Score "NS 620"]', board="4", vulnerable=None, declarer="S",
                        contract="4H")) == []
    assert codes(check(record('[Score "NS 420"]', board="4", vulnerable=None,
                              declarer="S", contract="4H"))) == ["SC020"]


def test_passed_out_board_scores_nothing() -> None:
    assert check(record('[Score "NS 0"]', declarer="", contract="Pass", result="")) == []
    assert codes(check(record('[Score "NS 50"]', declarer="", contract="Pass",
                              result=""))) == ["SC020"]


def test_record_without_result_is_not_compared() -> None:
    # what score cannot score is said, as information (SC036), and nothing is compared
    (found,) = check(record('[Score "NS 9999"]', result=""))
    assert found.code == "SC036" and found.effective_severity is Severity.INFO
    assert found.message == "not scored: contract 4S has no result"


def test_old_mp_keeps_undertricks_from_the_fourth_at_200() -> None:
    # 3NTX by N, 4 tricks, not vulnerable: down 5. Law 77: 100 + 200 + 200 + 300 + 300 = 1100;
    # OldMP: 100 + 200 + 200 + 200 + 200 = 900
    old = record('[Scoring "MP;OldMP"]', '[Score "NS -900"]', contract="3NTX", result="4")
    assert check(old) == []
    assert codes(check(old.replace("MP;OldMP", "MP"))) == ["SC020"]
    assert check(old.replace("MP;OldMP", "MP").replace("-900", "-1100")) == []


def test_score_followed_by_commentary_only_warns() -> None:
    (found,) = check(record('[Score "NS 320"]\n{ adjusted by the director }'))
    assert found.code == "SC020" and found.effective_severity is Severity.WARNING


def test_score_is_not_checked_in_a_rubber_file() -> None:
    assert check(record('[Scoring "Rubber"]', '[Score "NS 450"]')) == []


def test_a_later_scoring_tag_decides_for_earlier_games() -> None:
    wrong = record('[Score "NS 450"]')
    # as rubber, 4S made wins N-S a game: the second deal is N-S vulnerable
    assert check(wrong, record('[Scoring "Rubber"]', board="2", vulnerable="NS")) == []
    found = check(wrong, record('[Scoring "IMP"]', board="2"))
    assert codes(found) == ["SC020"] and found[0].board == "1"
    assert codes(check(wrong, profile="duplicate")) == ["SC020"]


# -- SC021 imps-mismatch, SC030 imps-not-checked -------------------------------------------------

# Open room: 4S by N, 10 tricks = +420; Closed room: 3S by N, 10 tricks = 90 + 30 + 50 = +170.
# Difference 420 - 170 = 250: 6 IMPs (220-260) to team A, who sit N-S in the Open room.


def match(open_imps: str, closed_imps: str, scoring: str = "IMP") -> list[Diagnostic]:
    return check(
        record(f'[Scoring "{scoring}"]', '[Room "Open"]', f'[ScoreIMP "{open_imps}"]'),
        record(f'[Scoring "{scoring}"]', '[Room "Closed"]', f'[ScoreIMP "{closed_imps}"]',
               contract="3S"),
    )


def test_imps_of_both_rooms_from_each_ns_point_of_view() -> None:
    assert match("NS 6", "NS -6") == []
    assert match("NS 6 EW -6", "EW 6") == []
    assert match("6", "-6") == []  # bare: declarer N is N-S in both rooms


def test_imps_that_disagree_are_an_error() -> None:
    found = match("NS 5", "NS 6")
    assert codes(found) == ["SC021", "SC021"]
    assert "NS +6 IMPs" in found[0].message and "NS -6 IMPs" in found[1].message
    assert all(d.effective_severity is Severity.ERROR for d in found)


def test_one_room_only_is_not_compared_and_says_so_once() -> None:
    found = check(record('[Room "Open"]', '[ScoreIMP "NS 13"]'),
                  record('[Room "Open"]', '[ScoreIMP "NS 2"]', board="2"))
    assert codes(found) == ["SC032"]
    assert found[0].effective_severity is Severity.INFO
    assert "not compared between two rooms" in found[0].message


def test_score_imp_without_a_room_is_noted_as_not_checked() -> None:
    (found,) = check(record('[ScoreIMP "NS 13"]'))
    assert found.code == "SC032" and "has no Room" in found.message


def test_butler_imps_are_noted_once_and_not_checked() -> None:
    found = match("NS 5", "NS 5", scoring="IMP;Butler")
    assert codes(found) == ["SC030"]
    assert found[0].effective_severity is Severity.INFO


def test_matchpoints_on_team_match_records_are_noted_not_checked() -> None:
    found = check(record('[Room "Open"]', '[ScorePercentage "NS 60"]'),
                  record('[Room "Closed"]', contract="3S"))
    assert codes(found) == ["SC032"]
    assert found[0].message.startswith("ScorePercentage not checked on a record with a Room")


def test_imps_against_the_mean_are_butler_imps() -> None:
    # Scoring "IMP;Mean": Butler against the mean, as score takes it. +420, +170, -50: datum
    # 180; +420 is 240 over it, 6 IMPs
    found = pairs('[ScoreIMP "NS 6"]', '[ScoreIMP "NS 0"]', '[ScoreIMP "NS -6"]',
                  scoring="IMP;Mean")
    assert found == []
    (wrong,) = pairs('[ScoreIMP "NS 5"]', scoring="IMP;Mean")
    assert wrong.code == "SC033" and "gets NS 6 IMPs" in wrong.message


# -- SC022 matchpoints-mismatch-in-file ----------------------------------------------------------

# Three results of board 1, nobody vulnerable: 4S= +420, 3S+1 +170, 4S-1 -50.
# MP1: top 2 x (3 - 1) = 4; +420 beats two: 4; +170 beats one: 2; -50: 0.


def pairs(first: str = "", second: str = "", third: str = "",
          scoring: str = "MP") -> list[Diagnostic]:
    tags = [[f'[Scoring "{scoring}"]'] + ([t] if t else []) for t in (first, second, third)]
    return check(record(*tags[0]), record(*tags[1], contract="3S"), record(*tags[2], result="9"))


def test_matchpoints_of_the_files_results_pass() -> None:
    assert pairs('[ScoreMP "NS 4"]', '[ScoreMP "EW 2"]', '[ScoreMP "NS 0 EW 4"]') == []
    # percentages: 4/4 = 100, 2/4 = 50, 0/4 = 0
    assert pairs('[ScorePercentage "NS 100"]', '[ScorePercentage "50.0"]',
                 '[ScorePercentage "EW 100"]') == []


def test_matchpoints_that_disagree_only_warn() -> None:
    (found,) = pairs(third='[ScoreMP "NS 1"]')
    assert found.code == "SC022" and found.effective_severity is Severity.WARNING
    assert "computed from the 3 results of this board in this file" in found.message
    assert codes(pairs('[ScorePercentage "NS 66.7"]')) == ["SC022"]


def test_mp2_gives_half_the_matchpoints() -> None:
    # MP2: top 1 x (3 - 1) = 2; +420: 2, +170: 1, -50: 0
    assert pairs('[ScoreMP "NS 2"]', '[ScoreMP "NS 1"]', scoring="MP;MP2") == []
    assert codes(pairs(third='[ScoreMP "NS 1"]', scoring="MP;MP2")) == ["SC022"]


def test_more_matchpoints_than_the_files_top_means_a_larger_field_and_is_noted() -> None:
    (found,) = pairs('[ScoreMP "NS 40"]')
    assert found.code == "SC032" and found.effective_severity is Severity.INFO
    assert found.message == ("ScoreMP not checked where it is more than the top of 4 "
                             "computed from the 3 results of this board in this file: the "
                             "figure counts a larger field")


def test_one_result_per_board_is_not_compared_and_says_so_once() -> None:
    # BBO exports: one result per board, percentages from the whole field
    found = check(record('[ScorePercentage "NS 91.24"]'),
                  record('[ScorePercentage "NS 57.65"]', board="2"))
    assert codes(found) == ["SC032"]
    assert "holds one result of a board (board 1 first)" in found[0].message


def mitchell(percentages: tuple[str, ...], *, board_2: int = 2) -> list[str]:
    """Board 1 played three times (+420, +170, -50) and board 2 ``board_2`` times (1NT by
    S: 7 tricks +90, 6 tricks -50, 8 tricks +120), nobody vulnerable, each record naming
    its pairs and its round, each with a ScorePercentage from ``percentages`` in order."""
    plays = [("1", "1", "4", "4S", "N", "10", "1"), ("1", "2", "5", "3S", "N", "10", "2"),
             ("1", "3", "6", "4S", "N", "9", "3"), ("2", "1", "4", "1NT", "S", "7", "1"),
             ("2", "2", "5", "1NT", "S", "6", "2"), ("2", "3", "6", "1NT", "S", "8", "3")]
    return [record(f'[PairNS "{ns}"]', f'[PairEW "{ew}"]', f'[Round "{round_}"]',
                   f'[ScorePercentage "NS {percentage}"]', board=board, declarer=declarer,
                   contract=contract, result=tricks)
            for (board, ns, ew, contract, declarer, tricks, round_), percentage
            in zip(plays[:3 + board_2], percentages)]


def test_a_board_with_a_result_missing_is_scaled_by_neuberg() -> None:
    # board 1, top 4: 420 -> 4 (100%), 170 -> 2 (50%), -50 -> 0 (0%). Board 2 has 2 of the
    # 3 results: +90 beats -50, 2 of a top of 2, becomes (2 + 1) x 3 / 2 - 1 = 3.5 of 4 =
    # 87.5%; -50: (0 + 1) x 3 / 2 - 1 = 0.5 of 4 = 12.5%
    assert check(*mitchell(("100", "50", "0", "87.5", "12.5"))) == []
    (found,) = check(*mitchell(("100", "50", "0", "100", "12.5")))
    assert found.code == "SC022" and found.board == "2"
    assert "gets NS 87.5%" in found.message and "Neuberg from 2 results to 3" in found.message


def test_records_of_a_board_in_different_rounds_are_one_field() -> None:
    # the same board in rounds 1, 2 and 3 is one field of three results, as score has it
    # (board 2 complete: +120 -> 100%, +90 -> 50%, -50 -> 0%)
    assert check(*mitchell(("100", "50", "0", "50", "0", "100"), board_2=3)) == []


def test_a_board_played_once_in_a_ranked_event_is_scaled_as_score_scales_it() -> None:
    # board 2 has 1 of 3 results: 0 of a top of 0 becomes (0 + 1) x 3 / 1 - 1 = 2 of 4, 50%
    assert check(*mitchell(("100", "50", "0", "50"), board_2=1)) == []
    assert codes(check(*mitchell(("100", "50", "0", "100"), board_2=1))) == ["SC022"]


def test_stated_matchpoints_agree_with_what_score_computes() -> None:
    from pbnkit.scoring.report import score_games

    text = "\n".join(mitchell(("0",) * 5))
    boards = score_games(pbnkit.read_text(text, "event.pbn")).sheet.boards
    assert [b.pct_ns for b in boards] == [100, 50, 0, 87.5, 12.5]
    stated = text
    for row in boards:
        stated = stated.replace('[ScorePercentage "NS 0"]',
                                f'[ScorePercentage "NS {row.pct_ns:.2f}"]', 1)
    assert check(stated) == []


# -- SC023 matchpoints-mismatch-with-table -------------------------------------------------------

TABLE = ('[ScoreTable "Contract;Declarer;Result;Score_NS"]\n'
         "4S N 10 420\n3S N 10 170\n4S N 9 -50\n")


def test_record_matchpoints_follow_the_score_table() -> None:
    # the record's +420 is the best of the table's 3 scores: 4 of 4 MP1, 100%
    assert check(record('[ScoreMP "NS 4 EW 0"]', '[ScorePercentage "NS 100"]', TABLE)) == []


def test_record_matchpoints_against_the_table_are_an_error() -> None:
    (found,) = check(record('[ScorePercentage "NS 50"]', TABLE))
    assert found.code == "SC023" and found.effective_severity is Severity.ERROR
    assert "in the ScoreTable's 3 results" in found.message


def test_record_matchpoints_against_a_table_of_unknown_matchpoints_are_noted() -> None:
    # an artificial score in the table: the field's matchpoints are not known
    table = TABLE.replace("170\n", "^170\n")
    (found,) = check(record('[ScorePercentage "NS 50"]', table))
    assert found.code == "SC032" and found.line == 7  # the ScorePercentage tag
    assert found.message == ("ScorePercentage not checked against the ScoreTable: the "
                             "table's matchpoints are not known")


def test_a_record_whose_score_is_not_in_its_table_is_noted() -> None:
    # 5S by N with 11 tricks, nobody vulnerable: 150 + 300 = +450, not a row of the table
    (found,) = check(record('[ScorePercentage "NS 100"]', TABLE, contract="5S", result="11"))
    assert found.code == "SC032"
    assert found.message == ("ScorePercentage not checked where the record's score, +450 "
                             "for N-S, is not among the ScoreTable's results")


def test_matchpoints_under_an_imp_scoring_are_noted_once() -> None:
    found = pairs('[ScorePercentage "NS 99"]', '[ScorePercentage "NS 1"]',
                  scoring="IMP;Butler")
    assert codes(found) == ["SC032"]
    assert "Scoring says 'butler', not plain matchpoints" in found[0].message


# -- SC024 rubber-score-mismatch, SC025 rubber-vulnerability-mismatch ----------------------------

# Nobody holds four honours in any strain, nor four aces.
DEAL = '[Deal "N:AKQ2.AK3.432.432 JT93.Q54.AKQ.765 8765.J76.JT9.AKQ 4.T982.8765.JT98"]'


def rubber(third_vulnerable: str = "NS", third_score: str = "NS 50/0",
           first_result: str = "9", scoring: str = "Rubber") -> list[Diagnostic]:
    # 1: 2H by S, 9 tricks: 2 x 30 = 60 below, one overtrick 30 above, to N-S.
    # 2: 2NT by N, 8 tricks: 40 + 30 = 70 below; 60 + 70 = 130: N-S win a game.
    # 3: N-S now vulnerable; 3D by E, 8 tricks: down 1, E-W not vulnerable: 50 above to N-S.
    return check(
        record(f'[Scoring "{scoring}"]', DEAL, '[ScoreRubber "NS 30/60"]', declarer="S",
               contract="2H", result=first_result),
        record(DEAL, '[ScoreRubber "NS 0/70 EW 0/0"]', board="2", contract="2NT", result="8"),
        record(DEAL, f'[ScoreRubber "{third_score}"]', board="3",
               vulnerable=third_vulnerable, declarer="E", contract="3D", result="8"),
    )


def test_rubber_scores_deal_by_deal_pass() -> None:
    assert rubber() == []


def test_rubber_score_that_disagrees_is_an_error() -> None:
    (found,) = rubber(third_score="NS 100/0")
    assert found.code == "SC024" and found.board == "3"
    assert "NS 50/0" in found.message


def test_bare_rubber_score_is_declarer_sides() -> None:
    # E-W declared and went down: E-W wrote nothing on this deal
    assert rubber(third_score="0/0") == []
    assert codes(rubber(third_score="50/0")) == ["SC024"]


def test_vulnerable_tag_against_games_won_warns() -> None:
    (found,) = rubber(third_vulnerable="None")
    assert found.code == "SC025" and found.effective_severity is Severity.WARNING
    # the third game starts at line 20 (9 + 1 + 8 + 1 lines before it); Vulnerable is its
    # third line, and its value starts after '[Vulnerable "'
    assert (found.line, found.column) == (22, 14)


def test_after_an_unscored_deal_the_rubber_is_not_checked_and_a_note_says_so() -> None:
    # without the first result nobody knows who has a game: nothing after it is compared
    lost, found = rubber(third_vulnerable="None", third_score="NS 100/0", first_result="")
    assert lost.code == "SC036" and lost.board == "1"  # the deal score cannot score
    assert found.code == "SC032" and found.board == "2"  # the next ScoreRubber
    assert found.message == ("ScoreRubber not checked after board 1, which could not be "
                             "scored: the games won since are not known")


def test_auction_bridge_1920_has_no_vulnerability() -> None:
    found = check(record('[Scoring "Auction1920"]', vulnerable="NS"))
    assert codes(found) == ["SC025"] and "no vulnerability" in found[0].message
    assert check(record('[Scoring "Auction1920"]')) == []
