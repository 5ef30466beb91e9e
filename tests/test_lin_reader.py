"""The LIN reader: what each key becomes in PBN terms, where problems are reported, and
which files are read as LIN."""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from conftest import run_pbnkit
from hypothesis import given
from hypothesis import strategies as st

import pbnkit
from pbnkit.lin import reader as lin_reader
from pbnkit.lin.columns import Pairs
from pbnkit.lin.layout import pbn_layout
from pbnkit.formats.sniff import open_reader, sniff
from pbnkit.lin.reader import LinReader
from pbnkit.lin.records import as_bbo_writes
from pbnkit.pbn.reader import PbnReader
from pbnkit.pbn.sections import section
from pbnkit.pbn.writer import dumps
from pbnkit.rules import check_game
from pbnkit.scoring.records import board_result

# South AKQ.AKQ.432.5432, West 5432.5432.AKQ.AK, North JT9.JT9.JT9.JT98; East, left out
# as BBO does, holds the 13 others: 876.876.8765.Q76. Dealer 3 is North.
MD = "md|3SAKQHAKQD432C5432,S5432H5432DAKQCAK,SJT9HJT9DJT9CJT98,|"
DEAL = "N:JT9.JT9.JT9.JT98 876.876.8765.Q76 AKQ.AKQ.432.5432 5432.5432.AKQ.AK"
# North opens 1NT (alerted, explained), South raises to 3NT: North declares, East leads
# D8; South plays D2, West DA, North D9 (West wins); then declarer claims nine tricks.
BOARD = (f"pn|Sue,Wes,Ned,Eve|st||{MD}rh||ah|Board 7|sv|n|mb|1N!|an|15-17 |mb|p|"
         "mb|3N|mb|p|mb|p|mb|p|pg||pc|D8|pc|D2|pc|DA|pc|D9|pg||mc|9|\n")


def one(text: str):
    games = pbnkit.read_text(text, "board.lin")
    assert len(games) == 1
    return games[0]


def test_a_board_becomes_the_pbn_tags():
    game = one(BOARD)
    assert game.value("Deal") == DEAL
    assert (game.value("Dealer"), game.value("Vulnerable"), game.board) == ("N", "NS", "7")
    assert [game.value(s) for s in ("North", "East", "South", "West")] == [
        "Ned", "Eve", "Sue", "Wes"]
    assert game.value("Result") == "9"


def test_calls_become_the_auction_and_explanations_its_notes():
    auction = section(one(BOARD), "Auction")
    assert auction is not None and auction.tag.value == "N"
    assert [i.text for i in auction.items] == ["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"]
    assert [i.note for i in auction.items] == [1, None, None, None, None, None]
    assert [n.value for n in auction.notes] == ["1:15-17"]


def test_an_alert_without_explanation_is_a_note_too():
    auction = section(one(f"{MD}mb|2C!|mb|d|mb|r|mb|p|mb|p|mb|p|"), "Auction")
    assert auction is not None
    assert [i.text for i in auction.items] == ["2C", "X", "XX", "Pass", "Pass", "Pass"]
    assert [n.value for n in auction.notes] == ["1:alert"]


def test_cards_go_to_the_columns_of_their_seats_and_a_claim_ends_the_play():
    play = section(one(BOARD), "Play")
    assert play is not None and play.tag.value == "E"  # East led
    # columns E S W N: East D8, South D2, West DA, North D9
    assert [i.text for i in play.items] == ["D8", "D2", "DA", "D9", "*"]


def test_the_board_scores_as_its_claim_says():
    result = board_result(one(BOARD))
    assert (str(result.contract), result.declarer.name, result.tricks) == ("3NT", "N", 9)
    assert [d for d in check_game(one(BOARD)) if d.code[:2] in ("AU", "PL", "SC", "DL")] == []


@pytest.mark.parametrize(("digit", "dealer"), [("1", "S"), ("2", "W"), ("3", "N"), ("4", "E")])
def test_the_dealer_digit_counts_from_south(digit, dealer):
    assert one("md|" + digit + MD[4:]).value("Dealer") == dealer


