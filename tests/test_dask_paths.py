"""``--scheduler`` with relative paths: the workers work in a directory of their own
(here: the one the cluster started in, not the one the command runs in), so every path,
inputs and output, is resolved by the client before units are sent."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import SAMPLE_DATA, run_pbnkit

distributed = pytest.importorskip("distributed", reason="pip install 'pbnkit[dask]'")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    """A local cluster of two worker processes, started in a directory of their own."""
    started_in = tmp_path_factory.mktemp("workers")
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(started_in)
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      host="127.0.0.1", dashboard_address=None) as cluster:
            yield cluster.scheduler_address


def test_relative_inputs_and_output_on_a_cluster(scheduler, tmp_path, monkeypatch):
    for path in sorted(SAMPLE_DATA.glob("*.pbn"))[:3]:
        shutil.copy(path, tmp_path / path.name)
    names = sorted(p.name for p in tmp_path.glob("*.pbn"))
    monkeypatch.chdir(tmp_path)
    assert run_pbnkit("convert", "-q", "-j", "1", "-o", "serial.jsonl", *names)[0] == 0
    code, _ = run_pbnkit("convert", "-q", "--scheduler", scheduler, "-o", "archive", *names)
    assert code == 0
    manifest = json.loads((tmp_path / "archive" / "_SUCCESS").read_text())
    assert all((tmp_path / "archive" / part["name"]).is_file() for part in manifest["parts"])
    serial = (tmp_path / "serial.jsonl").read_text().count("\n")
    assert sum(part["rows"] for part in manifest["parts"]) == serial
    # the same rows as the serial run, sources named as given
    assert run_pbnkit("export", "--export-format", "-o", "-", "archive")[1] == \
        run_pbnkit("export", "--export-format", "-o", "-", "serial.jsonl")[1]
    code, text = run_pbnkit("validate", "--format", "json", "--scheduler", scheduler, *names)
    assert code in (0, 1)
    assert json.loads(text) == json.loads(run_pbnkit("validate", "--format", "json", "-j", "1",
                                                     *names)[1])
