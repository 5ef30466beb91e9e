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


@pytest.mark.slow
@pytest.mark.parametrize("output_format", ["text", "github"])
def test_streamed_output_is_the_same_at_one_and_two_jobs(inputs, output_format):
    serial = run_pbnkit("validate", "-q", "-j", "1", "--format", output_format, *inputs)
    assert serial[0] == 1 and serial[1].count("\n") > 100
    assert run_pbnkit("validate", "-q", "-j", "2", "--format", output_format, *inputs) == serial


@pytest.mark.slow
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


@pytest.mark.slow
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


def _lin_boards(path: Path, boards: int, *options: str) -> Path:
    subprocess.run([sys.executable, str(REPO / "benchmarks" / "generate_lin.py"), str(boards),
                    "-o", str(path), "--seed", "3", *options], check=True)
    return path


def _with_unknown_keys(path: Path, every: int) -> Path:
    """An unknown key (an SY301 each) at the end of every ``every``-th board's line."""
    lines = path.read_text("ascii").splitlines(keepends=True)
    path.write_text("".join(line.replace("\n", "zz|1|\n") if number % every == 0 else line
                            for number, line in enumerate(lines)), "ascii")
    return path


def _listed_while_read(path: Path) -> tuple[list[int], list[str]]:
    """The findings :func:`check_games` and :class:`FileValidation` give out game by game
    as ``validate -j 1`` prints them: for each game, how many were given out once it was
    checked; and all of them in the order printed."""
    from pbnkit.pipeline.units import Unit
    from pbnkit.rules.report import FileValidation, Options, check_games

    options = Options(select=("SY",))
    validation = FileValidation(str(path), options, str(path))
    given: list[int] = []
    printed: list[str] = []
    for _, checked in check_games(options, [Unit(str(path), path.stat().st_size)]):
        validation.add(checked)
        if not checked.final:
            ready = validation.ready()
            given.append(len(ready))
            printed += [d.format() for d in ready]
    _, rest = validation.finish()
    return given, printed + [d.format() for d in rest]


def _json_order(path: Path) -> list[str]:
    document = json.loads(run_pbnkit("validate", "-q", "--format", "json", "--min-severity",
                                     "info", "--select", "SY", path)[1])
    return [f"{d['path']}:{d['line']}:{d['column']}: {d['code']} [{d['name']}] {d['message']}"
            for d in document["diagnostics"]]


def test_findings_of_a_lin_file_are_given_out_as_its_boards_are_checked(tmp_path):
    path = _with_unknown_keys(_lin_boards(tmp_path / "boards.lin", 60), 10)
    given, printed = _listed_while_read(path)
    assert len(given) == 60
    # board 1's finding, once board 2 is found; then one every ten boards
    assert given[0] == 1 and given[10] == 1 and sum(given) == 6 and given[-1] == 0
    assert [line.split(": ")[1] for line in printed] == ["SY301 [lin-unknown-key] unknown "
                                                         "LIN key 'zz' (kept as written)"] * 6
    assert printed == _json_order(path)


def test_a_vugraph_files_findings_wait_for_the_boards_that_take_tags_from_its_header(tmp_path):
    """A vugraph board's Event, players and result come from the header's vg, pn and rs:
    its findings may be at lines before the boards already read."""
    path = _with_unknown_keys(_lin_boards(tmp_path / "match.lin", 30, "--vugraph"), 10)
    given, printed = _listed_while_read(path)
    assert len(given) == 60 and sum(given[:-1]) == 0 and len(printed) == 6
    assert printed == _json_order(path)
