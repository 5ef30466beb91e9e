"""A LIN board's calls and cards kept in runs of section tokens (pbnkit.lin.runs): every
token where its pair stands, in one placed run a section, and in the runs laid out as an
archive stores them."""

from __future__ import annotations

import pickle
import re
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import pbnkit
from pbnkit.export.archive import read_archive
from pbnkit.pipeline.convert import convert
from pbnkit.lin.runs import _has_blank, laid_out, section_body
from pbnkit.pbn.records import Element, ElementKind, TagPair
from pbnkit.pbn.sections import decode_items, section
from tests.conftest import CORPUS
from tests.test_lin_reader import BOARD

_TOKENS = ElementKind.TOKENS


def alone(texts, lines, columns):
    """What the reader made before runs: an element a token."""
    return tuple(Element(_TOKENS, text, line, column)
                 for text, line, column in zip(texts, lines, columns))


def tokens(body):
    return [(token.text, token.line, token.column) for e in body for token in e.split()]


# Tokens as a LIN board's sections have them: calls, cards, note references and the
# claim, now and then a value BBO would not write (a blank in it, a line end).
_TEXTS = st.sampled_from(["SA", "D2", "1NT", "Pass", "X", "XX", "=1=", "=12=", "*", "-",
                          "1 S", "S\tA", "H\n2", "2C!", "$3", "^R", "Pass=2="])


@st.composite
def sections(draw):
    count = draw(st.integers(1, 60))
    texts = draw(st.lists(_TEXTS, min_size=count, max_size=count))
    # mostly further on the same line; now and then a line or two down, or one back up
    steps = draw(st.lists(st.tuples(st.sampled_from([0, 0, 0, 1, 2, -1]),
                                    st.integers(-8, 30)), min_size=count, max_size=count))
    lines, columns, line, column = [], [], 1, 1
    for down, right in steps:
        line = max(1, line + down)
        column = max(1, column + right if down == 0 else right)
        lines.append(line)
        columns.append(column)
    return texts, lines, columns


@given(sections())
def test_every_token_stands_where_its_pair_does(case):
    texts, lines, columns = case
    body = section_body(texts, lines, columns)
    assert tokens(body) == tokens(alone(texts, lines, columns))
    assert all(e.kind is _TOKENS for e in body)


@given(sections())
def test_laid_out_every_token_stands_where_its_pair_does_too(case):
    texts, lines, columns = case
    body = laid_out(section_body(texts, lines, columns))
    assert tokens(body) == tokens(alone(texts, lines, columns))
    assert not any(e.places for e in body)


@given(sections())
def test_runs_decode_as_an_element_a_token_does(case):
    texts, lines, columns = case
    body = section_body(texts, lines, columns)
    items = [decode_items(TagPair("Auction", "N", 1, 1, each))
             for each in (body, laid_out(body), alone(texts, lines, columns))]
    assert items[0] == items[1] == items[2]


@given(sections())
def test_a_section_on_one_line_keeps_its_columns_only(case):
    """Tokens all on one line are placed with their columns only: the same tokens at
    the same places, decoded alike, as placed with their lines too."""
    texts, lines, columns = case
    lines = [lines[0]] * len(texts)
    body = section_body(texts, lines[:1], columns, one_line=True)
    assert tokens(body) == tokens(section_body(texts, lines, columns)) == tokens(
        alone(texts, lines, columns))
    assert laid_out(body) == laid_out(section_body(texts, lines, columns))
    if not any(_has_blank(text) for text in texts):  # one run, four bytes a token
        (run,) = body
        assert len(run.places) == 4 * len(texts)


def test_a_section_is_one_placed_run():
    # a call, the alert note at its own column, then the next call further on
    body = section_body(["2C", "=1=", "X"], [1, 1, 1], [10, 10, 15])
    assert [(e.text, e.line, e.column) for e in body] == [("2C =1= X", 1, 10)]
    assert body[0].positions() == ([1, 1, 1], [10, 10, 15])


def test_laid_out_a_token_not_further_on_starts_a_run():
    body = laid_out(section_body(["2C", "=1=", "X"], [1, 1, 1], [10, 10, 15]))
    assert body == (Element(_TOKENS, "2C", 1, 10), Element(_TOKENS, "=1=  X", 1, 10))


def test_laid_out_a_run_goes_on_over_line_ends():
    body = laid_out(section_body(["SA", "S2", "S3"], [3, 3, 5], [4, 10, 2]))
    assert body == (Element(_TOKENS, "SA    S2\n\n S3", 3, 4),)


