"""Replaying auctions and plays written as PBN text: legal ones replay cleanly, illegal
calls and cards are caught with the right code at the right place, and nothing raises."""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import assume, given, settings
from hypothesis import strategies as st

import pbnkit
from pbnkit.model.auction import ALL_CALLS, Auction
from pbnkit.model.calls import Call
from pbnkit.model.cards import DECK, Card, Seat
from pbnkit.model.deal import Deal, Hand
from pbnkit.model.play import Play
from pbnkit.rules.replay import check, check_strict


@dataclass
class Writer:
    """Builds a PBN game line by line and remembers where each token went."""

    lines: list[str] = field(default_factory=list)
    where: dict[int, tuple[int, int]] = field(default_factory=dict)  # token id -> line, col

    def tag(self, name: str, value: str) -> None:
        self.lines.append(f'[{name} "{value}"]')

    def row(self, tokens: list[str], ids: list[int | None] | None = None) -> None:
        column = 1
        for index, token in enumerate(tokens):
            if ids and ids[index] is not None:
                self.where[ids[index]] = (len(self.lines) + 1, column)
            column += len(token) + 1
        self.lines.append(" ".join(tokens))

    def game(self):
        (game,) = pbnkit.read_text("\n".join(self.lines) + "\n")
        return game


def write_auction(writer: Writer, auction: Auction, extra: list[str] = ()) -> None:
    writer.tag("Auction", auction.dealer.name)
    calls = [entry.call.pbn() for entry in auction.calls] + list(extra)
    for start in range(0, len(calls), 4):
        writer.row(calls[start:start + 4], list(range(start, min(start + 4, len(calls)))))


def write_play(writer: Writer, play: Play, extra: Card | None = None, seat: Seat | None = None):
    """Rows in fixed columns from the opening leader; the trick in progress (plus
    ``extra`` by ``seat``) with '-' for the players still to play."""
    first = play.opening_leader
    writer.tag("Play", first.name)
    tricks = list(play.tricks)
    current = {p.seat: p.card for p in play.trick.cards}
    if extra is not None and seat is not None:
        current[seat] = extra
    for trick in tricks:
        writer.row([trick.card(first.next(c)).pbn() for c in range(4)])
    if current:
        seats = [first.next(c) for c in range(4)]
        tokens = [current[s].pbn() if s in current else "-" for s in seats]
        ids = [0 if seat is not None and first.next(c) is seat else None for c in range(4)]
        writer.row(tokens, ids)


@st.composite
def deals(draw) -> Deal:
    cards = draw(st.permutations(DECK))
    return Deal(tuple(Hand(tuple(cards[13 * i:13 * i + 13])) for i in range(4)))


@st.composite
def auctions(draw, finish: bool = True) -> Auction:
    auction = Auction(draw(st.sampled_from(list(Seat))))
    while not auction.is_finished:
        if not finish and auction.calls and draw(st.integers(0, 5)) == 0:
            break
        legal = auction.legal_calls()
        call = legal[0] if draw(st.integers(0, 2)) == 0 else draw(st.sampled_from(legal))
        auction = auction.with_call(call)
    return auction


def played(draw, deal: Deal, auction: Auction, cards: int) -> Play:
    contract, declarer = auction.contract, auction.declarer
    assert contract is not None and declarer is not None
    play = Play(deal, contract.strain, declarer.lho)
    for _ in range(cards):
        play = play.with_card(draw(st.sampled_from(play.legal_cards())))
    return play


def header(writer: Writer, auction: Auction, deal: Deal) -> None:
    writer.tag("Dealer", auction.dealer.name)
    writer.tag("Deal", deal.pbn())
    declarer = auction.declarer
    writer.tag("Declarer", "" if declarer is None else declarer.name)
    assert auction.contract is not None
    writer.tag("Contract", auction.contract.pbn())


@settings(max_examples=150, deadline=None)
@given(auctions(), deals(), st.data())
def test_random_legal_auction_and_play_replay_cleanly(auction, deal, data):
    writer = Writer()
    header(writer, auction, deal)
    if auction.is_passed_out:
        write_auction(writer, auction)
        assert check(writer.game()) == []
        return
    play = played(data.draw, deal, auction, data.draw(st.integers(0, 52)))
    declarer = auction.declarer
    assert declarer is not None
    won = play.tricks_won(declarer.side)
    claimed = not play.is_complete and data.draw(st.booleans())
    if claimed:  # a claim: Result is the total, within what is still to play
        left = play.total_tricks - len(play.tricks)
        writer.tag("Result", str(won + data.draw(st.integers(0, left))))
    elif play.is_complete or data.draw(st.booleans()):  # else a partial count, or none
        writer.tag("Result", str(won))
    write_auction(writer, auction)
    write_play(writer, play)
    if claimed:
        writer.lines.append("*")
    found = check(writer.game())
    assert found == [], [d.format() for d in found]
    strict = check_strict(writer.game())
    assert [d for d in strict if not d.code.endswith("102")] == [], [d.format() for d in strict]


@settings(max_examples=150, deadline=None)
@given(auctions(finish=False), st.data())
def test_insufficient_bid_is_caught_where_it_stands(auction, data):
    assume(not auction.is_finished and auction.last_bid is not None)
    assert auction.last_bid is not None
    low = [c for c in ALL_CALLS if c.is_bid and c.rank <= auction.last_bid.call.rank]
    bad: Call = data.draw(st.sampled_from(low))
    writer = Writer()
    writer.tag("Dealer", auction.dealer.name)
    write_auction(writer, auction, [bad.pbn(), "*"])
    found = check(writer.game())
    assert [(d.code, d.line, d.column) for d in found] == [
        ("AU001", *writer.where[len(auction.calls)])]