@pytest.mark.parametrize(("sv", "vulnerable"), [("o", "None"), ("0", "None"), ("n", "NS"),
                                                ("e", "EW"), ("b", "All"), ("B", "All")])
def test_vulnerability(sv, vulnerable):
    assert one(f"{MD}sv|{sv}|").value("Vulnerable") == vulnerable


def test_a_deal_of_four_hands_needs_no_completion():
    full = MD[:-2] + ",S876H876D8765CQ76|"
    assert one(full).value("Deal") == DEAL


def test_positions_are_those_of_the_pairs():
    game = one("pn|a,b,c,d|\n" + BOARD)
    deal = game.tag("Deal")
    assert (deal.line, deal.column) == (2, BOARD.index("md|") + 1)
    auction = section(game, "Auction")
    assert (auction.items[2].line, auction.items[2].column) == (2, BOARD.index("3N|") + 1)


def test_a_bad_deal_is_reported_at_the_value_of_its_md_pair():
    game = one("st||md|3SAKQHAKQD432C5432,SAKQ,SJT9HJT9DJT9CJT98,|")
    found = [d for d in check_game(game) if d.code.startswith("DL")]
    assert {d.code for d in found} == {"DL003", "DL005"}  # SAKQ twice; 13, 3, 13 cards
    assert {(d.line, d.column) for d in found} == {(1, 8)}
    assert game.value("Deal").split()[1] == "-"  # East is not made up from a bad deal


# -- Files of several boards ------------------------------------------------------------------

def test_each_pn_or_md_after_a_deal_starts_a_board():
    games = pbnkit.read_text(BOARD + BOARD.replace("Board 7", "Board 8"), "two.lin")
    assert [g.board for g in games] == ["7", "8"]


VUGRAPH = (
    "vg|Final,Segment 1,I,1,2,LIONS,0,TIGERS,0|\n"
    "rs|3NN=,3NN-1,4SE+1,4HS-2|\n"
    "pn|Ann,Bob,Cid,Dan,Eve,Fay,Gus,Hal|pg||\n"
    f"qx|o1|{MD}sv|0|pg||\n"
    f"qx|c1|{MD}sv|0|pg||\n"
    f"qx|o2|{MD}sv|n|pg||\n"
    f"qx|c2|{MD}sv|n|pg||\n"
)


def test_a_vugraph_file_gives_rooms_boards_teams_and_results():
    games = pbnkit.read_text(VUGRAPH, "match.lin")
    assert [(g.value("Room"), g.board) for g in games] == [
        ("Open", "1"), ("Closed", "1"), ("Open", "2"), ("Closed", "2")]
    first = games[0]
    assert (first.value("Event"), first.value("Stage"), first.value("HomeTeam"),
            first.value("VisitTeam"), first.value("Scoring")) == (
        "Final", "Segment 1", "LIONS", "TIGERS", "IMP")
    assert [(g.value("Contract"), g.value("Declarer"), g.value("Result")) for g in games] == [
        ("3NT", "N", "9"), ("3NT", "N", "8"), ("4S", "E", "11"), ("4H", "S", "8")]
    # the header's eight players: the open room's four, then the closed room's
    assert (games[0].value("South"), games[1].value("South"), games[1].value("East")) == (
        "Ann", "Eve", "Hal")


def test_a_vugraph_match_scores_as_an_imp_team_match(tmp_path):
    """Board 1, nobody vulnerable: 3NT= by N +400 in the open room, 3NT-1 -50 in the
    closed: 450 to team A, 10 IMPs. Board 2, N-S vulnerable: 4S+1 by E -450 open,
    4H-2 by S -200 closed: 250 to team B, 6 IMPs."""
    path = tmp_path / "match.lin"
    path.write_text(VUGRAPH)
    status, out = run_pbnkit("score", path)
    assert status == 0
    assert "Team match: Final / Segment 1 (LIONS v TIGERS, LIONS N-S in Open)" in out
    # each team's IMPs in its own column: board 1's 10 under LIONS, board 2's 6 under TIGERS
    assert " board  Open NS Closed NS   diff IMPs LIONS IMPs TIGERS" in out
    assert "     1      400       -50    450         10\n" in out
    assert "     2     -450      -200   -250                      6\n" in out
    assert "Total IMPs: LIONS 10, TIGERS 6: LIONS win by 4" in out  # 10 - 6


