"""``pbnkit validate -`` lists the findings of standard input as its games come, not once it
has ended, and lists exactly what a file of the same bytes gives."""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbnkit.cli import main
from pbnkit.formats.sniff import open_reader
from pbnkit.pbn.reader import PbnReader
from pbnkit.streams import LiveStdin
from tests.conftest import CORPUS, REPO, SAMPLE_DATA, ctrl_c_as_at_a_terminal, generate_boards

#: long enough for a run that is stuck to fail, not hang
_TIMEOUT = 60

WRONG = b'[Event "x"]\n[Board "1"]\n[Scoring "IMP"]\n[Dealer "Q"]\n\n'
RIGHT = b'[Event "x"]\n[Board "2"]\n[Scoring "IMP"]\n[Dealer "E"]\n\n'


def _run(*args: object, stdin: bytes | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args], input=stdin)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout


def _files() -> list[Path]:
    """PBN and LIN files of every kind: the samples, and the corpus when it is there."""
    files = sorted(SAMPLE_DATA.glob("*.pbn"))
    if CORPUS.is_dir():
        files += sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() in (".pbn", ".lin"))
    return files


def _validate(*args: object, tmp: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "TMPDIR": str(tmp)}
    return subprocess.Popen([sys.executable, "-m", "pbnkit", "validate", *map(str, args)],
                            env=env, cwd=REPO, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=ctrl_c_as_at_a_terminal)


def _line(process: subprocess.Popen[bytes]) -> bytes:
    """The next line of the command's stdout, failing (not hanging) when none comes."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], _TIMEOUT)
    assert ready, "nothing listed while standard input is open"
    return process.stdout.readline()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_finding_is_listed_while_standard_input_is_still_open(tmp_path, jobs):
    # A game is given out once the next one has come: the second game frees the first.
    named = tmp_path / "named.pbn"
    named.write_bytes(WRONG)
    process = _validate("-j", jobs, named, "-", tmp=tmp_path)
    assert process.stdin is not None
    try:
        assert _line(process) == f"{named}:4:10: TG004 [invalid-seat] dealer 'Q' is not " \
                                 "W, N, E or S\n".encode()
        process.stdin.write(WRONG + RIGHT)
        process.stdin.flush()
        assert _line(process).startswith(b"<stdin>:4:10: TG004 [invalid-seat]")
        assert process.poll() is None  # still reading
        out, _ = process.communicate(WRONG, timeout=_TIMEOUT)  # and the end of stdin
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 1
    assert out.decode().splitlines() == [
        "<stdin>:14:10: TG004 [invalid-seat] dealer 'Q' is not W, N, E or S",
        "2 files, 4 games: 3 errors, 0 warnings"]
    assert list(tmp_path.iterdir()) == [named]  # the spool file is gone


def test_ctrl_c_keeps_what_was_listed(tmp_path):
    process = _validate("-", tmp=tmp_path)
    assert process.stdin is not None
    try:
        process.stdin.write(WRONG + RIGHT)
        process.stdin.flush()
        first = _line(process)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=_TIMEOUT)
    finally:
        process.kill()
        process.wait()
    assert first.startswith(b"<stdin>:4:10: TG004") and out == b""
    assert process.returncode == 130 and b"pbnkit: interrupted" in err
    assert b"Traceback" not in err
    assert list(tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> list[Path]:
    """Larger than a reader's block and a chunk, with and without Scoring tags."""
    folder = tmp_path_factory.mktemp("stdin")
    scored = generate_boards(folder / "scored.pbn", 1500, 7)
    data = scored.read_bytes().replace(b'[Score "NS 1', b'[Score "NS 2')
    scored.write_bytes(data)
    unscored = folder / "unscored.pbn"
    unscored.write_bytes(b"".join(line for line in data.splitlines(keepends=True)
                                  if not line.startswith(b"[Scoring ")))
    return [scored, unscored]


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ("-j", "1"),
    ("-j", "2", "--format", "github"),
    ("-j", "1", "--strict", "--min-severity", "info"),
])
def test_standard_input_lists_what_the_file_it_is_named_after_lists(generated, args):
    for path in [*generated, *(_files() if args == ("-j", "1") else SAMPLE_DATA.glob("*.pbn"))]:
        expected = _run("validate", *args, path)
        assert _run("validate", *args, "-", "--stdin-filename", path,
                    stdin=path.read_bytes()) == expected, path


@pytest.mark.slow
def test_standard_input_among_files_at_two_jobs_keeps_their_order(generated):
    files = [SAMPLE_DATA / "team_match.pbn", generated[0], SAMPLE_DATA / "pairs_butler.pbn"]
    expected = _run("validate", "-j", "1", *files)
    stdin = ["-" if path == generated[0] else path for path in files]
    assert _run("validate", "-j", "2", *stdin, "--stdin-filename", generated[0],
                stdin=generated[0].read_bytes()) == expected


class _Trickle:
    """Standard input that gives a few bytes at a time, as a slow producer does."""

    def __init__(self, data: bytes, seed: int):
        self._data, self._at, self._random = data, 0, random.Random(seed)

    def read1(self, size: int) -> bytes:
        size = min(size, self._random.choice((1, 3, 40, 700, 9000)))
        self._at += size
        return self._data[self._at - size:self._at]

    read = read1


def _read(reader: PbnReader) -> tuple[object, ...]:
    games = [(g.line, g.tags, g.values, g.diagnostics, g.original) for g in reader]
    return (games, reader.diagnostics, reader.encoding, reader.trailer, reader.original_head,
            reader.original_tail)


@pytest.mark.slow
@pytest.mark.parametrize("strict", [False, True])
def test_standard_input_read_in_small_pieces_reads_as_the_file(tmp_path, strict):
    # The BOM, the charset escape line, the encoding fallbacks and the line ends of each file
    # come out the same however the bytes arrive.
    for path in _files():
        for seed in range(2):
            spool = tmp_path / "spool"
            with spool.open("wb") as out:
                live = LiveStdin(spool, out, _Trickle(path.read_bytes(), seed))  # type: ignore[arg-type]
                got = _read(live.reader(path.name, strict))
            assert got == _read(open_reader(path, path.name, strict)), (path, seed)
            assert spool.read_bytes() == path.read_bytes()


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a terminal")
def test_a_terminal_on_standard_input_is_told_how_to_end_it(tmp_path):
    terminal, stdin = os.openpty()
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    process = subprocess.Popen([sys.executable, "-m", "pbnkit", "validate", "-"], env=env,
                               cwd=REPO, stdin=stdin, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    os.close(stdin)
    try:
        assert process.stderr is not None
        ready, _, _ = select.select([process.stderr], [], [], _TIMEOUT)
        assert ready
        assert process.stderr.readline() == \
            b"pbnkit: reading PBN from standard input (end it with Ctrl-D)\n"
        os.write(terminal, WRONG + RIGHT)
        assert _line(process).startswith(b"<stdin>:4:10: TG004")
        os.write(terminal, b"\x04")  # Ctrl-D: the end of the input
        out, _ = process.communicate(timeout=_TIMEOUT)
    finally:
        os.close(terminal)
        process.kill()
        process.wait()
    assert process.returncode == 1 and out == b"1 files, 2 games: 1 errors, 0 warnings\n"
