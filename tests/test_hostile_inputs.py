"""Hostile inputs before any reading: compressed files that unpack past every reasonable
size ("zip bombs"), containers that are not what they seem, directories that cannot be
listed and files of NUL bytes. Each is refused or reported by name, with the documented
exit status, the other files of the run still read and nothing left in the temporary
directory. The inputs are small on disk (a few tens of kilobytes) and the limits set low
where they need to be reached: the module runs in seconds."""

from __future__ import annotations

import gzip
import io
import json
import os
import tempfile
import warnings
import zipfile

import pytest
from click.testing import CliRunner

from pbnkit.cli import main
from pbnkit.cli_inputs import MAX_RATIO, MAX_UNPACKED, RATIO_FREE, Limits
from pbnkit.formats.files import iter_files
from pbnkit.pbn.chunks import iter_chunks, may_hold
from pbnkit.pbn.encoding import file_encoding
from tests.conftest import SAMPLE_DATA

#: board 1 of the sample team match: a game with no finding
BOARD = (SAMPLE_DATA / "team_match.pbn").read_text(encoding="utf-8").split("\n\n")[0] + "\n"


@pytest.fixture
def private_tmp(tmp_path, monkeypatch):
    """The temporary directory of the run, to see what it leaves there."""
    where = tmp_path / "tmp"
    where.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(where))
    return where


def run(*args, **environment):
    return CliRunner().invoke(main, [str(a) for a in args], env=environment)


def zeros_gz(size: int) -> bytes:
    """``size`` NUL bytes, gzipped: about a thousandth of that on disk."""
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb") as stream:
        for _ in range(size >> 20):
            stream.write(bytes(1 << 20))
    return out.getvalue()


def games_read(result) -> int:
    return json.loads(result.stdout)["summary"]["games"]


# -- Limits ----------------------------------------------------------------------------------

