"""The compiled build gives the sources' output, byte for byte, on every real file: what
``pytest --compiled -m compiled_equivalence`` checks instead of running the whole suite a
second time. Each command runs twice, as a child process: once on the build under test
(what ``--compiled`` put on ``PYTHONPATH``), once on the repository's sources."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import CORPUS, REPO, SAMPLE_DATA

pytestmark = pytest.mark.compiled_equivalence

WHICH_BUILD = "import pbnkit.replay.clean as m; print(m.__file__)"


@pytest.fixture(autouse=True)
def only_against_the_compiled_build(request: pytest.FixtureRequest) -> None:
    if not request.config.getoption("compiled"):
        pytest.skip("compares the compiled build with the sources: run with --compiled")


def _sources() -> dict[str, str]:
    """The environment of a child that imports pbnkit from the repository's sources."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSAFEPATH")}
    env["PYTHONPATH"] = str(REPO)
    return env


def _run(args: list[str], env: dict[str, str] | None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, *args], capture_output=True, cwd=REPO, env=env)


def test_the_two_children_run_the_two_builds() -> None:
    compiled = _run(["-c", WHICH_BUILD], None).stdout.decode().strip()
    sources = _run(["-c", WHICH_BUILD], _sources()).stdout.decode().strip()
    assert compiled.endswith((".so", ".pyd"))
    assert sources == str(REPO / "pbnkit" / "replay" / "clean.py")


def _same_output(*args: str) -> None:
    command = ["-m", "pbnkit", *args]
    compiled, sources = _run(command, None), _run(command, _sources())
    assert compiled.returncode == sources.returncode, compiled.stderr.decode()
    assert compiled.stdout, f"no output from pbnkit {' '.join(args)}"
    assert compiled.stdout == sources.stdout, f"pbnkit {' '.join(args)} differs"


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")
def test_validate_of_the_corpus_is_the_same() -> None:
    _same_output("validate", "--output-format", "json", "--min-severity", "info", str(CORPUS))


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")
def test_convert_of_the_corpus_is_the_same() -> None:
    _same_output("convert", "-q", "-o", "-", str(CORPUS))


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")
def test_duplicate_scores_of_the_corpus_are_the_same() -> None:
    _same_output("score", "--profile", "duplicate", "--format", "json", str(CORPUS))


@pytest.mark.parametrize("path", sorted(SAMPLE_DATA.glob("*.pbn")), ids=lambda p: p.name)
def test_scores_of_the_sample_data_are_the_same(path) -> None:
    """Each sample in the profile its Scoring tag selects (rubber, Chicago, auction bridge,
    pairs, teams)."""
    _same_output("score", "--format", "json", str(path))
