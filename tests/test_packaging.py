"""The built wheel carries the grammar, the schemas, the licence and the type marker,
declares only what the package imports, and reads PBN on its own; the code passes the
linter configured in pyproject.toml."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.test_layers import imported_modules

pytest.importorskip("hatchling", reason="the wheel is built with hatchling (pip install -e .[test])")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-index", "-q", "-w", str(out), str(REPO)],
        check=True, capture_output=True, timeout=300,
    )
    (built,) = out.glob("pbnkit-*.whl")
    return built


@pytest.mark.slow
def test_wheel_contains_grammar_and_schemas(wheel):
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    assert "pbnkit/grammars/pbn.lark" in names
    assert "pbnkit/schemas/validate-report.v1.json" in names
    assert "pbnkit/py.typed" in names  # so that mypy checks code that uses pbnkit
    assert any(name.endswith(".dist-info/licenses/LICENSE") for name in names)


@pytest.mark.slow
def test_wheel_metadata_has_one_version_and_only_runtime_dependencies(wheel):
    import zipfile
    from email.parser import Parser

    import pbnkit

    archive = zipfile.ZipFile(wheel)
    (name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
    metadata = Parser().parsestr(archive.read(name).decode())
    assert metadata["Version"] == pbnkit.__version__
    assert metadata["License-Expression"] == "MIT"
    assert "Typing :: Typed" in metadata.get_all("Classifier")
    required = {re.split(r"[ ;<>=!~\[]", r)[0].lower().replace("-", "_")
                for r in metadata.get_all("Requires-Dist") if "extra ==" not in r}
    imported = {module.split(".")[0] for path in (REPO / "pbnkit").rglob("*.py")
                for module in imported_modules(path)}
    assert required and required <= imported, required - imported


def test_package_passes_ruff():
    pytest.importorskip("ruff", reason="ruff comes with the test extra: pip install -e .[test]")
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "pbnkit", "tests",
                             "benchmarks", "scripts"], cwd=REPO, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_wheel_installed_in_a_fresh_venv_parses_a_file(wheel, tmp_path):
    env = tmp_path / "venv"
    # Dependencies come from this interpreter's site-packages (which may itself be a
    # virtual environment's), through a .pth file: the test runs offline.
    venv.create(env, with_pip=True)
    python = env / "bin" / "python"
    # its own pbnkit, not the checkout a PYTHONPATH may point at
    own = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                              "'purelib'))"], capture_output=True, text=True, check=True, env=own)
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    Path(purelib.stdout.strip(), "dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q",
                    str(wheel)], check=True, capture_output=True, timeout=300, env=own)
    pbn = tmp_path / "one.pbn"
    pbn.write_text('[Event "x"]\n[Board "1"]\n[Auction "N"]\n1NT AP\n')
    script = (
        "import pbnkit, pbnkit.pbn.parser as p, sys;"
        "games = list(pbnkit.read(sys.argv[1]));"
        "print(len(games), games[0].board, p.grammar_path(), pbnkit.__file__)"
    )
    result = subprocess.run([str(python), "-c", script, str(pbn)], capture_output=True,
                            text=True, cwd=tmp_path, timeout=120, check=True, env=own)
    count, board, grammar, module = result.stdout.split()
    assert (count, board) == ("1", "1")
    assert grammar.startswith(str(env)) and module.startswith(str(env))
    # The command the wheel installs runs, from the wheel's own files.
    command = subprocess.run([str(env / "bin" / "pbnkit"), "validate", "--exit-zero",
                              "--output-format", "sarif", str(pbn)], capture_output=True, text=True,
                             cwd=tmp_path, timeout=120, env=own)
    assert command.returncode == 0, command.stderr
    assert '"version": "2.1.0"' in command.stdout
