"""``export --original``: two sources of one name (a file converted twice after an edit,
``--stdin-filename`` equal to an input's name, an edited archive) both come back, the
later under another name, with a warning; the same bytes twice are one file."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import pytest

from pbnkit.export.archive import records
from pbnkit.export.original import OriginalNameWarning, write_originals
from tests.conftest import REPO

GAME = '[Event "e"]\n[Board "{board}"]\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ ' \
       '765.432.AKQJ.T98 432.AKQJ.T98.765"]\n[Auction "N"]\n1S Pass 2S Pass\nPass Pass\n'


def test_two_sources_of_one_name_both_come_back(tmp_path):
    first, second = tmp_path / "one" / "a.pbn", tmp_path / "two" / "a.pbn"
    for path, board in ((first, 1), (second, 2)):
        path.parent.mkdir()
        path.write_text(GAME.format(board=board))
    rows = list(records([first], check=False)) + list(records([second], check=False))
    assert {row["source"] for row in rows} == {"a.pbn"}
    with pytest.warns(OriginalNameWarning, match=r"a\.pbn .* written as a~2\.pbn"):
        written = write_originals(rows, tmp_path / "out")
    assert written == ["a.pbn", "a~2.pbn"]
    assert (tmp_path / "out" / "a.pbn").read_bytes() == first.read_bytes()
    assert (tmp_path / "out" / "a~2.pbn").read_bytes() == second.read_bytes()


def test_a_name_taken_by_a_renamed_source_is_kept_apart_too(tmp_path):
    files = {}
    for folder, name, board in (("1", "a.pbn", 1), ("2", "a.pbn", 2), ("3", "a~2.pbn", 3),
                                ("4", "A.pbn", 4)):
        path = tmp_path / folder / name
        path.parent.mkdir()
        path.write_text(GAME.format(board=board))
        files[folder] = path
    rows = [row for path in files.values() for row in records([path], check=False)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        written = write_originals(rows, tmp_path / "out")
    assert written == ["a.pbn", "a~2.pbn", "a~2~2.pbn", "A~3.pbn"]
    assert len(caught) == 3
    kept = sorted((tmp_path / "out" / name).read_bytes() for name in written)
    assert kept == sorted(path.read_bytes() for path in files.values())


def test_stdin_named_as_an_input_comes_back_beside_it(tmp_path):
    source = tmp_path / "a.pbn"
    source.write_text(GAME.format(board=1))
    archive, out = tmp_path / "x.parquet", tmp_path / "out"
    pbnkit = [sys.executable, "-m", "pbnkit"]
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(
        filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    done = subprocess.run(pbnkit + ["convert", "-q", "-j", "1", "--stdin-filename", "a.pbn",
                                    "-o", str(archive), "a.pbn", "-"],
                          input=GAME.format(board=7).encode(), capture_output=True,
                          env=environment, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    done = subprocess.run(pbnkit + ["export", "--original", "-o", str(out), str(archive)],
                          capture_output=True, env=environment, timeout=120)
    assert done.returncode == 0, done.stderr
    assert b"warning: two sources are named a.pbn" in done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["a.pbn", "a~2.pbn"]
    assert (out / "a.pbn").read_bytes() == source.read_bytes()
    assert (out / "a~2.pbn").read_text() == GAME.format(board=7)
