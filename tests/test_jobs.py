"""``-j N``: work split over files and inside large files gives the same output as one
process -- the same text and JSON in the same order, Parquet with the same rows in the
same order -- and progress, failures and interruptions behave."""

from __future__ import annotations

import gc
import io
import json
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pbnkit.pipeline.engines import Inline, Pool, UnitError, _in_order
from pbnkit.pipeline import collector
from pbnkit.pipeline.units import plan
from pbnkit.progress import Progress
from tests.conftest import job_inputs, run_pbnkit

@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> list[str]:
    """Sample files, a generated file cut into several chunks, and a spread of real files
    (the chunked reader itself is checked on every corpus file in test_reader_chunks)."""
    return job_inputs(tmp_path_factory.mktemp("inputs"), 2500, 3, 6)


cli = run_pbnkit


def test_a_large_file_is_cut_into_chunks_for_several_jobs(inputs):
    from pathlib import Path

    units = list(plan([Path(inputs[0])], 2))
    assert len(units) > 1
    assert [u.chunk for u in units] == list(range(len(units)))
    assert [u.is_last for u in units] == [False] * (len(units) - 1) + [True]
    assert sum(u.size for u in units) == Path(inputs[0]).stat().st_size


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ("--format", "json", "--min-severity", "info"),
    ("--strict", "--min-severity", "info"),
    ("--select", "SC,TG"),
])
def test_validate_gives_the_same_output_at_any_jobs(inputs, args):
    serial = cli("validate", "-j", "1", *args, *inputs)
    assert serial[0] in (0, 1) and serial[1]
    assert cli("validate", "-j", "2", *args, *inputs) == serial


@pytest.mark.slow
@pytest.mark.parametrize("name", ["a.parquet", "a.jsonl", "a.json"])
def test_convert_writes_the_same_archive_at_any_jobs(inputs, tmp_path, name):
    assert cli("convert", "-q", "-j", "1", *inputs, "-o", tmp_path / f"one-{name}")[0] == 0
    assert cli("convert", "-q", "-j", "2", *inputs, "-o", tmp_path / f"two-{name}")[0] == 0
    one, two = tmp_path / f"one-{name}", tmp_path / f"two-{name}"
    if name.endswith(".parquet"):
        assert pq.read_table(two).equals(pq.read_table(one))
    else:
        assert two.read_bytes() == one.read_bytes()


def test_workers_hand_their_batches_over_through_the_spool_and_leave_nothing(
        inputs, tmp_path, taken):
    from pbnkit.pipeline.convert import convert

    pool = Pool(2)
    try:
        spool = pool.spool
        assert spool is not None and os.path.isdir(spool)
        summary = convert(inputs[:1], tmp_path / "two.parquet", check=False, engine=pool)
        units = list(plan(inputs[:1], 2))
        assert len(taken) == len(units) > 1
        # chunks of half a megabyte (some 800 boards, megabytes of columns) wait in files;
        # the file's small last chunk comes through the pipe (test_jobs_bundles.py)
        assert [isinstance(spooled, str) for spooled in taken] == [
            unit.size > 100 << 10 for unit in units]
        assert all(os.path.dirname(path) == spool for path in taken if isinstance(path, str))
        assert os.listdir(spool) == []  # each unit's file is gone once the parent took it
    finally:
        pool.close()
    assert not os.path.exists(spool)
    convert(inputs[:1], tmp_path / "one.parquet", check=False)
    assert Inline().spool is None
    assert pq.read_table(tmp_path / "two.parquet").equals(pq.read_table(tmp_path / "one.parquet"))
    assert pq.read_metadata(tmp_path / "two.parquet").num_rows == summary.records > 0


@pytest.mark.slow
def test_a_dataset_written_by_jobs_reads_back_in_order(inputs, tmp_path):
    assert cli("convert", "-q", "-j", "1", *inputs, "-o", tmp_path / "one.parquet")[0] == 0
    assert cli("convert", "-q", "-j", "2", *inputs, "-o", tmp_path / "set")[0] == 0
    manifest = json.loads((tmp_path / "set" / "_SUCCESS").read_text())
    parts = [pq.read_table(tmp_path / "set" / p["name"]) for p in manifest["parts"]]
    assert pa.concat_tables(parts).equals(pq.read_table(tmp_path / "one.parquet"))
    for profile in ("duplicate", "rubber"):
        serial = cli("rescore", "-j", "1", "--profile", profile, "--format", "json",
                     tmp_path / "one.parquet")
        assert serial[0] == 0
        assert cli("rescore", "-j", "2", "--profile", profile, "--format", "json",
                   tmp_path / "set") == serial
        text = cli("rescore", "-j", "1", "--profile", profile, tmp_path / "one.parquet")
        assert text[0] == 0
        assert cli("rescore", "-j", "2", "--profile", profile, tmp_path / "set") == text


def test_a_dataset_without_its_manifest_is_refused(inputs, tmp_path):
    assert cli("convert", "-q", inputs[1], "-o", tmp_path / "set")[0] == 0
    (tmp_path / "set" / "_SUCCESS").unlink()
    code, _ = cli("rescore", "--profile", "duplicate", tmp_path / "set")
    assert code == 2


