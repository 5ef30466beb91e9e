"""``--scheduler``: the same work units on a real Dask cluster (a scheduler and two
worker processes started here on 127.0.0.1 and stopped at the end) give the same output
as the serial run; a dataset is written part by part by the workers, manifest last."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pyarrow.parquet as pq
import pytest

from tests.conftest import REPO, job_inputs, run_pbnkit

distributed = pytest.importorskip("distributed", reason="pip install 'pbnkit[dask]'")
pytestmark = pytest.mark.slow

def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """``tcp://127.0.0.1:PORT`` of a scheduler with two single-threaded workers."""
    address = f"tcp://127.0.0.1:{free_port()}"
    # the checkout's pbnkit, for the workers to unpickle work units with
    path = os.pathsep.join(filter(None, [os.environ.get("PYTHONPATH"), str(REPO)]))
    env = dict(os.environ, PYTHONPATH=path, DASK_DISTRIBUTED__WORKER__DAEMON="False")
    logs = tmp_path_factory.mktemp("dask")
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    processes = [subprocess.Popen(
        dask + ["--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                "--dashboard-address", "127.0.0.1:0"],
        env=env, cwd=REPO, stdout=subprocess.DEVNULL, stderr=open(logs / "scheduler", "wb"))]
    try:
        for number in range(2):
            processes.append(subprocess.Popen(
                [sys.executable, "-m", "distributed.cli.dask_worker", address,
                 "--nthreads", "1", "--host", "127.0.0.1", "--dashboard-address",
                 "127.0.0.1:0", "--name", f"worker-{number}"],
                env=env, cwd=REPO, stdout=subprocess.DEVNULL,
                stderr=open(logs / f"worker-{number}", "wb")))
        with distributed.Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        yield address
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> list[str]:
    """A generated file large enough to be cut into chunks, the sample files, and a few
    real files when the corpus is here."""
    return job_inputs(tmp_path_factory.mktemp("inputs"), 3000, 5, 12)


cli = run_pbnkit


def test_validate_on_the_cluster_equals_the_serial_run(scheduler, inputs):
    serial = cli("validate", "--format", "json", "--min-severity", "info", "-j", "1", *inputs)
    assert serial[0] in (0, 1)
    assert cli("validate", "--format", "json", "--min-severity", "info",
               "--scheduler", scheduler, *inputs) == serial
    assert json.loads(serial[1])["summary"]["games"] > 3000


def test_score_on_the_cluster_equals_the_serial_run(scheduler, inputs):
    files = [f for f in inputs if "rubber" not in f]  # one profile for all
    serial = cli("score", "--format", "json", "--profile", "duplicate", "-j", "1", *files)
    assert serial[0] == 0 and len(json.loads(serial[1])["boards"]) > 3000
    assert cli("score", "--format", "json", "--profile", "duplicate", "--scheduler",
               scheduler, *files) == serial
    # the sheet, whose lines of boards the cluster's workers make
    text = cli("score", "--profile", "duplicate", "-j", "1", *files)
    assert cli("score", "--profile", "duplicate", "--scheduler", scheduler, *files) == text


def test_convert_on_the_cluster_writes_the_same_rows(scheduler, inputs, tmp_path):
    assert cli("convert", "-q", "-j", "1", "-o", tmp_path / "serial.parquet", *inputs)[0] == 0
    dataset = tmp_path / "archive"
    assert cli("convert", "-q", "--scheduler", scheduler, "-o", dataset, *inputs)[0] == 0
    manifest = json.loads((dataset / "_SUCCESS").read_text())
    parts = [part["name"] for part in manifest["parts"]]
    assert sorted(parts) == sorted(p.name for p in dataset.glob("*.parquet"))
    assert sum("-big-" in name for name in parts) > 1  # the big file was cut in chunks
    serial = pq.read_table(tmp_path / "serial.parquet")
    parallel = [pq.read_table(dataset / name) for name in parts]
    assert sum(t.num_rows for t in parallel) == serial.num_rows == manifest_rows(manifest)
    import pyarrow as pa

    assert pa.concat_tables(parallel).equals(serial)
    # rescore reads the parts in the manifest's order
    from_archive = cli("rescore", "--format", "json", "--profile", "duplicate", "-j", "1",
                       dataset)
    from_file = cli("rescore", "--format", "json", "--profile", "duplicate", "-j", "1",
                    tmp_path / "serial.parquet")
    assert from_archive == from_file and from_file[0] == 0


def manifest_rows(manifest: dict) -> int:
    return sum(part["rows"] for part in manifest["parts"])


def test_an_unreachable_scheduler_is_a_clear_error(inputs):
    started = time.monotonic()
    code, _ = cli("validate", "--scheduler", f"tcp://127.0.0.1:{free_port()}", inputs[0])
    assert code == 2
    assert time.monotonic() - started < 60
