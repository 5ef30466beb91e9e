"""How a LIN deal's hands are read (pbnkit.lin.records): a suit's ranks as written, in
any order, read by the model's holding reader and put high to low (``_ranks``,
``holding_text``), and the hand BBO leaves out (``_fourth_hand``), made up from the other
three's ranks as bits: the same hand as the ranks no other hand holds."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pbnkit.lin.records import RANKS, _fourth_hand, _ranks
from pbnkit.formats.hands import holding_text

_HOLDINGS = st.sets(st.sampled_from(RANKS)).map(
    lambda ranks: "".join(sorted(ranks, key=RANKS.index)))  # as read: high to low
_HANDS = st.tuples(_HOLDINGS, _HOLDINGS, _HOLDINGS, _HOLDINGS).filter(
    lambda hand: hand != ("", "", "", ""))  # a hand left out is no hand of the three


def left_out(hands):
    """The fourth hand as the reader made it before bits."""
    if [len("".join(hand)) for hand in hands] != [13] * len(hands):
        return None
    suits = []
    for held in map("".join, zip(*hands)):
        if len(set(held)) != len(held):
            return None
        suits.append("".join(rank for rank in RANKS if rank not in held))
    return tuple(suits)


@given(st.lists(_HANDS, min_size=3, max_size=3))
def test_the_fourth_hand_holds_the_ranks_no_other_holds(hands):
    assert _fourth_hand(hands) == left_out(hands)


@given(st.permutations([(suit, rank) for suit in range(4) for rank in RANKS]))
def test_a_dealt_deck_gives_back_the_fourth_hand(deck):
    hands = [tuple("".join(rank for rank in RANKS if (suit, rank) in deck[13 * at:13 * at + 13])
                   for suit in range(4)) for at in range(4)]
    assert _fourth_hand(hands[:3]) == hands[3]


@given(st.lists(st.sampled_from(RANKS), max_size=16))
def test_a_suit_as_written_is_put_high_to_low_unless_a_rank_is_named_twice(written):
    ranks = "".join(written)
    expected = ("".join(sorted(ranks, key=RANKS.index)) if len(set(ranks)) == len(ranks)
                else None)
    assert _high_to_low(ranks) == expected


def _high_to_low(ranks: str) -> str | None:
    bits = _ranks(ranks)
    return None if bits < 0 else holding_text(bits)


@given(_HOLDINGS)
def test_a_suit_written_either_way_reads_the_same(holding):
    assert _high_to_low(holding) == _high_to_low(holding[::-1]) == holding
