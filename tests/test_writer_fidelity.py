"""The regenerating writer is faithful: PBN → archive (Parquet, JSON) → PBN, in import and
export format, gives back what was read. Backslashes are escaped as PBN asks, malformed tag
pairs and stray characters come back as written, table cells stay as written, and only
PBN's table tags fill the archive's ``tables`` column."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

import pbnkit
from pbnkit.export.archive import read_archive
from pbnkit.pipeline.convert import convert
from pbnkit.export.canonical import export_form
from pbnkit.export.rows import element_row, game_row, row_elements
from pbnkit.export.schema import KINDS
from pbnkit.export.topbn import export_pbn
from pbnkit.pbn import parser
from pbnkit.pbn.records import Element, ElementKind, Game
from pbnkit.pbn.tables import TABLES, is_column_spec
from pbnkit.pbn.writer import dumps, escape, format_tag
from tests.conftest import SCHEMAS

SKIPPED, TOKENS = ElementKind.SKIPPED, ElementKind.TOKENS

SOURCE = r"""[Event "x"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
[Test "a\\b"]
[Table "7"]
[Auction "N"]
1C =1= Pass Pass Pass
[Note "1:2\\3 clubs"]
[ActionTable "Rank;Call\"]
[ScoreTable "Rank\2R;Score\5R"]
 1  %
 2   50
"""

ARCHIVES = ("a.parquet", "a.json")
FORMATS = pytest.mark.parametrize("export_format", [False, True], ids=["import", "export"])


def regenerated(tmp_path, text: str, archive: str, export_format: bool) -> str:
    """``text`` converted to ``archive`` and exported back to PBN (line ends as LF)."""
    source = tmp_path / "source.pbn"
    source.write_text(text, encoding="utf-8")
    convert([source], tmp_path / archive)
    out = tmp_path / f"{archive}.pbn"
    summary = export_pbn(tmp_path / archive, out, export_format=export_format)
    return out.read_bytes().decode(summary.encoding).replace("\r\n", "\n")


def skipped(game: Game) -> list[str]:
    return [e.text for e in game.preamble if e.kind is SKIPPED] + [
        e.text for tag in game.tags for e in tag.body if e.kind is SKIPPED]


def messages(game: Game) -> list[tuple[str, str]]:
    return sorted((d.code, d.message) for d in game.diagnostics)


# -- Backslashes --------------------------------------------------------------------------------

@pytest.mark.parametrize("archive", ARCHIVES)
@FORMATS
def test_backslashes_in_values_are_escaped_again(tmp_path, archive, export_format):
    text = regenerated(tmp_path, SOURCE, archive, export_format)
    assert '[Test "a\\\\b"]' in text
    assert '[Note "1:2\\\\3 clubs"]' in text
    (game,) = pbnkit.read_text(text)
    assert game.value("Test") == "a\\b"
    assert game.value("Note") == "1:2\\3 clubs"


@pytest.mark.parametrize("archive", ARCHIVES)
@FORMATS
def test_column_widths_keep_their_single_backslash(tmp_path, archive, export_format):
    text = regenerated(tmp_path, SOURCE, archive, export_format)
    assert '[ScoreTable "Rank\\2R;Score\\5R"]' in text


def test_every_backslash_but_a_column_width_is_doubled():
    assert escape("a\\b\\3") == "a\\\\b\\\\3"
    assert format_tag("Note", "1:2\\3") == '[Note "1:2\\\\3"]'
    assert format_tag("ScoreTable", "Na\\me;Score\\5R ; Pct\\4") == (
        '[ScoreTable "Na\\\\me;Score\\5R ; Pct\\4"]')
    assert format_tag("ScoreTable", "Rank\\\\2R") == '[ScoreTable "Rank\\\\\\2R"]'
    assert format_tag("Table", "7\\2") == '[Table "7\\\\2"]'


VALUES = st.text(st.sampled_from('\\"ab2;RL #'), max_size=20)


@given(VALUES, st.sampled_from(["Note", "Event", "ScoreTable", "ActionTable"]))
def test_a_written_value_reads_back_the_same(value, name):
    (game,) = pbnkit.read_text(format_tag(name, value) + "\n")
    assert (game.tags[0].name, game.tags[0].value) == (name, value)
    assert not game.diagnostics


# -- Text the reader skips ---------------------------------------------------------------------

def test_reader_keeps_skipped_text_where_it_was():
    (game,) = pbnkit.read_text(SOURCE)
    note, table = game.tag("Note"), game.tag("ScoreTable")
    assert note is not None and table is not None
    assert note.body == (Element(SKIPPED, '[ActionTable "Rank;Call\\"]', 11, 1),)
    assert table.body == (Element(TOKENS, "1", 13, 2), Element(SKIPPED, "%", 13, 5),
                          Element(TOKENS, "2   50", 14, 2))
    assert [d.code for d in game.diagnostics] == ["SY001", "SY001"]


def test_the_lark_path_keeps_skipped_text_the_same_way(monkeypatch):
    fast = pbnkit.read_text(SOURCE)
    monkeypatch.setattr(parser, "_scan", lambda text, first_line: None)  # Lark reads all
    slow = pbnkit.read_text(SOURCE)
    assert [(g.tags, g.preamble, g.diagnostics) for g in fast] == [
        (g.tags, g.preamble, g.diagnostics) for g in slow]


@pytest.mark.parametrize("archive", ARCHIVES)
def test_import_format_gives_malformed_text_back_as_written(tmp_path, archive):
    assert regenerated(tmp_path, SOURCE, archive, False) == SOURCE


@pytest.mark.parametrize("archive", ARCHIVES)
def test_export_format_keeps_malformed_text(tmp_path, archive):
    text = regenerated(tmp_path, SOURCE, archive, True)
    assert '\n[ActionTable "Rank;Call\\"]\n' in text
    assert "\n%" not in text.split("% EXPORT", 1)[1].split("\n", 2)[2]  # no new escape
    (game,) = pbnkit.read_text(text)
    (original,) = pbnkit.read_text(SOURCE)
    assert skipped(game) == skipped(original)
    assert messages(game) == messages(original)
    assert game_row(game, "")["tables"] == game_row(original, "")["tables"]


SNIPPETS = {
    "tag on the same line": '[Event "x"] [Bad "a\\"]\n[Board "1"]\n',
    "stray percent": '[Event "x"]\n[Auction "N"]\n1C Pass %x Pass\nPass\n',
    "glued percent": '[Event "x"]\n[Auction "N"]\n1C% Pass\nPass Pass Pass\n',
    "control character": '[Event "x"]\n[Auction "N"]\n1C\x01Pass Pass\nPass\n',
    "unterminated comment": '[Event "x"]\n[Auction "N"]\n1C { no end\nPass Pass Pass\n',
    "data before the first tag": 'stray words\n[Event "x"]\n',
    "in the preamble": '{c} %junk\n[Event "x"]\n',
    "two in one run": '[ScoreTable "A;B"]\n1 %\n2 %\n3 4\n',
    "unterminated string": '[ScoreTable "A;B"]\n1 "x\n2 3\n',
    "malformed tag after the play": ('[Event "x"]\n[Declarer "S"]\n[Play "W"]\nSK H3 S4 S3\n'
                                     '[Note "1:no end]\n*\n'),
}


@pytest.mark.parametrize("text", SNIPPETS.values(), ids=SNIPPETS.keys())
@FORMATS
def test_skipped_text_survives_writing_and_reading(text, export_format):
    games = pbnkit.read_text(text)
    assert any(skipped(g) for g in games)
    written = [export_form(g) for g in games] if export_format else games
    again = pbnkit.read_text(dumps(written, export_format).replace("\r\n", "\n"))
    assert [skipped(g) for g in again] == [skipped(g) for g in games]
    assert [messages(g) for g in again] == [messages(g) for g in games]
    if not export_format:
        assert all(a.same_content(b) for a, b in zip(again, games))
        assert dumps(again) == dumps(games)


def test_skipped_text_without_a_position_ends_its_line():
    game = Game((pbnkit.pbn.records.TagPair("Event", "x", 0, 0, (
        Element(SKIPPED, "%bad", 0, 0), Element(ElementKind.COMMENT, "c", 0, 0))),))
    assert dumps([game]) == '[Event "x"]\n %bad\n{c}\n'


# -- Tables --------------------------------------------------------------------------------

@pytest.mark.parametrize("archive", ARCHIVES)
@FORMATS
def test_a_table_row_keeps_its_stray_cell(tmp_path, archive, export_format):
    text = regenerated(tmp_path, SOURCE, archive, export_format)
    if not export_format:
        assert "\n 1  %\n" in text
    else:
        assert "\n 1 %\n" in text  # after its cell, never in column 1 (an escape)
    (game,) = pbnkit.read_text(text)
    table = game.tag("ScoreTable")
    assert table is not None
    assert [e.text for e in table.body if e.kind is SKIPPED] == ["%"]
    assert [e.text for e in table.tokens] == ["1", "2", "50"]


TABLE_TAGS = """\
[Event "x"]
[Table "7"]
[MyTable "a;b"]
[ScoreTable "Rank;Score"]
1 50
[TotalScoreTable ""]
[ActionTable "#"]
[OptimumResultTable "##Declarer;Denomination\\2R;Result\\2R"]
N NT 9
"""


def test_only_pbn_table_tags_with_a_column_spec_are_tables():
    (game,) = pbnkit.read_text(TABLE_TAGS)
    assert game_row(game, "")["tables"] == [
        {"name": "ScoreTable", "columns": ["Rank", "Score"], "rows": [["1", "50"]]},
        {"name": "OptimumResultTable", "columns": ["Declarer", "Denomination", "Result"],
         "rows": [["N", "NT", "9"]]},
    ]


def test_table_tags_are_the_eight_of_the_standard():
    assert TABLES == {"ActionTable", "AuctionTimeTable", "InstantScoreTable",
                      "OptimumPlayTable", "OptimumResultTable", "PlayTimeTable",
                      "ScoreTable", "TotalScoreTable"}
    assert is_column_spec("Declarer Suit Tricks") and is_column_spec("-Rank\\3R;+Score_NS")
    assert not any(is_column_spec(v) for v in ("", "#", "##", "Rank;Call\\", "a;;b"))


@pytest.mark.parametrize("archive", ARCHIVES)
def test_tables_column_holds_no_table_tag(tmp_path, archive):
    source = tmp_path / "source.pbn"
    source.write_text(SOURCE, encoding="utf-8")
    convert([source], tmp_path / archive)
    if archive.endswith(".json"):
        (row,) = json.loads((tmp_path / archive).read_text())["records"]
    else:
        import pyarrow.parquet as pq

        (row,) = pq.read_table(tmp_path / archive).to_pylist()
    assert row["tables"] == [{"name": "ScoreTable", "columns": ["Rank", "Score"],
                              "rows": [["1", "2"], ["50"]]}]


def test_export_format_sorts_the_table_tag_with_the_identification_tags():
    (game,) = pbnkit.read_text(SOURCE)
    names = [tag.name for tag in export_form(game).tags]
    assert names[15:] == ["Table", "Test", "Auction", "Note", "ScoreTable"]


# -- The archive ---------------------------------------------------------------------------------

def test_every_element_kind_is_in_the_schema_and_round_trips():
    assert KINDS == [kind.value for kind in ElementKind]
    element = Element(SKIPPED, '[ActionTable "Rank;Call\\"]', 11, 1)
    assert row_elements([element_row(element)]) == (element,)


@pytest.mark.parametrize("archive", ARCHIVES)
def test_skipped_text_is_stored_and_read_back(tmp_path, archive):
    source = tmp_path / "source.pbn"
    source.write_text(SOURCE, encoding="utf-8")
    convert([source], tmp_path / archive)
    (game,) = read_archive(tmp_path / archive)
    (original,) = pbnkit.read(source)
    assert game.same_content(original) and game.tags == original.tags
    if archive.endswith(".json"):
        schema = json.loads((SCHEMAS / "boards.v2.json").read_text())
        Draft202012Validator(schema).validate(json.loads((tmp_path / archive).read_text()))
