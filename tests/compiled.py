"""pbnkit as its wheel is built (hot modules compiled with mypyc), for ``pytest
--compiled``: the suite then runs against the compiled modules, in this process and in
every process it starts (the command line, ``-j`` workers, Dask workers)."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BUILDS = REPO / ".mypyc-build"


def _digest() -> str:
    """What the build depends on: the package, its data and the build files."""
    files = [*REPO.glob("pbnkit/**/*.py"), *REPO.glob("grammars/*"), *REPO.glob("schemas/*"),
             REPO / "hatch_build.py", REPO / "pyproject.toml"]
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(path.relative_to(REPO).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def compiled_site() -> Path:
    """A folder holding the built package, made once per state of the sources (the
    build takes a minute or two)."""
    site = BUILDS / _digest()
    if not (site / "pbnkit").is_dir():
        shutil.rmtree(BUILDS, ignore_errors=True)
        with tempfile.TemporaryDirectory() as wheels:
            subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                            "-w", wheels, str(REPO)], check=True)
            (wheel,) = Path(wheels).glob("pbnkit-*.whl")
            with zipfile.ZipFile(wheel) as archive:
                archive.extractall(site)
    return site


def use_compiled() -> Path:
    """Import pbnkit from the compiled build here and in child processes: first on the
    path, and no current directory put before it (``PYTHONSAFEPATH``), which would bring
    back the sources of the repository."""
    site = compiled_site()
    sys.path.insert(0, str(site))
    os.environ["PYTHONPATH"] = os.pathsep.join(
        [str(site), *filter(None, [os.environ.get("PYTHONPATH")])])
    os.environ["PYTHONSAFEPATH"] = "1"
    return site
