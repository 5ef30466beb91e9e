"""The README's Python examples run, from the repository root, as users would run them."""

from __future__ import annotations

import re

import pytest

from tests.conftest import REPO

BLOCKS = re.findall(r"```python\n(.*?)```", (REPO / "README.md").read_text(encoding="utf-8"),
                    re.DOTALL)


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_readme_python_example_runs(number, monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    exec(compile(BLOCKS[number], f"README.md block {number}", "exec"), {})  # noqa: S102
    assert capsys.readouterr().out  # every example prints something


def test_readme_names_both_quickstart_commands():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert "<!-- quickstart-run -->" in text and "<!-- quickstart-test -->" in text
