"""Findings on real-world patterns: each false alarm or miss found on other programs' files,
rebuilt as a minimal example (the expected findings are worked out from the PBN text)."""

from __future__ import annotations

import io

import pytest

import pbnkit
from pbnkit.diagnostics import Severity
from pbnkit.pbn.reader import PbnReader
from pbnkit.rules import check_game

# Every card once, 13 to a hand: N holds the top spades, W the deuce.
DEAL = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"


def findings(text: str, strict: bool = False) -> list[tuple[str, Severity, int]]:
    return [(d.code, d.effective_severity, d.line)
            for game in pbnkit.read_text(text) for d in check_game(game, strict)]


def codes(text: str, strict: bool = False) -> list[str]:
    return [code for code, _, _ in findings(text, strict)]


def board(*tags: str, number: int = 2, dealer: str = "N", vulnerable: str = "None") -> str:
    """Board 2 is dealt by East with NS vulnerable: dealer N and None contradict both."""
    return "\n".join([f'[Board "{number}"]', f'[Dealer "{dealer}"]',
                      f'[Vulnerable "{vulnerable}"]', f'[Deal "{DEAL}"]', *tags]) + "\n"


# --- TG014 / TG015: the board cycle binds duplicate boards only ---------------------

def test_board_cycle_is_only_info_where_nothing_says_the_boards_are_duplicate():
    found = [(code, severity) for code, severity, _ in findings(board())]
    assert found == [("TG014", Severity.INFO), ("TG015", Severity.INFO)]


@pytest.mark.parametrize("tag", ['[Scoring "IMP"]', '[Scoring "MP;MP1"]', '[Room "Open"]',
                                 '[ScoreMP "NS 3"]'])
def test_board_cycle_warns_where_the_boards_are_duplicate(tag):
    found = [(code, severity) for code, severity, _ in findings(board(tag))]
    assert found == [("TG014", Severity.WARNING), ("TG015", Severity.WARNING)]


def test_board_cycle_is_not_checked_for_rubber_scoring():
    assert codes(board('[Scoring "Rubber"]')) == []


def test_a_board_that_follows_the_cycle_has_no_finding():
    assert codes(board('[Scoring "IMP"]', dealer="E", vulnerable="NS")) == []


# --- TG102: export order with supplemental sections ---------------------------------

MANDATORY = ('[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Board "1"]\n[West "?"]\n'
             '[North "?"]\n[East "?"]\n[South "?"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
             f'[Deal "{DEAL}"]\n[Scoring "?"]\n[Declarer ""]\n[Contract ""]\n[Result ""]\n')
TABLE = '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\nN NT 13\n'


def test_a_table_after_the_other_tags_is_in_export_order():
    assert "TG102" not in codes(MANDATORY + '[Generator "x"]\n[OptimumScore "NS 1520"]\n'
                                + TABLE, strict=True)


def test_tables_sort_by_name_among_themselves():
    text = MANDATORY + TABLE + '[ActionTable "Action"]\nX\n'
    assert codes(text, strict=True).count("TG102") == 1


def test_a_plain_tag_after_a_table_is_out_of_export_order():
    found = [d for game in pbnkit.read_text(MANDATORY + TABLE + '[Generator "x"]\n')
             for d in check_game(game, strict=True) if d.code == "TG102"]
    assert [d.message for d in found] == [
        "tag Generator comes after the OptimumResultTable section"]


def test_pbnkits_own_export_format_is_in_export_order():
    from pbnkit.export.canonical import export_form
    from pbnkit.pbn.writer import PbnWriter

    source = ('[Board "1"]\n[Dealer "N"]\n' f'[Deal "{DEAL}"]\n' + TABLE
              + '[Ability "N:89797 E:44535 S:89797 W:44535"]\n[OptimumScore "NS 1520"]\n')
    out = io.StringIO()
    writer = PbnWriter(out, export_format=True)
    for game in pbnkit.read_text(source):
        writer.write(export_form(game))
    assert [code for code in codes(out.getvalue(), strict=True) if code.startswith("TG10")] == []


def test_identification_tags_keep_their_order():
    text = MANDATORY.replace('[Event "?"]\n[Site "?"]\n', '[Site "?"]\n[Event "?"]\n')
    assert codes(text, strict=True).count("TG102") == 1


