"""``pbnkit convert`` and ``pbnkit export`` from the command line: outputs, --force,
exit codes and messages on stderr, and the reading examples of docs/archive.md."""

from __future__ import annotations

import json
import os
import re

import pytest
from click.testing import CliRunner

import pbnkit
from pbnkit.cli_archive import convert_command, export_command
from pbnkit.export import archive as archive_module
from tests.conftest import REPO

GAME = '[Event "Club"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Auction "N"]\n1NT AP\n'
UNICODE = '[Event "Klub Brydżowy Łódź"]\n[Board "2"]\n'


def run(command, *args: str):
    result = CliRunner().invoke(command, [str(a) for a in args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


@pytest.fixture()
def pbn(tmp_path):
    path = tmp_path / "club.pbn"
    path.write_text(GAME + "\n" + GAME.replace('"1"', '"2"'))
    return path


@pytest.mark.parametrize("name", ["out.parquet", "out.json", "out.jsonl", "out"])
def test_convert_writes_each_kind_of_archive(pbn, tmp_path, name):
    result = run(convert_command, pbn, "-o", tmp_path / name)
    assert result.exit_code == 0, result.output
    assert "2 records from 1 files" in result.stderr
    assert result.stdout == ""
    assert "\r" not in result.stderr  # no progress when stderr is not a terminal
    assert len(list(archive_module.read_archive(tmp_path / name))) == 2


def test_directories_are_searched_for_pbn_files(pbn, tmp_path):
    (tmp_path / "more").mkdir()
    (tmp_path / "more" / "b.pbn").write_text(GAME)
    result = run(convert_command, tmp_path, "-o", tmp_path / "all.parquet")
    assert result.exit_code == 0
    assert "3 records from 2 files" in result.stderr


def test_existing_output_needs_force(pbn, tmp_path):
    out = tmp_path / "out.parquet"
    assert run(convert_command, pbn, "-o", out).exit_code == 0
    before = out.read_bytes()
    result = run(convert_command, pbn, pbn, "-o", out)
    assert result.exit_code == 2
    assert "exists (use --force to replace it)" in result.stderr
    assert "Traceback" not in result.output
    assert out.read_bytes() == before
    assert run(convert_command, pbn, pbn, "-o", out, "--force").exit_code == 0
    assert len(list(archive_module.read_archive(out))) == 4


def test_a_failing_conversion_exits_two_and_leaves_nothing(pbn, tmp_path, monkeypatch):
    def broken(self, rows):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(archive_module.ParquetSink, "write", broken)
    result = run(convert_command, pbn, "-o", tmp_path / "out.parquet")
    assert result.exit_code == 2
    assert "pbnkit: [Errno 28] No space left on device" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.pbn"]


def test_an_interrupted_conversion_exits_130_and_leaves_nothing(pbn, tmp_path, monkeypatch):
    def interrupted(self, rows):
        raise KeyboardInterrupt

    monkeypatch.setattr(archive_module.JsonlSink, "write", interrupted)
    result = run(convert_command, pbn, "-o", tmp_path / "out.jsonl")
    assert result.exit_code == 130
    assert "interrupted" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.pbn"]


def test_usage_errors(tmp_path, pbn):
    assert run(convert_command, tmp_path / "missing.pbn", "-o", tmp_path / "a.parquet"
               ).exit_code == 2
    result = run(convert_command, pbn, "-o", tmp_path / "a.csv")
    assert result.exit_code == 2 and "cannot tell the archive format" in result.stderr


def test_a_file_without_records_is_reported(tmp_path, pbn):
    (tmp_path / "empty.pbn").write_text("% PBN 2.1\n")
    result = run(convert_command, pbn, tmp_path / "empty.pbn", "-o", tmp_path / "a.jsonl")
    assert result.exit_code == 0
    assert re.search(r"empty\.pbn: no records \(its bytes are kept", result.stderr)


def test_quiet_prints_nothing(pbn, tmp_path):
    result = run(convert_command, pbn, "-o", tmp_path / "a.parquet", "--quiet")
    assert result.exit_code == 0 and result.output == ""


def test_export_gives_the_pbn_back(pbn, tmp_path):
    run(convert_command, pbn, "-o", tmp_path / "a.parquet")
    result = run(export_command, tmp_path / "a.parquet", "-o", tmp_path / "back.pbn")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "back.pbn").read_text() == pbn.read_text()


def test_export_format(pbn, tmp_path):
    run(convert_command, pbn, "-o", tmp_path / "a.json")
    result = run(export_command, tmp_path / "a.json", "-o", tmp_path / "x.pbn",
                 "--export-format")
    assert result.exit_code == 0, result.output
    data = (tmp_path / "x.pbn").read_bytes()
    assert data.startswith(b"% PBN 2.1\r\n% EXPORT\r\n%Content-type: text/x-pbn; "
                           b"charset=ISO-8859-1\r\n[Event \"Club\"]\r\n")
    games = list(pbnkit.read(tmp_path / "x.pbn"))
    assert [g.value("Site") for g in games] == ["?", "?"]


def test_export_format_falls_back_to_utf8_rather_than_lose_characters(tmp_path):
    source = tmp_path / "pl.pbn"
    source.write_text(UNICODE, encoding="utf-8")
    run(convert_command, source, "-o", tmp_path / "a.parquet")
    result = run(export_command, tmp_path / "a.parquet", "-o", tmp_path / "x.pbn",
                 "--export-format")
    assert result.exit_code == 0
    assert "written in UTF-8" in result.stderr
    assert "charset=UTF-8" in (tmp_path / "x.pbn").read_text(encoding="utf-8")
    (game,) = pbnkit.read(tmp_path / "x.pbn")
    assert game.value("Event") == "Klub Brydżowy Łódź"


def test_import_format_keeps_the_declared_charset(tmp_path):
    source = tmp_path / "latin.pbn"
    source.write_bytes(b"%Content-type: text/x-pbn; charset=ISO-8859-1\n"
                       b'[Event "Caf\xe9"]\n')
    run(convert_command, source, "-o", tmp_path / "a.parquet")
    run(export_command, tmp_path / "a.parquet", "-o", tmp_path / "back.pbn")
    assert (tmp_path / "back.pbn").read_bytes() == source.read_bytes()


def test_export_refuses_what_is_not_an_archive(pbn, tmp_path):
    result = run(export_command, pbn, "-o", tmp_path / "x.pbn")
    assert result.exit_code == 2
    assert "not an archive" in result.stderr and "Traceback" not in result.output
    assert not (tmp_path / "x.pbn").exists()


def test_export_needs_force_to_replace(pbn, tmp_path):
    run(convert_command, pbn, "-o", tmp_path / "a.parquet")
    (tmp_path / "x.pbn").write_text("keep me")
    result = run(export_command, tmp_path / "a.parquet", "-o", tmp_path / "x.pbn")
    assert result.exit_code == 2 and (tmp_path / "x.pbn").read_text() == "keep me"
    assert run(export_command, tmp_path / "a.parquet", "-o", tmp_path / "x.pbn", "--force"
               ).exit_code == 0


def test_multi_source_archive_with_header_values_warns(tmp_path):
    for name in ("a.pbn", "b.pbn"):
        (tmp_path / name).write_text('[Event "##Club"]\n[Board "1"]\n')
    run(convert_command, tmp_path, "-o", tmp_path / "a.parquet")
    result = run(export_command, tmp_path / "a.parquet", "-o", tmp_path / "x.pbn")
    assert "carry over" in result.stderr


# -- docs/archive.md ------------------------------------------------------------------------------

DOC = REPO / "docs" / "archive.md"


def doc_blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


@pytest.fixture()
def in_archive_dir(tmp_path, monkeypatch):
    source = tmp_path / "club.pbn"
    source.write_text(GAME + "\n" + GAME.replace('"1"', '"2"'))
    run(convert_command, source, "-o", tmp_path / "club.parquet")
    run(convert_command, source, "-o", tmp_path / "club.jsonl")
    run(convert_command, source, source, "-o", tmp_path / "archive")
    run(convert_command, source, "-o", tmp_path / "by-year", "--partition-by", "year")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("number", range(len(doc_blocks("python"))))
def test_docs_python_examples_run(in_archive_dir, number):
    code = doc_blocks("python")[number]
    if "duckdb" in code:
        pytest.importorskip("duckdb")
    if "pandas" in code or "to_pandas" in code:
        pytest.importorskip("pandas")
    if "polars" in code:
        pytest.importorskip("polars")
    exec(compile(code, f"docs/archive.md block {number}", "exec"), {})  # noqa: S102 -- our docs


def test_docs_name_every_output_kind():
    text = DOC.read_text(encoding="utf-8")
    for word in (".parquet", ".jsonl", ".json", "--force", "--export-format", "read_archive"):
        assert word in text
    for version in (1, 2):  # version 1 stays, frozen: archives written with it are read
        arrow = json.loads((REPO / "schemas" / f"boards.v{version}.arrow.json").read_text())
        assert arrow["version"] == version
        assert os.path.exists(REPO / "schemas" / f"boards.v{version}.json")
        assert f"boards.v{version}" in text


def test_no_check_keeps_only_the_readers_findings(tmp_path):
    source = tmp_path / "bad.pbn"
    source.write_text('[Board "1"]\n[Dealer "Q"]\n[Event Bare]\n')  # TG004 and SY002
    checked, unchecked = tmp_path / "checked.jsonl", tmp_path / "unchecked.jsonl"
    run(convert_command, source, "-o", checked, "-q")
    run(convert_command, source, "-o", unchecked, "-q", "--no-check")
    codes = {path: [d["code"] for d in json.loads(path.read_text())["diagnostics"]]
             for path in (checked, unchecked)}
    assert "TG004" in codes[checked] and "SY002" in codes[checked]
    assert codes[unchecked] == ["SY002"]
