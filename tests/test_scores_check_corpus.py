"""The score checks on real files: correct figures raise nothing, and a figure changed by
hand is caught. Skipped when the corpus is absent."""

from __future__ import annotations

import collections
from pathlib import Path

import pytest

import pbnkit
from pbnkit.diagnostics import Diagnostic, Severity
from pbnkit.rules.scores import ScoreChecks
from pbnkit.scoring.duplicate import DuplicateProfile
from pbnkit.scoring.records import board_results
from tests.conftest import CORPUS

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")

PBN_TESTS = CORPUS / "timheilman__bridge-pbn" / "spec" / "resource" / "reference_impl_tests"
RUTER = CORPUS / "richardschneider__pbn" / "test" / "sample" / "ruter71.pbn"
ALS = CORPUS / "richardschneider__bridge" / "test" / "sample" / "AlsReg6-Final.pbn"
BBO = CORPUS / "lorserker__ben" / "Boards" / "BBO"
BBA = CORPUS / "lorserker__ben" / "Boards" / "BBA"


def check(path: Path) -> list[Diagnostic]:
    """The score checks of a file, but for the records score cannot score (SC036,
    :func:`not_scored` gives those)."""
    return [d for d in every_check(path) if d.code != "SC036"]


def every_check(path: Path) -> list[Diagnostic]:
    checks = ScoreChecks()
    found: list[Diagnostic] = []
    for game in pbnkit.read(path):
        found += checks.add(game)
    return found + checks.finish()


def not_scored(path: Path) -> list[Diagnostic]:
    return [d for d in every_check(path) if d.code == "SC036"]


def edited(tmp_path: Path, source: Path, line: int, old: str, new: str) -> Path:
    """A copy of a corpus file with one figure changed on one line (1-based)."""
    lines = source.read_bytes().split(b"\n")
    assert old.encode() in lines[line - 1], lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old.encode(), new.encode(), 1)
    copy = tmp_path / source.name
    copy.write_bytes(b"\n".join(lines))
    return copy


def test_ruter_score_tables_are_consistent() -> None:
    # 21 boards x 8 rows: every Score_NS/EW follows from its row, every Butler IMP from the
    # ButlerDatum column (Scoring IMP;Butler-2;Mean)
    assert check(RUTER) == []


def test_ruter_changed_score_is_caught_at_the_cell(tmp_path: Path) -> None:
    # board 1, row 1: 1NT by N, 8 tricks, nobody vulnerable = 40 + 30 + 50 = 120; write 150.
    # Its Butler IMPs are then also wrong: 150 - (-90) = 240 is 6 IMPs, not 5.
    found = check(edited(tmp_path, RUTER, 71, '"120"', '"150"'))
    assert [(d.code, d.line, d.column) for d in found] == [
        ("SC026", 71, 25), ("SC028", 71, 40), ("SC028", 71, 43)]
    assert found[0].board == "1"


def test_reference_sample_tables() -> None:
    # correct_20's ScoreTable (game 45) ties each score with itself and is accepted; game 46
    # repeats only its first two rows under [ScoreTable "#"]: reported once, as a warning
    found = check(PBN_TESTS / "correct_20.pbn")
    # its TotalScoreTable ranks pairs that no result of the file names: noted, not checked
    assert [(d.code, d.line, d.effective_severity) for d in found] == [
        ("SC029", 685, Severity.WARNING), ("SC032", 666, Severity.INFO)]


def test_reference_sample_percentage_changed_is_caught(tmp_path: Path) -> None:
    # first row: +500 twice among 155 results; tied with itself:
    # (2 x 153 + 1 + 1) / (2 x 154 + 2) = 308 / 310 = 99.35%; write 95.0
    found = check(edited(tmp_path, PBN_TESTS / "correct_20.pbn", 640, "99.4", "95.0"))
    assert [(d.code, d.line, d.column) for d in found if d.code == "SC027"] == [
        ("SC027", 640, 5)]


def test_reference_sample_rank_changed_is_caught(tmp_path: Path) -> None:
    # second row: +470, below the two +500s: rank 3; write 2
    found = check(edited(tmp_path, PBN_TESTS / "correct_20.pbn", 641, "  3 98.4", "  2 98.4"))
    assert [(d.code, d.line, d.column) for d in found if d.code == "SC027"] == [
        ("SC027", 641, 3)]