@settings(max_examples=150, deadline=None)
@given(auctions(finish=False), st.data())
def test_illegal_double_or_redouble_is_caught(auction, data):
    assume(not auction.is_finished)
    bad = [c for c in ALL_CALLS if not c.is_bid and auction.fault(c) is not None]
    assume(bad)
    call = data.draw(st.sampled_from(bad))
    writer = Writer()
    writer.tag("Dealer", auction.dealer.name)
    write_auction(writer, auction, [call.pbn(), "*"])
    codes = [d.code for d in check(writer.game())]
    assert codes in (["AU002"], ["AU003"], ["AU004"])


@settings(max_examples=150, deadline=None)
@given(auctions(), deals(), st.data())
def test_card_not_held_is_caught_where_it_stands(auction, deal, data):
    assume(not auction.is_passed_out)
    play = played(data.draw, deal, auction, data.draw(st.integers(0, 50)))
    seat = play.turn
    assert seat is not None
    hand = deal[seat]
    assert hand is not None
    others = [c for c in DECK if c not in hand and c not in play.played]
    bad = data.draw(st.sampled_from(others))
    writer = Writer()
    header(writer, auction, deal)
    write_play(writer, play, bad, seat)
    found = check(writer.game())
    assert [(d.code, d.line, d.column) for d in found] == [("PL001", *writer.where[0])]


@settings(max_examples=150, deadline=None)
@given(auctions(), deals(), st.data())
def test_revoke_is_caught_where_it_stands(auction, deal, data):
    assume(not auction.is_passed_out)
    play = played(data.draw, deal, auction, 0)
    for _ in range(52):
        seat, led = play.turn, play.trick.suit_led
        assert seat is not None
        hand = deal[seat]
        assert hand is not None
        left = [c for c in hand.cards if c not in play.played]
        off_suit = [c for c in left if led is not None and c.suit is not led]
        if led is not None and off_suit and len(off_suit) < len(left):
            break
        play = play.with_card(data.draw(st.sampled_from(play.legal_cards())))
    else:
        assume(False)
    bad = data.draw(st.sampled_from(off_suit))
    writer = Writer()
    header(writer, auction, deal)
    write_play(writer, play, bad, seat)
    found = check(writer.game())
    assert [(d.code, d.line, d.column) for d in found] == [("PL002", *writer.where[0])]


TOKENS = ["1C", "1NT", "7NT", "Pass", "pass", "P", "X", "XX", "AP", "-", "*", "+", "^S", "^I",
          "^R", "^L", "^Q", "=1=", "=40=", "$3", "!", "??", "SA", "h2", "CT", "S1", "10H", "--",
          "1N", "Dbl", "\n"]
TAG_VALUES = ["N", "e", "", "?", "^S", "X", "#", "W"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=40), st.lists(st.sampled_from(TOKENS),
       max_size=60), st.lists(st.sampled_from(TAG_VALUES), min_size=5, max_size=5),
       st.sampled_from(["4S", "3NTX", "Pass", "H", "", "1N", "9Z"]),
       st.sampled_from(["9", "^9", "NS 9 EW 4", "", "14", "x"]), st.booleans())
def test_replay_never_raises_on_token_soup(calls, cards, seats, contract, result, end_position):
    deal = ("N:A... 2... .2.. 3..." if end_position else
            "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
    text = (f'[Dealer "{seats[0]}"]\n[Deal "{deal}"]\n[Declarer "{seats[1]}"]\n'
            f'[Contract "{contract}"]\n[Result "{result}"]\n[Auction "{seats[2]}"]\n'
            f'{" ".join(calls)}\n[Note "1:x"]\n[Play "{seats[3]}"]\n{" ".join(cards)}\n'
            f'[Note "{seats[4]}:y"]\n')
    for game in pbnkit.read_text(text):
        check(game)
        check_strict(game)


def test_positions_point_at_the_offending_call():
    (game,) = pbnkit.read_text('[Dealer "N"]\n[Auction "N"]\n1D   Pass\n  1C AP\n')
    (found,) = check(game)
    assert (found.code, found.line, found.column) == ("AU001", 4, 3)


def test_tag_disagreements_point_at_the_tag():
    (game,) = pbnkit.read_text('[Dealer "N"]\n[Declarer "N"]\n[Contract "4H"]\n'
                               '[Auction "N"]\n1C 1S 2H Pass\n4H Pass Pass Pass\n')
    (found,) = check(game)
    assert (found.code, found.line, found.column) == ("SC002", 2, 1)
    assert "the auction makes S declarer" in found.message


def test_a_bad_row_is_one_finding_not_four():
    (game,) = pbnkit.read_text(
        '[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n'
        '[Declarer "N"]\n[Contract "1NT"]\n[Play "E"]\nC2 CJ C8 C5\nCQ C9 C6 C3\n')
    found = check(game)
    assert [d.code for d in found] == ["PL001"]
    assert "held by N E S W" in found[0].message


def test_strict_play_seat_is_an_error_and_import_a_warning():
    (game,) = pbnkit.read_text(
        '[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n'
        '[Declarer "N"]\n[Contract "1NT"]\n[Play "N"]\nC2 CJ C8 C5\n')
    (lenient,) = check(game)
    (strict,) = check_strict(game)
    assert lenient.code == strict.code == "PL009"
    assert lenient.effective_severity.value == "warning"
    assert strict.effective_severity.value == "error"
