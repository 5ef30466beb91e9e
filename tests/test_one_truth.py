"""One truth: what ``score`` cannot score, ``validate`` says; and the library call that
validates a file gives what ``pbnkit validate`` lists. Checked on every real file of the
corpus and on the sample data."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import pbnkit
from pbnkit.cli import main
from pbnkit.errors import PbnError
from pbnkit.pipeline.validate import validate_file
from pbnkit.scoring import DEFAULT_PROFILE, profile_for_scoring
from pbnkit.scoring.report import score_games
from tests.conftest import CORPUS, SAMPLE_DATA

CORPUS_FILES = sorted(CORPUS.rglob("*.pbn")) if CORPUS.is_dir() else []
SAMPLES = sorted(SAMPLE_DATA.glob("*.pbn"))


def _scoring(path: Path) -> str | None:
    return next((game.value("Scoring") for game in pbnkit.read(path)
                 if game.value("Scoring")), None)


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS_FILES, reason="../shared/corpus is absent")
@pytest.mark.parametrize("path", CORPUS_FILES + SAMPLES, ids=lambda p: p.name)
def test_every_result_score_leaves_out_is_a_finding_of_validate(path: Path) -> None:
    if profile_for_scoring(_scoring(path)) != DEFAULT_PROFILE:
        pytest.skip("a rubber sheet keeps its unscored deals on the sheet (docs/scoring.md)")
    # a hand record without a contract is no result: score lists it, validate does not
    lost = Counter((problem.board, problem.message)
                   for problem in score_games(pbnkit.read(path)).sheet.problems
                   if problem.kind == "unscored-board"
                   and problem.message != "not scored: no contract")
    found = Counter((d.board, d.message) for d in pbnkit.validate(path) if d.code == "SC036")
    assert found == lost


def _cli_findings(paths: list[Path]) -> dict[str, list[tuple[int, int, str, str, str]]]:
    result = CliRunner().invoke(main, ["validate", "--output-format", "json", "--min-severity",
                                       "info", "-j", "1", *map(str, paths)])
    assert result.exit_code in (0, 1), result.output
    found: dict[str, list[tuple[int, int, str, str, str]]] = {str(p): [] for p in paths}
    for d in json.loads(result.stdout)["diagnostics"]:
        found[d["path"]].append((d["line"], d["column"], d["code"], d["severity"],
                                 d["message"]))
    return found


def test_the_library_validates_a_file_as_the_command_does() -> None:
    # the corpus's zero-byte and header-only files, its deliberately broken ones and the
    # sample data: every finding, in the same order
    paths = SAMPLES + [p for p in CORPUS_FILES if p.stat().st_size < 40_000]
    for path, listed in _cli_findings(paths).items():
        library = [(d.line, d.column, d.code, d.effective_severity.value, d.message)
                   for d in pbnkit.validate(path)]
        assert library == listed, path


def test_the_library_says_when_a_file_cannot_be_read(tmp_path: Path) -> None:
    with pytest.raises(PbnError, match="cannot read"):
        pbnkit.validate(tmp_path / "absent.pbn")


# -- The public calls and the commands: one pipeline, the same bytes ---------------------------

SMALL_FILES = SAMPLES + [p for p in CORPUS_FILES if p.stat().st_size < 40_000]


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def _validate_json(paths: list[Path]) -> str:
    """The ``validate`` JSON document as the library makes it, file by file."""
    from pbnkit.rules.report import Report

    report = Report()
    for path in paths:
        file_report, found = validate_file(path)
        report.files.append(file_report)
        report.diagnostics += found
    return json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("path", SMALL_FILES, ids=lambda p: p.name)
def test_the_library_and_the_command_give_the_same_validate_json(path: Path) -> None:
    assert _validate_json([path]) == _run("validate", "--output-format", "json",
                                          "--min-severity", "info", "-j", "1", str(path))


def _score_json(path: Path) -> str:
    return "".join(pbnkit.score(path).json_pieces()) + "\n"


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_the_library_and_the_command_give_the_same_score_json(path: Path) -> None:
    assert _score_json(path) == _run("score", "-q", "-j", "1", "-o", "-", str(path))


def _converted(tmp_path: Path, path: Path) -> tuple[bytes, bytes]:
    library, command = tmp_path / "library.jsonl", tmp_path / "command.jsonl"
    pbnkit.convert([path], library)
    _run("convert", "-q", "-j", "1", str(path), "-o", str(command))
    return library.read_bytes(), command.read_bytes()


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_the_library_and_the_command_write_the_same_jsonl(path: Path, tmp_path: Path) -> None:
    library, command = _converted(tmp_path, path)
    assert library == command


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS_FILES, reason="../shared/corpus is absent")
@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_the_library_and_the_command_agree_on_every_corpus_file(path: Path,
                                                                tmp_path: Path) -> None:
    assert _validate_json([path]) == _run("validate", "--output-format", "json",
                                          "--min-severity", "info", "-j", "1", str(path))
    assert _score_json(path) == _run("score", "-q", "-j", "1", "-o", "-", str(path))
    library, command = _converted(tmp_path, path)
    assert library == command


def test_the_library_runs_as_the_command_does_at_two_jobs(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    pbnkit.convert(SAMPLES, one)
    pbnkit.convert(SAMPLES, two, jobs=2)
    assert one.read_bytes() == two.read_bytes()
    for path in SAMPLES:
        assert "".join(pbnkit.score(path, jobs=2).json_pieces()) + "\n" == _score_json(path)