# -- Problems ---------------------------------------------------------------------------------

def diagnostics(text: str) -> list[tuple[str, int, int]]:
    reader = LinReader(__import__("io").BytesIO(text.encode()), "x.lin")
    games = list(reader)
    return [(d.code, d.line, d.column) for d in reader.diagnostics] + [
        (d.code, d.line, d.column) for g in games for d in g.diagnostics]


def test_a_malformed_key_costs_that_pair_only():
    text = "pn|a,b,c,d|xyz|1|" + MD + "sv|b|"
    assert diagnostics(text) == [("SY001", 1, 12)]
    assert one(text).value("Vulnerable") == "All"


def test_an_unterminated_last_pair_is_a_syntax_error():
    found = diagnostics(MD + "pc|S2")
    assert found == [("SY001", 1, len(MD) + 1)]


def test_lark_reports_the_same_errors_as_the_fast_path(monkeypatch):
    text = "pn|a,b,c,d|xyz|1|\n" + MD + "sv|b|pc|S2"
    fast = diagnostics(text)

    def no_line_of_pairs(text: str) -> Iterator[Pairs]:  # the whole text is left to Lark
        return (0, 1)
        yield

    monkeypatch.setattr(lin_reader, "lines_of_pairs", no_line_of_pairs)
    monkeypatch.setattr(lin_reader, "runs_of", lambda text, pos=0, line=1: None)
    assert diagnostics(text) == fast


def test_an_unknown_key_is_kept_and_reported():
    game = one(MD + "zz|what|")
    assert [(d.code, d.column) for d in game.diagnostics] == [("SY301", len(MD) + 1)]
    assert "zz|what|" in game.value("Lin")


def test_an_explanation_without_a_call_is_misplaced():
    assert [d.code for d in one(MD + "an|strong|mb|1C|").diagnostics] == ["SY302"]


def test_a_qx_that_names_no_board():
    games = pbnkit.read_text(f"qx|x1|{MD}", "x.lin")
    assert [(d.code, d.column) for d in games[0].diagnostics] == [("TG301", 4)]


def claim_findings(text: str, name: str = "board.lin") -> list[tuple[str, int, int]]:
    """The SC and TG007 findings of the one board of a LIN text."""
    games = pbnkit.read_text(text, name)
    return [(d.code, d.line, d.column) for game in games for d in check_game(game)
            if d.code.startswith("SC") or d.code == "TG007"]


MC = BOARD.index("mc|") + 1  # the column of the claim's key


def test_a_claim_of_more_than_the_defence_left_is_impossible():
    """West won the first trick: the defence has one, so declarer cannot take 13."""
    assert claim_findings(BOARD.replace("mc|9|", "mc|13|")) == [("SC301", 1, MC)]


def test_a_claim_of_fewer_than_declarer_has_won_is_impossible():
    """East leads H8, South (dummy, North declares) wins with HA, West H2, North H9:
    declarer's side has one trick, so a claim of none contradicts it."""
    text = BOARD.replace("pc|D8|pc|D2|pc|DA|pc|D9|", "pc|H8|pc|HA|pc|H2|pc|H9|")
    assert claim_findings(text.replace("mc|9|", "mc|0|")) == [("SC301", 1, MC)]
    assert claim_findings(text.replace("mc|9|", "mc|1|")) == []


@pytest.mark.parametrize("claim", ["0", "9", "12"])
def test_a_claim_the_play_leaves_possible_is_no_finding(claim):
    # one trick played, the defence's: declarer may end with anything from 0 to 12
    assert claim_findings(BOARD.replace("mc|9|", f"mc|{claim}|")) == []


