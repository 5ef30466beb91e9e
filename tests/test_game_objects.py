"""A read record's model objects (``game.deal``, ``game.auction``, ``game.play``,
``game.contract``, ``game.declarer``, ``game.result``, ``game.board_number``) on records
made by hand: what the tags and sections say, worked out here from the rules; None, not
an exception, for what cannot be read; made once per game, and never pickled."""

from __future__ import annotations

import pickle
import re
import subprocess
import sys

import pytest

import pbnkit
from pbnkit.model import PASSED_OUT, Card, Contract, Deal, Risk, Seat, Strain
from pbnkit.model.auction import Auction
from tests.conftest import REPO

LIBRARY_BLOCKS = re.findall(r"```python\n(.*?)```",
                            (REPO / "docs" / "library.md").read_text(encoding="utf-8"), re.DOTALL)

# Each player holds one suit: North the spades, East the hearts, South the diamonds,
# West the clubs. Whatever is led, nobody can follow but the leader.
ONE_SUIT_EACH = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
ASCENDING = "23456789TJQKA"


def one_suit_play() -> str:
    """Spades trumps, North declarer, East leads (North's left-hand opponent); the
    columns run E S W N. Trick 1: East leads HA, South and West discard D2 and C2, North
    ruffs with S2 and wins. Tricks 2 to 13: North leads a spade from the top (SA, SK,
    ..., S3) and the others discard from the bottom; a trump led wins. North takes all
    13 tricks."""
    rows = ["HA D2 C2 S2"]
    spades_down = "AKQJT9876543"
    for trick in range(12):
        rows.append(f"H{ASCENDING[trick]} D{ASCENDING[trick + 1]} C{ASCENDING[trick + 1]} "
                    f"S{spades_down[trick]}")
    return "\n".join(rows)


def record(*tags: tuple[str, str], body: dict[str, str] | None = None) -> str:
    lines = []
    for name, value in tags:
        lines.append(f'[{name} "{value}"]')
        if body and name in body:
            lines.append(body[name])
    return "\n".join(lines) + "\n"


def one_game(text: str) -> pbnkit.Game:
    games = list(pbnkit.read_text(text))
    assert len(games) == 1
    return games[0]


def complete_game() -> pbnkit.Game:
    """No Contract, Declarer or Result tag: the auction and the play tell them."""
    return one_game(record(("Board", " 7"), ("Dealer", "N"), ("Deal", ONE_SUIT_EACH),
                           ("Auction", "N"), ("Play", "E"),
                           body={"Auction": "1S Pass Pass Pass", "Play": one_suit_play()}))


def test_deal_auction_and_play_of_a_complete_record():
    game = complete_game()
    assert game.board == " 7" and game.board_number == 7
    assert game.deal == Deal.from_pbn(ONE_SUIT_EACH)
    assert game.deal[Seat.W].pbn() == "...AKQJT98765432"
    # 1S by North, then three passes: the auction is over, North named spades first
    assert game.auction == Auction.from_calls(Seat.N, "1S Pass Pass Pass")
    assert game.auction.is_finished
    play = game.play
    assert play.trump is Strain.S and play.opening_leader is Seat.E and play.is_complete
    first = play.tricks[0]
    assert [(p.seat, p.card) for p in first.cards] == [
        (Seat.E, Card.from_pbn("HA")), (Seat.S, Card.from_pbn("D2")),
        (Seat.W, Card.from_pbn("C2")), (Seat.N, Card.from_pbn("S2"))]
    # North ruffs trick 1 and leads a trump to each of the other twelve
    assert [trick.winner for trick in play.tricks] == [Seat.N] * 13
    assert [trick.leader for trick in play.tricks] == [Seat.E] + [Seat.N] * 12


def test_contract_declarer_and_result_come_from_the_auction_and_the_play():
    game = complete_game()
    assert game.contract == Contract(1, Strain.S, Risk.UNDOUBLED)
    assert game.declarer is Seat.N
    assert game.result == 13  # North won every trick (see one_suit_play)


def test_the_tags_win_over_the_auction_as_scoring_reads_them():
    # The auction makes North declarer of 1S; the tags say 3NT doubled by South, and
    # "NS 9" is declarer's side's count: South's tricks are 9.
    game = one_game(record(("Board", "2"), ("Dealer", "N"), ("Deal", ONE_SUIT_EACH),
                           ("Declarer", "S"), ("Contract", "3NTX"), ("Result", "NS 9"),
                           ("Auction", "N"), body={"Auction": "1S Pass Pass Pass"}))
    assert game.contract == Contract(3, Strain.NT, Risk.DOUBLED)
    assert game.declarer is Seat.S
    assert game.result == 9
    assert game.auction == Auction.from_calls(Seat.N, "1S Pass Pass Pass")  # as written
    assert game.play is None  # no Play section