def test_reference_tag_samples_raise_only_a_note() -> None:
    # correct_10 mixes Scoring systems; its first Scoring tag (Chicago) makes it chicago
    # (docs/scoring.md), and its ScoreIMP under IMP_1948 is noted once, not checked. Chicago takes
    # vulnerability from the deal's place in the chukker (Chicago's rule), and five of its
    # Vulnerable tags disagree: warnings only. Game 5 has no contract, so game 7's
    # ScoreRubber cannot be checked, and a note says so.
    found = check(PBN_TESTS / "correct_10.pbn")
    assert [d.code for d in found] == ["SC030"] + ["SC025"] * 5 + ["SC032"]
    assert all(d.effective_severity is Severity.WARNING for d in found if d.code == "SC025")
    assert (found[-1].line, found[-1].message) == (
        202, "ScoreRubber not checked after game 5, which could not be scored: the games "
        "won since are not known")


def test_score_tags_of_a_pairs_file_with_eleven_results_per_board() -> None:
    assert check(ALS) == []


def test_changed_score_is_caught(tmp_path: Path) -> None:
    # board 1: 6D by N, 13 tricks, nobody vulnerable: 120 + 30 + 300 + 500 = 940; write 920
    (found,) = check(edited(tmp_path, ALS, 18, "NS 940", "NS 920"))
    assert (found.code, found.line, found.column) == ("SC020", 18, 9)
    assert "scores NS +940" in found.message


def test_bbo_files_with_one_result_per_board_are_not_flagged() -> None:
    # their ScorePercentage comes from the whole field on BBO; the file holds one result
    # of each board, which is said once, as a note
    for path in sorted(BBO.glob("*.pbn")):
        found = check(path)
        assert all(d.code == "SC032" for d in found) and len(found) <= 1, path.name


def test_bba_score_tags() -> None:
    for path in sorted(BBA.glob("*.pbn")):
        assert check(path) == [], path.name
        # a deal bid but not played has no result: information, as score lists it
        assert all(d.effective_severity is Severity.INFO and "has no result" in d.message
                   for d in not_scored(path)), path.name


def test_no_errors_anywhere_in_the_corpus() -> None:
    tally: collections.Counter[str] = collections.Counter()
    for path in sorted(CORPUS.rglob("*.pbn")):
        for diagnostic in every_check(path):
            tally[diagnostic.code] += 1
            assert diagnostic.effective_severity is not Severity.ERROR, diagnostic.format()
            if diagnostic.code == "SC036":  # no ScoreTable row of the corpus is lost
                assert diagnostic.effective_severity is Severity.INFO, diagnostic.format()
    # SC025: correct_10's Vulnerable tags against its Chicago chukker places (see above)
    # SC032: notes on figures that cannot be checked (BBO's one-result percentages, a
    # ScoreIMP without a Room, correct_20's TotalScoreTable, correct_10's ScoreRubber after
    # an unscored deal), once per file and kind
    # SC036: records with a contract and no result (robots' and teaching files' deals bid
    # but not played) and rpbridge.net's 3,806 records without vulnerability or board
    # number, each as score lists it
    assert tally == {"SC025": 5, "SC029": 1, "SC030": 1, "SC032": 7, "SC036": 4117}


def test_ruter_standings_and_datums_are_reproduced_by_score() -> None:
    # Ruter (IMP;Butler-2;Mean): every ButlerDatum of the 21 x 8 rows is the Butler-2
    # datum score computes, and the TotalScoreTable (Rank, PairId, TotalScoreIMP, the sum
    # of the pair's IMPs over its 21 boards) is score's ranking, line by line
    text = RUTER.read_text(encoding="utf-8")
    results = board_results(pbnkit.read(RUTER))
    sheet = DuplicateProfile.for_scoring("IMP;Butler-2;Mean").score(results)
    stated_datums = {}
    board = None
    for line in text.splitlines():
        if line.startswith('[Board "'):
            board, row = line.split('"')[1], 0
        elif board is not None and line[:1].isdigit() and len(line.split()) == 13 \
                and "ButlerDatum" not in line and '"N-S"' not in line and '"E-W"' not in line:
            row += 1
            stated_datums[board, row] = int(line.split()[-1])
    computed = {(result.board, result.row): row.datum
                for result, row in zip(results, sheet.boards, strict=True)}
    assert len(stated_datums) == 21 * 8
    assert {key: computed[key] for key in stated_datums} == stated_datums
    stated = []
    table = text.split("[TotalScoreTable", 1)[1].split("[ScoreTable", 1)[0]
    for line in table.splitlines()[1:]:
        fields = line.split()
        if fields:
            stated.append((int(fields[0]), fields[2], float(fields[5])))
    assert len(stated) == 16
    assert [(r.rank, r.id, r.total) for r in sheet.rankings] == stated
