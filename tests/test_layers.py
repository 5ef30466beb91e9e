"""Dependencies point one way, down the layers the README lists: grammars, readers,
model, replay, scoring, rules, export, pipeline, command line. Every import (function-level
ones included) of a later layer by an earlier one fails here."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pbnkit"


@cache
def imported_modules(path: Path) -> frozenset[str]:
    """Every module a file imports, at any depth (function-level imports included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = absolute(path, node.level, node.module)
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return frozenset(found)


def absolute(path: Path, level: int, module: str | None) -> str:
    """The module a ``from`` import names, relative ones (``from ..pipeline import x``) made
    absolute from the importing file's place in the package."""
    if not level:
        return module or ""
    package = path.resolve().relative_to(PACKAGE.parent).with_suffix("").parts[:-level]
    return ".".join([*package, *filter(None, [module])])


def reaches(modules: frozenset[str], package: str) -> list[str]:
    return sorted(m for m in modules if m == package or m.startswith(package + "."))


# The layers as the README's Development section lists them, in order: each imports only
# the ones before it (and itself). The grammars come first, read by the readers alone.
LAYERS = {
    "readers": ("pbnkit.records", "pbnkit.formats", "pbnkit.pbn", "pbnkit.lin"),
    "model": ("pbnkit.model",),
    "replay": ("pbnkit.replay",),
    "scoring": ("pbnkit.scoring",),
    "rules": ("pbnkit.rules",),
    "export": ("pbnkit.export",),
    "pipeline": ("pbnkit.pipeline",),
    "cli": ("pbnkit.cli", *(f"pbnkit.{p.stem}" for p in sorted(PACKAGE.glob("cli_*.py")))),
}
ORDER = list(LAYERS)


def layer_files(layer: str) -> list[Path]:
    files = []
    for module in LAYERS[layer]:
        relative = Path(*module.split(".")[1:])
        folder, single = PACKAGE / relative, (PACKAGE / relative).with_suffix(".py")
        files += sorted(folder.rglob("*.py")) if folder.is_dir() else [single]
    assert files and all(path.is_file() for path in files), layer
    return files


#: The one way down the layers: a read record gives its model objects (``game.deal``,
#: ``game.auction``...), which the replay makes when first asked for. The reader imports
#: the replay's maker inside the method that asks, never when it is imported, and names
#: the objects' types for the type checker only; the test below holds it to that.
RECORD_OBJECTS = PACKAGE / "records.py"


def loaded_modules(path: Path) -> frozenset[str]:
    """The modules a file imports when it is imported: its top-level imports, less those
    for the type checker only (under ``if TYPE_CHECKING:``)."""
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            continue
        for inner in ast.walk(node):
            if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                break
            if isinstance(inner, ast.Import):
                found.update(alias.name for alias in inner.names)
            elif isinstance(inner, ast.ImportFrom):
                found.add(absolute(path, inner.level, inner.module))
    return frozenset(found)


def imports_of_layer(layer: str, later: str) -> list[str]:
    """``file: module`` for each import of a module of ``later`` by a file of ``layer``."""
    found = []
    for path in layer_files(layer):
        modules = loaded_modules(path) if path == RECORD_OBJECTS else imported_modules(path)
        for package in LAYERS[later]:
            found += [f"{path.relative_to(PACKAGE.parent)}: {m}" for m in reaches(modules, package)]
    return found


UPWARD = [pytest.param(layer, later, id=f"{layer}-imports-no-{later}")
          for i, layer in enumerate(ORDER) for later in ORDER[i + 1:]]


@pytest.mark.parametrize(("layer", "later"), UPWARD)
def test_a_layer_imports_no_later_layer(layer, later):
    assert imports_of_layer(layer, later) == []


def test_the_domain_packages_import_nothing_that_runs_processes():
    """The domain packages (rules, scoring, export) are pure functions of records and
    units; running them in processes or on Dask, and the garbage collector's policy
    while they run, are the pipeline's, above them."""
    for layer in ORDER[:ORDER.index("pipeline")]:
        for path in layer_files(layer):
            modules = imported_modules(path)
            assert reaches(modules, "multiprocessing") == [], path
            assert reaches(modules, "concurrent") == [], path
            assert reaches(modules, "distributed") == [], path
            assert reaches(modules, "gc") == [], path


def test_the_garbage_collector_policy_is_in_one_place():
    deciding = sorted(str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")
                      if reaches(imported_modules(path), "gc"))
    assert deciding == ["pipeline/collector.py"]


def test_the_commands_and_the_public_calls_go_through_the_pipeline():
    """``pbnkit.validate``, ``score`` and ``convert`` are the pipeline's, which the
    commands call; no command maps units or merges them itself."""
    import pbnkit
    from pbnkit.pipeline import convert, score, validate

    assert pbnkit.validate is validate.validate
    assert pbnkit.score is score.score
    assert pbnkit.convert is convert.convert
    commands = frozenset().union(*map(imported_modules, layer_files("cli")))
    assert {"pbnkit.pipeline.validate.validate_units", "pbnkit.pipeline.score.gather",
            "pbnkit.pipeline.convert.convert", "pbnkit.pipeline.runs.start"} <= commands
    assert not {"pbnkit.rules.report.check_unit", "pbnkit.rules.report.check_games",
                "pbnkit.pipeline.engines.engine", "pbnkit.pipeline.units.plan"} & commands


def test_a_read_record_reaches_the_replay_only_when_asked_for_its_objects():
    later = [m for m in imported_modules(RECORD_OBJECTS) if m.startswith("pbnkit.")
             and not m.startswith(("pbnkit.diagnostics", "pbnkit.views", "pbnkit.digits",
                                   "pbnkit.lin.board"))]
    # the model's types are named for the type checker; the replay's maker is imported
    # inside the method that makes the objects
    assert {m.rpartition(".")[0] if m.count(".") > 2 else m for m in later} <= {
        "pbnkit.model.auction", "pbnkit.model.calls", "pbnkit.model.cards",
        "pbnkit.model.deal", "pbnkit.model.play", "pbnkit.replay.objects"}
    assert reaches(loaded_modules(RECORD_OBJECTS), "pbnkit.model") == []
    assert reaches(loaded_modules(RECORD_OBJECTS), "pbnkit.replay") == []


# Formats side by side: each format's reader imports the shared interface and the
# records, never another format; sniffing and file discovery, which know every format,
# stand outside all of them, and the interface knows none.
FORMATS = ("pbnkit.pbn", "pbnkit.lin")
KNOWS_NO_FORMAT = ("pbnkit.records", "pbnkit.formats.reader", "pbnkit.formats.files")


def files_of(module: str) -> list[Path]:
    relative = PACKAGE / Path(*module.split(".")[1:])
    return sorted(relative.rglob("*.py")) if relative.is_dir() else [relative.with_suffix(".py")]


@pytest.mark.parametrize(("one", "other"), [pytest.param(one, other, id=f"{one}-imports-no-{other}")
                                            for one in FORMATS for other in FORMATS
                                            if one != other])
def test_a_format_imports_no_other_format(one, other):
    found = [f"{path.relative_to(PACKAGE.parent)}: {m}" for path in files_of(one)
             for m in reaches(imported_modules(path), other)]
    assert found == []


def run_time_imports(path: Path) -> frozenset[str]:
    """:func:`imported_modules`, less the imports for the type checker only."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            node.body = []
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add(absolute(path, node.level, node.module))
    return frozenset(found)


@pytest.mark.parametrize("module", KNOWS_NO_FORMAT)
def test_the_shared_reading_machinery_imports_no_format(module):
    found = [f"{path.relative_to(PACKAGE.parent)}: {m}" for path in files_of(module)
             for package in (*FORMATS, "pbnkit.formats.sniff")
             for m in reaches(run_time_imports(path), package)]
    assert found == []


def test_only_the_readers_import_lark():
    """The grammars are syntax only: their parser stays inside the readers."""
    readers = set(layer_files("readers"))
    outside = sorted(str(path.relative_to(PACKAGE.parent)) for path in PACKAGE.rglob("*.py")
                     if path not in readers and reaches(imported_modules(path), "lark"))
    assert outside == []


def test_the_check_finds_an_import_of_the_rules(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from pbnkit.rules.replay import replay\n")
    assert reaches(imported_modules(sample), "pbnkit.rules") == ["pbnkit.rules.replay",
                                                                 "pbnkit.rules.replay.replay"]


def test_the_check_resolves_a_relative_import():
    path = PACKAGE / "rules" / "report.py"
    assert absolute(path, 1, "units") == "pbnkit.rules.units"
    assert absolute(path, 2, "pipeline.units") == "pbnkit.pipeline.units"
    assert absolute(PACKAGE / "rules" / "__init__.py", 2, None) == "pbnkit"
