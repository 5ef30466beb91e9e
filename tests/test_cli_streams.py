"""``-`` as a PBN input (standard input, named by ``--stdin-filename``) and as ``-o``
(standard output): the same output as a file of that name gives, at any ``-j``; data
alone on stdout; no Parquet there; no spool file left behind."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import jsonschema
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner, Result

import pbnkit
from pbnkit.cli import main
from tests.conftest import REPO, SAMPLE_DATA, SCHEMAS, ctrl_c_as_at_a_terminal, generate_boards

BAD = '[Event "x"]\n[Board "1"]\n[Dealer "Q"]\n[Deal "N:AKQ.... - - -"]\n[Wrong "tag"]\n'
TEAM = SAMPLE_DATA / "team_match.pbn"


def run(*args: object, stdin: bytes | None = None) -> Result:
    result = CliRunner().invoke(main, [str(a) for a in args], input=stdin)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    """Large enough to be cut in chunks at -j 2, with findings in a game and after the
    last one."""
    path = generate_boards(tmp_path_factory.mktemp("streams") / "big.pbn", 1000, 5)
    with path.open("a", encoding="utf-8") as stream:
        stream.write("\n" + BAD + "\n{after the last game}\n")
    return path


@pytest.fixture()
def spool_dir(tmp_path, monkeypatch) -> Path:
    """Where this process's temporary files go during the test (they must be gone after)."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("args", [
    (),
    ("--format", "json", "--min-severity", "info"),
    ("--strict", "--min-severity", "info"),
])
def test_validate_of_stdin_is_validate_of_the_file_it_is_named_after(big, spool_dir, jobs, args):
    by_path = run("validate", "-j", jobs, *args, TEAM, big)
    assert by_path.exit_code == 1 and str(big) in by_path.stdout
    by_stdin = run("validate", "-j", jobs, *args, TEAM, "-", "--stdin-filename", big,
                   stdin=big.read_bytes())
    assert (by_stdin.exit_code, by_stdin.stdout) == (by_path.exit_code, by_path.stdout)
    assert list(spool_dir.iterdir()) == []


def test_stdin_without_a_name_is_called_stdin(spool_dir):
    result = run("validate", "-", stdin=BAD.encode())
    assert result.exit_code == 1
    assert "<stdin>:3:10: TG004 [invalid-seat]" in result.stdout
    assert list(spool_dir.iterdir()) == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_score_of_stdin_is_score_of_the_file_it_is_named_after(big, jobs):
    for args in (("--profile", "duplicate", "--format", "json"), ()):
        by_path = run("score", "-j", jobs, *args, big)
        by_stdin = run("score", "-j", jobs, *args, "-", "--stdin-filename", big,
                       stdin=big.read_bytes())
        assert by_path.exit_code == 0
        assert (by_stdin.exit_code, by_stdin.stdout) == (by_path.exit_code, by_path.stdout)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_convert_of_stdin_is_convert_of_the_file_it_is_named_after(big, tmp_path, spool_dir,
                                                                  jobs):
    for name in ("path.parquet", "path.jsonl", "path"):
        assert run("convert", "-q", "-j", jobs, TEAM, big, "-o", tmp_path / name).exit_code == 0
        stdin = run("convert", "-q", "-j", jobs, TEAM, "-", "--stdin-filename", big,
                    "-o", tmp_path / f"stdin-{name}", stdin=big.read_bytes())
        assert stdin.exit_code == 0, stdin.stderr
    assert (pq.read_table(tmp_path / "stdin-path.parquet")
            .equals(pq.read_table(tmp_path / "path.parquet")))
    assert (tmp_path / "stdin-path.jsonl").read_bytes() == (tmp_path / "path.jsonl").read_bytes()
    # a dataset's part names come from the name too
    assert (sorted(p.name for p in (tmp_path / "stdin-path").iterdir())
            == sorted(p.name for p in (tmp_path / "path").iterdir()))
    assert list(spool_dir.iterdir()) == []


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_convert_to_stdout_writes_jsonl_valid_against_the_schema(big, tmp_path, spool_dir,
                                                                 jobs):
    assert run("convert", "-q", "-j", jobs, big, "-o", tmp_path / "a.jsonl").exit_code == 0
    result = run("convert", "-j", jobs, "-", "--stdin-filename", big, "-o", "-",
                 stdin=big.read_bytes())
    assert result.exit_code == 0
    assert result.stdout_bytes == (tmp_path / "a.jsonl").read_bytes()
    assert "1001 records from 1 files written to standard output" in result.stderr
    schema = json.loads((SCHEMAS / "boards.v2.json").read_text())
    record = jsonschema.Draft202012Validator({"$defs": schema["$defs"],
                                              "$ref": "#/$defs/record"})
    lines = result.stdout.splitlines()
    for line in lines[:20] + lines[-2:]:
        record.validate(json.loads(line))
    assert {json.loads(line)["path"] for line in lines} == {str(big)}
    assert list(spool_dir.iterdir()) == []


def test_score_and_rescore_to_stdout_write_json_valid_against_the_schema(tmp_path):
    schema = json.loads((SCHEMAS / "score-report.v2.json").read_text())
    result = run("score", TEAM, "-o", "-")
    assert result.exit_code == 0 and "wrote" not in result.stderr
    jsonschema.validate(json.loads(result.stdout), schema)
    assert result.stdout == run("score", "--format", "json", TEAM).stdout
    assert run("convert", "-q", TEAM, "-o", tmp_path / "team.parquet").exit_code == 0
    rescored = run("rescore", "--profile", "duplicate", tmp_path / "team.parquet", "-o", "-")
    assert rescored.exit_code == 0
    jsonschema.validate(json.loads(rescored.stdout), schema)
    assert json.loads(rescored.stdout)["boards"] == json.loads(result.stdout)["boards"]


