"""The auction model: legality guards, the end of the auction, contract and declarer."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbnkit.errors import IllegalError
from pbnkit.model.auction import ALL_CALLS, Auction, CallFault
from pbnkit.model.calls import DOUBLE, PASS, PASSED_OUT, REDOUBLE, Call, Contract, Risk
from pbnkit.model.cards import Seat

# Seed 003's example auctions, translated (т C, б D, ч H, п S, бк NT, пас Pass,
# контра X). Dealer North in each; the seed states who must take how many tricks.
SEED_003 = [
    # "пас 1п пас пас / пас": EW must take 7 tricks, spades trumps.
    ("Pass 1S Pass Pass Pass", "1S", Seat.E),
    # "1п пас 1бк пас / 3б пас 3ч пас / 3бк пас пас пас": NS 9 tricks at no trumps;
    # South named no trumps first.
    ("1S Pass 1NT Pass 3D Pass 3H Pass 3NT Pass Pass Pass", "3NT", Seat.S),
    # "1ч 1п 2т 2п / 3б пас 4ч пас / пас пас": NS 10 tricks, hearts; North bid them first.
    ("1H 1S 2C 2S 3D Pass 4H Pass Pass Pass", "4H", Seat.N),
    # "пас пас 1б 2т / 2ч контра 2п пас / пас 3т пас пас / контра пас пас пас":
    # EW 9 tricks, clubs, doubled by NS; West bid clubs first.
    ("Pass Pass 1D 2C 2H X 2S Pass Pass 3C Pass Pass X Pass Pass Pass", "3CX", Seat.W),
    # "1т 1п 2ч пас / 4ч пас пас пас": North bid the contract, South declares, having
    # named hearts first (RULES 1.1).
    ("1C 1S 2H Pass 4H Pass Pass Pass", "4H", Seat.S),
]


@pytest.mark.parametrize(("calls", "contract", "declarer"), SEED_003)
def test_seed_003_example_auctions(calls, contract, declarer):
    auction = Auction.from_calls(Seat.N, calls)
    assert auction.is_finished
    assert auction.contract == Contract.from_pbn(contract)
    assert auction.declarer is declarer


def test_dealer_calls_first_then_clockwise():
    auction = Auction(Seat.E)
    assert auction.turn is Seat.E
    assert auction.with_call(PASS).turn is Seat.S


def test_with_call_returns_a_new_state_and_keeps_the_old():
    auction = Auction(Seat.N)
    after = auction.with_call(Call.from_pbn("1S"))
    assert auction.calls == () and len(after.calls) == 1
    assert after.calls[0].seat is Seat.N


def test_opening_calls_are_pass_and_every_bid():
    calls = Auction(Seat.N).legal_calls()
    assert PASS in calls and DOUBLE not in calls and REDOUBLE not in calls
    assert len(calls) == 36


def test_bids_must_rank_higher_by_level_then_strain():
    auction = Auction.from_calls(Seat.N, "1NT")
    assert auction.is_legal(Call.from_pbn("2C"))
    assert not auction.is_legal(Call.from_pbn("1S"))
    assert not auction.is_legal(Call.from_pbn("1NT"))
    assert Auction.from_calls(Seat.N, "1S").is_legal(Call.from_pbn("1NT"))


def test_insufficient_bid_raises_illegal_error_naming_the_call():
    with pytest.raises(IllegalError, match=r"illegal call 1C by E: insufficient bid \(last bid 1D"):
        Auction.from_calls(Seat.N, "1D").with_call(Call.from_pbn("1C"))


def test_accepted_insufficient_bid_stands_and_must_be_topped():
    auction = Auction.from_calls(Seat.N, "1D").with_call(Call.from_pbn("1C"),
                                                           insufficient_accepted=True)
    assert auction.last_bid is not None and auction.last_bid.call == Call.from_pbn("1C")
    assert auction.calls[-1].insufficient
    assert auction.is_legal(Call.from_pbn("1D"))


def test_insufficient_mark_on_a_sufficient_bid_is_illegal():
    assert Auction.from_calls(Seat.N, "1D").fault(Call.from_pbn("2C"), True) \
        is CallFault.NOT_INSUFFICIENT
    assert Auction.from_calls(Seat.N, "1D").fault(DOUBLE, True) is CallFault.IRREGULAR_NON_BID


def test_double_of_partner_is_illegal():
    auction = Auction.from_calls(Seat.N, "1S Pass")
    assert auction.fault(DOUBLE) is CallFault.DOUBLE_OWN_SIDE


def test_double_of_an_opponent_after_passes_is_legal():
    auction = Auction.from_calls(Seat.N, "1S Pass Pass").with_call(DOUBLE)
    assert auction.risk is Risk.DOUBLED


def test_double_needs_a_bid_not_yet_doubled():
    assert Auction(Seat.N).fault(DOUBLE) is CallFault.NOTHING_TO_DOUBLE
    assert Auction.from_calls(Seat.N, "1S X Pass").fault(DOUBLE) is CallFault.NOTHING_TO_DOUBLE
    assert Auction.from_calls(Seat.N, "1S X XX").fault(DOUBLE) is CallFault.NOTHING_TO_DOUBLE


def test_redouble_only_of_the_opponents_double_of_ones_own_bid():
    assert Auction.from_calls(Seat.N, "1S X").is_legal(REDOUBLE)
    assert Auction.from_calls(Seat.N, "1S X Pass Pass").is_legal(REDOUBLE)
    assert Auction.from_calls(Seat.N, "1S X Pass").fault(REDOUBLE) \
        is CallFault.REDOUBLE_WITHOUT_DOUBLE
    assert Auction.from_calls(Seat.N, "1S Pass").fault(REDOUBLE) \
        is CallFault.REDOUBLE_WITHOUT_DOUBLE
    assert Auction.from_calls(Seat.N, "1S X XX Pass").fault(REDOUBLE) \
        is CallFault.REDOUBLE_WITHOUT_DOUBLE


def test_new_bid_cancels_double_and_redouble():
    auction = Auction.from_calls(Seat.N, "1S X XX 2C")
    assert auction.risk is Risk.UNDOUBLED
    assert auction.is_legal(DOUBLE)


def test_three_passes_after_a_bid_end_the_auction():
    auction = Auction.from_calls(Seat.N, "1S Pass Pass")
    assert not auction.is_finished
    auction = auction.with_call(PASS)
    assert auction.is_finished and auction.legal_calls() == ()
    assert auction.fault(PASS) is CallFault.AUCTION_OVER
    with pytest.raises(IllegalError, match="the auction has ended"):
        auction.with_call(PASS)


def test_three_passes_after_a_double_end_the_auction_doubled():
    auction = Auction.from_calls(Seat.N, "1S X Pass Pass Pass")
    assert auction.contract == Contract.from_pbn("1SX")
    assert auction.declarer is Seat.N


def test_four_passes_pass_the_deal_out():
    auction = Auction.from_calls(Seat.W, "Pass Pass Pass")
    assert not auction.is_finished and auction.contract is None
    auction = auction.with_call(PASS)
    assert auction.is_passed_out and auction.contract == PASSED_OUT
    assert auction.declarer is None


def test_passed_player_may_bid_later():
    auction = Auction.from_calls(Seat.N, "Pass Pass Pass 1C Pass Pass")
    assert auction.is_legal(Call.from_pbn("1D"))


def test_declarer_is_the_first_of_the_side_to_name_the_strain():
    auction = Auction.from_calls(Seat.N, "1H Pass 2H Pass 3NT Pass 4H Pass Pass Pass")
    assert auction.declarer is Seat.N
    auction = Auction.from_calls(Seat.N, "1C 1H Pass 2H 3H Pass Pass Pass")
    assert auction.declarer is Seat.N  # East named hearts first, but for the other side


def test_skip_moves_the_turn_without_a_call():
    auction = Auction(Seat.W).with_skip().with_call(Call.from_pbn("1D"))
    assert auction.calls[0].seat is Seat.N
    assert auction.turn is Seat.E
    auction = Auction(Seat.W).with_call(Call.from_pbn("1D")).with_skip().with_skip()
    assert auction.turn is Seat.S


def test_passes_to_end_is_what_ap_stands_for():
    assert Auction(Seat.N).passes_to_end() == 4
    assert Auction.from_calls(Seat.N, "1S X Pass").passes_to_end() == 2


def test_forced_call_is_recorded_despite_the_fault():
    auction = Auction.from_calls(Seat.N, "1D").with_call(Call.from_pbn("1C"), force=True)
    assert auction.last_bid is not None and auction.last_bid.call == Call.from_pbn("1C")
    doubled = Auction.from_calls(Seat.N, "1S").with_call(REDOUBLE, force=True)
    assert doubled.risk is Risk.REDOUBLED


def test_nothing_follows_the_end_of_the_auction_even_forced():
    finished = Auction.from_calls(Seat.N, "Pass Pass Pass Pass")
    with pytest.raises(IllegalError):
        finished.with_call(PASS, force=True)
    with pytest.raises(IllegalError):
        finished.with_skip()


def test_repr_is_valid_code():
    auction = Auction(Seat.W).with_call(Call.from_pbn("1D")).with_skip().with_call(
        Call.from_pbn("1C"), insufficient_accepted=True)
    assert eval(repr(auction)) == auction  # noqa: S307 -- the repr is meant to be code
    simple = Auction.from_calls(Seat.N, "1C 1S")
    assert repr(simple) == "Auction.from_calls(Seat.N, '1C 1S')"


@st.composite
def legal_auctions(draw, finish: bool = True):
    """An auction drawn call by call from legal_calls(), Pass more likely so it ends."""
    auction = Auction(draw(st.sampled_from(list(Seat))))
    while not auction.is_finished:
        calls = auction.legal_calls()
        if not finish and draw(st.integers(0, 9)) == 0:
            break
        call = PASS if draw(st.integers(0, 2)) == 0 else draw(st.sampled_from(calls))
        auction = auction.with_call(call)
    return auction


@settings(max_examples=200, deadline=None)
@given(legal_auctions())
def test_random_legal_auction_ends_with_a_consistent_contract(auction):
    assert auction.is_finished
    if auction.is_passed_out:
        assert [entry.call for entry in auction.calls] == [PASS] * 4
        return
    last = auction.last_bid
    assert last is not None
    contract = auction.contract
    assert contract is not None and (contract.level, contract.strain) == (last.call.level,
                                                                          last.call.strain)
    declarer = auction.declarer
    assert declarer is not None and declarer.side is last.seat.side
    first = next(entry for entry in auction.calls
                 if entry.call.is_bid and entry.call.strain is contract.strain
                 and entry.seat.side is declarer.side)
    assert first.seat is declarer
    assert [entry.call for entry in auction.calls[-3:]] == [PASS] * 3


@settings(max_examples=200, deadline=None)
@given(legal_auctions(finish=False))
def test_every_call_is_either_legal_or_has_a_fault(auction):
    legal = set(auction.legal_calls())
    for call in ALL_CALLS:
        assert (call in legal) == (auction.fault(call) is None)
        if call not in legal:
            with pytest.raises(IllegalError):
                auction.with_call(call)


@settings(max_examples=100, deadline=None)
@given(legal_auctions(finish=False), st.data())
def test_a_bid_not_above_the_last_is_always_insufficient(auction, data):
    if auction.is_finished or auction.last_bid is None:
        return
    rank = auction.last_bid.call.rank
    low = [call for call in ALL_CALLS if call.is_bid and call.rank <= rank]
    call = data.draw(st.sampled_from(low))
    assert auction.fault(call) is CallFault.INSUFFICIENT
