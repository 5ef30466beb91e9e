"""The build the suite runs against: ``pytest --compiled`` must test compiled modules
(a build that fell back to pure Python would test the pure modules twice), and a plain
run the repository's own sources."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

HOT = ("pbnkit.replay.clean", "pbnkit.rules.tags", "pbnkit.pbn.parser", "pbnkit.export.rows",
       "pbnkit.model.calls")


@pytest.fixture
def compiled(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("compiled"))


@pytest.mark.parametrize("name", HOT)
def test_hot_modules_are_the_build_under_test(name: str, compiled: bool) -> None:
    path = Path(importlib.import_module(name).__file__ or "")
    if compiled:
        assert path.suffix in (".so", ".pyd"), f"{name} is not compiled: the build fell back"
    else:
        assert path.is_relative_to(REPO / "pbnkit") and path.suffix == ".py"


def test_child_processes_run_the_same_build(compiled: bool) -> None:
    out = subprocess.run([sys.executable, "-c", "import pbnkit.replay.clean as m; print(m.__file__)"],
                         capture_output=True, text=True, check=True, cwd=REPO).stdout
    assert out.strip().endswith((".so", ".pyd")) == compiled


def _compiled_modules() -> list[Path]:
    spec = importlib.util.spec_from_file_location("hatch_build", REPO / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    return sorted(path for pattern in hook.MODULES for path in REPO.glob(pattern))


def test_compiled_classes_carry_no_decorator_but_dataclass() -> None:
    """mypyc makes a class with any other decorator a plain Python class, and then gets
    ``==`` between its instances wrong in compiled code: register such classes by a call
    after the class instead (``by_fields(Contract)``)."""
    modules = _compiled_modules()
    assert len(modules) > 20
    for path in modules:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                for decorator in node.decorator_list:
                    called = decorator.func if isinstance(decorator, ast.Call) else decorator
                    assert isinstance(called, ast.Name) and called.id == "dataclass", (
                        f"{path.relative_to(REPO)}: class {node.name} has a decorator "
                        f"{ast.unparse(decorator)}")