def test_export_to_stdout_writes_pbn_that_reads_back(tmp_path, spool_dir, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("convert", "-q", TEAM, "-o", "team.parquet").exit_code == 0
    assert run("export", "-q", "team.parquet", "-o", "team.pbn").exit_code == 0
    result = run("export", "team.parquet", "-o", "-")
    assert result.exit_code == 0
    assert result.stdout_bytes == (tmp_path / "team.pbn").read_bytes()
    assert "8 records written to standard output" in result.stderr
    games = list(pbnkit.read(io.BytesIO(result.stdout_bytes)))
    assert [g.value("Board") for g in games] == [g.value("Board") for g in pbnkit.read(TEAM)]
    assert not (tmp_path / "-").exists()
    assert list(spool_dir.iterdir()) == []


def test_dash_as_output_is_never_a_file_or_a_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("convert", "-q", TEAM, "-o", "-").exit_code == 0
    assert run("score", TEAM, "-o", "-").exit_code == 0
    assert not (tmp_path / "-").exists()
    assert [p.name for p in tmp_path.iterdir()] == []


@pytest.mark.parametrize("args", [
    ("convert", TEAM, "-o", "/dev/stdout"),
    ("convert", TEAM, "-o", "/dev/fd/1"),
    ("convert", TEAM, "-o", "/proc/self/fd/1"),
])
def test_parquet_to_stdout_is_refused(args):
    result = run(*args)
    assert result.exit_code == 2
    assert "Parquet cannot be written to standard output" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize("args", [
    ("export", "archive.jsonl", "-o", "/dev/stdout"),
    ("score", TEAM, "-o", "/dev/stdout"),
    ("score", TEAM, "-o", "/dev/fd/1"),
    ("convert", TEAM, "-o", "/dev/null"),
])
def test_a_device_as_output_is_refused(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "archive.jsonl").write_text("")
    result = run(*args)
    assert result.exit_code == 2 and "Invalid value for -o" in result.stderr
    assert "use -o -" in result.stderr


@pytest.mark.parametrize("args, message", [
    (("validate", "-", "-"), "- (standard input) may be given only once"),
    (("validate", TEAM, "--stdin-filename", "x.pbn"), "--stdin-filename names standard input"),
    (("convert", "-", "--stdin-filename", "", "-o", "-"), "the name may not be empty"),
    (("score", TEAM, "-o", "-", "--format", "text"), "-o - writes the JSON document"),
    (("score", TEAM, "-o", "out.txt"), "must end in .json or .parquet, or be -"),
    (("validate", "-", "missing.pbn"), "no such file or directory: missing.pbn"),
])
def test_misuse_is_a_usage_error(spool_dir, args, message):
    result = run(*args, stdin=BAD.encode())
    assert result.exit_code == 2
    assert message in result.stderr and "Usage:" in result.stderr
    assert "Traceback" not in result.stderr
    assert list(spool_dir.iterdir()) == []  # refused before standard input is read


def test_the_spool_files_go_when_the_command_fails(tmp_path, spool_dir):
    (tmp_path / "out.jsonl").write_text("not an archive\n")
    result = run("convert", "-", "-o", tmp_path / "out.jsonl", stdin=BAD.encode())
    assert result.exit_code == 2 and "exists (use --force" in result.stderr
    result = run("export", tmp_path / "out.jsonl", "-o", "-")
    assert result.exit_code == 2 and "not JSON" in result.stderr
    assert result.stdout == ""  # nothing of a failed output reaches stdout
    assert list(spool_dir.iterdir()) == []


def test_help_explains_the_streams():
    for command in ("validate", "score", "convert"):
        text = " ".join(run(command, "--help").stdout.split())
        assert "- for standard input" in text and "--stdin-filename NAME" in text
    for command in ("score", "rescore", "convert", "export"):
        text = " ".join(run(command, "--help").stdout.split())
        assert "or - for" in text


def _pbnkit(*args: object, tmp: Path, **options) -> subprocess.Popen[bytes]:
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "pbnkit", *map(str, args)], env=env,
                            stdin=options.pop("stdin", subprocess.PIPE),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=ctrl_c_as_at_a_terminal, **options)


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_read_of_stdin_leaves_no_spool_file(tmp_path, stop, jobs):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    process = _pbnkit("validate", "-j", jobs, "-", tmp=tmp)
    assert process.stdin is not None
    process.stdin.write(BAD.encode())
    process.stdin.flush()
    deadline = time.monotonic() + 30
    # the spool file, not the file tempfile makes and removes at once to try the folder
    while not any(p.name.startswith("pbnkit-stdin-") for p in tmp.iterdir()) \
            and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [p.name.startswith("pbnkit-stdin-") for p in tmp.iterdir()] == [True]
    process.send_signal(stop)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 130 and out == b""
    assert b"pbnkit: interrupted" in err and b"Traceback" not in err
    assert list(tmp.iterdir()) == []


def test_a_reader_that_stops_early_ends_the_command_quietly(big, tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    with big.open("rb") as stdin:
        process = _pbnkit("convert", "-j", "1", "-", "-o", "-", tmp=tmp, stdin=stdin)
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.read(100)
        process.stdout.close()
        err = process.stderr.read()
        process.wait(timeout=60)
    assert process.returncode == 2
    assert b"standard output closed" in err and b"Traceback" not in err
    assert list(tmp.iterdir()) == []