def test_a_token_with_a_blank_is_an_element_of_its_own():
    body = section_body(["SA", "S 2", "S3", "S4"], [1] * 4, [1, 6, 11, 16])
    assert [(e.text, e.column, bool(e.places)) for e in body] == [
        ("SA", 1, True), ("S 2", 6, False), ("S3 S4", 11, True)]
    assert laid_out(body) == (Element(_TOKENS, "SA", 1, 1), Element(_TOKENS, "S 2", 1, 6),
                              Element(_TOKENS, "S3   S4", 1, 11))


def test_a_placed_run_pickles_and_hashes_as_a_value():
    body = section_body(["SA", "S2"], [2, 2], [40, 30])
    again = pickle.loads(pickle.dumps(body))
    assert again == body and hash(again) == hash(body)
    assert [(t.text, t.line, t.column) for t in again[0].split()] == [("SA", 2, 40),
                                                                      ("S2", 2, 30)]


def test_every_white_space_character_is_found():
    """_has_blank asks the regular expression only of a text with a blank or a character
    that is not printable: every character \\s matches is one or the other."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        assert _has_blank(f"S{char}A") is (re.search(r"\s", char) is not None), hex(code)


def test_a_board_of_bbo_holds_a_few_elements_not_one_a_card():
    game = pbnkit.read_text(BOARD, "board.lin")[0]
    # North opens, East leads: the play's columns are E S W N, in the order played
    assert [len(game.tag(name).body) for name in ("Auction", "Play")] == [1, 1]
    assert section(game, "Play") is not None


def test_corpus_boards_keep_a_section_in_one_run():
    files = sorted(CORPUS.rglob("*.lin"))
    if not files:
        pytest.skip("../shared/corpus is absent")
    tokens_seen = elements = 0
    for path in files:
        for game in pbnkit.read(path):
            for name in ("Auction", "Play"):
                tag = game.tag(name)
                if tag is not None:
                    elements += len(tag.body)
                    tokens_seen += len(tokens(tag.body))
    assert tokens_seen > 1000
    assert elements * 20 < tokens_seen  # a section a run: 52 cards in one


def test_cards_bbo_would_not_write_stand_at_their_values_too():
    # East leads d8 (lower case) and West plays " DA" (a blank before it)
    board = BOARD.replace("pc|D8|", "pc|d8|").replace("pc|DA|", "pc| DA|")
    play = section(pbnkit.read_text(board, "board.lin")[0], "Play")
    assert play is not None
    assert [i.text for i in play.items] == ["D8", "D2", "DA", "D9", "*"]
    values = [board.index("pc|d8|"), board.index("pc|D2|"), board.index("pc| DA|"),
              board.index("pc|D9|")]
    assert [i.column for i in play.items[:4]] == [at + 4 for at in values]
    assert play.diagnostics == ()


def test_a_comment_between_cards_leaves_each_at_its_value():
    board = BOARD.replace("pc|D2|", "pc|D2|nt|See Q2|")
    play = section(pbnkit.read_text(board, "board.lin")[0], "Play")
    assert play is not None and play.diagnostics == ()
    assert [i.text for i in play.items] == ["D8", "D2", "DA", "D9", "*"]
    assert [i.column for i in play.items[:4]] == [
        board.index(f"pc|{card}|") + 4 for card in ("D8", "D2", "DA", "D9")]


def test_cards_after_a_lone_carriage_return_stand_at_their_values():
    """The Lin tag holds a board of two lines on one line, without its CRs: the cards'
    columns are the file's, not that text's."""
    board = BOARD.replace("pc|DA|", "\rpc|DA|").replace("mc|9|", "\nmc|9|")
    play = section(pbnkit.read_text(board, "board.lin")[0], "Play")
    assert play is not None and play.diagnostics == ()
    assert [i.text for i in play.items] == ["D8", "D2", "DA", "D9", "*"]
    assert [i.column for i in play.items[:4]] == [  # all on line 1: a CR ends no line
        board.index(f"pc|{card}|") + 4 for card in ("D8", "D2", "DA", "D9")]


@pytest.mark.parametrize("name", ["a.parquet", "a.jsonl"])
def test_an_archive_stores_a_section_laid_out(tmp_path, name):
    """An archive keeps the runs as they were stored before runs were placed (its schema
    has no place for positions): read back, each token stands where the LIN file has
    it, as in the game read from the file."""
    source = tmp_path / "board.lin"
    source.write_text(BOARD)
    convert([source], tmp_path / name)
    (read,) = pbnkit.read(source)
    (archived,) = read_archive(tmp_path / name)
    for section_name in ("Auction", "Play"):
        body = archived.tag(section_name).body
        assert not any(e.places for e in body)
        assert body == laid_out(read.tag(section_name).body)
        assert tokens(body) == tokens(read.tag(section_name).body)
    assert archived.same_content(read) and read.same_content(archived)
    other = pbnkit.read_text(BOARD.replace("pc|D2|", "pc|D3|"), "board.lin")[0]
    assert not archived.same_content(other) and not other.same_content(archived)
