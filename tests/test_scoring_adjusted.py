"""Club scoring programs' spellings and artificial scores (Law 12C2), scored and
validated alike: Law 12C2 of the Laws of Duplicate Bridge."""

from __future__ import annotations

from collections import Counter

import pytest
from click.testing import CliRunner

from pbnkit.cli import main
from pbnkit.model import PASSED_OUT, Contract
from pbnkit.model.adjusted import ArtificialScore, read_artificial
from pbnkit import read_text
from pbnkit.replay.tags import read_contract
from pbnkit.rules.fixes import fix_bytes
from pbnkit.pipeline.validate import validate_file
from pbnkit.scoring.report import score_games

DEAL = "N:AKQ2.K32.432.432 J543.QJ4.QJ5.QJ5 T986.A65.AK6.AK6 7.T987.T987.T987"

# A Mitchell of four tables as a club program writes it: N-S pairs 1-4 stay N-S, E-W pairs
# 5-8 move. Board 1 holds a starred double, an average written "A A A" and a passed-out
# board written PO; board 2 an average plus to N-S written in the Contract cell.
CLUB = f"""[Event "Club pairs"]
[Scoring "MP"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "{DEAL}"]
[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW"]
1 5 4S  N 10 420 -
2 6 3D* E 8  100 -
3 7 A   A A  -   -
4 8 PO  - -  0   -

[Event "Club pairs"]
[Scoring "MP"]
[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Deal "{DEAL}"]
[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW"]
1 6 4S  N 10 620 -
2 7 4S  N 9  -   100
3 8 4S  N 11 650 -
4 5 A+  - -  -   -
"""


@pytest.mark.parametrize(("text", "ew", "ns_share", "ew_share"), [
    ("A", False, 50, 50), ("A=", False, 50, 50), ("A+", False, 60, 40),
    ("a-", False, 40, 60), ("A5050", False, 50, 50), ("A6040", False, 60, 40),
    ("^60", False, 60, 40), ("60%", False, 60, 40), ("40%/60%", False, 40, 60),
    # in an E-W column a single figure is E-W's share
    ("^60", True, 40, 60), ("A+", True, 40, 60),
])
def test_artificial_scores_are_read_in_every_spelling(text: str, ew: bool, ns_share: float,
                                                       ew_share: float) -> None:
    award = read_artificial(text, ew=ew)
    assert award is not None
    assert (award.ns, award.ew) == (ns_share, ew_share)


@pytest.mark.parametrize("text", ["420", "-", "?", "4S", "3D*", "Pass", "", "^-100", "A7"])
def test_scores_and_contracts_are_no_artificial_score(text: str) -> None:
    assert read_artificial(text) is None


def test_law_12c2_imps_are_3_for_average_plus_and_minus() -> None:
    assert ArtificialScore(60, 40, "A+").imps_ns == pytest.approx(3)
    assert ArtificialScore(60, 40, "A+").imps_ew == pytest.approx(-3)
    assert ArtificialScore(50, 50, "A").imps_ns == 0
    # average plus to both sides: each gains 3
    assert ArtificialScore(60, 60, "A+ A+").imps_ew == pytest.approx(3)
    assert ArtificialScore(60, 40, "^2", imps=2).imps_ns == 2


@pytest.mark.parametrize(("text", "meant"), [
    ("3D*", "3DX"), ("3d**", "3DXX"), ("4H*", "4HX"), ("PO", "Pass"), ("AP", "Pass"),
    ("P", "Pass"), ("pass", "Pass"),
])
def test_scoring_programs_contract_spellings_are_read(text: str, meant: str) -> None:
    contract = read_contract(text)
    assert contract == (PASSED_OUT if meant == "Pass" else Contract.from_pbn(meant))


def _sheet(text: str, neuberg: bool = True):  # noqa: ANN202 -- a ScoreReport
    from pbnkit.scoring.report import score_collected
    from pbnkit.scoring.records import results_of

    games = read_text(text, "club.pbn")
    results = [result for game in games for result in results_of(game)]
    return score_collected(results, {"club.pbn": "MP"}, neuberg=neuberg).sheet


def test_every_row_of_a_club_session_is_scored() -> None:
    sheet = _sheet(CLUB)
    assert not [p for p in sheet.problems if p.kind == "unscored-board"]
    scores = [b.score_ns for b in sheet.boards]
    # 3D* by E, 8 tricks, not vulnerable: down 1 doubled, 100 to N-S; PO scores 0;
    # the awards have no score of their own
    assert scores == [420, 100, None, 0, 620, -100, 650, None]


def test_an_average_is_half_the_top_and_the_other_results_are_factored() -> None:
    boards = _sheet(CLUB).boards
    # Board 1: four results, top 2 x 3 = 6. The average gives each side 50 %: 3.
    # The three played results, 420, 100 and 0, are matchpointed among themselves
    # (4, 2, 0 of a top of 4) and factored to four results: (MP + 1) x 4 / 3 - 1.
    assert [b.mp_ns for b in boards[:4]] == pytest.approx([5 * 4 / 3 - 1, 3 * 4 / 3 - 1, 3,
                                                           1 * 4 / 3 - 1])
    assert boards[2].mp_ew == 3 and boards[2].pct_ns == 50
    # Board 2: A+ to N-S is 60 % of 6 = 3.6, and E-W get 40 %: 2.4
    assert (boards[7].mp_ns, boards[7].mp_ew) == pytest.approx((3.6, 2.4))
    assert (boards[7].pct_ns, boards[7].pct_ew) == (60, 40)


