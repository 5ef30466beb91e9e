"""Generate a BBO LIN file of random, legal boards for benchmarks and tests.

    python benchmarks/generate_lin.py N -o FILE.lin [--seed S] [--vugraph]

Each board is one line as BBO's hand viewer writes it (``pn st md rh ah sv mb an pg pc
mc``): a random deal, a legal auction with some calls alerted and explained, and a legal
play of the whole hand, a quarter of the boards ending in a claim. ``--vugraph`` writes a
team match instead: a ``vg`` header and each board twice, ``qx|oN|`` and ``qx|cN|``.
The deals, auctions and plays come from ``generate.py``, so both benchmarks read the same
kind of boards.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

# its sibling, also when the script's folder is not put on the path (python -P)
sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import (  # noqa: E402
    NOTES, NT, PLAYERS, RANKS, SUITS, VULNERABILITY, _trick_winner, card_text, deal_hands,
    random_auction, random_play)

#: LIN's seat order (md and pn list South, West, North, East) as generate.py's seat numbers
LIN_SEATS = (2, 3, 0, 1)
#: LIN's dealer digits: 1 South, 2 West, 3 North, 4 East, by generate.py's seat number
DEALER_DIGIT = {2: "1", 3: "2", 0: "3", 1: "4"}
SV = {"None": "o", "NS": "n", "EW": "e", "All": "b"}
CALLS = {"Pass": "p", "X": "d", "XX": "r"}


def lin_hand(hand: Sequence[int]) -> str:
    """``S...H...D...C...``, low ranks first as BBO writes them."""
    return "".join(SUITS[suit] + "".join(RANKS[c % 13] for c in sorted(hand) if c // 13 == suit)
                   for suit in (3, 2, 1, 0))


def board_pairs(rng: random.Random, board: int, room: str | None = None,
                deal: tuple[list[list[int]], list[str]] | None = None) -> str:
    """One board as a line of LIN (without the line end); ``room`` o or c for vugraph."""
    dealer = (board - 1) % 4
    hands = deal[0] if deal else deal_hands(rng)
    players = deal[1] if deal else rng.sample(PLAYERS, 4)
    calls, outcome = random_auction(rng, dealer)
    out = [f"qx|{room}{board}|"] if room else []
    # a comma separates names in pn: "Smith, Robert J." becomes "Smith Robert J."
    out.append("pn|" + ",".join(players[seat].replace(",", "") for seat in LIN_SEATS)
               + "|st||")
    # BBO leaves out East's hand: it holds the cards the other three do not
    out.append("md|" + DEALER_DIGIT[dealer]
               + ",".join(lin_hand(hands[seat]) for seat in LIN_SEATS[:3]) + ",|")
    out.append(f"rh||ah|Board {board}|sv|{SV[VULNERABILITY[(board - 1) % 16]]}|")
    for call in calls:
        lin_call = CALLS.get(call, call.replace("NT", "N"))
        if rng.random() < 0.10:
            out.append(f"mb|{lin_call}!|an|{rng.choice(NOTES)}|")
        else:
            out.append(f"mb|{lin_call}|")
    out.append("pg||")
    if outcome.level:
        leader = (outcome.declarer + 1) % 4
        trump = outcome.strain if outcome.strain != NT else -1
        tricks, made = random_play(rng, hands, leader, trump)
        claim_after = rng.randrange(6, 13) if rng.random() < 0.25 else 13
        for by_seat in tricks[:claim_after]:
            # LIN lists a trick's cards in the order played, from its leader
            for offset in range(4):
                out.append(f"pc|{card_text(by_seat[(leader + offset) % 4])}|")
            out.append("pg||")
            leader = _trick_winner(by_seat, leader, trump)
        if claim_after < 13:
            out.append(f"mc|{made}|")
    return "".join(out)


def generate(count: int, seed: int, vugraph: bool = False) -> Iterator[str]:
    """The file's lines, without line ends."""
    rng = random.Random(seed)
    if not vugraph:
        for board in range(1, count + 1):
            yield board_pairs(rng, board)
        return
    yield f"vg|Generated match,Segment 1,I,1,{count},HOME,0,AWAY,0|"
    yield "pn|" + ",".join(p.replace(",", "") for p in rng.sample(PLAYERS, 8)) + "|pg||"
    for board in range(1, count + 1):
        deal = (deal_hands(rng), rng.sample(PLAYERS, 4))
        yield board_pairs(rng, board, "o", deal)
        yield board_pairs(rng, board, "c", deal)


def write_file(path: str, count: int, seed: int, vugraph: bool = False) -> None:
    with open(path, "w", encoding="ascii", newline="") as out:
        for line in generate(count, seed, vugraph):
            out.write(line + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int, metavar="N", help="number of boards")
    parser.add_argument("-o", "--output", required=True, metavar="FILE.lin")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--vugraph", action="store_true",
                        help="a team match: each board in an open and a closed room")
    args = parser.parse_args(argv)
    write_file(args.output, args.count, args.seed, args.vugraph)
    return 0


if __name__ == "__main__":
    sys.exit(main())
