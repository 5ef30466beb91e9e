"""The row builder's shortcuts for common values give what the general readers give."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbnkit import Game, read_text
from pbnkit.export.rows import _hands, _items, game_row
from pbnkit.model import Deal, Seat
from pbnkit.pbn.sections import decode_items


def _game(tags: str) -> Game:
    return next(iter(read_text(f'[Event "x"]\n[Board "1"]\n{tags}\n')))


@pytest.mark.parametrize("body", [
    "1S 2C 3C Pass\nPass Pass",
    "1S =1= 2C 3C Pass\nPass Pass =2=",
    "1S=1= 2C\n=2= Pass",
    "1S =99999= Pass",
    "1S =1= =2= Pass",
    "1S ! =1= 2C $3",
    "1S 2C * ",
])
def test_auction_items_are_those_of_the_section_decoder(body):
    _assert_decoder_items(body)


def _assert_decoder_items(body: str) -> None:
    game = _game(f'[Auction "E"]\n{body}')
    decoded, _ = decode_items(game.tag("Auction"))
    rows = _items(game.tag("Auction"), "call").rows()
    assert [row["call"] for row in rows] == [item.text for item in decoded]
    assert [row["note"] for row in rows] == [
        item.note if item.note is None or item.note < 2 ** 15 else None for item in decoded]
    assert [row["suffix"] for row in rows] == [item.suffix for item in decoded]
    assert [row["irregularity"] for row in rows] == [item.irregularity for item in decoded]
    assert [row["nags"] for row in rows] == [list(item.nags) for item in decoded]
    assert [row["comments"] for row in rows] == [list(item.comments) for item in decoded]


_BLANKS = st.sampled_from(["", " ", "  ", "\n", " \n "])
_CALL = st.sampled_from(["1S", "2NT", "Pass", "X", "XX", "AP", "-", "*", "7c"])
_NOTE = st.builds(lambda number, before: f"{before}={number}=", st.integers(0, 40000),
                  _BLANKS)


@given(st.lists(st.tuples(_CALL, st.one_of(st.just(""), _NOTE)), max_size=12), _BLANKS)
def test_plain_bodies_with_notes_give_the_decoder_items(items, lead):
    """Bodies the shortcut reads (words, each maybe followed by a note reference), with
    the blanks around the references varied: the same items as the decoder's."""
    _assert_decoder_items(lead + " ".join(call + note for call, note in items))


@pytest.mark.parametrize("deal", [
    "N:A75.2.AJ87.JT764 Q93.QJ5.Q54.KQ95 K862.KT98.T963.A JT4.A7643.K2.832",
    " e : 57A.2.AJ87.JT764 - K862.KT98.T963.A jt4.A7643.K2.832 ",
    "W:A75.2.AJ87.JT764 Q93.QJ5.Q54.KQ95 - -",
])
def test_hands_are_those_of_the_deal_model(deal):
    _assert_model_hands(deal)


def _assert_model_hands(deal: str) -> None:
    model = Deal.from_pbn(deal)
    expected = {f"deal_{seat.name.lower()}": None if model[seat] is None else model[seat].pbn()
                for seat in Seat}
    assert _hands(deal) == expected


_RANKS = "AKQJT98765432"


@given(st.permutations(range(52)), st.sets(st.integers(0, 3), max_size=3),
       st.sampled_from("NESW"), st.booleans(), st.randoms(use_true_random=False))
def test_dealt_hands_are_those_of_the_deal_model(cards, missing, first, sort, rng):
    """Hands in order (the one-match shortcut) or not, some left out: as the model reads
    them."""
    hands = []
    for seat in range(4):
        if seat in missing:
            hands.append("-")
            continue
        held = cards[13 * seat:13 * seat + 13]
        suits = []
        for suit in range(4):
            ranks = [_RANKS[card % 13] for card in held if card // 13 == suit]
            if sort:
                ranks.sort(key=_RANKS.index)
            else:
                rng.shuffle(ranks)
            suits.append("".join(ranks))
        hands.append(".".join(suits))
    _assert_model_hands(f"{first}:{' '.join(hands)}")


def test_contract_columns_of_a_doubled_contract():
    row = game_row(_game('[Contract "4hx"]'), "utf-8")
    assert (row["contract_level"], row["contract_strain"], row["contract_risk"]) == (4, "H", "X")
