"""Law 77 duplicate scores (Laws of Duplicate Bridge), checked by hand and against the oracle."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbnkit.model import Contract, Risk, Seat, Strain, Vulnerability
from pbnkit.scoring import BoardResult, DuplicateProfile, duplicate_score, score_ns
from pbnkit.scoring.duplicate import board_score

ORACLES = Path(__file__).resolve().parents[1].parent / "shared" / "oracles"


def c(text: str) -> Contract:
    return Contract.from_pbn(text)


# -- Law 77's figures, worked by hand --------------------------------------------------------


def test_four_spades_made_not_vulnerable_scores_420() -> None:
    assert duplicate_score(c("4S"), 10, vulnerable=False) == 420  # 4*30 + 300


def test_three_spades_plus_one_not_vulnerable_scores_170() -> None:
    assert duplicate_score(c("3S"), 10, vulnerable=False) == 170  # 3*30 + 30 + 50


def test_four_hearts_doubled_vulnerable_down_two_scores_minus_500() -> None:
    assert duplicate_score(c("4HX"), 8, vulnerable=True) == -500  # -(200 + 300)


# -- each rule on its own --------------------------------------------------------------------


def test_minor_part_score_gets_50() -> None:
    assert duplicate_score(c("2D"), 8, vulnerable=True) == 90  # 2*20 + 50


def test_one_notrump_counts_40_for_the_first_trick() -> None:
    assert duplicate_score(c("1NT"), 7, vulnerable=False) == 90  # 40 + 50


def test_three_notrump_is_a_game() -> None:
    assert duplicate_score(c("3NT"), 9, vulnerable=False) == 400  # 40+30+30 = 100; + 300
    assert duplicate_score(c("3NT"), 9, vulnerable=True) == 600  # 100 + 500


def test_five_of_a_minor_is_a_game_but_four_is_not() -> None:
    assert duplicate_score(c("5C"), 11, vulnerable=True) == 600  # 5*20 = 100; + 500
    assert duplicate_score(c("4C"), 10, vulnerable=True) == 130  # 4*20 = 80; + 50


def test_doubling_into_game_earns_the_game_bonus_and_the_insult() -> None:
    # 2*30*2 = 120 >= 100: game 300; made doubled +50
    assert duplicate_score(c("2HX"), 8, vulnerable=False) == 470


def test_undoubled_overtricks_score_trick_value() -> None:
    assert duplicate_score(c("2D"), 11, vulnerable=False) == 150  # 40 + 50 + 3*20
    assert duplicate_score(c("2NT"), 10, vulnerable=True) == 180  # 70 + 50 + 2*30


def test_doubled_overtricks_score_100_or_200() -> None:
    # 30*2 = 60 part score: 60 + 50 + insult 50 + 1*100
    assert duplicate_score(c("1SX"), 8, vulnerable=False) == 260
    # 60 + 50 + 50 + 1*200
    assert duplicate_score(c("1SX"), 8, vulnerable=True) == 360


def test_redoubled_overtricks_score_twice_the_doubled_ones() -> None:
    # 30*4 = 120: game 300; insult 100; 1*200
    assert duplicate_score(c("1SXX"), 8, vulnerable=False) == 720
    # 120 + 500 + 100 + 2*400
    assert duplicate_score(c("1SXX"), 9, vulnerable=True) == 1520


def test_small_slam_bonus_comes_on_top_of_game() -> None:
    # 40 + 5*30 = 190; game 500; slam 750
    assert duplicate_score(c("6NT"), 12, vulnerable=True) == 1440
    # 6*30 = 180; game 300; slam 500; one overtrick 30
    assert duplicate_score(c("6S"), 13, vulnerable=False) == 1010


def test_grand_slam_bonus() -> None:
    assert duplicate_score(c("7C"), 13, vulnerable=False) == 1440  # 140 + 300 + 1000
    assert duplicate_score(c("7NT"), 13, vulnerable=True) == 2220  # 220 + 500 + 1500


def test_unbid_slam_earns_no_slam_bonus() -> None:
    assert duplicate_score(c("4S"), 12, vulnerable=False) == 480  # 120 + 300 + 2*30


def test_undoubled_undertricks() -> None:
    assert duplicate_score(c("4S"), 7, vulnerable=False) == -150  # 3*50
    assert duplicate_score(c("4S"), 7, vulnerable=True) == -300  # 3*100


@pytest.mark.parametrize(("down", "penalty"), [
    (1, 100),  # 100
    (2, 300),  # 100 + 200
    (3, 500),  # 100 + 200 + 200
    (4, 800),  # 500 + 300
    (5, 1100),  # 800 + 300
])
def test_doubled_undertricks_not_vulnerable(down: int, penalty: int) -> None:
    assert duplicate_score(c("7CX"), 13 - down, vulnerable=False) == -penalty


@pytest.mark.parametrize(("down", "penalty"), [
    (1, 200),  # 200
    (2, 500),  # 200 + 300
    (3, 800),  # 200 + 300 + 300
    (4, 1100),  # 800 + 300
])
def test_doubled_undertricks_vulnerable(down: int, penalty: int) -> None:
    assert duplicate_score(c("7CX"), 13 - down, vulnerable=True) == -penalty


def test_redoubled_undertricks_are_twice_the_doubled_ones() -> None:
    assert duplicate_score(c("4SXX"), 6, vulnerable=False) == -1600  # 2*(100+200+200+300)
    assert duplicate_score(c("4SXX"), 8, vulnerable=True) == -1000  # 2*(200+300)


def test_passed_out_scores_zero() -> None:
    assert duplicate_score(Contract.from_pbn("Pass"), 0, vulnerable=True) == 0


def test_impossible_trick_count_is_refused() -> None:
    with pytest.raises(ValueError, match="14 tricks"):
        duplicate_score(c("1C"), 14, vulnerable=False)


def test_score_ns_gives_east_west_results_a_minus_sign() -> None:
    # E-W vulnerable: 4*30 + 500
    assert score_ns(c("4H"), Seat.E, 10, Vulnerability.EW) == -620
    # N-S not vulnerable on this board: one down undoubled is 50 to E-W
    assert score_ns(c("4H"), Seat.S, 9, Vulnerability.EW) == -50
    assert score_ns(c("3NT"), Seat.W, 8, Vulnerability.NS) == 50  # E-W not vul: 1*50


def test_board_without_vulnerable_tag_takes_it_from_the_board_number() -> None:
    # board 2: N-S vulnerable, so 4*30 + 500
    result = BoardResult(0, "2", Seat.N, c("4H"), 10)
    assert DuplicateProfile().score([result]).boards[0].score_ns == 620


def test_vulnerable_tag_wins_over_the_board_number() -> None:
    # the tag says None although board 2 would be N-S: 4*30 + 300
    result = BoardResult(0, "2", Seat.N, c("4H"), 10, Vulnerability.NONE)
    assert DuplicateProfile().score([result]).boards[0].score_ns == 420


def test_board_without_result_is_reported_not_scored() -> None:
    sheet = DuplicateProfile().score([BoardResult(3, "1", Seat.N, c("4H"), None)])
    assert sheet.boards[0].score_ns is None
    assert [(p.kind, p.index) for p in sheet.problems] == [("unscored-board", 3)]


# -- the whole table against an independent implementation ----------------------------------


def _oracle_rows() -> list[dict[str, str]]:
    path = ORACLES / "duplicate_scores.csv"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_every_row_of_the_law_77_table_matches_the_oracle() -> None:
    rows = _oracle_rows()
    assert len(rows) == 7 * 5 * 3 * 2 * 14  # levels, strains, risks, vul, tricks 0-13
    wrong = []
    for row in rows:
        contract = Contract(int(row["level"]), Strain[row["strain"]], Risk(int(row["doubled"])))
        got = duplicate_score(contract, int(row["tricks"]), vulnerable=row["vul"] == "1")
        if got != int(row["score"]):
            wrong.append((row, got))
    assert wrong == []


# -- properties -----------------------------------------------------------------------------

contracts = st.builds(
    Contract, st.integers(1, 7), st.sampled_from(list(Strain)), st.sampled_from(list(Risk))
)


@given(contracts, st.integers(0, 13), st.booleans())
def test_made_contract_scores_positive_and_failed_one_negative(
    contract: Contract, tricks: int, vulnerable: bool
) -> None:
    score = duplicate_score(contract, tricks, vulnerable)
    assert (score > 0) == (tricks >= contract.tricks_needed)
    assert (score < 0) == (tricks < contract.tricks_needed)


@given(contracts, st.integers(0, 12), st.booleans())
def test_one_more_trick_never_scores_less(
    contract: Contract, tricks: int, vulnerable: bool
) -> None:
    assert duplicate_score(contract, tricks + 1, vulnerable) > duplicate_score(
        contract, tricks, vulnerable
    )


@given(contracts, st.integers(0, 13))
def test_vulnerability_raises_the_stakes(contract: Contract, tricks: int) -> None:
    not_vul = duplicate_score(contract, tricks, vulnerable=False)
    vul = duplicate_score(contract, tricks, vulnerable=True)
    assert abs(vul) >= abs(not_vul)
    assert (vul > 0) == (not_vul > 0)


@given(contracts, st.integers(0, 13), st.sampled_from(list(Seat)),
       st.sampled_from(list(Vulnerability)))
def test_north_south_score_is_declarers_score_with_the_sides_sign(
    contract: Contract, tricks: int, declarer: Seat, vulnerability: Vulnerability
) -> None:
    declarers = duplicate_score(contract, tricks, vulnerability.is_vulnerable(declarer))
    ns = score_ns(contract, declarer, tricks, vulnerability)
    assert ns == (declarers if declarer in (Seat.N, Seat.S) else -declarers)


# -- the scores the -j workers make -----------------------------------------------------------


def _scorable_inputs() -> list[Path]:
    from tests.conftest import CORPUS, SAMPLE_DATA

    files = sorted(SAMPLE_DATA.glob("*.pbn"))
    if CORPUS.is_dir():
        files += sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() in (".pbn", ".lin"))
    return files


def test_a_sheet_from_the_workers_scores_is_the_sheet_scored_whole() -> None:
    """``score`` at any -j: each unit's worker makes its results' Law 77 scores, and the
    parent's sheet from them (problems included: a result the worker could not score is
    looked at again) is the sheet of the results alone."""
    from pbnkit.pipeline.units import Unit
    from pbnkit.pipeline.score import score_unit

    for path in _scorable_inputs():
        scored = score_unit(Unit(str(path), path.stat().st_size))
        profile = DuplicateProfile.for_scoring(next(iter(scored.scoring.values()), None))
        whole = profile.score(scored.results)
        assert profile.score(scored.results, scored.board_scores) == whole, path
        assert scored.board_scores == [row.score_ns for row in whole.boards], path


@pytest.mark.slow
def test_the_sheet_from_the_workers_lines_is_the_sheet_made_whole() -> None:
    """``score -j N`` prints the lines of the table of boards that the workers made: the
    sheet is the one made from the results alone, pairs columns, matchpoints and all."""
    from pbnkit.pipeline.units import Unit
    from pbnkit.pipeline.score import score_unit
    from pbnkit.scoring.report import ScoreReport
    from pbnkit.scoring.text import pieces, render

    checked = 0
    for path in _scorable_inputs():
        unit = Unit(str(path), path.stat().st_size)
        assert score_unit(unit).sheet_lines is None  # made only when asked for
        scored = score_unit(unit, sheet_lines=True)
        assert scored.sheet_lines is not None
        profile = DuplicateProfile.for_scoring(next(iter(scored.scoring.values()), None))
        report = ScoreReport("duplicate", tuple(scored.results), profile.score(scored.results))
        assert "".join(pieces(report, heads=scored.sheet_lines)) == render(report), path
        checked += any(row.mp_ns is not None for row in report.sheet.boards)
    assert checked  # a pairs event's sheet among them, with its matchpoints columns
    with pytest.raises(ValueError, match="1 lines for 0 boards"):
        "".join(pieces(ScoreReport("duplicate", (), DuplicateProfile().score([])),
                       heads=["one"]))


def test_a_result_the_workers_could_not_score_keeps_its_problem() -> None:
    results = [BoardResult(0, "1", Seat.N, c("4S"), 10, Vulnerability.NONE),
               BoardResult(1, "2", Seat.N, c("4S"), None, Vulnerability.NS),  # no result
               BoardResult(2, "3", None, c("3NT"), 9, Vulnerability.EW)]  # no declarer
    scores = [board_score(result)[0] for result in results]
    assert scores == [420, None, None]
    sheet = DuplicateProfile().score(results, scores)
    assert sheet == DuplicateProfile().score(results)
    assert [(p.kind, p.index) for p in sheet.problems] == [("unscored-board", 1),
                                                           ("unscored-board", 2)]