# --- One severity for a non-standard spelling, in a tag or in the auction ------------

@pytest.mark.parametrize("value", ["3N", "3n", "PASS", "PaSs", "4SR", "3Nt"])
def test_a_readable_contract_spelling_is_a_warning(value):
    assert findings(f'[Contract "{value}"]\n') == [("TG017", Severity.WARNING, 1)]


@pytest.mark.parametrize("value", ["3NT", "3nt", "Pass", "pass", "4sx", "6HXX"])
def test_the_pbn_spellings_of_a_contract_pass(value):
    assert findings(f'[Contract "{value}"]\n') == []


@pytest.mark.parametrize("value", ["NONE", "Ns", "BOTH", "aLL"])
def test_a_readable_vulnerable_spelling_is_a_warning(value):
    assert findings(f'[Vulnerable "{value}"]\n') == [("TG017", Severity.WARNING, 1)]


def test_an_unreadable_contract_is_still_an_error():
    assert findings('[Contract "5Hearts"]\n') == [("TG006", Severity.ERROR, 1)]


def auction(calls: str) -> str:
    return board('[Scoring "IMP"]', number=1, dealer="N") + f'[Auction "N"]\n{calls}\n'


@pytest.mark.parametrize("spelling", ["PASS", "PaSs", "P"])
def test_pass_in_other_cases_is_a_nonstandard_call(spelling):
    found = findings(auction(f"1S {spelling} Pass Pass"))
    assert [(code, severity) for code, severity, line in found if line == 7] == [
        ("AU009", Severity.WARNING)]


def test_3n_has_the_same_severity_in_the_contract_tag_and_in_the_auction():
    text = auction("3N Pass Pass Pass") + '[Contract "3N"]\n[Declarer "N"]\n'
    found = {code: severity for code, severity, _ in findings(text)}
    assert found == {"AU009": Severity.WARNING, "TG017": Severity.WARNING}


def test_lowercase_calls_are_pbn():
    assert codes(auction("1s pass pass pass")) == []


# --- Vulnerable against ScoreRubberHistory --------------------------------------------

def rubber(vulnerable: str, history: str) -> str:
    return (f'[Scoring "Rubber"]\n[Vulnerable "{vulnerable}"]\n'
            f'[ScoreRubberHistory "{history}"]\n')


def test_vulnerable_must_follow_the_games_won_in_the_rubber_history():
    # NS scored 120 below the line in game 1 (a game: 100 or more), game 2 is under way.
    history = "NS 0 0/120 0 EW 0 0/40 0"
    assert findings(rubber("None", history)) == [("TG018", Severity.ERROR, 2)]
    assert findings(rubber("NS", history)) == []


def test_no_game_finished_means_nobody_is_vulnerable():
    assert findings(rubber("None", "NS 0 0/60 EW 0 0/40")) == []
    assert codes(rubber("Both", "NS 0 0/60 EW 0 0/40")) == ["TG018"]


def test_each_side_with_a_game_is_vulnerable():
    history = "NS 0 0/100 0 0 EW 0 0/0 120 30"
    assert findings(rubber("All", history)) == []
    assert codes(rubber("EW", history)) == ["TG018"]


# --- The play: one + at most -----------------------------------------------------------

def play(cards: str) -> str:
    return (board('[Scoring "IMP"]', number=1, dealer="N") + '[Declarer "S"]\n'
            f'[Contract "3NT"]\n[Play "W"]\n{cards}\n')


def test_two_plus_markers_in_one_play_are_an_error():
    found = findings(play("S2 + - -\n+ - - -"))
    assert [(code, line) for code, _, line in found] == [("PL010", 10)]


def test_one_plus_marker_is_fine():
    assert codes(play("S2 + - -")) == []


# --- Tables: commentary only after the tag pair (PBN 5.1) ---------------------------------

def test_commentary_after_a_table_element_is_reported():
    text = TABLE.rstrip("\n") + " {all of them}\nS NT 12\n"
    assert findings(text) == [("TG021", Severity.WARNING, 2)]


def test_commentary_after_the_table_tag_pair_is_allowed():
    text = TABLE.replace("\nN NT", " {double dummy}\nN NT")
    assert codes(text) == []


