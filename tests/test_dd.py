"""Double-dummy analysis: the solver's tables and par against deals worked out by hand and
against the tables real files state, pbnkit analyze, and validate --dd."""

from __future__ import annotations

import json
import sys
from itertools import islice

import pytest
from click.testing import CliRunner

import pbnkit
from pbnkit.analysis.tables import (ParContract, read_hex_tricks, read_optimum_score,
                                    read_par_contracts, read_trick_cells)
from pbnkit.cli import main
from pbnkit.model import Contract, Deal, Seat, Strain, Vulnerability
from pbnkit.pbn.writer import dumps
from pbnkit.rules.double_dummy import check_games
from tests.conftest import CORPUS, REPO
from tests.test_layers import imported_modules, reaches

pytest.importorskip("endplay.dds", reason="the solver comes with the dd extra")

from pbnkit.analysis.solver import BATCH, solve, solve_with_par  # noqa: E402

#: Each player holds one whole suit: N spades, E hearts, S diamonds, W clubs.
SUITS_DEAL = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. "
                           "...AKQJT98765432")


def test_every_card_a_winner_worked_by_hand():
    # Worked out card by card: a trump suit held whole wins every trick for its holder's
    # side, whoever leads (the leader's suit is ruffed by the trump holder or is the
    # trump suit); at no trumps the opening leader runs the suit he holds. N and S make
    # 13 tricks in spades and diamonds and none elsewhere; E and W likewise in hearts
    # and clubs.
    (table,) = solve([SUITS_DEAL])
    for seat in Seat:
        ours = (Strain.S, Strain.D) if seat in (Seat.N, Seat.S) else (Strain.H, Strain.C)
        for strain in Strain:
            assert table[seat, strain] == (13 if strain in ours else 0), (seat, strain)


def test_par_of_the_whole_suits_deal_is_seven_spades():
    # N-S bid 7S (1510 non-vulnerable: 210 + 500 game + 1000 grand slam); E-W can outbid
    # it only with 7NT, in which South's diamonds take all 13 tricks: 7NTX down 13 costs
    # 3500. So the par is 7S by North or South, whoever deals.
    for dealer in (Seat.N, Seat.E):
        ((_, par),) = solve_with_par([(SUITS_DEAL, Vulnerability.NONE, dealer)])
        assert par.score_ns == 1510
        assert par.contracts == (ParContract((Seat.N, Seat.S), Contract(7, Strain.S), 13),)
        assert par.par_contract() == "NS 7S="
        assert par.optimum_score() == "NS 1510"


def test_solving_more_deals_than_one_batch_keeps_the_order():
    # The same deal turned a seat at a time: each table is the first one turned.
    deals = []
    for turn in range(BATCH + 3):
        hands = [SUITS_DEAL[Seat((seat - turn) % 4)] for seat in Seat]
        deals.append(Deal((hands[0], hands[1], hands[2], hands[3])))
    for turn, table in enumerate(solve(deals)):
        assert table[Seat(turn % 4), Strain.S] == 13


def test_a_deal_that_is_not_whole_is_refused():
    with pytest.raises(ValueError, match="whole deal"):
        list(solve([Deal.from_pbn("N:AKQ... - - -")]))


def _stated(game):
    cells, problems = read_trick_cells(game.tag("OptimumResultTable"))
    assert not problems
    return cells


BCDD = CORPUS / "emkael__bcdd" / "doc" / "test-pbn" / "test1.bcdd.pbn"


@pytest.mark.slow
@pytest.mark.skipif(not BCDD.is_file(), reason="../shared/corpus is absent")
def test_tables_and_par_scores_of_the_bcdd_file():
    games = list(islice(pbnkit.read(BCDD), 24))
    settings = [(Deal.from_pbn(g.value("Deal")), Vulnerability.from_pbn(g.value("Vulnerable")),
                 Seat.from_pbn(g.value("Dealer"))) for g in games]
    for game, (table, par) in zip(games, solve_with_par(settings)):
        stated = _stated(game)
        assert len(stated) == 20
        assert {cell: table[cell] for cell in stated} == stated, game.board
        assert par.score_ns == read_optimum_score(game.value("OptimumScore")), game.board


BEN = CORPUS / "lorserker__ben"
BEN_FILES = ["Boards/BBO/Ben & Friends Daily - 2024-06-03 Daylong.pbn",
             "Boards/BBO/Ben & Friends Daily - 2024-07-24 Daylong.pbn",
             "Boards/BBA/deals.pbn"]


