"""Generated LIN files (benchmarks/generate_lin.py): legal boards read without a finding,
and a large file read whole, never cut in parts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import REPO, generate_boards, run_pbnkit

from pbnkit.pipeline.units import MIN_CHUNK, plan


def generated(path: Path, boards: int, *options: str) -> Path:
    subprocess.run([sys.executable, str(REPO / "benchmarks" / "generate_lin.py"), str(boards),
                    "-o", str(path), "--seed", "5", *options], check=True)
    return path


def test_generated_boards_are_legal_and_read_cleanly(tmp_path):
    """Every deal, call and card the generator writes is legal; claims match the play."""
    path = generated(tmp_path / "boards.lin", 150)
    status, out = run_pbnkit("validate", path)
    assert status == 0, out
    assert "150 games: 0 errors, 0 warnings" in out


def test_a_generated_vugraph_match_is_scored_as_a_team_match(tmp_path):
    path = generated(tmp_path / "match.lin", 8, "--vugraph")
    status, out = run_pbnkit("score", path)
    assert status == 0
    assert "Team match: Generated match / Segment 1 (HOME v AWAY, HOME N-S in Open)" in out


def test_a_large_lin_file_is_one_unit(tmp_path):
    """A PBN file of that size is cut in parts for four jobs; a LIN file is read whole."""
    lin = generated(tmp_path / "large.lin", 1200)
    pbn = generate_boards(tmp_path / "large.pbn", 1200, seed=5)
    assert lin.stat().st_size > MIN_CHUNK and pbn.stat().st_size > MIN_CHUNK
    assert len(list(plan([pbn], jobs=4))) > 1
    units = list(plan([lin], jobs=4))
    assert len(units) == 1 and units[0].resume is None
