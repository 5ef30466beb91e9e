"""Writers that cannot corrupt each other: each output is locked while a run writes it
(a second writer refuses, exit 2), a crashed run leaves no lock behind, a device or FIFO
is never an output, and a dataset whose manifest disagrees with its parts is never read
short."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from pbnkit.cli import main
from pbnkit.export.atomic import lock_of, output_lock
from tests.conftest import REPO, SAMPLE_DATA

SAMPLES = sorted(str(p) for p in SAMPLE_DATA.glob("*.pbn"))


def cli(*args: object) -> tuple[int, str]:
    """``pbnkit ARGS`` in this process: exit status and standard error."""
    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stderr


def env() -> dict[str, str]:
    path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    return dict(os.environ, PYTHONPATH=path)


def rows_of(dataset: Path) -> int:
    """The records a dataset holds, read as pbnkit reads it (the manifest checked)."""
    from pbnkit.export.dataset import read_parts

    return sum(pq.read_metadata(part).num_rows for part in read_parts(dataset))


@pytest.fixture(scope="module")
def expected_rows(tmp_path_factory) -> int:
    out = tmp_path_factory.mktemp("serial") / "all.parquet"
    assert cli("convert", "-q", "-j", "1", "-o", out, *SAMPLES)[0] == 0
    return pq.read_metadata(out).num_rows


def writers(tmp_path: Path) -> list[tuple[Path, list[object]]]:
    """Each writing command, with the output it writes (existing, so --force is needed)."""
    archive = tmp_path / "in.parquet"
    assert cli("convert", "-q", "-j", "1", "-o", archive, SAMPLES[0])[0] == 0
    dataset = tmp_path / "in_dataset"
    assert cli("convert", "-q", "-j", "1", "-o", dataset, *SAMPLES[:3])[0] == 0
    out = tmp_path / "out"
    return [
        (out / "a.parquet", ["convert", "-q", "-j", "1", SAMPLES[0]]),
        (out / "dataset", ["convert", "-q", "-j", "1", SAMPLES[0]]),
        (out / "s.json", ["score", "--format", "json", SAMPLES[1]]),
        (out / "r.json", ["rescore", "--profile", "duplicate", "--format", "json", archive]),
        (out / "v.html", ["report", SAMPLES[0]]),
        (out / "e.pbn", ["export", archive]),
        (out / "originals", ["export", "--original", archive]),
    ]


def test_a_second_writer_of_an_output_refuses_while_the_first_writes(tmp_path):
    (tmp_path / "out").mkdir()
    for target, command in writers(tmp_path):
        with output_lock(target):  # a first run, writing it
            code, err = cli(*command, "--force", "-o", target)
        assert code == 2, (command, err)
        assert "being written by another run" in err and str(target) in err
        assert "--resume" not in err  # the work in progress is the other run's
        assert not target.exists()
        assert cli(*command, "-o", target)[0] in (0, 1)  # the lock is gone with the run
        assert target.exists() and not lock_of(target).exists()


def test_a_refused_convert_does_not_offer_the_other_runs_work(tmp_path):
    out = tmp_path / "d"
    with output_lock(out):
        (tmp_path / ".d.partial").mkdir()  # the first run's work in progress
        code, err = cli("convert", "-q", "-j", "1", "--force", "-o", out, SAMPLES[0])
        assert code == 2 and "being written by another run" in err
        assert "--resume" not in err and (tmp_path / ".d.partial").is_dir()


def test_compact_waits_for_no_one_either(tmp_path):
    dataset = tmp_path / "d"
    assert cli("convert", "-q", "-j", "1", "-o", dataset, *SAMPLES)[0] == 0
    before = json.loads((dataset / "_SUCCESS").read_text())
    with output_lock(dataset):
        code, err = cli("compact", dataset)
    assert code == 2 and "being written by another run" in err
    assert json.loads((dataset / "_SUCCESS").read_text()) == before
    assert cli("compact", "-q", dataset)[0] == 0


def test_two_converts_to_one_dataset_leave_one_true_dataset(tmp_path, expected_rows):
    """Whichever way the two runs meet, both end (0, or 2 refused) and the dataset that is
    left is whole: every part the manifest lists is there, with its rows."""
    out = tmp_path / "d"
    command = [sys.executable, "-m", "pbnkit", "convert", "-q", "-j", "2", "-o", str(out),
               *SAMPLES]
    first = subprocess.Popen(command, env=env(), stderr=subprocess.PIPE)
    second = subprocess.run(command + ["--force"], env=env(), stderr=subprocess.PIPE,
                            timeout=300)
    first.wait(timeout=300)
    codes = sorted([first.returncode, second.returncode])
    assert codes in ([0, 0], [0, 2]), (first.stderr.read() if first.stderr else b"",
                                       second.stderr)
    if 2 in codes:
        refused = second.stderr if second.returncode == 2 else first.stderr.read()
        assert b"being written by another run" in refused or b"exists" in refused
        assert b"--resume" not in refused
    assert rows_of(out) == expected_rows
    assert not lock_of(out).exists()


def test_a_killed_writer_leaves_no_lock_behind(tmp_path, expected_rows):
    out = tmp_path / "d"
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys, time
            from pbnkit.export.atomic import output_lock
            with output_lock({str(out)!r}):
                print("locked", flush=True)
                time.sleep(600)
            """)], env=env(), stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"locked\n"
        assert cli("convert", "-q", "-j", "1", "-o", out, *SAMPLES)[0] == 2
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=60)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    assert lock_of(out).exists()  # left by the killed run, but no longer held
    assert cli("convert", "-q", "-j", "1", "-o", out, *SAMPLES)[0] == 0
    assert rows_of(out) == expected_rows and not lock_of(out).exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_never_replaced_by_an_output(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link = tmp_path / "link.html"
    link.symlink_to(fifo)
    for target in (fifo, link):
        for command in (["report", SAMPLES[0]], ["score", SAMPLES[1]],
                        ["export", SAMPLES[1]]):
            code, err = cli(*command, "--force", "-o", target)
            assert code == 2, (command, err)
            assert "not a regular file" in err
    assert fifo.is_fifo() and link.is_symlink()
    # convert refused pipes before: its own message
    assert cli("convert", "-q", "--force", "-o", fifo, SAMPLES[0])[0] == 2
    assert fifo.is_fifo()


def test_standard_output_is_still_an_output():
    code, _ = cli("convert", "-q", "-o", "-", SAMPLES[0])
    assert code == 0


# -- a dataset whose manifest disagrees with its parts ---------------------------------------------

@pytest.fixture
def dataset(tmp_path) -> Path:
    out = tmp_path / "d"
    assert cli("convert", "-q", "-j", "1", "-o", out, *SAMPLES)[0] == 0
    return out


def manifest(where: Path) -> dict:
    return json.loads((where / "_SUCCESS").read_text())


def rewrite(where: Path, document: dict) -> None:
    (where / "_SUCCESS").write_text(json.dumps(document))


def read_errors(where: Path) -> list[str]:
    """What each reader of a dataset says of it (all must refuse)."""
    said = []
    for command in (["rescore", "--profile", "duplicate", "--format", "json", where],
                    ["export", "-o", "-", where],
                    ["compact", where]):
        code, err = cli(*command)
        assert code == 2, (command, err)
        said.append(err)
    return said


def test_a_part_missing_is_an_error(dataset):
    gone = manifest(dataset)["parts"][1]["name"]
    (dataset / gone).unlink()
    for err in read_errors(dataset):
        assert "missing" in err and gone in err


def test_wrong_row_counts_are_an_error(dataset):
    document = manifest(dataset)
    document["parts"][0]["rows"] += 1
    rewrite(dataset, document)
    for err in read_errors(dataset):
        assert document["parts"][0]["name"] in err and "rows" in err


def test_a_part_the_manifest_omits_is_an_error(dataset):
    document = manifest(dataset)
    left_out = document["parts"].pop(2)["name"]
    rewrite(dataset, document)
    for err in read_errors(dataset):
        assert "does not list" in err and left_out in err
    assert (dataset / left_out).is_file()  # compact did not clear the records away


def test_a_copy_of_a_listed_units_rows_is_what_compaction_leaves_and_is_read_once(dataset):
    """Parts of units that a listed part holds too: what a compaction cut short leaves."""
    first = manifest(dataset)["parts"][0]["name"]
    shutil.copy(dataset / first, dataset / first.replace(".parquet", "-copy.parquet"))
    total = sum(part["rows"] for part in manifest(dataset)["parts"])
    assert rows_of(dataset) == total
    assert cli("compact", "-q", dataset)[0] == 0
    assert rows_of(dataset) == total
