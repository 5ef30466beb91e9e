"""The value types: parse/format pairs, reprs that are code, invalid tokens."""

import pickle

import pytest

from pbnkit.errors import InvalidTokenError
from pbnkit.model import (
    Call,
    Card,
    Contract,
    Deal,
    Hand,
    Rank,
    Risk,
    Seat,
    Side,
    Strain,
    Suit,
    Vulnerability,
    dealer_for_board,
)


@pytest.mark.parametrize("text", ["SA", "HT", "D2", "C9"])
def test_card_round_trips_through_pbn(text):
    assert Card.from_pbn(text).pbn() == text


def test_lowercase_card_is_read_as_import_format_allows():
    assert Card.from_pbn("hq") == Card(Suit.H, Rank.QUEEN)


def test_card_repr_is_valid_code():
    card = Card.from_pbn("ST")
    assert eval(repr(card)) == card


@pytest.mark.parametrize("text", ["S1", "S10", "X2", "", "SAK"])
def test_invalid_card_raises_invalid_token_error(text):
    with pytest.raises(InvalidTokenError):
        Card.from_pbn(text)


def test_invalid_token_error_is_a_value_error():
    with pytest.raises(ValueError):
        Seat.from_pbn("Q")


def test_seats_go_clockwise_and_know_their_side():
    assert Seat.N.next() is Seat.E and Seat.W.next() is Seat.N
    assert Seat.S.partner is Seat.N and Seat.E.lho is Seat.S
    assert Seat.E.side is Side.EW and Seat.N.is_opponent_of(Seat.W)


@pytest.mark.parametrize("text,pbn", [("Pass", "Pass"), ("pass", "Pass"), ("x", "X"),
                                      ("XX", "XX"), ("1nt", "1NT"), ("7C", "7C")])
def test_call_reads_any_case_and_writes_export_case(text, pbn):
    assert Call.from_pbn(text).pbn() == pbn


@pytest.mark.parametrize("text", ["P", "1N", "8S", "0C", "Dbl"])
def test_call_outside_pbn_is_invalid(text):
    with pytest.raises(InvalidTokenError):
        Call.from_pbn(text)


def test_bids_rank_by_level_then_strain():
    order = [Call.from_pbn(t) for t in ("1C", "1D", "1H", "1S", "1NT", "2C", "7NT")]
    assert [c.rank for c in order] == sorted(c.rank for c in order)
    assert Call.from_pbn("2C").rank > Call.from_pbn("1NT").rank


@pytest.mark.parametrize("text,level,strain,risk", [
    ("4S", 4, Strain.S, Risk.UNDOUBLED), ("3NTX", 3, Strain.NT, Risk.DOUBLED),
    ("6hxx", 6, Strain.H, Risk.REDOUBLED), ("5Cx", 5, Strain.C, Risk.DOUBLED),
])
def test_contract_parses_level_strain_and_risk(text, level, strain, risk):
    contract = Contract.from_pbn(text)
    assert (contract.level, contract.strain, contract.risk) == (level, strain, risk)
    assert contract.tricks_needed == 6 + level


def test_passed_out_contract():
    contract = Contract.from_pbn("Pass")
    assert contract.is_passed_out and contract.pbn() == "Pass"


@pytest.mark.parametrize("text", ["4N", "8S", "4SXXX", "", "NT"])
def test_invalid_contract(text):
    with pytest.raises(InvalidTokenError):
        Contract.from_pbn(text)


@pytest.mark.parametrize("text,expected", [
    ("None", Vulnerability.NONE), ("Love", Vulnerability.NONE), ("-", Vulnerability.NONE),
    ("ns", Vulnerability.NS), ("EW", Vulnerability.EW), ("Both", Vulnerability.ALL),
    ("all", Vulnerability.ALL),
])
def test_vulnerability_accepts_import_spellings(text, expected):
    assert Vulnerability.from_pbn(text) is expected


