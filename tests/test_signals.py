"""SIGINT and SIGTERM end every command with status 130 and leave no temporary file; the
workers of a pool die with their parent, SIGKILL included; a run after a killed one
removes what it left beside the output.

Each signal is sent while the command surely runs: blocked on a standard input not yet
ended, on a compressed input that is a pipe, or once its hidden output file exists."""

from __future__ import annotations

import errno
import gzip
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pbnkit.export.atomic import remove_leftovers
from tests.conftest import REPO, ctrl_c_as_at_a_terminal, generate_boards

#: long enough for a run that is stuck to fail, not hang
_TIMEOUT = 60

GAME = b'[Event "x"]\n[Board "1"]\n[Dealer "Q"]\n[Deal "N:AKQ.... - - -"]\n\n'

STOPS = [pytest.param(signal.SIGTERM, id="TERM"), pytest.param(signal.SIGINT, id="INT")]


@pytest.fixture()
def tmp(tmp_path) -> Path:
    """The TMPDIR of the command: it must be empty after it."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    return folder


@pytest.fixture()
def out(tmp_path) -> Path:
    """The folder of the command's output: it must hold nothing after an interrupted run."""
    folder = tmp_path / "out"
    folder.mkdir()
    return folder


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    """Long enough to convert that its hidden output is there for a while."""
    return generate_boards(tmp_path_factory.mktemp("signals") / "big.pbn", 1500, 11)


def _pbnkit(*args: object, tmp: Path, stdin: int | None = subprocess.PIPE,
            ) -> subprocess.Popen[bytes]:
    env = {**os.environ, "TMPDIR": str(tmp), "PYTHONPATH": str(REPO)}
    return subprocess.Popen([sys.executable, "-m", "pbnkit", *map(str, args)], env=env,
                            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=ctrl_c_as_at_a_terminal)


def _wait_for(found: Callable[[], object], process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + _TIMEOUT
    while not found():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the command never got there"
        time.sleep(0.02)


def _stopped(process: subprocess.Popen[bytes], stop: signal.Signals) -> bytes:
    """Send ``stop``; the command's stderr, once it has ended with status 130."""
    process.send_signal(stop)
    try:
        _, err = process.communicate(timeout=_TIMEOUT)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130, err
    assert b"pbnkit: interrupted" in err and b"Traceback" not in err
    return err


@pytest.mark.parametrize("stop", STOPS)
@pytest.mark.parametrize("command", [
    pytest.param(("validate", "-j", "1", "-"), id="validate-j1"),
    pytest.param(("validate", "-j", "2", "-"), id="validate-j2"),
    pytest.param(("validate", "--format", "json", "-"), id="validate-json"),
    pytest.param(("score", "-j", "2", "-"), id="score"),
    pytest.param(("convert", "-j", "2", "-", "-o", "{out}/games.jsonl"), id="convert"),
    pytest.param(("report", "-", "-o", "{out}/games.html"), id="report"),
])
def test_a_signal_while_reading_stdin(tmp, out, stop, command):
    process = _pbnkit(*(a.format(out=out) for a in command), tmp=tmp)
    assert process.stdin is not None
    process.stdin.write(GAME)  # and no end: the command waits for more
    process.stdin.flush()
    _wait_for(lambda: any(p.name.startswith("pbnkit-stdin-") for p in tmp.iterdir()),
              process)
    _stopped(process, stop)
    assert list(tmp.iterdir()) == [] and list(out.iterdir()) == []


@pytest.mark.parametrize("stop", STOPS)
@pytest.mark.parametrize("command", [
    pytest.param(("validate",), id="validate"),
    pytest.param(("convert", "-o", "{out}/games.parquet"), id="convert"),
])
def test_a_signal_while_unpacking(tmp_path, tmp, out, stop, command):
    """The .gz is a named pipe that gives half of its bytes: unpacking waits for the rest."""
    packed = gzip.compress(GAME * 2000)
    pipe = tmp_path / "games.pbn.gz"
    os.mkfifo(pipe)
    process = _pbnkit(command[0], pipe, *(a.format(out=out) for a in command[1:]), tmp=tmp,
                      stdin=subprocess.DEVNULL)
    writer = -1
    try:
        def opened() -> bool:  # once the command has opened the pipe for reading
            nonlocal writer
            try:
                writer = os.open(pipe, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as error:
                assert error.errno == errno.ENXIO
                return False
            return True

        _wait_for(opened, process)
        os.write(writer, packed[:len(packed) // 2])
        _wait_for(lambda: [copy for folder in tmp.iterdir() for copy in folder.iterdir()],
                  process)
        _stopped(process, stop)
    finally:
        if writer >= 0:
            os.close(writer)
    assert list(tmp.iterdir()) == [] and list(out.iterdir()) == []


@pytest.mark.parametrize("stop", STOPS)
def test_a_signal_while_the_output_is_written(big, tmp, out, stop):
    process = _pbnkit("convert", "-j", "1", big, "-o", out / "games.jsonl", tmp=tmp,
                      stdin=subprocess.DEVNULL)
    _wait_for(lambda: list(out.iterdir()), process)  # the hidden work in progress
    _stopped(process, stop)
    assert list(tmp.iterdir()) == [] and list(out.iterdir()) == []


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_the_workers_die_with_their_parent_and_the_next_run_cleans_up(big, tmp, out):
    psutil = pytest.importorskip("psutil")
    target = out / "games.jsonl"
    # what runs killed before left: one of a process that has ended, one of a process
    # still running (this one), which another run must leave alone
    dead = out / f".games.jsonl.{_dead_pid()}-abc123.tmp"
    dead.write_text("half a run")
    alive = out / f".games.jsonl.{os.getpid()}-def456.tmp"
    alive.write_text("a run going on")
    process = _pbnkit("convert", "-j", "2", big, "-o", target, tmp=tmp,
                      stdin=subprocess.DEVNULL)
    parent = psutil.Process(process.pid)
    try:
        _wait_for(lambda: parent.children(), process)  # the pool has started
        workers = parent.children(recursive=True)
        process.kill()
        process.wait(timeout=_TIMEOUT)
    finally:
        process.kill()
        process.wait()
    gone = psutil.wait_procs(workers, timeout=_TIMEOUT)[1]  # those still alive
    assert [w for w in gone if w.status() != psutil.STATUS_ZOMBIE] == []
    again = _pbnkit("convert", "-j", "2", big, "-o", target, "--force", tmp=tmp,
                    stdin=subprocess.DEVNULL)
    _, err = again.communicate(timeout=_TIMEOUT * 2)
    assert again.returncode == 0, err
    assert sorted(p.name for p in out.iterdir()) == sorted([target.name, alive.name])


def test_a_version_moved_aside_stays_while_the_output_is_missing(tmp_path):
    """Killed between moving the old output aside and putting the new one in place: the
    old one is all there is."""
    target = tmp_path / "games"
    old = tmp_path / f".games.{_dead_pid()}-abc123.old"
    (old / "previous").mkdir(parents=True)
    other = tmp_path / f".games.x.{_dead_pid()}-abc123.tmp"  # another output's
    other.write_text("")
    remove_leftovers(target)
    assert old.exists() and other.exists()
    target.mkdir()
    remove_leftovers(target)
    assert not old.exists() and other.exists()
