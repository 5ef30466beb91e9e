"""Workers send most score records compacted, guessing the file's profile from their own
unit; where the guess is wrong (the file's first Scoring tag, in another unit, names a
rubber profile), the parent reads the records again. The score findings of a file read in
chunks are those of one reading of the whole file, whichever unit decides the profile."""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import pbnkit
from pbnkit.pipeline.convert import convert
from pbnkit.pipeline.units import Unit, plan
from pbnkit.rules.plain_records import PlainRecord
from pbnkit.rules.report import FileValidation, Options, check_unit
from pbnkit.rules.scores import ScoreChecks
from tests.conftest import generate_boards

_SCORING = re.compile(r'\[Scoring "[^"]*"\]\r?\n')


@pytest.fixture(scope="module")
def boards(tmp_path_factory) -> str:
    """Generated boards (each with [Scoring "IMP"]), large enough to be cut in chunks."""
    return _SCORING.sub("", generate_boards(
        tmp_path_factory.mktemp("unit-scores") / "boards.pbn", 2500, 5).read_text("latin-1"))


def _with_scoring(text: str, tags: dict[int, str]) -> str:
    """The games of ``text`` with a Scoring tag put in the games numbered in ``tags``."""
    games = re.split(r"(?=\[Event )", text)
    for number, scoring in tags.items():
        games[number + 1] = f'[Scoring "{scoring}"]\r\n' + games[number + 1]
    return "".join(games)


def _score_findings(path: Path) -> list[str]:
    """The SC findings of one reading of the whole file, record by record."""
    checks = ScoreChecks()
    found = [d for game in pbnkit.read(path) for d in checks.add(game)] + checks.finish()
    return sorted(d.format() for d in found)


def _units(path: Path) -> list[Unit]:
    units = list(plan([path], 2))
    assert len(units) >= 3, "the file must be cut in chunks for these tests"
    return units


@pytest.mark.slow
@pytest.mark.parametrize("scoring", [
    pytest.param({0: "Rubber"}, id="rubber-in-the-first-unit-only"),
    pytest.param({0: "Rubber", 1000: "IMP"}, id="rubber-first-then-imp"),
    pytest.param({1000: "Rubber"}, id="rubber-decided-in-a-later-unit"),
    pytest.param({1000: "IMP"}, id="imp-decided-in-a-later-unit"),
    pytest.param({}, id="no-scoring-tag"),
])
def test_chunked_score_checks_equal_one_reading(boards, tmp_path, scoring):
    path = tmp_path / "file.pbn"
    path.write_text(_with_scoring(boards, scoring), "latin-1")
    expected = _score_findings(path)
    if "Rubber" in scoring.values():  # rubber checks that plain records could not make
        assert any(" SC025 " in line for line in expected)

    options = Options()
    validation = FileValidation(str(path), options)
    checked = [check_unit(options, unit) for unit in _units(path)]
    # the later units guess duplicate and compact: the parent must put that right
    assert any(isinstance(g.score, PlainRecord) for g in checked[-1].games)
    for unit in checked:
        validation.add(unit)
    _, found = validation.finish()
    assert sorted(d.format() for d in found if d.code.startswith("SC")) == expected


@pytest.mark.slow
def test_convert_of_a_chunked_rubber_file_stores_the_rubber_findings(boards, tmp_path):
    path = tmp_path / "file.pbn"
    path.write_text(_with_scoring(boards, {0: "Rubber"}), "latin-1")
    whole, chunked = tmp_path / "whole.parquet", tmp_path / "chunked.parquet"
    convert([path], whole, units=[Unit(str(path), path.stat().st_size)])
    convert([path], chunked, units=_units(path))

    def findings(archive: Path) -> list[dict]:
        rows = pq.read_table(archive, columns=["diagnostics"]).column(0).to_pylist()
        return sorted((d for row in rows for d in row if d["code"].startswith("SC")),
                      key=lambda d: (d["line"], d["column"], d["code"]))

    assert any(d["code"] == "SC025" for d in findings(whole))
    assert findings(chunked) == findings(whole)
