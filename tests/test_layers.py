"""Dependencies point one way: the facts of a record (``pbnkit.replay``) sit below both
the rules and scoring, and scoring never reaches up into the rules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pbnkit"


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at any depth (function-level imports included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def reaches(modules: set[str], package: str) -> list[str]:
    return sorted(m for m in modules if m == package or m.startswith(package + "."))


@pytest.mark.parametrize("path", sorted((PACKAGE / "scoring").glob("*.py")), ids=lambda p: p.name)
def test_scoring_does_not_import_the_rules(path):
    assert reaches(imported_modules(path), "pbnkit.rules") == []


@pytest.mark.parametrize("path", sorted((PACKAGE / "replay").glob("*.py")), ids=lambda p: p.name)
def test_the_replay_imports_neither_rules_nor_scoring(path):
    modules = imported_modules(path)
    assert reaches(modules, "pbnkit.rules") + reaches(modules, "pbnkit.scoring") == []


def test_the_check_finds_an_import_of_the_rules(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from pbnkit.rules.replay import replay\n")
    assert reaches(imported_modules(sample), "pbnkit.rules") == ["pbnkit.rules.replay",
                                                                 "pbnkit.rules.replay.replay"]
