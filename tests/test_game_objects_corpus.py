"""A record's model objects over the real files of ../shared/corpus/, against endplay's
reading of the same files (``endplay.parsers.pbn``) wherever endplay reads them.

endplay reads less than the objects tell, so each fact is compared where endplay has one
to compare: the contract, declarer and result only from their tags (endplay does not
replay the auction; it reads an empty Contract as passed out, and a Result only as a
bare count); the played cards only under a Contract tag (endplay takes its trump from
there) and in records whose play breaks no rule (we replay a card its player cannot
hold as unknown, endplay lists it), up to the last known card (endplay drops trailing
unknown cards). endplay lists the cards of a play without a Deal tag, which we cannot
replay (``PL005``): there, that is checked to be the reason. A file endplay cannot read
(it raises) is left out.
"""

from __future__ import annotations

from collections import Counter

import pytest

import pbnkit
from pbnkit.model import Seat
from pbnkit.replay.game import replay_sections
from tests.conftest import CORPUS, corpus_rows

pytest.importorskip("endplay")
# every record of the corpus, read twice: the full tier's (docs/testing.md)
pytestmark = pytest.mark.slow

#: endplay's Denom values in order: spades, hearts, diamonds, clubs, no trump
DENOMS = ("S", "H", "D", "C", "NT")
RISKS = {"passed": "", "doubled": "X", "redoubled": "XX"}


def endplay_boards(path):
    """endplay's boards, or None where it cannot read the file."""
    from endplay.parsers import pbn

    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            return pbn.load(handle)
    except Exception:  # noqa: BLE001 -- any failure of endplay's is "cannot read"
        return None


def endplay_call(bid) -> str:
    from endplay.types import ContractBid

    if isinstance(bid, ContractBid):
        return f"{bid.level}{DENOMS[bid.denom.value]}"
    return {"passed": "Pass", "doubled": "X", "redoubled": "XX"}[bid.penalty.name]


def endplay_contract(contract) -> str:
    if contract.is_passout():
        return "Pass"
    return f"{contract.level}{DENOMS[contract.denom.value]}{RISKS[contract.penalty.name]}"


def endplay_cards(board) -> list[str | None]:
    """Played cards in order; endplay writes an unknown card as the two of no trump."""
    return [None if card.suit.value == 4 else DENOMS[card.suit.value] + card.rank.abbr
            for card in board.play]


def our_cards(play) -> list[str | None]:
    played = [p for trick in play.tricks for p in trick.cards] + list(play.trick_cards)
    return [None if p.card is None else p.card.pbn() for p in played]


def known_prefix(cards: list[str | None]) -> list[str | None]:
    while cards and cards[-1] is None:
        cards = cards[:-1]
    return cards


def compare(board, game, counts: Counter, mismatches: list) -> None:
    def check(fact: str, ours: object, theirs: object) -> None:
        counts[fact] += 1
        if ours != theirs:
            mismatches.append((game.path, game.line, fact, ours, theirs))

    if board.board_num is not None:
        # endplay reads Board "0" as 0; PBN numbers boards from 1 (TG008), and so do we
        check("board number", game.board_number, board.board_num or None)
    if board.deal is not None and game.deal is not None:
        from endplay.types import Player

        ours = [hand.pbn() if hand else None for hand in (game.deal[s] for s in Seat)]
        theirs = [board.deal[Player.find(s.name)].to_pbn() for s in Seat]
        check("deal", ours, theirs)
    if board.play and game.play is None:
        # endplay lists the cards of a play without a deal; we cannot replay one (PL005)
        check("no play without a deal", game.value("Deal"), None)
    if game.auction is not None:
        check("auction", [entry.call.pbn() for entry in game.auction.calls],
              [endplay_call(bid) for bid in board.auction])
    contract_tag = (game.value("Contract") or "").strip()
    if board.contract is None or contract_tag in ("", "?"):
        return
    ours = game.contract
    check("contract", None if ours is None else "Pass" if ours.is_passed_out else str(ours),
          endplay_contract(board.contract))
    if (game.value("Declarer") or "").strip() in ("N", "E", "S", "W"):
        check("declarer", game.declarer and game.declarer.name, board.contract.declarer.abbr)
    if (game.value("Result") or "").strip().isdigit() and not board.contract.is_passout():
        check("result", game.result, board.contract.level + 6 + board.contract.result)
    if game.play is not None:
        if any(d.code.startswith("PL") for d in replay_sections(game).diagnostics):
            counts["play left out: breaks a rule"] += 1
            return
        check("played cards", known_prefix(our_cards(game.play)),
              known_prefix(endplay_cards(board)))


def test_objects_agree_with_endplay_over_the_corpus():
    rows = corpus_rows()
    if not rows:
        pytest.skip("../shared/corpus is absent")
    counts: Counter[str] = Counter()
    mismatches: list = []
    for row in rows:
        path = CORPUS / row["path"]
        boards = endplay_boards(path)
        if boards is None:
            counts["files endplay cannot read"] += 1
            continue
        games = list(pbnkit.read(path))
        # endplay reads a game per group of lines between blank lines: the same records
        assert len(games) == len(boards), path
        counts["files"] += 1
        counts["records"] += len(games)
        for board, game in zip(boards, games):
            compare(board, game, counts, mismatches)
    assert mismatches == []
    # Not an expected output: a floor, so that a change in what is compared cannot
    # leave the comparison empty. The corpus holds 76 PBN files of some 16,600 records.
    assert counts["files"] >= 50 and counts["records"] >= 10_000, counts
    for fact in ("deal", "board number", "auction", "contract", "declarer", "result"):
        assert counts[fact] >= 5_000, (fact, counts)
    assert counts["played cards"] >= 2_000 and counts["no play without a deal"] >= 1, counts