def test_the_limits_are_read_from_the_environment():
    assert Limits.from_environment({}) == Limits(MAX_UNPACKED, MAX_RATIO)
    assert Limits.from_environment({"PBNKIT_MAX_UNPACKED": "64k", "PBNKIT_MAX_RATIO": "7"}) \
        == Limits(64 << 10, 7)
    assert Limits.from_environment({"PBNKIT_MAX_UNPACKED": "2 GiB"}).size == 2 << 30
    assert Limits(0, 0).breach(1 << 40, 1) is None
    for bad in ({"PBNKIT_MAX_UNPACKED": "1x"}, {"PBNKIT_MAX_RATIO": "-1"}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            Limits.from_environment(bad)


def test_the_ratio_is_not_held_against_a_small_file():
    limits = Limits(ratio=10)
    assert limits.breach(RATIO_FREE, 1) is None
    assert "PBNKIT_MAX_RATIO" in limits.breach(RATIO_FREE + 1, 1)
    assert limits.breach(RATIO_FREE + 1, RATIO_FREE) is None


def test_a_bad_limit_is_a_usage_error(tmp_path):
    (tmp_path / "a.pbn").write_text(BOARD)
    result = run("validate", tmp_path, PBNKIT_MAX_UNPACKED="lots")
    assert result.exit_code == 2
    assert "PBNKIT_MAX_UNPACKED='lots': not a size" in result.stderr


# -- Compressed files past the limits --------------------------------------------------------

def test_a_gz_bomb_is_refused_by_its_ratio_and_the_other_files_are_read(tmp_path, private_tmp):
    (tmp_path / "bomb.pbn.gz").write_bytes(zeros_gz(RATIO_FREE * 2))  # 32 MiB in 32 KiB
    (tmp_path / "good.pbn").write_text(BOARD)
    (tmp_path / "good.pbn.gz").write_bytes(gzip.compress(BOARD.encode()))
    result = run("validate", "--output-format", "json", tmp_path)
    assert result.exit_code == 2  # a file that cannot be read (docs/cli.md)
    assert (f"pbnkit: {tmp_path / 'bomb.pbn.gz'}: cannot read: it unpacks to more than "
            f"{MAX_RATIO} times its ") in result.stderr
    assert "the limit (PBNKIT_MAX_RATIO)" in result.stderr
    assert games_read(result) == 2
    assert list(private_tmp.iterdir()) == []


def test_a_gz_past_the_size_limit_is_refused(tmp_path, private_tmp):
    (tmp_path / "long.pbn.gz").write_bytes(gzip.compress(BOARD.encode() * 400))  # 260 KB
    result = run("validate", tmp_path, PBNKIT_MAX_UNPACKED="64K")
    assert result.exit_code == 2
    assert (f"pbnkit: {tmp_path / 'long.pbn.gz'}: cannot read: it unpacks to more than "
            "64 KiB, the limit (PBNKIT_MAX_UNPACKED)") in result.stderr
    assert list(private_tmp.iterdir()) == []
    lifted = run("validate", tmp_path, PBNKIT_MAX_UNPACKED="0", PBNKIT_MAX_RATIO="0")
    assert lifted.exit_code == 0, lifted.stderr


def bomb_zip(path, member_size: int = 1 << 20) -> None:
    """A .zip of a good member, a large one of spaces, and another good one."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.pbn", BOARD)
        with archive.open("big.pbn", "w") as member:
            for _ in range(member_size >> 16):
                member.write(b" " * (1 << 16))
        archive.writestr("c.pbn", BOARD)


def test_a_zip_member_past_the_limits_is_refused_alone(tmp_path, private_tmp):
    bomb_zip(tmp_path / "events.zip")
    result = run("validate", "--output-format", "json", tmp_path / "events.zip",
                 PBNKIT_MAX_UNPACKED="512K")
    assert result.exit_code == 2
    assert (f"pbnkit: {tmp_path / 'events.zip' / 'big.pbn'}: cannot read: it unpacks to more "
            "than 512 KiB, the limit (PBNKIT_MAX_UNPACKED)") in result.stderr
    report = json.loads(result.stdout)
    assert sorted(f["path"] for f in report["files"]) == [
        str(tmp_path / "events.zip" / name) for name in ("a.pbn", "big.pbn", "c.pbn")]
    assert report["summary"]["games"] == 2
    assert list(private_tmp.iterdir()) == []


@pytest.mark.parametrize("command", [["score"], ["convert", "-o", "out.jsonl"]])
def test_score_and_convert_stop_at_a_source_past_the_limits(tmp_path, private_tmp, command):
    bomb_zip(tmp_path / "events.zip")
    (tmp_path / "good.pbn").write_text(BOARD)
    command = [str(tmp_path / c) if c.startswith("out") else c for c in command]
    result = run(*command, tmp_path, PBNKIT_MAX_UNPACKED="512K")
    assert result.exit_code == 2  # their results need every file (docs/cli.md)
    assert f"{tmp_path / 'events.zip' / 'big.pbn'}: cannot read: it unpacks" in result.stderr
    assert not (tmp_path / "out.jsonl").exists()
    assert list(private_tmp.iterdir()) == []


# -- Containers that are not what they seem ---------------------------------------------------

def test_a_cut_off_zip_holding_a_stored_zip_is_not_read_as_the_inner_zip(tmp_path):
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("inner.pbn", BOARD)
    outer = io.BytesIO()
    with zipfile.ZipFile(outer, "w") as archive:
        archive.writestr("outer.pbn", BOARD)
        archive.writestr("nested.zip", inner.getvalue())  # stored: its bytes as they are
    data = outer.getvalue()
    directory = zipfile.ZipFile(io.BytesIO(data)).start_dir
    (tmp_path / "cut.zip").write_bytes(data[:directory])  # the outer directory lost
    assert zipfile.ZipFile(tmp_path / "cut.zip").namelist() == ["inner.pbn"]  # as Python reads it
    result = run("validate", "--output-format", "json", tmp_path / "cut.zip")
    assert result.exit_code == 2
    assert f"pbnkit: {tmp_path / 'cut.zip'}: cannot read: a damaged .zip file" in result.stderr
    assert games_read(result) == 0


def test_members_of_one_name_are_not_read_as_one_source(tmp_path):
    with warnings.catch_warnings(), \
            zipfile.ZipFile(tmp_path / "events.zip", "w") as archive:
        warnings.simplefilter("ignore")  # "Duplicate name": what the test is about
        archive.writestr("week1.pbn", BOARD)
        archive.writestr("week1.pbn", BOARD.replace('[Board "1"]', '[Board "2"]'))
    result = run("validate", "--output-format", "json", tmp_path)
    assert result.exit_code == 2
    assert (f"pbnkit: {tmp_path / 'events.zip' / 'week1.pbn'}: not read: the .zip holds "
            "another member of this name") in result.stderr
    assert games_read(result) == 1
    convert = run("convert", "-o", tmp_path / "out.jsonl", tmp_path)
    assert convert.exit_code == 2
    assert "another member of this name" in convert.stderr


def test_an_encrypted_member_is_named_not_an_internal_error(tmp_path):
    with zipfile.ZipFile(tmp_path / "events.zip", "w") as archive:
        archive.writestr("locked.pbn", BOARD)
        archive.writestr("open.pbn", BOARD)
    data = bytearray((tmp_path / "events.zip").read_bytes())
    central = data.find(b"PK\x01\x02")  # the first member's entry in the directory
    data[central + 8] |= 0x1  # "encrypted"
    (tmp_path / "events.zip").write_bytes(bytes(data))
    result = run("validate", "--output-format", "json", tmp_path)
    assert result.exit_code == 2
    assert f"{tmp_path / 'events.zip' / 'locked.pbn'}: cannot read: the member is encrypted" \
        in result.stderr
    assert games_read(result) == 1


# -- Files and directories that cannot be looked at -------------------------------------------

@pytest.fixture
def locked(tmp_path, monkeypatch):
    """A folder with a sub-directory that cannot be listed and a file that cannot be looked
    at, as for a user without the permission (the tests may run as root, whom permissions
    do not stop)."""
    (tmp_path / "ok").mkdir()
    (tmp_path / "ok" / "a.pbn").write_text(BOARD)
    (tmp_path / "ok" / "hidden.pbn").write_text(BOARD)
    (tmp_path / "private").mkdir()
    (tmp_path / "private" / "b.pbn").write_text(BOARD)
    refused = (str(tmp_path / "private"), str(tmp_path / "ok" / "hidden.pbn"))

    def denied(call):
        def checked(path=".", *args, **kwargs):
            if os.fspath(path) in refused:
                raise PermissionError(13, "Permission denied", os.fspath(path))
            return call(path, *args, **kwargs)
        return checked

    monkeypatch.setattr(os, "scandir", denied(os.scandir))
    monkeypatch.setattr(os, "stat", denied(os.stat))
    return tmp_path


def test_discovery_reports_what_it_cannot_look_at(locked):
    lost: list[tuple[str, str]] = []
    found = list(iter_files([locked], unreadable=lambda path, why: lost.append((str(path), why))))
    assert found == [locked / "ok" / "a.pbn"]
    assert sorted(lost) == [(str(locked / "ok" / "hidden.pbn"), "cannot read: Permission denied"),
                            (str(locked / "private"), "cannot read: Permission denied")]


def test_an_unreadable_directory_is_named_and_the_exit_status_says_so(locked):
    result = run("validate", "-j", "1", "--output-format", "json", locked)
    assert result.exit_code == 2
    assert f"pbnkit: {locked / 'private'}: cannot read: Permission denied" in result.stderr
    assert f"pbnkit: {locked / 'ok' / 'hidden.pbn'}: cannot read: Permission denied" \
        in result.stderr
    assert games_read(result) == 1
    score = run("score", "-j", "1", locked)
    assert score.exit_code == 2
    assert score.stderr.endswith(": cannot read: Permission denied\n")  # the first one stops it


# -- A large file of NUL bytes ----------------------------------------------------------------

@pytest.fixture
def nul_file(tmp_path):
    """256 MiB of NUL bytes, then a tag: a sparse file, nothing on disk."""
    path = tmp_path / "nul.pbn"
    with open(path, "wb") as stream:
        stream.truncate(256 << 20)
        stream.seek(0, os.SEEK_END)
        stream.write(b'[Scoring "IMP"]\n\xe9\n')
    return path


def test_a_file_of_nul_bytes_is_read_no_further_than_its_head(nul_file, tmp_path):
    # nothing looked for past the head, and no cut (a cut reads the whole file)
    assert not may_hold(nul_file, b"Scoring")
    games = tmp_path / "games.pbn"
    game = BOARD.partition("\n")[2]  # not the "% PBN 2.1" line: games cut apart
    games.write_text(f"{game}\n" * 4000)  # 2.6 MB
    assert len(list(iter_chunks(games, 1 << 20))) > 1
    games.write_bytes(bytes(16) + games.read_bytes())
    assert len(list(iter_chunks(games, 1 << 20))) == 1
    assert file_encoding(str(nul_file)) == "utf-8"


@pytest.mark.parametrize("command", [["validate", "-j", "2"], ["convert", "-o", "out.jsonl"]])
def test_a_file_of_nul_bytes_is_not_a_pbn_file(nul_file, command):
    command = [str(nul_file.parent / c) if c.startswith("out") else c for c in command]
    result = run(*command, nul_file)
    if command[0] == "validate":
        assert result.exit_code == 1
        assert "SY009 [not-a-pbn-file]" in result.stdout
    else:
        assert result.exit_code == 0
        assert "SY009" in (nul_file.parent / "out.jsonl").read_text()
