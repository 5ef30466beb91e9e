"""Shared test fixtures. A corpus of real-world PBN and LIN files, and oracle tables, are
kept beside the repository (``CORPUS`` below); tests that need them skip without them."""

from __future__ import annotations

import csv
import gc
import signal
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"
SAMPLE_DATA = REPO / "sample_data"
SCHEMAS = REPO / "schemas"


def corpus_rows() -> list[dict[str, str]]:
    """The manifest rows of the corpus's PBN files (empty when the corpus is absent)."""
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        return []
    with manifest.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [row for row in rows if row["path"].endswith(".pbn")]


def corpus_params() -> list:
    rows = corpus_rows()
    if not rows:
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared/corpus is absent"))]
    return [pytest.param(row, id=row["path"].split("/")[-1]) for row in rows]


@pytest.fixture
def fewer_collections():
    """Millions of short-lived records: collect cycles less often (as convert does)."""
    thresholds = gc.get_threshold()
    gc.set_threshold(50_000, 20, 10)
    yield
    gc.set_threshold(*thresholds)


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[str | bytes]:
    """What each unit of a conversion handed back, as the parent takes it: the path of a
    spool file, or the Arrow stream's bytes."""
    from pbnkit.pipeline import convert as pipeline

    handed: list[str | bytes] = []
    original = pipeline._taken

    def taking(spooled: str | bytes) -> list[object]:
        handed.append(spooled)
        return original(spooled)

    monkeypatch.setattr(pipeline, "_taken", taking)
    return handed


def generate_boards(path: Path, boards: int, seed: int) -> Path:
    """A file of generated boards with full auction and play (benchmarks/generate.py)."""
    subprocess.run([sys.executable, str(REPO / "benchmarks" / "generate.py"), str(boards),
                    "-o", str(path), "--seed", str(seed)], check=True, capture_output=True)
    return path


def sources_that_inherit(folder: Path) -> tuple[list[Path], str]:
    """Three copies of the contract rubber sample whose records after the first say
    ``[Event "#"]`` (the value of the record before), and the event they all have."""
    text = (SAMPLE_DATA / "rubber_contract.pbn").read_text(encoding="utf-8")
    first = text.index("[Event ")
    event = text[first:text.index("\n", first)]
    inherited = text[:first + 1] + text[first + 1:].replace(event, '[Event "#"]')
    sources = [folder / f"{stem}.pbn" for stem in ("a", "b", "c")]
    for source in sources:
        source.write_text(inherited, encoding="utf-8")
    return sources, event.split('"')[1]


def job_inputs(folder: Path, boards: int, seed: int, corpus_step: int) -> list[str]:
    """Inputs for runs at several jobs: a generated file large enough to be cut in chunks,
    the sample files, and every ``corpus_step``-th real file when the corpus is here."""
    files = [str(generate_boards(folder / "big.pbn", boards, seed))]
    files += sorted(str(p) for p in SAMPLE_DATA.glob("*.pbn"))
    if CORPUS.is_dir():
        files += sorted(str(p) for p in CORPUS.rglob("*.pbn"))[::corpus_step]
    return files


def run_pbnkit(*args: object) -> tuple[int, str]:
    """``pbnkit ARGS`` in this process: exit status and standard output."""
    from click.testing import CliRunner

    from pbnkit.cli import main

    result = CliRunner().invoke(main, [str(a) for a in args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout


def ctrl_c_as_at_a_terminal() -> None:
    """A child's ``preexec_fn``: SIGINT does what Ctrl-C does at a terminal. A shell
    without job control starts a background command with SIGINT ignored, which its
    children inherit (Python then installs no KeyboardInterrupt for it): the Ctrl-C
    tests would test that shell, not pbnkit."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)