def test_without_neuberg_each_board_has_its_own_top() -> None:
    sheet = _sheet(CLUB, neuberg=False)
    assert any("--no-neuberg" in note for note in sheet.notes)  # the sheet says so
    boards = sheet.boards
    # Board 1's played results on their own top of 4: 4, 2, 0; the average half of it
    assert [b.mp_ns for b in boards[:4]] == [4, 2, 2, 0]
    # Board 2: A+ is 60 % of 4
    assert (boards[7].mp_ns, boards[7].mp_ew) == pytest.approx((2.4, 1.6))


def test_the_pairs_totals_count_the_awards() -> None:
    rankings = {(line.direction, line.id): line for line in _sheet(CLUB).rankings}
    third = 4 / 3 - 1  # a bottom factored to four results
    # N-S 4: board 1 passed out (the bottom, factored), board 2 average plus (3.6)
    assert rankings["NS", "4"].total == pytest.approx(third + 3.6)
    assert rankings["NS", "4"].boards == 2
    # over two tops of 6
    assert rankings["NS", "4"].percentage == pytest.approx((third + 3.6) / 12 * 100)
    # E-W 5: board 1 beaten by 420 (E-W get 6 - 5.667), board 2 average minus (2.4)
    assert rankings["EW", "5"].total == pytest.approx(6 - (5 * 4 / 3 - 1) + 2.4)
    # N-S 1 and N-S 3 tie on 8.667 of 12: 5.667 + 3 and 3 + 5.667
    assert rankings["NS", "1"].rank == rankings["NS", "3"].rank == 1


def test_butler_gives_an_award_3_imps() -> None:
    text = CLUB.replace('"MP"', '"IMP;Butler"')
    games = read_text(text, "club.pbn")
    from pbnkit.scoring.records import results_of
    from pbnkit.scoring.report import score_collected

    results = [result for game in games for result in results_of(game)]
    boards = score_collected(results, {"club.pbn": "IMP;Butler"}).sheet.boards
    # Board 2's played results 620, -100, 650 give the datum (mean 390); the A+ row is
    # worth 3 IMPs to N-S and is no part of the datum
    assert boards[7].imp_ns == pytest.approx(3)
    assert boards[4].datum == 390
    # 620 - 390 = 230: 6 IMPs
    assert boards[4].imp_ns == 6


def test_validate_reads_the_spellings_and_says_what_they_are(tmp_path) -> None:
    path = tmp_path / "club.pbn"
    path.write_text(CLUB)
    report, found = validate_file(path)
    codes = Counter(d.code for d in found)
    # 3D*, A (contract cell), PO and A+: each a warning of its own, nothing unscored
    assert codes["TG022"] == 1 and codes["TG023"] == 1 and codes["TG024"] == 2
    assert "SC036" not in codes
    assert report.errors == 0
    star = next(d for d in found if d.code == "TG022")
    assert (star.line, star.column) == (9, 5)  # the 3D* cell


def test_fix_writes_a_starred_double_and_po_as_pbn_spells_them() -> None:
    data, fixes = fix_bytes(b'[Contract "3D*"]\n\n[Contract "PO"]\n\n[Contract "4H**"]\n')
    assert data == b'[Contract "3DX"]\n\n[Contract "Pass"]\n\n[Contract "4HXX"]\n'
    assert Counter(fix.code for fix in fixes) == {"TG022": 2, "TG023": 1}


def test_an_unreadable_row_is_a_finding_of_validate_and_a_problem_of_score(tmp_path) -> None:
    # a contract that cannot be read, and no score to keep instead
    text = CLUB.replace("3D* E 8  100 -", "3D/ E 8  -   -")
    path = tmp_path / "club.pbn"
    path.write_text(text)
    _, found = validate_file(path)
    lost = [d for d in found if d.code == "SC036"]
    assert [(d.line, d.column, d.board) for d in lost] == [(9, 1, "1")]
    assert "ScoreTable row 2" in lost[0].message
    problems = [p for p in score_games(read_text(text, str(path))).sheet.problems
                if p.kind == "unscored-board"]
    assert [p.message for p in problems] == [d.message for d in lost]


def test_a_contract_without_result_is_information(tmp_path) -> None:
    path = tmp_path / "saved.pbn"
    path.write_text(f'[Board "1"]\n[Deal "{DEAL}"]\n[Contract "4S"]\n[Declarer "N"]\n')
    _, found = validate_file(path)
    lost = [d for d in found if d.code == "SC036"]
    assert len(lost) == 1 and lost[0].effective_severity.value == "info"
    assert (lost[0].line, lost[0].column) == (3, 12)


