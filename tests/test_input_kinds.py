"""A file given to a command that reads PBN and LIN is named for what it is when it is
neither: an archive pbnkit convert wrote, or a text of no tag pair, is one message and
exit status 2, never one SY001 per line, an empty sheet or an archive of no records."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from conftest import CORPUS, SAMPLE_DATA, corpus_rows
from pbnkit.cli import main
from pbnkit.formats.sniff import not_records, sniff_file

GOOD = SAMPLE_DATA / "pairs_matchpoints.pbn"
#: a README that quotes PBN further on than a sloppy file's first lines of other text
README = ("# Results of the club\n\n"
          + "Each evening is scored by the director, and kept for ten years.\n" * 300
          + 'A board looks like this:\n\n    [Event "Monday pairs"]\n    [Board "1"]\n')


def invoke(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A Parquet and a JSONL archive of one sample file, made by convert."""
    folder = tmp_path_factory.mktemp("archives")
    made = {}
    for suffix in ("parquet", "jsonl"):
        made[suffix] = folder / f"match.{suffix}"
        result = invoke("convert", "-q", "-j", "1", GOOD, "-o", made[suffix])
        assert result.exit_code == 0, result.output
    return made


@pytest.fixture
def readme(tmp_path: Path) -> Path:
    path = tmp_path / "README.md"
    path.write_text(README)
    return path


def _one_message(result: Result, path: Path, looks: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert lines == [f"pbnkit: {path}: not PBN or LIN: {looks}"]
    assert ": SY" not in result.stdout


@pytest.mark.parametrize("kind", ["parquet", "jsonl"])
@pytest.mark.parametrize("command", ["validate", "score", "convert"])
def test_an_archive_is_one_error(archives, tmp_path, command, kind):
    archive = archives[kind]
    out = tmp_path / "out.jsonl"
    args = ("-o", out) if command == "convert" else ()
    result = invoke(command, "-q", "-j", "1", archive, *args)
    looks = ("a Parquet file, as the archives pbnkit convert writes are: read those with "
             "pbnkit rescore, export or report" if kind == "parquet" else
             "an archive written by pbnkit convert: use pbnkit rescore, export or report")
    _one_message(result, archive, looks)
    assert not out.exists()
    assert "rows" not in result.stdout and "board" not in result.stdout  # no empty sheet


@pytest.mark.parametrize("command", ["validate", "score", "convert"])
def test_a_text_that_is_not_pbn_is_one_error(readme, tmp_path, command):
    args = ("-o", tmp_path / "out.jsonl") if command == "convert" else ()
    result = invoke(command, "-q", "-j", "1", readme, *args)
    _one_message(result, readme, 'a text file with no PBN tag pair ([Event "..."]) nor '
                 "LIN pair (pn|...|)")


def test_a_text_named_pbn_is_not_read_either(tmp_path):
    path = tmp_path / "results.pbn"
    path.write_text("Board;Contract;Result\n" + "1;3NT;9\n" * 50)
    result = invoke("validate", "-q", path)
    assert result.exit_code == 2
    assert result.stderr.count("not PBN or LIN") == 1


def test_validate_checks_the_good_file_of_a_mixed_run(archives, readme, tmp_path):
    good = tmp_path / "good.pbn"
    shutil.copy(GOOD, good)
    alone = invoke("validate", "-q", "-j", "1", "--output-format", "json", good)
    mixed = invoke("validate", "-q", "-j", "1", "--output-format", "json",
                   archives["parquet"], good, readme, archives["jsonl"])
    assert alone.exit_code == 0
    assert mixed.exit_code == 2
    assert mixed.stderr.count("not PBN or LIN") == 3
    # the good file's games are all checked, as when it is alone
    def games(output: str) -> dict[str, int]:
        return {f["path"]: f["games"] for f in json.loads(output)["files"]
                if f.get("games")}

    assert games(mixed.stdout) == games(alone.stdout) != {}


def test_score_and_convert_stop_on_a_mixed_run_and_write_nothing(archives, tmp_path):
    out = tmp_path / "out.parquet"
    converted = invoke("convert", "-q", GOOD, archives["jsonl"], "-o", out)
    assert converted.exit_code == 2 and not out.exists()
    scored = invoke("score", "-q", GOOD, archives["parquet"], "--format", "json")
    assert scored.exit_code == 2 and scored.stdout == ""


def test_the_archive_commands_read_what_the_others_refuse(archives):
    result = invoke("rescore", "-q", "-j", "1", archives["parquet"], "--profile", "duplicate")
    assert result.exit_code == 0
    assert result.stdout == invoke("score", "-q", "-j", "1", GOOD).stdout


@pytest.mark.parametrize("command", ["rescore", "export", "report"])
def test_the_commands_that_read_archives_say_so(command):
    assert "archive" in invoke(command, "--help").stdout


@pytest.mark.parametrize("command", ["validate", "score", "convert"])
def test_the_commands_that_do_not_say_what_does(command):
    text = " ".join(invoke(command, "--help").stdout.split())
    assert "neither PBN nor LIN" in text and "rescore" in text


def test_sloppy_pbn_is_still_pbn(tmp_path):
    lines = "Results of Monday, sent by the scorer\nsee you next week!\n"
    path = tmp_path / "sloppy.txt"
    path.write_bytes(b"\xef\xbb\xbf" + lines.encode() + b'[Event "x"]\n[Board "1"]\n')
    assert sniff_file(str(path)) == "pbn"
    assert not_records(str(path)) is None
    # a PBN comment that opens with a brace is not taken for JSON
    comment = tmp_path / "comment.txt"
    comment.write_text('{ "Generated" by a dealer }\n[Board "1"]\n')
    assert sniff_file(str(comment)) == "pbn"


def test_a_binary_file_keeps_its_one_finding(tmp_path):
    path = tmp_path / "image.pbn"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(200))
    assert not_records(str(path)) is None  # read as PBN, whose reader says SY009
    result = invoke("validate", "-q", path)
    assert result.exit_code == 1 and "SY009" in result.stdout


def test_every_corpus_file_is_still_pbn_or_lin():
    rows = corpus_rows()
    if not rows:
        pytest.skip("no corpus")
    files = sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() in (".pbn", ".lin"))
    assert len(files) >= 80
    kinds = {str(p): sniff_file(str(p)) for p in files}
    assert {p: k for p, k in kinds.items() if k != Path(p).suffix.lower()[1:]} == {}
    for path in SAMPLE_DATA.glob("*.pbn"):
        assert sniff_file(str(path)) == "pbn"
