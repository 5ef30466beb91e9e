"""Every LIN file of the corpus: read with its number of boards (the corpus
manifest's ``lin_deals``) and no syntax problem, byte for byte kept, and compared with endplay's
LIN parser where endplay reads the file."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from conftest import CORPUS

import pbnkit
from pbnkit.diagnostics import Severity
from pbnkit.export.tolin import cards_in_order
from pbnkit.lin import parser as lin_parser
from pbnkit.lin.lark_parser import parse as lark_parse
from pbnkit.lin.reader import LinReader
from pbnkit.model.deal import Deal
from pbnkit.pbn.sections import section
from pbnkit.replay import replay
from pbnkit.rules import check_game
from pbnkit.scoring.records import board_result


def lin_rows() -> list[dict[str, str]]:
    manifest = CORPUS / "MANIFEST.tsv"
    if not manifest.is_file():
        return []
    with manifest.open(encoding="utf-8", newline="") as handle:
        return [row for row in csv.DictReader(handle, delimiter="\t")
                if row["path"].lower().endswith(".lin")]


def lin_params() -> list:
    rows = lin_rows()
    if not rows:
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared/corpus is absent"))]
    return [pytest.param(row, id=row["path"].split("/")[-1]) for row in rows]


def boards_stated(row: dict[str, str]) -> int:
    """The number of boards the manifest states for a LIN file (``lin_deals=N``)."""
    match = re.search(r"lin_deals=(\d+)", row["notes"])
    assert match is not None, row["notes"]
    return int(match[1])


@pytest.fixture(params=lin_params())
def row(request):
    return request.param


def test_the_corpus_has_ten_lin_files():
    if not lin_rows():
        pytest.skip("../shared/corpus is absent")
    assert len(lin_rows()) == 10


def test_every_board_is_read_without_a_syntax_problem(row):
    path = CORPUS / row["path"]
    reader = pbnkit.read(path)
    games = list(reader)
    assert isinstance(reader, LinReader)
    assert len(games) == boards_stated(row)
    found = [d for game in games for d in game.diagnostics] + reader.diagnostics
    assert [d for d in found if d.code.startswith("SY")] == []


def test_no_board_has_an_error(row):
    """The files are BBO's own: every deal, call and card in them is legal."""
    for game in pbnkit.read(CORPUS / row["path"]):
        errors = [d for d in check_game(game) if d.effective_severity is Severity.ERROR]
        assert errors == [], (game.board, errors)


def test_the_files_bytes_are_kept(row):
    path = CORPUS / row["path"]
    reader = pbnkit.read(path)
    games = list(reader)
    assert reader.original_head is not None and reader.original_tail is not None
    kept = reader.original_head + b"".join(g.original for g in games) + reader.original_tail
    assert kept == path.read_bytes()


def test_lark_reads_the_same_pairs_as_the_fast_path(row):
    text = (CORPUS / row["path"]).read_bytes().decode("utf-8")
    assert lin_parser.parse_pairs(text) == lark_parse(text)


# -- endplay ----------------------------------------------------------------------------------

def suppress_unicode():
    """endplay's letters for suits (S, H...) instead of its symbols."""
    from endplay.config import suppress_unicode

    return suppress_unicode()


def endplay_boards(path: Path) -> list | None:
    """endplay's boards, or None where endplay cannot read the file."""
    lin = pytest.importorskip("endplay.parsers.lin")
    try:
        with path.open(encoding="utf-8") as handle:
            return list(lin.load(handle))
    except (ValueError, AttributeError, IndexError):
        return None


#: Corpus files endplay cannot read, and why (endplay.parsers.lin splits a file at each
#: ``pn|`` and wants a whole last trick).
ENDPLAY_CANNOT_READ = {
    "test.lin": "a vugraph header pn of eight players before the first qx",
    "20784108.lin": "the play stops in the middle of a trick",
}


def both(row):
    path = CORPUS / row["path"]
    boards = endplay_boards(path)
    name = path.name
    if boards is None:
        assert name in ENDPLAY_CANNOT_READ
        pytest.skip(f"endplay cannot read {name}: {ENDPLAY_CANNOT_READ[name]}")
    games = list(pbnkit.read(path))
    assert len(boards) == len(games)
    return list(zip(boards, games))


def pbn_call(bid) -> str:
    from endplay.types import ContractBid

    with suppress_unicode():
        if isinstance(bid, ContractBid):
            return f"{bid.level}{'NT' if bid.denom.abbr == 'NT' else bid.denom.abbr}"
    return {"passed": "Pass", "doubled": "X", "redoubled": "XX"}[bid.penalty.name]


