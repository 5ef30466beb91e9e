"""The score checks in two halves, as a process pool runs them: :func:`score_record` per
game (in a worker), :meth:`ScoreChecks.add_record` in file order (in the parent). Together
they must find exactly what :meth:`ScoreChecks.add` finds, in the same order."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import pbnkit
from pbnkit.diagnostics import Diagnostic
from pbnkit.rules.scores import ScoreChecks, score_record
from tests.conftest import CORPUS, SAMPLE_DATA

FILES = sorted(SAMPLE_DATA.glob("*.pbn")) + (
    sorted(CORPUS.rglob("*.pbn")) if CORPUS.is_dir() else [])


def checked_whole(path: Path, profile: str | None) -> list[Diagnostic]:
    checks = ScoreChecks(profile)
    found: list[Diagnostic] = []
    for game in pbnkit.read(path):
        found += checks.add(game)
    return found + checks.finish()


def checked_in_halves(path: Path, profile: str | None) -> list[Diagnostic]:
    # what a worker returns crosses a process boundary: pickle it on the way
    shipped = [pickle.loads(pickle.dumps(score_record(game))) for game in pbnkit.read(path)]
    checks = ScoreChecks(profile)
    found: list[Diagnostic] = []
    for record, table_diagnostics in shipped:
        found += checks.add_record(record, table_diagnostics)
    return found + checks.finish()


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_checks_in_two_halves_find_what_add_finds(path: Path) -> None:
    assert checked_in_halves(path, None) == checked_whole(path, None)


@pytest.mark.parametrize("profile", ["rubber", "auction-1920"])
def test_halves_agree_under_a_rubber_profile(profile: str) -> None:
    for path in sorted(SAMPLE_DATA.glob("rubber_*.pbn")):
        assert checked_in_halves(path, profile) == checked_whole(path, profile)


def test_a_record_is_small_and_keeps_no_game_or_deal() -> None:
    game = next(iter(pbnkit.read(SAMPLE_DATA / "rubber_contract.pbn")))
    record, _ = score_record(game)
    shipped = pickle.dumps(record)
    assert b"Game" not in shipped and b"Deal" not in shipped
    assert len(shipped) < 2000