@pytest.mark.slow
def test_score_gives_the_same_output_at_any_jobs(inputs):
    files = [f for f in inputs if "rubber" not in f]
    serial = cli("score", "-j", "1", "--profile", "duplicate", "--format", "json", *files)
    assert serial[0] == 0 and json.loads(serial[1])["boards"]
    assert cli("score", "-j", "2", "--profile", "duplicate", "--format", "json",
               *files) == serial
    text = cli("score", "-j", "1", *inputs[:1])
    assert cli("score", "-j", "2", *inputs[:1]) == text
    # the sheet's lines made by the workers: with a file's name over its boards, and
    # the columns of a pairs event's matchpoints after them
    text = cli("score", "-j", "1", "--profile", "duplicate", *files)
    assert "File: " in text[1] and "MP NS" in text[1]
    assert cli("score", "-j", "2", "--profile", "duplicate", *files) == text


def test_results_come_back_in_unit_order_with_a_bounded_window():
    submitted: list[int] = []

    class Done:
        def __init__(self, value: int):
            self.value = value

        def result(self) -> int:
            return self.value

        def cancel(self) -> bool:
            return True

    def submit(unit: int) -> Done:
        submitted.append(unit)
        return Done(unit * 10)

    results = _in_order(submit, range(10), window=3)
    assert next(results) == (0, 0)
    assert submitted == [0, 1, 2, 3]  # three in flight once the first is taken
    assert list(results) == [(n, 10 * n) for n in range(1, 10)]


def test_a_failing_unit_names_its_file(tmp_path):
    pool = Pool(2)
    try:
        with pytest.raises(UnitError, match=r"missing\.pbn"):
            list(pool.map(_fail_on_missing, [str(tmp_path / "missing.pbn")]))
    finally:
        pool.close()
    assert list(Inline().map(len, ["ab", "c"])) == [("ab", 2), ("c", 1)]


def _fail_on_missing(path: str) -> int:
    with open(path) as stream:  # FileNotFoundError in the worker
        return len(stream.read())


def test_every_unit_runs_with_the_collector_paused_wherever_it_runs():
    """The collector's policy (pipeline.collector): a unit's work runs with it paused, in
    a worker and in the parent alike; the parent's own state is left as it was."""
    pool = Pool(2)
    try:
        with collector.paused():
            seen = [seen for _, seen in pool.map(_collector_on, range(4))]
            assert not gc.isenabled()
    finally:
        pool.close()
    assert gc.isenabled()
    assert {on for _, on in seen} == {False}
    assert [on for _, (_, on) in Inline().map(_collector_on, range(2))] == [False, False]
    assert gc.isenabled()


def test_a_worker_starts_with_the_collector_on():
    """Whatever its parent had paused it for: what cycles its units leave are collected
    between units."""
    with collector.paused():
        collector.worker_started()
        assert gc.isenabled()


def _collector_on(_: int) -> tuple[int, bool]:
    return os.getpid(), gc.isenabled()


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_a_bar_with_the_games_and_their_rate():
    stream = Terminal()
    progress = Progress("validating", enabled=None, stream=stream, total=1000)
    progress.advance(120, 500)
    progress.advance(80, 500)
    progress.close()
    shown = stream.getvalue()
    assert "validating" in shown and "100%" in shown and "200 games" in shown
    assert "/s" in shown


def test_no_progress_when_quiet_or_not_a_terminal():
    stream = io.StringIO()
    progress = Progress("validating", enabled=None, stream=stream, total=1000)
    progress.advance(10, 1000)
    progress.close()
    assert stream.getvalue() == ""


def test_score_pauses_the_collector_only_for_results_from_other_processes(capsys):
    """Results unpickled from workers hold no cycles: the collector is paused while they
    gather. Units run in this process (-j 1) may leave cycles: it is on between them."""
    import contextlib

    from pbnkit.cli import _score_and_write
    from pbnkit.cli_jobs import Run

    seen = []

    class Watched(Progress):
        def advance(self, records: int, size: int) -> None:  # in the parent, between units
            seen.append(("between units", gc.isenabled()))

    def unit_function(_unit, sheet_lines=False):
        from pbnkit.pipeline.score import ScoredUnit

        seen.append(("unit", gc.isenabled(), sheet_lines))
        return ScoredUnit([], {}, [], [] if sheet_lines else None)

    for engine in (Inline(), _NotInline()):
        runner = contextlib.nullcontext(Run(engine, [_SizedUnit()],
                                            Watched("scoring", enabled=False)))
        _score_and_write(runner, unit_function, "duplicate", False, None, "text", None, False)
    # a unit's work is paused wherever it runs; the units of other processes make the
    # lines of the sheet, beside each other
    assert seen == [("unit", False, False), ("between units", True),
                    ("unit", False, True), ("between units", False)]
    assert gc.isenabled()
    assert "Profile: duplicate" in capsys.readouterr().out


class _NotInline:
    """Runs the units here, but is not the inline engine: as a pool's results are."""

    jobs = 2
    spool = None

    def map(self, function, units):
        return ((unit, function(unit)) for unit in units)

    def close(self) -> None:
        pass


class _SizedUnit:
    size = 1
