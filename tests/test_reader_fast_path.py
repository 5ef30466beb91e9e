"""The reader's fast path reads every file exactly as the Lark parse of the grammar does,
and games survive pickling (a process pool sends them between processes)."""

from __future__ import annotations

import io
import pickle
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pbnkit
from pbnkit.pbn import lark_parser, parser
from tests.conftest import CORPUS, REPO, corpus_params
from tests.test_robustness import PIECES, SEED


@contextmanager
def lark_only() -> Iterator[None]:
    """Every game read by Lark: the fast path finds nothing it can read."""
    scan = parser._scan
    parser._scan = lambda text, first_line: None
    try:
        yield
    finally:
        parser._scan = scan


def everything(source: object, strict: bool = False) -> tuple:
    """All a read yields, positions included."""
    reader = pbnkit.read(source, strict=strict)  # type: ignore[arg-type]
    games = [(g.tags, dict(g.values), g.diagnostics, g.preamble, g.line, g.index)
             for g in reader]
    return games, reader.encoding, reader.diagnostics, reader.trailer


def both_ways(data: bytes, strict: bool = False) -> tuple[tuple, tuple]:
    fast = everything(io.BytesIO(data), strict)
    with lark_only():
        slow = everything(io.BytesIO(data), strict)
    return fast, slow


@pytest.mark.slow
@pytest.mark.parametrize("row", corpus_params())
def test_fast_path_reads_corpus_files_exactly_as_lark(row):
    data = (CORPUS / row["path"]).read_bytes()
    for strict in (False, True):
        fast, slow = both_ways(data, strict)
        assert fast == slow


def test_fast_path_is_taken_for_plain_games():
    assert parser._scan('[Event "x"]\n[Auction "N"]\n1S Pass\n{c}', 1) is not None
    assert parser._scan("1S before any tag", 1) is None
    assert parser._scan('[Event "x"]\n 50% off', 1) is None


def test_the_fast_paths_terminals_are_the_grammars():
    # pbnkit/pbn/terminals.py is made from the grammar: its docstring says how.
    source = REPO / "pbnkit" / "pbn" / "terminals.py"  # the source, whatever the build
    assert source.read_text(encoding="utf-8") == lark_parser.terminals_source()


EDITS = st.lists(st.tuples(st.floats(0, 1), st.sampled_from(PIECES), st.integers(0, 20)),
                 min_size=1, max_size=8)


@settings(max_examples=400, deadline=None)
@given(EDITS)
def test_fast_path_equals_lark_on_mutated_pbn(edits):
    """Each edit puts a piece at a relative position in place of up to 20 bytes."""
    text = bytearray(SEED)
    for where, piece, removed in edits:
        position = int(where * len(text))
        text[position:position + removed] = piece
    fast, slow = both_ways(bytes(text), strict=True)
    assert fast == slow


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from('[]"{};%\\ \t\n\r#ABab12=$^*+-.:é'), max_size=400))
def test_fast_path_equals_lark_on_pbn_like_text(text):
    fast, slow = both_ways(text.encode("utf-8"))
    assert fast == slow


@pytest.mark.parametrize("row", corpus_params())
def test_games_pickle(row):
    for game in pbnkit.read(CORPUS / row["path"]):
        again = pickle.loads(pickle.dumps(game))
        assert again == game and again.same_content(game)
        assert again.values == game.values and again.diagnostics == game.diagnostics


def test_values_stay_read_only_after_pickling():
    game = pickle.loads(pickle.dumps(pbnkit.read_text('[Event "x"]\n')[0]))
    with pytest.raises(TypeError):
        game.values["Event"] = "y"  # type: ignore[index]
    with pytest.raises(TypeError):
        game.values.update(Event="y")  # type: ignore[attr-defined]
    assert game.value("Event") == "x"