def test_board_cycle_matches_the_duplicate_table():
    # Law 2's 16-board table, written out by hand.
    table = "None NS EW All NS EW All None EW All None NS All None NS EW".split()
    assert [Vulnerability.for_board(n).pbn() for n in range(1, 17)] == table
    assert Vulnerability.for_board(17) is Vulnerability.NONE
    assert [dealer_for_board(n).name for n in (1, 2, 3, 4, 5)] == ["N", "E", "S", "W", "N"]


SCHIPHOL = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"


def test_deal_lists_hands_clockwise_from_the_first_seat():
    deal = Deal.from_pbn(SCHIPHOL)
    assert deal[Seat.E] == Hand.from_pbn("A8654.KQ5.T.QJT6")
    assert deal.holder(Card.from_pbn("SA")) is Seat.E
    assert deal.is_complete and deal.problems() == []
    assert deal.pbn() == SCHIPHOL
    assert eval(repr(deal)) == deal


def test_deal_can_be_written_from_another_seat():
    deal = Deal.from_pbn(SCHIPHOL)
    assert Deal.from_pbn(deal.pbn(Seat.W)) .hands == deal.hands


def test_partial_deal_keeps_unknown_hands():
    deal = Deal.from_pbn("W:- .63.AKQ987.A9732 - J973.J98742.3.K4")
    assert deal[Seat.W] is None and deal[Seat.E] is None
    assert deal.known_seats == (Seat.N, Seat.S)
    assert deal.problems() == []


def test_end_position_is_recognised():
    deal = Deal.from_pbn("W:T95...Q 8.T..T5 .J..987 ...AJ62")
    assert deal.is_end_position and deal.hand_size == 4


def test_deal_problems_are_listed_not_raised():
    # SK twice (North and West), West with 14 cards.
    deal = Deal.from_pbn("N:K.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.854")
    kinds = [kind for kind, _ in deal.problems()]
    assert "duplicate-card" in kinds and "too-many-cards" in kinds


def test_deal_read_from_text_behaves_as_one_built_from_its_hands():
    # from_pbn builds the hands on first use; pickling, equality and hashing must build
    # them too, and the masks and sizes must not need them.
    text = "N:.63.akq987.A9732 A8654.KQ5.T.QJT6 - KQT2.TA.J6542.85"
    built = Deal(tuple(None if hand == "-" else Hand.from_pbn(hand)
                       for hand in text[2:].split()))
    again = pickle.loads(pickle.dumps(Deal.from_pbn(text)))
    assert again == built and hash(again) == hash(built)
    deal = Deal.from_pbn(text)
    assert deal.masks == built.masks and deal.given == built.given == 0b1011
    assert deal.known_seats == (Seat.N, Seat.E, Seat.W)
    assert deal.hand_size == built.hand_size == 13
    assert deal.hands == built.hands and deal[Seat.W] == Hand.from_pbn("KQT2.TA.J6542.85")
    with pytest.raises(AttributeError, match="no attribute 'cards'"):
        deal.cards


def test_deal_with_bad_rank_is_an_invalid_token():
    with pytest.raises(InvalidTokenError, match="rank"):
        Deal.from_pbn("N:A10... - - -")


def test_hand_read_again_from_remembered_holdings_is_the_same_hand():
    first, again = Hand.from_pbn("AKQ2.T9..J8765432"), Hand.from_pbn("AKQ2.T9..J8765432")
    assert first == again and first.mask == again.mask
    assert first.mask == sum(card.bit for card in first.cards)
    assert [card.pbn() for card in again.cards][:4] == ["SA", "SK", "SQ", "S2"]


def test_bad_rank_after_remembered_holdings_names_its_suit():
    Hand.from_pbn("AK.QJ.T9.8765432")
    with pytest.raises(InvalidTokenError, match="invalid rank 'X' in D of hand"):
        Hand.from_pbn("AK.QJ.TX.8765432")
