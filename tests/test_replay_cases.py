"""Rule cases kept as data: every game of tests/cases/replay/*.pbn states the codes the
replay must report (see the README there)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import pbnkit
from pbnkit.code_table import CODES
from pbnkit.rules.replay import check, check_strict

CASES = Path(__file__).parent / "cases" / "replay"


def _cases() -> list:
    params = []
    for path in sorted(CASES.glob("*.pbn")):
        for game in pbnkit.read(path):
            lines = [e.text.strip() for e in game.preamble if e.kind.value == "escape"]
            expect = next(line.split(":", 1)[1].split() for line in lines
                          if line.startswith("expect:"))
            title = lines[0] if not lines[0].startswith(("expect:", "strict")) else ""
            params.append(pytest.param(game, [c for c in expect if c != "-"],
                                       "strict" in lines, id=f"{path.stem}:{game.line} {title}"))
    return params


@pytest.mark.parametrize(("game", "expected", "strict"), _cases())
def test_rule_case(game, expected, strict):
    found = check(game) + (check_strict(game) if strict else [])
    assert Counter(d.code for d in found) == Counter(expected), [d.format() for d in found]


def test_every_replay_code_has_a_failing_and_a_passing_case():
    failing = Counter()
    clean = 0
    for param in _cases():
        _, expected, _ = param.values
        failing.update(set(expected))
        clean += not expected
    # the replay's codes: every AU and PL code, and the outcome's (contract, declarer, result)
    replayed = {code for code in CODES if code[:2] in ("AU", "PL")} | {"SC001", "SC002", "SC003"}
    assert replayed - set(failing) == set()
    assert clean >= 20