def test_a_result_by_the_other_side_is_counted_for_declarer():
    # Result "EW 4" with North declarer: 13 - 4 = 9 tricks for North-South
    game = one_game(record(("Declarer", "N"), ("Contract", "2H"), ("Result", "EW 4")))
    assert (game.contract, game.declarer, game.result) == \
        (Contract(2, Strain.H, Risk.UNDOUBLED), Seat.N, 9)


def test_a_passed_out_board_has_no_declarer_and_no_result():
    game = one_game(record(("Board", "3"), ("Dealer", "E"), ("Auction", "E"),
                           body={"Auction": "Pass Pass Pass Pass"}))
    assert game.contract is PASSED_OUT
    assert game.declarer is None and game.result is None
    assert game.auction.is_passed_out and game.auction.dealer is Seat.E


def test_an_illegal_call_is_kept_as_the_file_writes_it():
    # 1D then 1C is insufficient (AU001): the auction still holds both calls, in order
    game = one_game(record(("Dealer", "N"), ("Auction", "N"),
                           body={"Auction": "1D 1C Pass Pass Pass"}))
    assert [entry.call.pbn() for entry in game.auction.calls] == ["1D", "1C", "Pass",
                                                                   "Pass", "Pass"]
    assert [entry.seat for entry in game.auction.calls] == [Seat.N, Seat.E, Seat.S,
                                                             Seat.W, Seat.N]


def test_what_cannot_be_read_is_none_not_an_exception():
    game = one_game(record(
        ("Board", "3a"),                       # not a number
        ("Dealer", "N"),
        ("Deal", "N:AKQ... AKQ... .AKQ.. ..AKQ."),  # SA, SK, SQ held twice
        ("Contract", "8Z"), ("Declarer", "Q"), ("Result", "many"),
        ("Auction", "N"), ("Play", "E"),
        body={"Auction": "1S 1Z Pass", "Play": "HA D2 C2 S2"}))
    assert game.board == "3a" and game.board_number is None
    assert game.deal is None
    assert game.auction is None   # 1Z is no call: what follows it is unknown (AU010)
    assert game.play is None      # no contract to set trumps and the opening leader
    assert (game.contract, game.declarer, game.result) == (None, None, None)


def test_board_numbers_are_positive_integers():
    numbers = {text: one_game(record(("Board", text))).board_number
               for text in ("12", " 3 ", "007", "0", "-1", "3a", "\u00b2", "")}
    assert numbers == {"12": 12, " 3 ": 3, "007": 7, "0": None, "-1": None, "3a": None,
                       "\u00b2": None, "": None}


def test_a_record_without_those_tags_has_none_of_the_objects():
    game = one_game(record(("Event", "Nothing else")))
    assert (game.board, game.board_number, game.deal, game.auction, game.play) == \
        (None, None, None, None, None)
    assert (game.contract, game.declarer, game.result) == (None, None, None)


def test_objects_are_made_once_per_game():
    game = complete_game()
    assert game.auction is game.auction
    assert game.play is game.play
    assert game.deal is game.deal


def test_a_pickled_game_goes_without_its_objects_and_makes_them_again():
    game = complete_game()
    play = game.play  # made, and kept by the game
    again = pickle.loads(pickle.dumps(game))
    assert again == game
    assert again._objects is None and len(pickle.dumps(game)) == len(pickle.dumps(again))
    assert again.play == play and again.result == 13


def test_objects_do_not_change_equality():
    asked, not_asked = complete_game(), complete_game()
    assert asked.contract is not None
    assert asked == not_asked and asked.same_content(not_asked)


@pytest.mark.parametrize("number", range(len(LIBRARY_BLOCKS)))
def test_the_library_page_examples_run(number, monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    code = compile(LIBRARY_BLOCKS[number], f"docs/library.md block {number}", "exec")
    exec(code, {})  # noqa: S102 -- our documentation
    assert capsys.readouterr().out


def test_reading_does_not_load_the_replay_until_an_object_is_asked_for():
    script = ("import sys, pbnkit\n"
              "games = list(pbnkit.read('sample_data/team_match.pbn'))\n"
              "print('pbnkit.replay' in sys.modules)\n"
              "games[0].deal\n"
              "print('pbnkit.replay' in sys.modules)\n")
    loaded = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True, cwd=REPO).stdout.split()
    assert loaded == ["False", "True"]
