"""``pbnkit validate`` lists findings while it reads: game by game at ``-j 1``, unit by unit
at ``-j N``, always in the file and line order of the whole run's JSON document."""

from __future__ import annotations

import errno
import json
import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import CORPUS, REPO, SAMPLE_DATA, generate_boards, run_pbnkit

_SCORE = re.compile(rb'\[Score "(NS|EW) (-?\d+)"\]')
#: long enough for a run that is stuck to fail, not hang
_TIMEOUT = 120


def _wrong_score(match: re.Match[bytes]) -> bytes:
    return b'[Score "%s %d"]' % (match[1], int(match[2]) + 10)


def _faulty(data: bytes, every: int) -> bytes:
    """Every ``every``-th Score tag off by 10 (an SC020 each), the first one too."""
    count = 0

    def wrong(match: re.Match[bytes]) -> bytes:
        nonlocal count
        count += 1
        return _wrong_score(match) if count % every == 1 else match[0]

    return _SCORE.sub(wrong, data)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> list[str]:
    """A generated file large enough to be cut in chunks, with findings all along it, the
    same without its Scoring tags (its score checks wait for the profile), and the sample
    and corpus files."""
    folder = tmp_path_factory.mktemp("streaming")
    faulty = _faulty(generate_boards(folder / "big.pbn", 2500, 5).read_bytes(), 23)
    (folder / "faulty.pbn").write_bytes(faulty)
    (folder / "unscored.pbn").write_bytes(re.sub(rb'\[Scoring "[^"]*"\]\r?\n', b"", faulty))
    files = [str(folder / "faulty.pbn"), str(folder / "unscored.pbn")]
    files += sorted(str(p) for p in SAMPLE_DATA.glob("*.pbn"))
    if CORPUS.is_dir():
        files.append(str(CORPUS))
    return files


@pytest.mark.parametrize("output_format", ["text", "github"])
def test_streamed_output_is_the_same_at_one_and_two_jobs(inputs, output_format):
    serial = run_pbnkit("validate", "-q", "-j", "1", "--format", output_format, *inputs)
    assert serial[0] == 1 and serial[1].count("\n") > 100
    assert run_pbnkit("validate", "-q", "-j", "2", "--format", output_format, *inputs) == serial


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_streamed_lines_are_the_json_documents_findings_in_its_order(inputs, jobs):
    # The JSON document is made once every file is checked: its order is the reference.
    document = json.loads(run_pbnkit("validate", "-q", "-j", jobs, "--format", "json",
                                     "--min-severity", "info", *inputs)[1])
    expected = [f"{d['path']}:{d['line']}:{d['column']}: {d['code']} [{d['name']}] "
                f"{d['message']}" for d in document["diagnostics"]]
    text = run_pbnkit("validate", "-q", "-j", jobs, "--min-severity", "info", *inputs)[1]
    lines = text.splitlines()
    assert lines[:-1] == expected and lines[-1].startswith(f"{len(document['files'])} files")


def _open_for_writing(fifo: Path, process: subprocess.Popen[str]) -> int:
    """The FIFO's writing end, once the command opens it to read (never blocks forever)."""
    deadline = time.monotonic() + _TIMEOUT
    while True:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as error:
            if error.errno != errno.ENXIO or process.poll() is not None or \
                    time.monotonic() > deadline:
                raise
            time.sleep(0.05)
            continue
        os.set_blocking(fd, True)
        return fd


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
def test_findings_of_the_first_game_come_before_the_file_is_read_to_its_end(tmp_path):
    data = _faulty(generate_boards(tmp_path / "boards.pbn", 5000, 3).read_bytes(), 10 ** 6)
    cut = data.index(b"\n[Event", len(data) * 4 // 5) + 1
    head, rest = data[:cut], _SCORE.sub(_wrong_score, data[cut:])
    fifo = tmp_path / "boards.pbn"
    fifo.unlink()
    os.mkfifo(fifo)
    process = subprocess.Popen([sys.executable, "-m", "pbnkit", "validate", "-q", "-j", "1",
                                str(fifo)], stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        fd = _open_for_writing(fifo, process)
        # More than the reader's blocks of 1 MB: it reads on while the rest is held back.
        assert len(head) > 2 << 20
        os.write(fd, head)
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], _TIMEOUT)
        assert ready, "nothing listed before the end of the file"
        first = process.stdout.readline()
        assert first.startswith(f"{fifo}:") and " SC020 " in first
        os.write(fd, rest)
        os.close(fd)
        out, _ = process.communicate(timeout=_TIMEOUT)
    finally:
        process.kill()
        process.wait()
    lines = out.splitlines()
    assert process.returncode == 1
    assert len(lines) > 2 and all(" SC020 " in line for line in lines[:-1])
    assert lines[-1] == f"1 files, 5000 games: {len(lines)} errors, 0 warnings"  # the first line too
