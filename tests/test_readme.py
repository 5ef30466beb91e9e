"""The README's Python examples run, as users would run them: from a folder holding the
sample data and the archive the README's `pbnkit convert` line makes."""

from __future__ import annotations

import re

import pytest

from pbnkit.pipeline.convert import convert
from tests.conftest import REPO, SAMPLE_DATA

BLOCKS = re.findall(r"```python\n(.*?)```", (REPO / "README.md").read_text(encoding="utf-8"),
                    re.DOTALL)


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    (tmp_path / "sample_data").symlink_to(SAMPLE_DATA)
    convert([SAMPLE_DATA / "team_match.pbn"], tmp_path / "match.parquet")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_readme_python_example_runs(number, workdir, capsys):
    code = BLOCKS[number]
    if "import duckdb" in code:
        pytest.importorskip("duckdb")
    exec(compile(code, f"README.md block {number}", "exec"), {})  # noqa: S102 -- our README
    assert capsys.readouterr().out  # every example prints something


def test_readme_names_both_quickstart_commands():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert "<!-- quickstart-run -->" in text and "<!-- quickstart-test -->" in text
