"""Small files at ``-j N``: they go to the workers several at a time, and a conversion hands
their batches back through the pipe, so that a folder of thousands of one-board files is
not slower on two cores than on one. The results, the errors and the output stay those of
one unit at a time."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import NamedTuple

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pbnkit.export import sinks
from pbnkit.export.sinks import ParquetSink
from pbnkit.pipeline.engines import Bundled, Pool, UnitError, _bundles
from tests.conftest import SAMPLE_DATA, run_pbnkit


class _Unit(NamedTuple):
    path: str
    size: int

    def describe(self) -> str:
        return self.path


def _process(unit: _Unit) -> tuple[str, int]:
    return unit.path, os.getpid()


def _length(unit: _Unit) -> int:
    return len(Path(unit.path).read_bytes())  # FileNotFoundError for a missing file


def test_units_are_bundled_until_they_hold_the_least_bytes():
    sizes = [3, 3, 3, 3, 20, 3, 9, 1]
    bundles = _bundles([_Unit(str(n), size) for n, size in enumerate(sizes)], 10)
    assert [[int(unit.path) for unit in bundle.units] for bundle in bundles] == [
        [0, 1, 2, 3], [4], [5, 6], [7]]


class _Recording:
    """An engine that runs what it is given here, and keeps it."""

    jobs = 2
    spool = None

    def __init__(self) -> None:
        self.given: list[object] = []

    def map(self, function, units):
        for unit in units:
            self.given.append(unit)
            yield unit, function(unit)

    def close(self) -> None:
        pass


def test_the_inner_engine_is_given_bundles_and_the_caller_units():
    inner = _Recording()
    units = [_Unit(f"u{n}", 3) for n in range(10)]
    results = list(Bundled(inner, 10).map(_process, units))
    assert [len(bundle.units) for bundle in inner.given] == [4, 4, 2]
    assert [unit for unit, _ in results] == units
    assert [path for _, (path, _) in results] == [unit.path for unit in units]


def test_a_bundle_runs_in_one_process_and_gives_one_result_a_unit_in_order():
    units = [_Unit(f"u{n}", 3) for n in range(10)]
    engine = Bundled(Pool(2), 10)
    try:
        results = list(engine.map(_process, units))
    finally:
        engine.close()
    assert [unit for unit, _ in results] == units
    assert [path for _, (path, _) in results] == [unit.path for unit in units]
    processes = [pid for _, (_, pid) in results]  # a worker's, or the parent's
    assert [len(set(processes[at:at + 4])) for at in (0, 4, 8)] == [1, 1, 1]


def test_a_failing_unit_of_a_bundle_is_named_not_its_bundle(tmp_path):
    present = tmp_path / "present.pbn"
    present.write_text('[Board "1"]\n')
    units = [_Unit(str(present), 1), _Unit(str(tmp_path / "missing.pbn"), 1),
             _Unit(str(present), 1)]
    engine = Bundled(Pool(2), 100)
    try:
        with pytest.raises(UnitError, match=r"^\S*missing\.pbn: FileNotFoundError"):
            list(engine.map(_length, units))
    finally:
        engine.close()


def test_the_units_of_files_are_bundled_and_those_of_an_archive_are_not(tmp_path):
    from pbnkit.cli_jobs import running

    files = sorted(SAMPLE_DATA.glob("*.pbn"))
    with running("checking", files, 2, None, True) as run:
        assert isinstance(run.engine, Bundled)
    with running("rescoring", [], 2, None, True, plan=lambda jobs: []) as run:
        assert not isinstance(run.engine, Bundled)
    with running("checking", files, 1, None, True) as run:
        assert not isinstance(run.engine, Bundled)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """Many small files: the sample files, five times over, in folders of their own."""
    folder = tmp_path_factory.mktemp("small")
    for copy in range(5):
        shutil.copytree(SAMPLE_DATA, folder / f"copy{copy}",
                        ignore=shutil.ignore_patterns("*.md"))
    return folder


@pytest.mark.parametrize("command", [("validate", "--format", "json"),
                                     ("score", "--profile", "duplicate", "--format", "json")])
def test_a_folder_of_small_files_gives_the_same_output_at_any_jobs(folder, command):
    serial = run_pbnkit(*command, "-j", "1", folder)
    assert serial[0] in (0, 1) and serial[1]
    assert run_pbnkit(*command, "-j", "2", folder) == serial


def test_small_units_hand_their_rows_or_batches_back_through_the_pipe(folder, tmp_path, taken):
    """A file of a few boards hands back its rows, for the parent to encode with the next
    files'; a file of more, its Arrow stream as bytes: neither goes through a file of the
    spool (whose making and removing would cost more than the boards)."""
    import pbnkit
    from pbnkit.pipeline.convert import PICKLED_ROWS, convert

    files = sorted(str(path) for path in folder.rglob("*.pbn"))
    encoded = [path for path in files if len(list(pbnkit.read(path))) >= PICKLED_ROWS]
    assert 0 < len(encoded) < len(files)
    pool = Pool(2)
    try:
        spool = pool.spool
        assert spool is not None
        convert(files, tmp_path / "two.parquet", check=False, engine=pool)
        assert len(taken) == len(encoded) and all(isinstance(one, bytes) for one in taken)
        assert os.listdir(spool) == []
    finally:
        pool.close()
    convert(files, tmp_path / "one.parquet", check=False)
    assert pq.read_table(tmp_path / "two.parquet").equals(pq.read_table(tmp_path / "one.parquet"))


def test_many_small_batches_make_the_same_row_group_as_one_batch(tmp_path, monkeypatch):
    """Small batches (a row each, from files of one board) are made one before a row group
    is written; the file holds the same rows as their table, in one row group."""
    from tests.conftest import generate_boards

    from pbnkit.export.archive import records

    rows = list(records([generate_boards(tmp_path / "b.pbn", 150, 7)], check=False))
    batches = [ParquetSink.encode([row]) for row in rows]
    assert len(batches) * sinks.FEW_ROWS > len(rows)  # small batches: made one
    sink = ParquetSink(str(tmp_path / "small.parquet"))
    for batch in batches:
        sink.write(batch)
    sink.close()
    written = pq.ParquetFile(tmp_path / "small.parquet")
    assert written.metadata.num_row_groups == 1
    assert written.read().equals(pa.Table.from_batches(batches))