def test_the_trick_in_progress_counts_for_neither_side():
    """West, who won trick 1, leads DK to trick 2 and declarer claims at once: trick 2
    may still be declarer's, so 12 is possible, 13 is not."""
    text = BOARD.replace("pg||mc|9|", "pg||pc|DK|mc|9|")
    column = text.index("mc|") + 1
    assert claim_findings(text.replace("mc|9|", "mc|12|")) == []
    assert claim_findings(text.replace("mc|9|", "mc|13|")) == [("SC301", 1, column)]


def test_a_claim_of_more_than_13_tricks_is_the_claims_finding_only():
    assert claim_findings(BOARD.replace("mc|9|", "mc|14|")) == [("SC301", 1, MC)]
    # no play to judge it by: still more than a deal holds
    without_play = BOARD.replace("pc|D8|pc|D2|pc|DA|pc|D9|pg||", "")
    assert claim_findings(without_play.replace("mc|9|", "mc|14|")) == [
        ("SC301", 1, without_play.index("mc|") + 1)]


def test_a_claim_in_no_form_is_a_bad_result_value():
    assert [code for code, _, _ in claim_findings(BOARD.replace("mc|9|", "mc|x|"))] == [
        "TG007"]


def test_a_vugraph_claim_is_judged_beside_the_rooms_result():
    """The rs result of the open room (3NN=, nine tricks) is the board's Result; the
    claim of 13 after the defence's first trick is still the claim's finding."""
    header = "vg|Match,Final,I,7,7,Home,0,Away,0|rs|3NN=,|\n"
    board = "qx|o7|" + BOARD.replace("ah|Board 7|", "").replace("mc|9|", "mc|13|")
    found = claim_findings(header + board, "match.lin")
    assert ("SC301", 2, board.index("mc|") + 1) in found
    assert "SC003" not in [code for code, _, _ in found]


def test_a_claim_written_into_pbn_is_a_pbn_result():
    """Converted to PBN, the claim is a Result tag like any other: SC003 judges it."""
    game = one(BOARD.replace("mc|9|", "mc|13|"))
    pbn = pbnkit.read_text(dumps([pbn_layout(game)]), "board.pbn")
    assert [d.code for g in pbn for d in check_game(g) if d.code.startswith("SC")] == ["SC003"]


# -- The record's LIN ---------------------------------------------------------------------

def test_a_board_keeps_its_pairs_as_written_in_order():
    game = one(BOARD.replace("st||", "st|Title|ZZ|kept|"))
    assert game.lin is not None and game.lin.text == game.value("Lin")
    pairs = game.lin.pairs
    assert pairs[:4] == [("pn", "Sue,Wes,Ned,Eve"), ("st", "Title"), ("ZZ", "kept"),
                         ("md", MD[3:-1])]
    assert [key for key, _ in pairs].count("pc") == 4 and pairs[-1] == ("mc", "9")


def test_the_header_is_the_first_boards_and_the_claim_its_mc():
    header = "vg|Match,Final,I,7,8,Home,0,Away,0|rs|3NN=,,|\n"
    games = pbnkit.read_text(header + "qx|o7|" + BOARD + "qx|c7|" + BOARD, "match.lin")
    assert [g.lin.header for g in games] == [header.strip(), None]
    claim = games[0].lin.claim
    assert claim is not None and (claim.name, claim.value) == ("Result", "9")
    assert (claim.line, claim.column) == (2, len("qx|o7|" + BOARD) - len("mc|9|\n") + 1)
    assert one(BOARD.replace("mc|9|", "")).lin.claim is None


def test_a_pbn_record_has_no_lin_even_with_a_lin_tag():
    """Written into PBN, a board keeps its pairs in its Lin tag, a PBN tag like another."""
    pbn = pbnkit.read_text(dumps([pbn_layout(one(BOARD))]), "board.pbn")[0]
    assert pbn.value("Lin") == one(BOARD).lin.text and pbn.lin is None


def test_an_archived_board_gives_its_lin_back(tmp_path):
    path, archive = tmp_path / "board.lin", tmp_path / "a.jsonl"
    path.write_text(BOARD)
    assert run_pbnkit("convert", path, "-o", archive)[0] == 0
    from pbnkit.export.archive import archive_rows, games_of_rows

    restored = list(games_of_rows(archive_rows(archive), str(archive)))
    assert [g.lin for g in restored] == [one(BOARD).lin]


