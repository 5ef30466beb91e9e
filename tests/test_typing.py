"""The package type-checks under ``mypy --strict`` (settings in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO

pytest.importorskip("mypy", reason="mypy comes with the test extra: pip install -e .[test]")


@pytest.mark.slow
def test_package_passes_mypy_strict():
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
