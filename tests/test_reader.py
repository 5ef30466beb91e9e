"""The streaming reader: games, positions, encodings, line ends, inheritance, recovery."""

from __future__ import annotations

import codecs
import io

import pytest

import pbnkit
from pbnkit.pbn.records import ElementKind


def read_bytes(data: bytes):
    reader = pbnkit.read(io.BytesIO(data))
    return reader, list(reader)


GAME = b'[Event "Club"]\n[Board "1"]\n[Dealer "N"]\n'


def test_games_are_separated_by_semi_empty_lines():
    _, games = read_bytes(GAME + b"\n" + GAME + b"  \t \n" + GAME)
    assert len(games) == 3
    assert [g.index for g in games] == [0, 1, 2]
    assert [g.line for g in games] == [1, 5, 9]


def test_blank_line_inside_brace_comment_does_not_end_the_game():
    text = b'[Event "x"]\n{first paragraph\n\nsecond paragraph}\n[Board "2"]\n'
    _, games = read_bytes(text)
    assert len(games) == 1
    comment = games[0].tags[0].body[0]
    assert comment.kind is ElementKind.COMMENT and "\n\n" in comment.text


def test_brace_inside_line_comment_or_string_opens_no_comment():
    text = b'[Event "a { b"] ; not { a comment\n\n[Board "2"]\n'
    _, games = read_bytes(text)
    assert len(games) == 2
    assert games[0].value("Event") == "a { b"


def test_tags_in_any_layout():
    text = b'[Event "x"] [Site\n  "y"]   [Board\n"3"\n]\n'
    _, (game,) = read_bytes(text)
    assert [(t.name, t.value, t.line, t.column) for t in game.tags] == [
        ("Event", "x", 1, 1), ("Site", "y", 1, 13), ("Board", "3", 2, 10)]


def test_string_escapes():
    _, (game,) = read_bytes(b'[Event "say \\"hi\\" \\\\ and \\2R"]\n')
    assert game.value("Event") == 'say "hi" \\ and \\2R'


def test_value_column_points_at_the_value():
    _, (game,) = read_bytes(b'[Event "x"]\n  [Site "Utrecht"]\n')
    assert game.tags[1].value_column == 10


@pytest.mark.parametrize("ending", [b"\n", b"\r\n", b"\r"])
def test_line_ends_lf_crlf_and_lone_cr(ending):
    lines = [b'[Event "x"]', b'[Board "1"]', b"", b'[Event "y"]', b'[Board "2"]']
    _, games = read_bytes(ending.join(lines) + ending)
    assert [g.value("Board") for g in games] == ["1", "2"]
    assert games[1].tags[1].line == 5


def test_utf8_bom_is_read_as_utf8():
    reader, (game,) = read_bytes(codecs.BOM_UTF8 + '[West "Łukasz"]\n'.encode())
    assert game.value("West") == "Łukasz" and reader.encoding == "utf-8 (bom)"


def test_charset_directive_decides_the_encoding():
    data = b"%Content-type: text/x-pbn; charset=ISO-8859-1\n" + '[West "José"]\n'.encode("latin-1")
    reader, (game,) = read_bytes(data)
    assert game.value("West") == "José" and reader.encoding == "iso-8859-1 (declared)"


def test_undeclared_latin1_falls_back_and_records_it():
    reader, (game,) = read_bytes('[West "José"]\n'.encode("latin-1"))
    assert game.value("West") == "José"
    assert reader.encoding == "latin-1 (fallback)"
    assert game.diagnostics == ()  # Latin-1 is PBN's own charset: no complaint


def test_declared_utf8_with_latin1_bytes_is_reported():
    data = b"%charset=UTF-8\n" + '[West "José"]\n'.encode("latin-1")
    _, (game,) = read_bytes(data)
    assert [d.code for d in game.diagnostics] == ["SY005"]


def test_escape_lines_are_kept_in_the_preamble():
    _, (game,) = read_bytes(b"% PBN 2.1\n% EXPORT\n" + GAME)
    assert [e.text for e in game.preamble] == [" PBN 2.1", " EXPORT"]


def test_percent_not_in_column_one_is_a_syntax_error():
    _, (game,) = read_bytes(b'[Event "x"] % not an escape\n[Board "1"]\n')
    assert [d.code for d in game.diagnostics] == ["SY001"]
    assert game.value("Board") == "1"


def test_hash_copies_the_previous_games_value():
    _, games = read_bytes(b'[Event "Cup"]\n\n[Event "#"]\n\n[Site "#"]\n')
    assert games[1].value("Event") == "Cup"
    assert games[2].value("Site") == ""
    assert games[1].tags[0].value == "#"  # the text is kept as written


def test_double_hash_sets_a_value_for_later_games():
    _, games = read_bytes(b'[Date "##1998.01.15"]\n[Board "1"]\n\n[Board "2"]\n\n'
                          b'[Date "1998.01.16"]\n[Board "25"]\n')
    assert [g.value("Date") for g in games] == ["1998.01.15", "1998.01.15", "1998.01.16"]


def test_inheritance_is_not_applied_to_forbidden_tags():
    _, games = read_bytes(b'[Deal "N:A... - - -"]\n\n[Deal "#"]\n')
    assert games[1].value("Deal") == "#"


def test_first_of_a_repeated_tag_counts():
    _, (game,) = read_bytes(b'[Room "Open"]\n[Room "IMP"]\n')
    assert game.value("Room") == "Open"


