"""The row builder's shortcuts for common values give what the general readers give."""

from __future__ import annotations

import pytest

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
    game = _game(f'[Auction "E"]\n{body}')
    decoded, _ = decode_items(game.tag("Auction"))
    rows = _items(game, "Auction", "call").rows()
    assert [row["call"] for row in rows] == [item.text for item in decoded]
    assert [row["note"] for row in rows] == [
        item.note if item.note is None or item.note < 2 ** 15 else None for item in decoded]
    assert [row["suffix"] for row in rows] == [item.suffix for item in decoded]


@pytest.mark.parametrize("deal", [
    "N:A75.2.AJ87.JT764 Q93.QJ5.Q54.KQ95 K862.KT98.T963.A JT4.A7643.K2.832",
    " e : 57A.2.AJ87.JT764 - K862.KT98.T963.A jt4.A7643.K2.832 ",
    "W:A75.2.AJ87.JT764 Q93.QJ5.Q54.KQ95 - -",
])
def test_hands_are_those_of_the_deal_model(deal):
    model = Deal.from_pbn(deal)
    expected = {f"deal_{seat.name.lower()}": None if model[seat] is None else model[seat].pbn()
                for seat in Seat}
    assert _hands(deal) == expected


def test_contract_columns_of_a_doubled_contract():
    row = game_row(_game('[Contract "4hx"]'), "utf-8")
    assert (row["contract_level"], row["contract_strain"], row["contract_risk"]) == (4, "H", "X")