@pytest.mark.slow
@pytest.mark.skipif(not BEN.is_dir(), reason="../shared/corpus is absent")
@pytest.mark.parametrize("name", BEN_FILES)
def test_tables_the_ben_files_state_are_the_solvers(name):
    games = [g for g in pbnkit.read(BEN / name) if g.tag("OptimumResultTable") is not None]
    assert games
    tables = solve(Deal.from_pbn(g.value("Deal")) for g in games)
    for game, table in zip(games, tables):
        stated = _stated(game)
        assert stated and {cell: table[cell] for cell in stated} == stated, game.board


@pytest.mark.slow
@pytest.mark.skipif(not BEN.is_dir(), reason="../shared/corpus is absent")
def test_stated_par_contracts_and_scores_agree_with_the_solver():
    # BridgeComposer's ParContract, OptimumScore, DoubleDummyTricks and table: no finding.
    games = list(islice(pbnkit.read(BEN / "Boards/Eamon/nov22_match_bad.pbn"), 12))
    assert sum(g.tag("ParContract") is not None for g in games) >= 10
    assert list(check_games(games)) == []


@pytest.mark.slow
@pytest.mark.skipif(not BEN.is_dir(), reason="../shared/corpus is absent")
def test_the_broken_tables_of_the_camrose_file_are_found():
    # From board 33 on, this BridgeComposer file states 1 trick where the solver finds
    # up to 6, in its table and in DoubleDummyTricks alike; the boards before are right.
    games = [g for g in pbnkit.read(BEN / "demo/Camrose24_1.pbn")
             if g.board in ("32", "33")][:2]
    found = list(check_games(games))
    assert {(d.board, d.code) for d in found} == {("33", "SC041")}
    assert {d.message.split(" is wrong")[0] for d in found} == {"OptimumResultTable",
                                                                "DoubleDummyTricks"}


def test_tag_values_read_as_real_files_write_them():
    assert read_optimum_score("NS 420") == 420
    assert read_optimum_score("EW 420") == -420
    assert read_optimum_score("NS -100") == -100
    assert read_optimum_score("4S") is None
    assert read_par_contracts("NS 5CX-1; NS 5HX-1") == [
        ((Seat.N, Seat.S), Contract.from_pbn("5CX"), 10),
        ((Seat.N, Seat.S), Contract.from_pbn("5HX"), 10)]
    assert read_par_contracts("W 2C=") == [((Seat.W,), Contract.from_pbn("2C"), 8)]
    assert read_par_contracts("EW 3N+1") == [((Seat.E, Seat.W), Contract.from_pbn("3NT"), 10)]
    assert read_par_contracts("Pass") == []
    assert read_par_contracts("four spades") is None
    digits = read_hex_tricks("7b8b37b8a32252a2252a")
    assert digits is not None and digits[Seat.N, Strain.NT] == 7 and \
        digits[Seat.N, Strain.S] == 11 and digits[Seat.W, Strain.C] == 10


WRONG = """[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]
[OptimumScore "NS 1440"]
[ParContract "NS 7D="]
[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]
N  S 12
"""


def test_wrong_tags_are_reported_with_their_codes():
    found = list(check_games(pbnkit.read_text(WRONG)))
    assert [d.code for d in found] == ["SC042", "SC043", "SC041"]
    assert "N S 12 (double dummy 13)" in found[2].message
    assert "par is NS 1510 (NS 7S=)" in found[0].message


def test_validate_dd_lists_the_findings_and_counts_them(tmp_path):
    path = tmp_path / "wrong.pbn"
    path.write_text(WRONG)
    result = CliRunner().invoke(main, ["validate", "--dd", "--select", "SC04", str(path)])
    assert result.exit_code == 1
    assert [line.split()[1] for line in result.output.splitlines()[:3]] == [
        "SC042", "SC043", "SC041"]
    assert "3 errors" in result.output
    document = CliRunner().invoke(main, ["validate", "--dd", "--output-format", "json",
                                         "--select", "SC04", str(path)])
    report = json.loads(document.stdout)
    assert [d["code"] for d in report["diagnostics"]] == ["SC042", "SC043", "SC041"]
    assert report["summary"]["errors"] == 3