def test_section_tokens_keep_their_layout_and_positions():
    _, (game,) = read_bytes(b'[Auction "N"]\n1D      1S   3H =1= 4S\nPass AP\n[Note "1:x"]\n')
    auction = game.tag("Auction")
    assert auction.body[0].kind is ElementKind.TOKENS
    tokens = [(t.text, t.line, t.column) for t in auction.tokens]
    assert tokens[:5] == [("1D", 2, 1), ("1S", 2, 9), ("3H", 2, 14), ("=1=", 2, 17), ("4S", 2, 21)]
    assert tokens[-1] == ("AP", 3, 6)


def test_syntax_error_is_a_diagnostic_and_reading_resumes_on_the_next_line():
    _, games = read_bytes(b'[Event "x"]\n[Board "1]\n[Dealer "N"]\n\n[Board "2"]\n')
    first, second = games
    assert [(d.code, d.line, d.column) for d in first.diagnostics] == [("SY001", 2, 1)]
    assert first.value("Dealer") == "N" and second.value("Board") == "2"


def test_unquoted_value_is_read_with_a_warning():
    _, (game,) = read_bytes(b"[Event Random Deal #]\n")
    assert game.value("Event") == "Random Deal #"
    assert [d.code for d in game.diagnostics] == ["SY002"]


def test_unterminated_comment_is_a_diagnostic():
    _, games = read_bytes(b'[Event "x"]\n{never closed\n[Board "1"]\n')
    assert any(d.code == "SY001" and "comment" in d.message for g in games for d in g.diagnostics)


def test_data_before_the_first_tag_belongs_to_no_game():
    reader, games = read_bytes(b"bad characters\n\n[Board \"1\"]\n")
    assert len(games) == 1
    assert [d.code for d in reader.diagnostics] == ["SY001"]


def test_control_characters_are_reported_with_their_position():
    # 0x81 is a control character in Latin-1 and undefined in Windows-1252, the charset an
    # undeclared file's bytes 0x80-0x9F are read in (0x85 would be an ellipsis there).
    _, (game,) = read_bytes(b'[Event "a\x81b"]\n[Board "1"]\x01\n')
    assert [(d.code, d.line, d.column) for d in game.diagnostics if d.code == "SY003"] == [
        ("SY003", 1, 10), ("SY003", 2, 12)]


def test_header_only_and_empty_files_have_no_games():
    for data in (b"", b"% PBN 2.1\n% EXPORT\n", b"\n\n\n"):
        reader, games = read_bytes(data)
        assert games == [] and reader.diagnostics == []


def test_a_ten_megabyte_line_is_a_diagnostic_not_a_hang():
    data = b'[Event "x"]\n' + b"A" * 10_000_000 + b"\n"
    _, (game,) = read_bytes(data)
    assert {d.code for d in game.diagnostics} >= {"SY004"}


def test_a_run_of_syntax_errors_is_capped():
    data = b'[Event "x"]\n' + b"]\n" * 500
    _, (game,) = read_bytes(data)
    codes = [d.code for d in game.diagnostics]
    assert codes.count("SY001") == 20 and codes[-1] == "SY008"


def test_reading_is_lazy():
    class CountingStream(io.BytesIO):
        reads = 0

        def read(self, size=-1):
            CountingStream.reads += 1
            return super().read(min(size, 4096) if size and size > 0 else 4096)

    game = b'[Event "x"]\n[Board "1"]\n\n'
    stream = CountingStream(game * 50_000)  # about 1.3 MB
    first = next(iter(pbnkit.read(stream)))
    assert first.value("Board") == "1"
    assert CountingStream.reads < 600  # a small fraction of the stream was touched


def test_read_accepts_a_path(tmp_path):
    path = tmp_path / "x.pbn"
    path.write_bytes(GAME)
    games = list(pbnkit.read(path))
    assert games[0].path == str(path)


def test_read_text_helper():
    assert [g.board for g in pbnkit.read_text('[Board "7"]\n')] == ["7"]


def test_strict_reading_checks_the_empty_line_between_games():
    data = b'[Board "1"]\n\n[Board "2"]\n\n\n[Board "3"]\n \n[Board "4"]\n'
    games = list(pbnkit.read(io.BytesIO(data), strict=True))
    found = [(d.code, d.line) for g in games for d in g.diagnostics]
    assert found == [("SY103", 4), ("SY103", 7)]
    assert all(not g.diagnostics for g in pbnkit.read(io.BytesIO(data)))  # import format


def test_strict_reading_checks_tabs_and_line_ends():
    data = b'[Event "x"]\n[Auction "N"]\n1S\tPass\n'
    reader = pbnkit.read(io.BytesIO(data), strict=True)
    (game,) = reader
    assert [(d.code, d.line, d.column) for d in game.diagnostics] == [("SY101", 3, 3)]
    assert [d.code for d in reader.diagnostics] == ["SY102"]
    crlf = pbnkit.read(io.BytesIO(data.replace(b"\t", b" ").replace(b"\n", b"\r\n")), strict=True)
    assert [g.diagnostics for g in crlf] == [()] and crlf.diagnostics == []


def test_a_lone_cr_ending_the_file_is_counted_as_a_bare_line_end():
    reader = pbnkit.read(io.BytesIO(b'[Event "x"]\r\n[Site "y"]\r'), strict=True)
    list(reader)
    assert [d.message for d in reader.diagnostics] == ["1 line ends are not CRLF"]
