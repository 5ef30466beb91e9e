"""A club's Tuesday pairs made up for the tests: 24 boards, each played at four tables,
the deals shuffled from a fixed seed, so that the printed pages can be counted."""

from __future__ import annotations

import random

from pbnkit.model.cards import DECK

#: the vulnerability of boards 1 to 16, repeated (Law 2)
VULNERABLE = ("None", "NS", "EW", "All", "NS", "EW", "All", "None",
              "EW", "All", "None", "NS", "All", "None", "NS", "EW")
CONTRACTS = ("3NT", "4S", "2H", "3D", "1NT", "4H", "5C", "2S")


def _hand(cards) -> str:
    return ".".join("".join(card.rank.pbn() for card in sorted(
        (c for c in cards if c.suit.name == suit), reverse=True)) for suit in "SHDC")


def session(boards: int = 24, tables: int = 4, seed: int = 2024) -> str:
    """The PBN text, CRLF line ends: every board at every table, N-S pair t against
    E-W pair (t + board) mod tables + 1, a contract and result drawn from the seed."""
    rnd = random.Random(seed)
    lines = ["% PBN 2.1", "% EXPORT", ""]
    for board in range(1, boards + 1):
        cards = list(DECK)
        rnd.shuffle(cards)
        deal = " ".join(_hand(cards[seat * 13:(seat + 1) * 13]) for seat in range(4))
        for table in range(1, tables + 1):
            contract = rnd.choice(CONTRACTS)
            level = int(contract[0])
            lines += ['[Event "Tuesday pairs"]', '[Site "Bridge club"]', '[Date "2025.03.04"]',
                      f'[Board "{board}"]', f'[Dealer "{"NESW"[(board - 1) % 4]}"]',
                      f'[Vulnerable "{VULNERABLE[(board - 1) % 16]}"]',
                      f'[Deal "N:{deal}"]', '[Scoring "MP"]',
                      f'[PairNS "{table}"]', f'[PairEW "{(table + board) % tables + 1}"]',
                      f'[Declarer "{rnd.choice("NSEW")}"]', f'[Contract "{contract}"]',
                      f'[Result "{level + 6 + rnd.choice((-2, -1, 0, 0, 1))}"]', ""]
    return "\r\n".join(lines)
