"""Scoring problems that trace back to their file and record, in text and JSON; the
unknown Scoring word (docs/scoring.md); no team match without a pair of rooms."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

import pbnkit
from pbnkit.scoring.report import ScoreReport, score_games
from pbnkit.scoring.text import render
from tests.conftest import SCHEMAS

SCHEMA = json.loads((SCHEMAS / "score-report.v2.json").read_text())


def record(board: int, contract: str = "4S", result: str = "10", scoring: str = "IMP",
           room: str | None = None) -> str:
    return (f'[Event "Club"]\n[Scoring "{scoring}"]\n[Board "{board}"]\n[Dealer "N"]\n'
            f'[Vulnerable "None"]\n[Declarer "N"]\n[Contract "{contract}"]\n'
            f'[Result "{result}"]\n' + (f'[Room "{room}"]\n' if room else "") + "\n")


def scored(tmp_path: Path, files: dict[str, str], profile: str | None = None) -> ScoreReport:
    paths = []
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        paths.append(tmp_path / name)
    report = score_games((game for path in paths for game in pbnkit.read(path)), profile)
    jsonschema.validate(report.to_json(), SCHEMA)
    return report


def test_unknown_scoring_word_is_named_with_the_profile_used(tmp_path: Path) -> None:
    report = scored(tmp_path, {"a.pbn": record(1, scoring="Auction 1920")})
    assert report.profile == "duplicate"
    (problem,) = report.to_json()["problems"]
    assert problem["kind"] == "unknown-scoring"
    assert problem["message"] == ("Scoring 'Auction 1920': 'Auction 1920' names no scoring "
                                  "system pbnkit knows, so the file is scored as duplicate")
    assert problem["path"] == str(tmp_path / "a.pbn")
    assert "'Auction 1920' names no scoring system" in render(report)
    assert report.to_json()["boards"][0]["score_ns"] == 420  # 4 x 30 + 300, still scored


def test_a_known_scoring_word_or_the_profile_option_gives_no_warning(tmp_path: Path) -> None:
    assert scored(tmp_path, {"a.pbn": record(1)}).sheet.all_problems == ()
    chosen = scored(tmp_path, {"b.pbn": record(1, scoring="Cavendish")}, "duplicate")
    assert chosen.sheet.all_problems == ()  # --profile decides; the tag is not read


def test_every_problem_carries_its_file(tmp_path: Path) -> None:
    report = scored(tmp_path, {"a.pbn": record(1), "b.pbn": record(2, result="")})
    (problem,) = report.to_json()["problems"]
    # 4S with no result (and no play to count tricks from) cannot be scored
    assert (problem["kind"], problem["path"], problem["index"]) == (
        "unscored-board", str(tmp_path / "b.pbn"), 0)


def test_text_names_the_files_when_several_are_scored(tmp_path: Path) -> None:
    report = scored(tmp_path, {"a.pbn": record(1), "b.pbn": record(2, result="")})
    text = render(report)
    assert f"File: {tmp_path / 'a.pbn'}" in text
    assert f"File: {tmp_path / 'b.pbn'}" in text
    assert f"{tmp_path / 'b.pbn'}, record 0 (board 2): not scored" in text


def test_text_of_one_file_names_no_file(tmp_path: Path) -> None:
    text = render(scored(tmp_path, {"a.pbn": record(1) + record(2, result="")}))
    assert "File:" not in text
    assert "  record 1 (board 2): not scored" in text


def test_rubbers_name_their_file_when_several_are_scored(tmp_path: Path) -> None:
    report = scored(tmp_path, {"a.pbn": record(1, scoring="Rubber"),
                               "b.pbn": record(1, scoring="Rubber")})
    rubbers = report.to_json()["rubbers"]
    assert [r["path"] for r in rubbers] == [str(tmp_path / "a.pbn"), str(tmp_path / "b.pbn")]
    text = render(report)
    assert f"Rubber 1 (file {tmp_path / 'a.pbn'}; unfinished)" in text
    assert f"Rubber 2 (file {tmp_path / 'b.pbn'}; unfinished)" in text
    # both unfinished with the only game (4S = 120): N-S 300 each time, Law 80
    assert [r["total"] for r in rubbers] == [{"NS": 420, "EW": 0}] * 2
    assert {p["path"] for p in report.to_json()["problems"]} == {
        str(tmp_path / "a.pbn"), str(tmp_path / "b.pbn")}


def test_a_file_of_open_room_records_has_no_team_match(tmp_path: Path) -> None:
    report = scored(tmp_path, {"a.pbn": record(1, room="Open") + record(2, room="Open")})
    assert report.to_json()["matches"] == []
    text = render(report)
    assert "Team match" not in text
    assert "no board compared" not in text