def test_the_readers_are_siblings():
    from pbnkit.formats.reader import Reader

    assert issubclass(LinReader, Reader) and issubclass(PbnReader, Reader)
    assert not issubclass(LinReader, PbnReader)


# -- Which reader -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["board.lin", "BOARD.LIN", "board.Lin"])
def test_the_extension_says_lin_in_any_case(tmp_path, name):
    path = tmp_path / name
    path.write_text(BOARD)
    assert isinstance(open_reader(path), LinReader)


def test_without_an_extension_the_bytes_decide(tmp_path):
    lin, pbn = tmp_path / "board", tmp_path / "event"
    lin.write_text(BOARD)
    pbn.write_text('[Event "x"]\n[Board "1"]\n')
    assert isinstance(pbnkit.read(lin), LinReader)
    assert type(pbnkit.read(pbn)) is PbnReader
    assert [g.board for g in pbnkit.read(lin)] == ["7"]


def test_sniffing():
    assert sniff(b"pn|a|md|1|") == "lin"
    assert sniff(b"% PBN 2.1\n[Event \"\"]") == "pbn"
    assert sniff(b"") == "pbn"
    assert sniff(b"Board;Contract;Result\n1;3NT;9\n") is None
    assert sniff(b"Board;Contract\n", "x.lin") is None
    assert sniff(b"\x7fELF\x02\x01\x00\x00") == "pbn"  # whose reader says: not text


def test_a_file_that_is_neither_gets_one_diagnostic(tmp_path):
    path = tmp_path / "results.pbn"
    path.write_text("Board;Contract;Result\n" + "1;3NT;9\n" * 50)
    reader = pbnkit.read(path)
    assert list(reader) == []
    assert [d.code for d in reader.diagnostics] == ["SY303"]
    # the commands name it as an input they cannot read (tests/test_input_kinds.py)
    assert run_pbnkit("validate", path) == (2, "1 files, 0 games: 0 errors, 0 warnings\n")


def test_bad_values_and_illegal_calls_and_cards_are_reported_at_their_pairs():
    text = MD + "sv|x|mb|1S|mb|2S|mb|1H|mb|p|mb|p|mb|p|pg||pc|D8|pc|S2|"
    found = {d.code: (d.line, d.column) for d in check_game(one(text))}
    assert found["TG005"] == (1, text.index("sv|x") + 4)   # the value x
    assert found["AU001"] == (1, text.index("1H") + 1)     # 1H after 2S: insufficient
    assert found["PL001"] == (1, text.index("S2|") + 1)    # South holds no S2


def test_the_lin_terminals_are_the_grammars():
    # pbnkit/lin/terminals.py is made from the grammar: its docstring says how.
    from conftest import REPO

    from pbnkit.lin import lark_parser

    source = REPO / "pbnkit" / "lin" / "terminals.py"
    assert source.read_text(encoding="utf-8") == lark_parser.terminals_source()


def test_reached_is_the_line_of_the_next_board_as_each_is_given_out():
    reader = LinReader(io.BytesIO(f"{MD}\n\n{MD}sv|b|\n{MD}".encode()), "three.lin")
    assert [(game.line, reader.reached) for game in reader] == [(1, 3), (3, 4), (4, 4)]


def test_reached_stays_at_the_header_that_the_boards_take_tags_from():
    text = f"vg|Match,Final,I,1,2,A,0,B,0|\nqx|o1|{MD}\nqx|c1|{MD}\nqx|o2|{MD}\n"
    reader = LinReader(io.BytesIO(text.encode()), "match.lin")
    assert [reader.reached for _ in reader] == [1, 1, 5]


@given(st.lists(st.text(st.sampled_from("SAsa2 \tÉé-"), max_size=4), min_size=1, max_size=60))
def test_cards_as_bbo_writes_them_are_two_upper_case_characters_each(cards):
    assert as_bbo_writes(cards) is (set(map(len, cards)) == {2} and "".join(cards).isupper())
