"""The play model: ownership, following suit, trick winners, irregularities, unknown cards."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbnkit.errors import IllegalError
from pbnkit.model.cards import DECK, Card, Seat, Side, Strain
from pbnkit.model.deal import Deal, Hand
from pbnkit.model.play import CardFault, Play

# Every hand holds three or four cards of each suit: North and South have the top.
DEAL = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
# The PBN spec's example game (5HX by South, West leads).
SCHIPHOL = Deal.from_pbn(
    "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85")


def card(text: str) -> Card:
    return Card.from_pbn(text)


def play_cards(play: Play, texts: str) -> Play:
    for text in texts.split():
        play = play.with_card(card(text))
    return play


def test_opening_leader_plays_first_then_clockwise():
    play = Play(DEAL, Strain.NT, Seat.E)
    assert play.turn is Seat.E and play.leader is Seat.E
    assert play.with_card(card("CA")).turn is Seat.S


def test_with_card_returns_a_new_state_and_keeps_the_old():
    play = Play(DEAL, Strain.NT, Seat.E)
    after = play.with_card(card("CA"))
    assert play.played == frozenset() and after.played == {card("CA")}


def test_a_card_not_held_is_illegal():
    play = Play(DEAL, Strain.NT, Seat.E)
    assert play.fault(card("SA")) is CardFault.NOT_HELD
    with pytest.raises(IllegalError, match="illegal card SA by E: the card is not in"):
        play.with_card(card("SA"))


def test_a_card_is_played_once():
    play = play_cards(Play(DEAL, Strain.NT, Seat.E), "CJ C8 C5 C2")
    assert play.fault(card("CJ")) is CardFault.ALREADY_PLAYED


def test_must_follow_suit_when_able():
    play = Play(DEAL, Strain.NT, Seat.E).with_card(card("CA"))
    assert play.legal_cards() == (card("CT"), card("C9"), card("C8"))
    assert play.fault(card("DA")) is CardFault.REVOKE


def test_accepted_revoke_is_recorded():
    play = Play(DEAL, Strain.NT, Seat.E).with_card(card("CA"))
    play = play.with_card(card("DA"), revoke_accepted=True)
    assert play.trick.cards[-1].card == card("DA")


def test_revoke_mark_on_a_card_that_follows_is_illegal():
    play = Play(DEAL, Strain.NT, Seat.E).with_card(card("CA"))
    assert play.fault(card("CT"), revoke_accepted=True) is CardFault.NOT_A_REVOKE
    assert Play(DEAL, Strain.NT, Seat.E).fault(card("CA"), revoke_accepted=True) \
        is CardFault.NOT_A_REVOKE  # a lead cannot be a revoke


def test_player_out_of_the_suit_may_ruff_and_the_ruff_wins():
    # RULES 1.2: spades trumps, HA led, second hand has no hearts and ruffs with S3, the
    # others follow with HK and H2; S3 wins and second hand leads next.
    deal = Deal((Hand.from_pbn(".A.."), Hand.from_pbn("3..."), Hand.from_pbn(".K.."),
                 Hand.from_pbn(".2..")))
    play = play_cards(Play(deal, Strain.S, Seat.N), "HA S3 HK H2")
    assert play.tricks[0].winner is Seat.E


def test_highest_trump_wins_else_highest_of_the_suit_led():
    play = play_cards(Play(SCHIPHOL, Strain.H, Seat.W), "SK H3 S4 S3 C2 C6 CK C5")
    assert [trick.winner for trick in play.tricks] == [Seat.N, Seat.S]
    assert play.leader is Seat.S and play.turn is Seat.S


def test_winner_leads_next_and_tricks_are_counted_by_side():
    play = Play(DEAL, Strain.NT, Seat.E)
    while not play.is_complete:
        play = play.with_card(play.legal_cards()[-1])
    assert play.tricks_won(Side.NS) + play.tricks_won(Side.EW) == 13
    for before, after in zip(play.tricks, play.tricks[1:]):
        assert after.leader is before.winner
    assert play.turn is None and play.legal_cards() == ()
    with pytest.raises(IllegalError, match="all tricks have been played"):
        play.with_card(card("SA"))


def test_lead_out_of_turn_starts_the_trick_with_the_wrong_player():
    play = Play(DEAL, Strain.NT, Seat.E).with_card(card("DA"), seat=Seat.S, lead_out_of_turn=True)
    assert play.leader is Seat.S and play.turn is Seat.W
    play = play_cards(play, "D8 D5 D2")
    assert play.tricks[0].winner is Seat.S


def test_lead_out_of_turn_by_the_rightful_leader_is_illegal():
    play = Play(DEAL, Strain.NT, Seat.E)
    assert play.fault(card("CA"), seat=Seat.E, lead_out_of_turn=True) is CardFault.RIGHTFUL_LEADER


def test_playing_out_of_turn_without_a_mark_is_illegal():
    play = Play(DEAL, Strain.NT, Seat.E)
    assert play.fault(card("DA"), seat=Seat.S) is CardFault.OUT_OF_TURN
    with pytest.raises(IllegalError):
        play.with_card(card("DA"), seat=Seat.S, force=True)


def test_unknown_hand_cannot_play_a_card_a_known_hand_holds():
    deal = Deal((DEAL[Seat.N], None, DEAL[Seat.S], DEAL[Seat.W]))
    play = Play(deal, Strain.NT, Seat.E)
    assert play.fault(card("SA")) is CardFault.HELD_BY_OTHER
    assert play.fault(card("CA")) is None
    assert len(play.legal_cards()) == 13


def test_unknown_card_leaves_the_winner_and_the_next_leader_open():
    play = Play(DEAL, Strain.NT, Seat.E).with_unknown_card()
    play = play_cards(play, "C8 C5 C2")
    assert play.tricks[0].winner is None and play.leader is None and play.turn is None
    with pytest.raises(IllegalError, match="the seat must be given"):
        play.with_card(card("CK"))
    play = play.with_card(card("CK"), seat=Seat.E).with_card(card("C9"), seat=Seat.S)
    assert play.fault(card("C9"), seat=Seat.W) is CardFault.ALREADY_PLAYED
    assert play.fault(card("C6"), seat=Seat.S) is CardFault.ALREADY_IN_TRICK


def test_winner_is_known_without_the_leader_when_a_trump_decides():
    play = Play(SCHIPHOL, Strain.H, Seat.W).with_unknown_card()
    play = play_cards(play, "C2 C6 CK")
    play = play.with_card(card("SK"), seat=Seat.W).with_card(card("H3"), seat=Seat.N)
    play = play.with_card(card("S4"), seat=Seat.E).with_card(card("S3"), seat=Seat.S)
    assert play.tricks[1].leader is None and play.tricks[1].winner is Seat.N


def test_unknown_cards_soften_the_revoke_check():
    # South holds two clubs (K4); after two unknown cards it may or may not have one left.
    play = Play(SCHIPHOL, Strain.H, Seat.W)
    play = play_cards(play, "SK H3 S4").with_unknown_card()
    assert play.can_follow(Seat.S, card("C2").suit) is True
    play = play.with_card(card("C2"), seat=Seat.N).with_card(card("C6"), seat=Seat.E)
    play = play.with_unknown_card(Seat.S).with_card(card("C5"), seat=Seat.W)
    assert play.can_follow(Seat.S, card("C2").suit) is None
    assert play.can_follow(Seat.N, card("S2").suit) is False  # North never had a spade


def test_end_position_has_as_many_tricks_as_cards_in_hand():
    deal = Deal((Hand.from_pbn("A..."), Hand.from_pbn("2..."), Hand.from_pbn(".2.."),
                 Hand.from_pbn("3...")))
    play = play_cards(Play(deal, Strain.S, Seat.E), "S2 H2 S3 SA")
    assert play.total_tricks == 1 and play.is_complete
    assert play.tricks[0].winner is Seat.N


@st.composite
def deals(draw):
    cards = draw(st.permutations(DECK))
    return Deal(tuple(Hand(tuple(cards[13 * i:13 * i + 13])) for i in range(4)))


@settings(max_examples=100, deadline=None)
@given(deals(), st.sampled_from(list(Strain)), st.sampled_from(list(Seat)), st.data())
def test_random_legal_play_takes_thirteen_tricks(deal, strain, leader, data):
    play = Play(deal, strain, leader)
    while not play.is_complete:
        legal = play.legal_cards()
        assert legal
        chosen = data.draw(st.sampled_from(legal))
        assert play.fault(chosen) is None
        play = play.with_card(chosen)
    assert play.played == frozenset(DECK)
    assert play.tricks_won(Side.NS) + play.tricks_won(Side.EW) == 13
    trump = strain.suit
    for trick in play.tricks:
        cards = [p.card for p in trick.cards]
        led = cards[0].suit
        best = max(cards, key=lambda c: (c.suit is trump, c.suit is led, c.rank))
        assert trick.card(trick.winner) == best


@settings(max_examples=100, deadline=None)
@given(deals(), st.sampled_from(list(Seat)), st.data())
def test_every_card_not_legal_has_a_fault(deal, leader, data):
    play = Play(deal, Strain.NT, leader)
    for _ in range(data.draw(st.integers(0, 51))):
        play = play.with_card(data.draw(st.sampled_from(play.legal_cards())))
    legal = set(play.legal_cards())
    for candidate in DECK:
        assert (candidate in legal) == (play.fault(candidate) is None)