def test_deals_agree_with_endplay(row):
    from endplay.types import Player

    for board, game in both(row):
        deal = board_result(game).hands
        assert deal is not None
        for seat, player in zip("NESW", ("north", "east", "south", "west")):
            ours = Deal.from_pbn(game.value("Deal")).hands["NESW".index(seat)]
            assert ours is not None
            assert ours.pbn() == board.deal[Player[player]].to_pbn(), (game.board, seat)
        assert game.value("Dealer") == board.dealer.abbr
        assert game.board == str(board.board_num)


def test_auctions_and_alerts_agree_with_endplay(row):
    for board, game in both(row):
        auction = section(game, "Auction")
        assert auction is not None
        assert [item.text for item in auction.items] == [pbn_call(b) for b in board.auction]
        noted = [item.note is not None for item in auction.items]
        assert noted == [b.alertable or b.announcement is not None for b in board.auction]
        texts = {int(n.value.split(":", 1)[0]): n.value.split(":", 1)[1] for n in auction.notes}
        for item, bid in zip(auction.items, board.auction):
            if bid.announcement is not None:
                with suppress_unicode():
                    # endplay turns BBO's !S suit escapes into its own letters; compare
                    # the words around them
                    assert texts[item.note].split()[0].strip("!") in bid.announcement


def test_play_agrees_with_endplay(row):
    for board, game in both(row):
        with suppress_unicode():
            theirs = [f"{c.suit.abbr}{c.rank.abbr}" for c in board.play]
        assert cards_in_order(game) == theirs


def test_contracts_agree_with_endplay(row):
    for board, game in both(row):
        result = board_result(game)
        with suppress_unicode():
            assert str(result.contract).replace("NT", "N") == (
                f"{board.contract.level}{board.contract.denom.abbr[0]}"
                + {"passed": "", "doubled": "X", "redoubled": "XX"}[board.contract.penalty.name])
            assert result.declarer is not None
            assert result.declarer.name == board.contract.declarer.abbr


def test_claimed_results_agree_with_endplay(row):
    """A claim (``mc``) is the declarer's tricks in both."""
    for board, game in both(row):
        if not board.claimed:
            continue
        result = board_result(game)
        assert result.tricks == board.contract.level + 6 + board.contract.result


def test_where_the_play_decides_endplay_counts_the_leading_sides_tricks(row):
    """Without a claim endplay counts the tricks won by the side that led each trick
    (``endplay.utils.play.total_tricks`` takes the first card of every trick as North's),
    not declarer's: where the two differ, pbnkit's count is declarer's, trick by trick."""
    for board, game in both(row):
        if board.claimed or not board.play:
            continue
        replayed = replay(game)
        tricks = replayed_tricks(game)
        leading_side = sum(t.winner is not None and t.leader is not None
                           and t.winner.side is t.leader.side for t in tricks)
        assert board.contract.level + 6 + board.contract.result == leading_side
        assert replayed.tricks is not None and replayed.declarer is not None
        declarer = sum(t.winner is not None and t.winner.side is replayed.declarer.side
                       for t in tricks)
        assert board_result(game).tricks == declarer


def replayed_tricks(game):
    from pbnkit.replay.auction import replay_auction
    from pbnkit.replay.game import play_setting
    from pbnkit.replay.play import replay_play

    play = section(game, "Play")
    auction = section(game, "Auction")
    assert play is not None and auction is not None
    outcome = replay_auction(game, auction)[0]
    setting, _ = play_setting(game, play, outcome)
    assert setting is not None
    played, _ = replay_play(game, play, setting, setting.opening_leader)
    assert played.play is not None
    return played.play.tricks


def test_a_board_where_endplay_is_wrong_worked_by_hand():
    """20784112.lin, board 2: 3NT by West. Trick by trick (leader's card first):
    H5 HJ HT H4 E, D6 D3 DJ D9 W, S3 S5 SK S4 E, CJ C4 C5 C2 E, C3 C6 CT C9 W,
    D2 DT DQ DA S, D4 DK H2 D7 W, H6 H3 HK D5 E, S9 SJ D8 S7 S, S6 H8 SA S2 N,
    H7 S8 C7 HA W, CA H9 ST C8 W, CQ HQ SQ CK S: East-West win 9, so 3NT makes.
    endplay says 3NT-2: the tricks won by the leading side are 7 (tricks 2-5, 8, 10, 12)."""
    path = next(CORPUS.rglob("20784112.lin"), None) if CORPUS.is_dir() else None
    if path is None:
        pytest.skip("../shared/corpus is absent")
    game = next(iter(pbnkit.read(path)))
    result = board_result(game)
    assert (str(result.contract), result.declarer.name, result.tricks) == ("3NT", "W", 9)
    boards = endplay_boards(path)
    assert boards is not None
    assert boards[0].contract.result == -2