def test_score_cli_ranks_a_club_session_without_dropping_rows(tmp_path) -> None:
    path = tmp_path / "club.pbn"
    path.write_text(CLUB)
    result = CliRunner().invoke(main, ["score", str(path)])
    assert result.exit_code == 0, result.output
    assert "not scored" not in result.output
    assert "A+" in result.output  # the award is shown where the contract goes


def _board(number: int, rows: str) -> str:
    dealer = "NESW"[(number - 1) % 4]
    return (f'[Event "Howell"]\n[Scoring "IMP;Butler-2"]\n[Board "{number}"]\n'
            f'[Dealer "{dealer}"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n'
            '[ScoreTable "PairId_NS;PairId_EW;Contract;Declarer;Result;Score_NS;Score_EW"]\n'
            f"{rows}\n")


# Five pairs, two tables, a pair sitting out each board (Magic Contest writes the sit-out
# as a row of its own, Bye in its score cells). 420 is 4S= and 170 3S+1, by North.
HOWELL = "\n".join([
    _board(1, '1 2 4S N 10 420 -\n3 4 3S N 10 170 -\n- 5 - - - "Bye" "Bye"'),
    _board(2, '1 3 4S N 10 420 -\n2 5 3S N 10 170 -\n- 4 - - - "Bye" "Bye"'),
    _board(3, '4 5 4S N 10 420 -\n2 3 3S N 10 170 -\n- 1 - - - "Bye" "Bye"'),
])


def test_a_pair_that_sat_out_is_credited_with_its_average() -> None:
    games = read_text(HOWELL, "howell.pbn")
    report = score_games(games)
    assert not report.sheet.problems  # a bye is no result, and nothing is lost
    # Butler-2 on two results keeps both: datum (420 + 170) / 2 = 295, to 300. 420 is 120
    # over it, 3 IMPs; 170 is 130 under it, -4.
    # pair 1: +3 +3 on boards 1 and 2 (sat out board 3): 6, credited 6 / 2 x 3 = 9
    # pair 2: -3 -4 -4: -11 over all three; pair 3: -4 -3 +4: -3
    # pair 4: +4 +3 (sat out board 2): 7, credited 10.5; pair 5: +4 -3: 1, credited 1.5
    lines = {line.id: line for line in report.sheet.rankings}
    assert {pair: (line.total, line.credited) for pair, line in lines.items()} == {
        "1": (6, 9), "2": (-11, None), "3": (-3, None), "4": (7, 10.5), "5": (1, 1.5)}
    assert [line.id for line in sorted(lines.values(), key=lambda line: line.rank)] == [
        "4", "1", "5", "3", "2"]


def _room(room: str, board: int, contract: str, extra: str = "") -> str:
    dealer = "NESW"[(board - 1) % 4]
    result = '[Declarer "N"]\n[Result "10"]\n' if contract[0].isdigit() else ""
    return (f'[Event "Match"]\n[Scoring "IMP"]\n[Room "{room}"]\n[Board "{board}"]\n'
            f'[Dealer "{dealer}"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n'
            f'[Contract "{contract}"]\n{result}{extra}')


# Board 1 is compared: 4S= (+420) in the Open room, 3S+1 (+170) in the Closed. On board 2
# the Open room's N-S (team A) were given average plus; on board 3 the Closed room's N-S
# (team B) an average with 2 IMPs stated.
MATCH = "\n".join([
    _room("Open", 1, "4S"), _room("Closed", 1, "3S"),
    _room("Open", 2, "A+"), _room("Closed", 2, "4S"),
    _room("Open", 3, "4S"), _room("Closed", 3, "A", '[ScoreIMP "NS 2"]\n'),
])


def test_a_team_match_counts_an_award_as_its_imps() -> None:
    report = score_games(read_text(MATCH, "match.pbn"))
    assert not report.sheet.problems
    (match,) = report.sheet.matches
    # board 1: 420 - 170 = 250, 6 IMPs to A; board 2: average plus to A, Law 12C2's 3;
    # board 3: the 2 IMPs stated for the Closed room's N-S, who are team B: -2 for A
    assert [(b.board, b.diff, b.imps, b.adjusted) for b in match.boards] == [
        ("1", 250, 6, None), ("2", None, 3, "A+"), ("3", None, -2, "A")]
    assert match.imps_a == 7


def test_a_table_of_team_matches_holds_no_board_results(tmp_path) -> None:
    # Ruter writes a team event's matches in a ScoreTable (teams, VPs): no row is a result
    path = tmp_path / "teams.pbn"
    path.write_text('[Event "Teams"]\n[Board "1"]\n'
                    '[ScoreTable "Round;Table;TeamId_Home;TeamId_Away;VP_Home;VP_Away"]\n'
                    "1 1 1 2 15.75 4.25\n1 2 3 4 13.45 6.55\n")
    assert [d.code for d in validate_file(path)[1] if d.code == "SC036"] == []
    problems = score_games(read_text(path.read_text(), str(path))).sheet.problems
    assert [p.message for p in problems] == ["not scored: no contract"]
