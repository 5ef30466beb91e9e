"""The PBN writer: import format gives back each record's own content; export format
follows the PBN 2.1 export format (sections 2.1 and 3)."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

import pbnkit
from pbnkit.export.canonical import export_form
from pbnkit.pbn.parser import unescape
from pbnkit.pbn.records import Element, ElementKind, Game, TagPair
from pbnkit.pbn.writer import dumps, escape, format_tag, write_pbn


def same_games(a: list[Game], b: list[Game]) -> bool:
    return len(a) == len(b) and all(
        x.same_content(y) and dict(x.values) == dict(y.values) for x, y in zip(a, b))


def rewritten(text: str) -> str:
    return dumps(pbnkit.read_text(text))


def exported(text: str) -> str:
    return dumps([export_form(g) for g in pbnkit.read_text(text)], export_format=True)


# -- Strings ------------------------------------------------------------------------------------

@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"),
               max_size=40))
def test_escape_is_undone_by_the_readers_unescape(value):
    assert unescape(escape(value)) == value


def test_table_header_backslashes_stay_single():
    assert format_tag("ScoreTable", "Rank\\2R;Score\\5R") == '[ScoreTable "Rank\\2R;Score\\5R"]'


def test_quotes_and_escaping_backslashes_are_escaped():
    assert escape('say "hi"') == 'say \\"hi\\"'
    assert escape("ends in \\") == "ends in \\\\"
    assert escape('\\"') == '\\\\\\"'


def test_unquoted_value_is_written_back_unquoted_when_it_can_be():
    assert format_tag("Event", "Random Deal #", quoted=False) == "[Event Random Deal #]"
    assert format_tag("Event", "a;b", quoted=False) == '[Event "a;b"]'


# -- Import format ----------------------------------------------------------------------------

LAYOUT = """\
% PBN 2.1
%Creator: someone
{a game comment}
[Event "Club \\"Pairs\\""] [Site "Utrecht"]
[Board "7"]
[Dealer "N"]
[Auction "N"]
1D      1S   3H =1= 4S ; a line comment
4NT =2= X    Pass   Pass {brace
comment over lines}
5C X 5H X
Pass Pass Pass
[Note "1:non-forcing"]
[Note "2:two colours"]
[ScoreTable "Rank\\2R;Names;Score_NS\\5R"]
 1 "Smith;Jones"   420
 2 "Brown;Green"  -100
