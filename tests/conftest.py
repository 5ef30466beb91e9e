"""Shared test fixtures: the real-world corpus and the oracles live beside the repository
in ``../shared``; tests that need them skip when that folder is absent."""

from __future__ import annotations

import csv
import gc
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"
SAMPLE_DATA = REPO / "sample_data"
SCHEMAS = REPO / "schemas"


def corpus_rows() -> list[dict[str, str]]:
    """MANIFEST.tsv rows of the corpus's PBN files (empty when the corpus is absent)."""
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
