"""The built wheel carries the grammar and the schemas, and reads PBN on its own."""

from __future__ import annotations

import subprocess
import sysconfig
import sys
import venv
from pathlib import Path

import pytest

from tests.conftest import REPO

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


def test_wheel_contains_grammar_and_schemas(wheel):
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    assert "pbnkit/grammars/pbn.lark" in names
    assert "pbnkit/schemas/validate-report.v1.json" in names


def test_wheel_installed_in_a_fresh_venv_parses_a_file(wheel, tmp_path):
    env = tmp_path / "venv"
    # Dependencies come from this interpreter's site-packages (which may itself be a
    # virtual environment's), through a .pth file: the test runs offline.
    venv.create(env, with_pip=True)
    python = env / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                              "'purelib'))"], capture_output=True, text=True, check=True)
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    Path(purelib.stdout.strip(), "dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    subprocess.run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q",
                    str(wheel)], check=True, capture_output=True, timeout=300)
    pbn = tmp_path / "one.pbn"
    pbn.write_text('[Event "x"]\n[Board "1"]\n[Auction "N"]\n1NT AP\n')
    script = (
        "import pbnkit, pbnkit.pbn.parser as p, sys;"
        "games = list(pbnkit.read(sys.argv[1]));"
        "print(len(games), games[0].board, p.grammar_path(), pbnkit.__file__)"
    )
    result = subprocess.run([str(python), "-c", script, str(pbn)], capture_output=True,
                            text=True, cwd=tmp_path, timeout=120, check=True)
    count, board, grammar, module = result.stdout.split()
    assert (count, board) == ("1", "1")
    assert grammar.startswith(str(env)) and module.startswith(str(env))