"""


def test_import_format_gives_the_text_back_as_written():
    assert rewritten(LAYOUT) == LAYOUT


def test_import_format_keeps_what_layout_cannot_show():
    text = ('[Event\n  "split"] [Site "x"]{c1}{c2};c3\n'
            '%escape in a game\n[Event Random Deal #]\n'
            '[Play "W"]\nSK H3 S4 S3\n-  -  -  H2\n*\n')
    games = pbnkit.read_text(text)
    again = pbnkit.read_text(dumps(games))
    assert same_games(games, again)
    assert [t.quoted for t in again[0].tags] == [True, True, False, True]


def test_header_in_its_own_block_and_the_trailer_come_back():
    text = "% PBN 2.1\n\n{header note}\n\n[Event \"a\"]\n\n[Event \"b\"]\n\n{the end}\n"
    reader = pbnkit.read(io.BytesIO(text.encode()))
    games = list(reader)
    buffer = io.StringIO()
    write_pbn(games, buffer, trailer=reader.trailer)
    assert buffer.getvalue() == text
    again = pbnkit.read(io.BytesIO(buffer.getvalue().encode()))
    assert same_games(games, list(again))
    assert [e.text for e in again.trailer] == ["the end"]


def test_inheritance_is_written_as_is_and_resolves_the_same():
    text = '[Event "##Club"]\n[Board "1"]\n\n[Board "2"]\n[Site "#"]\n'
    assert rewritten(text) == text
    assert pbnkit.read_text(rewritten(text))[1].value("Event") == "Club"


def test_games_built_without_positions_get_one_tag_per_line():
    comment = Element(ElementKind.COMMENT, "note", 0, 0)
    tokens = Element(ElementKind.TOKENS, "1NT Pass\nPass Pass", 0, 0)
    game = Game((TagPair("Event", "x", 0, 0, (comment,)),
                 TagPair("Auction", "N", 0, 0, (tokens,))))
    text = dumps([game])
    assert text == '[Event "x"] {note}\n[Auction "N"]\n1NT Pass\nPass Pass\n'
    assert pbnkit.read_text(text)[0].same_content(game)


# -- Export format ------------------------------------------------------------------------------

# A small export-format game, as PBN 2.1 lays one out.
SECTION_7 = """\
% PBN 2.1
% EXPORT
[Event "Club Pairs"]
[Site "Utrecht NLD"]
[Date "2024.03.05"]
[Board "7"]
[West "Jansen, P."]
[North "de Vries, A."]
[East "Bakker, K."]
[South "Smit, J."]
[Dealer "S"]
[Vulnerable "All"]
[Deal "S:AKQ2.K3.A76.J854 J5.QJT9.KQ32.Q72 T9876.A84.J5.A63 43.7652.T984.KT9"]
[Scoring "MP"]
[Declarer "N"]
[Contract "4S"]
[Result "10"]
[Room "Open"]
[Score "NS 620"]
[Auction "S"]
1C Pass 1S Pass
2NT =1= Pass 4S AP
[Note "1:18-19 balanced"]
[Play "E"]
DT D6 DK D5
*
"""

# The same game in sloppy import format: any tag order, lowercase, Both, the deal from
# North with ranks in any order, Result from the NS side, the auction from West.
SECTION_7_IMPORT = """\
[Auction "W"]
- - - 1c pass 1s pass 2nt =1= pass 4s ap
[Note "1:18-19 balanced"]
[Score "NS 620"]
[Room "Open"]
[Play "e"]
dt d6 dk d5 *
[Event "Club Pairs"]
[Site "Utrecht NLD"]
[Date "2024.03.05"]
[Board "7"]
[West "Jansen, P."] [North "de Vries, A."] [East "Bakker, K."] [South "Smit, J."]
[Dealer "s"]
[Vulnerable "both"]
[Deal "n:T9876.8A4.J5.A63 34.7652.T984.KT9 AKQ2.K3.A67.J854 J5.QJT9.KQ32.Q72"]
[Scoring "MP"]
[Declarer "n"]
[Contract "4s"]
[Result "NS 10"]
"""


def test_export_format_of_the_spec_example_is_the_spec_example():
    assert exported(SECTION_7) == SECTION_7.replace("\n", "\r\n")


def test_import_format_becomes_the_spec_example():
    assert exported(SECTION_7_IMPORT) == SECTION_7.replace("\n", "\r\n")


def test_export_is_a_fixed_point():
    once = exported(LAYOUT)
    assert exported(once.replace("\r\n", "\n")) == once


def test_suffixes_become_nags_after_the_note_reference():
    text = exported('[Dealer "N"]\n[Auction "N"]\n1S !! =1= $25 Pass\n'
                    '[Declarer "S"]\n[Play "W"]\nSK !! =1= $200\n')
    assert "\r\n1S =1= $3 $25 Pass\r\n" in text
    assert "\r\nSK =1= $9 $200\r\n" in text


def test_play_columns_rotate_to_start_with_the_opening_leader():
    # Declarer S: West leads. The file lists the tricks from North.
    text = exported('[Dealer "N"]\n[Declarer "S"]\n[Contract "3NT"]\n[Play "N"]\n'
                    'C2 C3 CA C4\nD2 D3 D4 D5\n')
    assert '[Play "W"]\r\nC4 C2 C3 CA\r\nD5 D2 D3 D4\r\n' in text


def test_missing_mandatory_tags_are_unknown_or_not_applicable():
    game = pbnkit.read_text(exported('[Board "3"]\n[Deal "N:AKQJT98765432... - - -"]\n'))[0]
    assert [t.name for t in game.tags][:15] == [
        "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
        "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result"]
    assert (game.value("Event"), game.value("Date"), game.value("Contract")) == (
        "?", "????.??.??", "")
    played = pbnkit.read_text(exported('[Auction "N"]\n1NT AP\n'))[0]
    assert played.value("Contract") == "?"


def test_other_tags_sorted_and_inheritance_resolved():
    text = exported('[Event "##Club"]\n[Zeta "z"]\n[Alpha "a"]\n\n[Board "2"]\n[Site "#"]\n')
    second = pbnkit.read_text(text.replace("\r\n", "\n"))[1]
    assert second.value("Event") == "Club"
    names = [t.name for t in second.tags]
    assert names[15:] == []  # Zeta and Alpha were not ## values, so not inherited
    first = pbnkit.read_text(text.replace("\r\n", "\n"))[0]
    assert [t.name for t in first.tags][15:] == ["Alpha", "Zeta"]


def test_comments_stay_with_their_tag_and_call():
    text = exported('[Event "x"] {about the event}\n[Dealer "N"]\n'
                    '[Auction "N"]\n1NT {strong} Pass ; alert\nPass Pass\n')
    assert '[Event "x"]\r\n{about the event}\r\n' in text
    assert "1NT {strong} Pass ; alert\r\nPass Pass\r\n" in text


def test_tables_one_row_per_line_padded_to_the_declared_width():
    text = exported('[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\n'
                    'N C 9 N D 6\nW NT 7\n')
    assert "\r\nN  C  9\r\nN  D  6\r\nW NT  7\r\n" in text


def test_supplemental_sections_sorted_after_the_play():
    text = exported('[ZTable "A"]\n1\n[Auction "N"]\nPass\n[ATable "B"]\n2\n[Dealer "N"]\n')
    names = [t.name for t in pbnkit.read_text(text.replace("\r\n", "\n"))[0].tags]
    assert names[-3:] == ["Auction", "ATable", "ZTable"]


def test_export_has_crlf_and_no_tabs():
    text = exported('[Event "a\tb"]\t{tab\there}\n')
    assert "\t" not in text
    assert "\n" not in text.replace("\r\n", "")
