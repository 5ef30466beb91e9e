"""Wheel build hook: compile the hot modules with mypyc when this machine can, else ship
the same modules as pure Python.

Compiling makes validate and convert about a third faster (see the README's Performance
section); nothing else changes, and the test suite runs against both builds
(``python -m pytest --compiled``). A wheel is still built, pure, when there is no C
compiler, no mypy to be had, or mypyc fails: a warning says so. ``PBNKIT_NO_MYPYC=1``
skips compiling. Editable installs are never compiled: an extension module beside a
source file would shadow the edits.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: the modules a record passes through: reading, replaying, checking, making its row.
#: Scoring and the command line spend their time elsewhere (pyarrow, click). Left out:
#: model/play.py (a class derived from a builtin type), model/deal.py (a method defined
#: under an ``if`` in a class body; the reading of a Deal tag, which every record pays
#: for, is in model/deal_text.py) and pbn/records.py (a multiple assignment in a class
#: body), which mypyc cannot compile as written; export/pipeline.py,
#: which it compiles wrong (a generator nested in a generator loses its closure), and
#: export/sinks.py, whose classes tests replace methods of.
MODULES = (
    "pbnkit/diagnostics.py",
    # the readers derive from the interface, and the sniffing's reader from it: an
    # interpreted class cannot derive from a compiled one, nor a compiled from interpreted
    "pbnkit/formats/reader.py", "pbnkit/formats/sniff.py",
    "pbnkit/model/__init__.py", "pbnkit/model/auction.py", "pbnkit/model/calls.py",
    "pbnkit/model/cards.py", "pbnkit/model/deal_text.py", "pbnkit/model/values.py",
    "pbnkit/pbn/chunks.py", "pbnkit/pbn/lark_parser.py", "pbnkit/pbn/parser.py",
    "pbnkit/pbn/reader.py",
    "pbnkit/pbn/sections.py", "pbnkit/pbn/split.py",
    "pbnkit/lin/*.py",
    "pbnkit/replay/*.py", "pbnkit/rules/*.py", "pbnkit/scoring/records.py",
    "pbnkit/export/rows.py", "pbnkit/export/columns.py",
)

_SETUP = """
from setuptools import setup
from mypyc.build import mypycify
setup(name="pbnkit_mypyc", packages=[],
      ext_modules=mypycify({modules!r}, opt_level="3", group_name="pbnkit"))
"""

_MYPY_INI = """[mypy]
strict = True
[mypy-pyarrow.*,distributed.*,endplay.*,jinja2.*]
ignore_missing_imports = True
"""


def _disabled() -> bool:
    return os.environ.get("PBNKIT_NO_MYPYC", "") not in ("", "0")


class MypycHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        if _disabled():
            return []
        # lark: mypyc checks the compiled modules against lark's inline types
        return ["mypy>=1.8", "setuptools>=77", "lark>=1.1.9"]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable" or _disabled():
            return
        self._tmp = tempfile.mkdtemp(prefix="pbnkit-mypyc-")
        try:
            built = _compile(self.root, self._tmp)
        except Exception as error:  # no compiler, no mypy, a mypyc error: ship pure Python
            sys.stderr.write(f"pbnkit: mypyc compilation skipped, building pure Python: {error}\n")
            return
        for path in built:
            build_data["force_include"][path] = os.path.relpath(path, self._tmp)
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        tmp = getattr(self, "_tmp", None)
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)


def _compile(root: str, work: str) -> list[str]:
    """Compile a copy of the package in ``work``; the extension modules built."""
    shutil.copytree(os.path.join(root, "pbnkit"), os.path.join(work, "pbnkit"))
    with open(os.path.join(work, "mypy.ini"), "w") as handle:
        handle.write(_MYPY_INI)
    with open(os.path.join(work, "setup.py"), "w") as handle:
        handle.write(_SETUP.format(modules=sorted(
            name for pattern in MODULES for name in glob.glob(pattern, root_dir=work))))
    process = subprocess.run(
        [sys.executable, "setup.py", "build_ext", "--inplace", "-j", str(os.cpu_count() or 1)],
        cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env=dict(os.environ, MYPY_FORCE_COLOR="0"))
    if process.returncode:
        raise RuntimeError(process.stdout[-3000:])
    built = [path for path in glob.glob(os.path.join(work, "**", "*.so"), recursive=True)
             + glob.glob(os.path.join(work, "**", "*.pyd"), recursive=True)
             if os.sep + "build" + os.sep not in path]
    if not built:
        raise RuntimeError("mypyc built no extension module")
    return built
