"""How a Deal tag's text is read into bit sets (pbnkit.model.deal): a hand's mask is the
mask of :meth:`Hand.from_pbn`, and a text it refuses is one ``Hand.from_pbn`` and
``Deal.from_pbn`` refuse, with the error they always gave."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from pbnkit.errors import InvalidTokenError
from pbnkit.model import Deal, Hand
from pbnkit.model.deal import hand_mask, read_deal

#: what hands are written with, and some of what they should not be (no blank: blanks
#: part the hands of a deal)
_CHARACTERS = st.sampled_from("AKQJT98765432akqjt.." + "x1-:é")


def _hand(text: str) -> Hand | None:
    try:
        return Hand.from_pbn(text)
    except InvalidTokenError:
        return None


@given(st.text(_CHARACTERS, max_size=20))
def test_a_hand_mask_is_its_hands_or_none_when_it_cannot_be_read(text):
    hand = _hand(text)
    assert hand_mask(text) == (-1 if hand is None else hand.mask)


@given(st.lists(st.text(_CHARACTERS, min_size=1, max_size=18), min_size=1, max_size=5),
       st.sampled_from(["N:", "e:", " S :", "W:", "X:", ""]))
@example(["...", "-", "-", "-"], "N:")  # a hand known to hold no card
def test_a_deal_is_read_as_its_hands_say_or_refused_with_their_error(hands, start):
    text = start + " ".join(hands)
    read = read_deal(text)
    try:
        deal = Deal.from_pbn(text)
    except InvalidTokenError as error:
        assert read is None
        if len(hands) == 4 and start.strip() not in ("X:", ""):
            wrong = next(hand for hand in text.split(":", 1)[1].split()
                         if hand != "-" and _hand(hand) is None)
            with pytest.raises(InvalidTokenError) as again:
                Hand.from_pbn(wrong)
            assert str(error) == str(again.value)
        return
    assert read is not None
    assert deal.masks == tuple(0 if hand is None else hand.mask for hand in deal.hands)
    assert deal.given == sum(1 << seat for seat, hand in enumerate(deal.hands)
                             if hand is not None)


def test_a_deal_that_is_no_seat_and_four_hands_says_which():
    with pytest.raises(InvalidTokenError, match="expected '<seat>:' then 4 hands"):
        Deal.from_pbn("AKQ.. - - -")
    with pytest.raises(InvalidTokenError, match="expected 4 hands, found 3"):
        Deal.from_pbn("N:AKQ... - -")