# --- Tags hidden in escape lines --------------------------------------------------------

def test_a_tag_pair_inside_an_escape_line_is_reported():
    text = '%[Dealer "S"]\n[Board "1"]\n[Dealer "N"]\n% [Vulnerable "NS"]\n% PBN 2.1\n'
    assert findings(text) == [("TG019", Severity.WARNING, 1), ("TG019", Severity.WARNING, 4)]


# --- Dates and times that are no day or time ----------------------------------------------

@pytest.mark.parametrize("value", ["2025.13.45", "2025.00.10", "2025.02.29", "2025.04.31",
                                   "????.02.30"])
def test_a_date_that_is_no_calendar_day_is_reported(value):
    assert codes(f'[Date "{value}"]\n') == ["TG009"]


@pytest.mark.parametrize("value", ["2024.02.29", "????.02.29", "2025.??.31", "2025.12.??"])
def test_dates_that_may_be_calendar_days_pass(value):
    assert codes(f'[Date "{value}"]\n') == []


@pytest.mark.parametrize("value", ["25:99:99", "24:00:00", "12:60:00"])
def test_a_time_that_is_no_time_of_day_is_reported(value):
    assert codes(f'[Time "{value}"]\n') == ["TG010"]


def test_the_last_second_of_a_day_is_a_time():
    assert codes('[Time "23:59:59"]\n') == []


# --- Messages that misled -------------------------------------------------------------------

def test_the_declarer_hint_does_not_speak_of_passes_the_auction_lacks():
    # N opens 1S and declares; the tag says E, one seat on: one pass in front would do it.
    text = auction("1S Pass Pass Pass") + '[Declarer "E"]\n[Contract "1S"]\n'
    (message,) = [d.message for game in pbnkit.read_text(text) for d in check_game(game)
                  if d.code == "SC002"]
    assert message.endswith("E would be, were the auction to start with 1 more pass "
                            "(are opening passes left out?)")


def test_a_syntax_error_shows_backslashes_as_written():
    (game,) = pbnkit.read_text('[Board "1"]\n[Rank\\2R "x"]\n')
    (message,) = [d.message for d in game.diagnostics if d.code == "SY001"]
    assert "Rank\\2R" in message and "\\\\" not in message


def test_an_empty_scoring_keyword_is_reported_once():
    assert findings('[Scoring ";"]\n') == [("TG012", Severity.INFO, 1)]


def test_trailing_blanks_in_a_value_are_reported():
    assert findings('[North "Smith "]\n') == [("TG020", Severity.WARNING, 1)]
    assert findings('[Board "1 "]\n[North "Smith"]\n')[0][0] == "TG020"


# --- Bytes: Windows-1252 and binary files ---------------------------------------------------

def read_bytes(data: bytes) -> tuple[PbnReader, list[pbnkit.Game]]:
    reader = pbnkit.read(io.BytesIO(data))
    return reader, list(reader)


def test_an_undeclared_0x92_is_an_apostrophe_read_as_windows_1252():
    reader, (game,) = read_bytes(b'[Board "1"]\n[North "O\x92Brien"]\n')
    assert game.value("North") == "O\u2019Brien"
    assert reader.encoding == "windows-1252 (fallback)"
    assert [(d.code, d.line) for d in check_game(game)] == [("SY005", 2)]


def test_a_declared_latin_1_file_keeps_its_control_characters():
    data = b"%charset=ISO-8859-1\n" + b'[Board "1"]\n[North "O\x92Brien"]\n'
    _, (game,) = read_bytes(data)
    assert [d.code for d in check_game(game)] == ["SY003"]


def test_bytes_windows_1252_leaves_undefined_stay_control_characters():
    _, (game,) = read_bytes(b'[Board "1"]\n[North "A\x81B\x92"]\n')
    assert game.value("North") == "A\x81B\u2019"
    assert sorted(d.code for d in check_game(game)) == ["SY003", "SY005"]


def test_a_binary_file_gets_one_finding():
    data = b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 64 + b'[Board "1"]\n'
    reader, games = read_bytes(data)
    assert games == []
    assert [(d.code, d.line, d.column) for d in reader.diagnostics] == [("SY009", 1, 1)]