def test_analyze_writes_tags_that_validate_accepts(tmp_path):
    source, out = tmp_path / "wrong.pbn", tmp_path / "out.pbn"
    source.write_text(WRONG + '\n[Board "2"]\n[Deal "N:AKQ... - - -"]\n')
    result = CliRunner().invoke(main, ["analyze", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    games = list(pbnkit.read(out))
    assert games[0].value("OptimumScore") == "NS 1510"
    assert games[0].value("ParContract") == "NS 7S="
    assert len(_stated(games[0])) == 20
    assert dumps([games[1]]) == '[Board "2"]\n[Deal "N:AKQ... - - -"]\n'
    assert list(check_games(games)) == []
    again = CliRunner().invoke(main, ["analyze", str(source), "-o", str(out)])
    assert again.exit_code == 2 and "--force" in again.output


def test_without_the_solver_the_commands_say_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "endplay.dds", None)  # import endplay.dds now fails
    source = tmp_path / "one.pbn"
    source.write_text(WRONG)
    for args in (["analyze", str(source), "-o", str(tmp_path / "o.pbn")],
                 ["validate", "--dd", str(source)],
                 ["report", "--dd", str(source), "-o", str(tmp_path / "o.html")]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2
        assert "pip install 'pbnkit[dd]'" in result.output


@pytest.mark.parametrize("name", ["tables.py", "solver.py", "records.py"])
def test_the_solver_and_its_values_sit_beside_the_model(name):
    modules = imported_modules(REPO / "pbnkit" / "analysis" / name)
    above = ("pbnkit.replay", "pbnkit.rules", "pbnkit.scoring", "pbnkit.export", "pbnkit.report")
    assert [m for layer in above for m in reaches(modules, layer)] == []


def test_analysis_tells_each_solved_batch_for_the_progress_bar(tmp_path):
    from pbnkit.analysis.annotate import analyse_files

    source, out = tmp_path / "wrong.pbn", tmp_path / "out.pbn"
    source.write_text(WRONG + '\n[Board "2"]\n[Deal "N:AKQ... - - -"]\n')
    batches: list[int] = []
    summary = analyse_files([source], out, on_batch=batches.append)
    # both records go in the one batch; only the whole deal is solved
    assert batches == [2] and (summary.records, summary.analysed) == (2, 1)


def test_a_lin_file_is_analysed_and_written_as_pbn(tmp_path):
    source, out = tmp_path / "board.lin", tmp_path / "out.pbn"
    source.write_text("pn|S,W,N,E|st||md|3SAKQJT98765432HDC,SHAKQJT98765432DC,"
                      "SHDAKQJT98765432C,|rh||ah|Board 1|sv|o|pg||\n")
    result = CliRunner().invoke(main, ["analyze", "-q", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    (game,) = pbnkit.read(out)
    # md lists South first: South spades, West hearts, North diamonds, East (the hand
    # left out) clubs; N-S still make 7S, the par
    assert game.value("Deal") == ("N:..AKQJT98765432. ...AKQJT98765432 AKQJT98765432... "
                                  ".AKQJT98765432..")
    assert game.value("OptimumScore") == "NS 1510"


#: A CRLF file whose tags are not in the order analyze writes them, with a full table
#: whose rows run N, S, E, W (each NT first) and state 12 where the solver finds 13.
CRLF_RECORD = (
    '% PBN 2.1\r\n'
    '[Event "Club \u00e9t\u00e9"]\r\n'
    '[Board "1"]\r\n'
    '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\r\n'
    + "".join(f"{seat} {strain:>2} {tricks:>2}\r\n" for seat in "NSEW"
              for strain, tricks in zip(("NT", "S", "H", "D", "C"),
                                        (0, 12, 0, 13, 0) if seat in "NS" else
                                        (0, 0, 13, 0, 13)))
    + '{the tricks as a club printed them}\r\n'
    '[Dealer "N"]\r\n'
    '[Vulnerable "None"]\r\n'
    '[OptimumScore "NS 1510"]\r\n'
    '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]\r\n'
    '\r\n')


def test_analyze_keeps_every_byte_of_a_crlf_file_in_order(tmp_path):
    source, out = tmp_path / "club.pbn", tmp_path / "out.pbn"
    before = CRLF_RECORD.encode("utf-8")
    source.write_bytes(before)
    result = CliRunner().invoke(main, ["analyze", "-q", str(source), "-o", str(out)])
    assert result.exit_code == 0, result.output
    after = out.read_bytes()
    # SUITS_DEAL: N and S take 13 tricks in spades, so the two "12" rows become "13";
    # OptimumScore already states the par (NS 1510) and stays; ParContract is added
    # after the last tag (Deal), on a CRLF line of its own.
    changed = before.replace(b"N  S 12\r\n", b"N  S 13\r\n").replace(b"S  S 12\r\n",
                                                                   b"S  S 13\r\n")
    assert after == changed.replace(b'...AKQJT98765432"]\r\n',
                                    b'...AKQJT98765432"]\r\n[ParContract "NS 7S="]\r\n')
    # every byte of the file, but for the two tricks rewritten, is there in order
    kept = iter(after)
    assert all(byte in kept for byte in before.replace(b" 12\r", b" \r"))
    assert after.count(b"\r\n") == after.count(b"\n")
    assert [tag.name for tag in next(iter(pbnkit.read(out))).tags] == [
        "Event", "Board", "OptimumResultTable", "Dealer", "Vulnerable", "OptimumScore",
        "Deal", "ParContract"]
