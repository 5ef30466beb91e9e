"""Write N random, legal boards as an export-format PBN file, for benchmarks and tests.

    python benchmarks/generate.py 2000 -o boards.pbn --seed 7

Every board has a legal auction (with alert notes), a legal 13-trick play, and Declarer,
Contract, Result and Score tags that agree with them. The bridge logic here is deliberately
self-contained -- it imports nothing from pbnkit -- so the files it writes are an independent
oracle for pbnkit's own auction, play and scoring modules. The output depends only on N and
the seed.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

SEATS = "NESW"  # clockwise; seat numbers below index this string
SUITS = "CDHS"  # bidding order; suit numbers below index this string
STRAINS = ("C", "D", "H", "S", "NT")
RANKS = "23456789TJQKA"  # rank numbers 0..12 index this string
NT = 4

# The 16-board duplicate cycle, board 1 first.
VULNERABILITY = (
    "None", "NS", "EW", "All", "NS", "EW", "All", "None",
    "EW", "All", "None", "NS", "All", "None", "NS", "EW",
)

PLAYERS = (
    "Jansen, P.", "de Vries, A.", "Bakker, K.", "Smit, J.", "Meijer, L.", "Visser, M.",
    "Brown, Alice", "Smith, Robert J.", "Garcia, Ana", "Rossi, Marco", "Novak, Petr",
    "Kowalski, Jan", "Dubois, Claire", "Schmidt, Hans", "Larsen, Ole", "Tanaka, Yuki",
    "GIB", "Robot", "twooneben", "Ben", "south_pole", "kibitzer42",
)

NOTES = (
    "natural", "15-17 HCP", "Stayman", "transfer", "takeout", "negative double",
    "weak two", "Michaels cue bid", "Unusual 2NT", "RKCB 1430", "2+ clubs", "better minor",
    "forcing one round", "limit raise", "splinter", "Jacoby 2NT", "to play", "Lebensohl",
    "4+ !H; 9- total points", "Minor suit opening -- 3+ !D; 11-21 HCP",
)

EVENTS = ("Club Pairs", "Daylong Teams", "Ben & Friends Daily", "Monday Evening IMPs")
SITES = ("BBO", "Utrecht NLD", "Online", "Amsterdam, The Netherlands NLD")

CRLF = "\r\n"


# --- cards and deals ---------------------------------------------------------------------

def card_suit(card: int) -> int:
    return card // 13


def card_rank(card: int) -> int:
    return card % 13


def card_text(card: int) -> str:
    return SUITS[card_suit(card)] + RANKS[card_rank(card)]


def deal_hands(rng: random.Random) -> list[list[int]]:
    """Four 13-card hands, indexed by seat number (N=0, E=1, S=2, W=3)."""
    deck = list(range(52))
    rng.shuffle(deck)
    return [sorted(deck[13 * seat:13 * seat + 13]) for seat in range(4)]


def hand_text(hand: Sequence[int]) -> str:
    """``spades.hearts.diamonds.clubs``, ranks descending."""
    fields = []
    for suit in (3, 2, 1, 0):
        ranks = sorted((card_rank(c) for c in hand if card_suit(c) == suit), reverse=True)
        fields.append("".join(RANKS[r] for r in ranks))
    return ".".join(fields)


def deal_text(hands: Sequence[Sequence[int]], first: int) -> str:
    return SEATS[first] + ":" + " ".join(hand_text(hands[(first + i) % 4]) for i in range(4))


# --- auction ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Outcome:
    """What an auction decides. ``level`` 0 means passed out."""

    level: int = 0
    strain: int = 0
    risk: int = 0  # 0 undoubled, 1 doubled, 2 redoubled
    declarer: int = -1

    def contract_text(self) -> str:
        if self.level == 0:
            return "Pass"
        return f"{self.level}{STRAINS[self.strain]}{('', 'X', 'XX')[self.risk]}"


def bid_text(bid: int) -> str:
    """Bid number 0..34 (1C..7NT) as PBN text."""
    return f"{bid // 5 + 1}{STRAINS[bid % 5]}"


def random_auction(rng: random.Random, dealer: int) -> tuple[list[str], Outcome]:
    """A legal auction from ``dealer``: the calls as PBN text and the contract it reaches."""
    calls: list[str] = []
    seat = dealer
    last_bid = -1          # bid number of the highest bid so far
    last_bidder = -1       # seat that made it
    risk = 0               # of the last bid
    passes = 0             # consecutive passes
    while True:
        # four opening passes, or three passes after any bid, double or redouble, end it
        if passes == 4 or (passes == 3 and last_bid >= 0):
            break
        opponents_bid = last_bid >= 0 and (last_bidder - seat) % 2 == 1
        roll = rng.random()
        if last_bid < 0:
            call = "Pass" if roll < 0.45 else "bid"
        elif opponents_bid and risk == 0 and roll < 0.09:
            call = "X"
        elif not opponents_bid and risk == 1 and roll < 0.25:
            call = "XX"
        elif last_bid < 34 and roll < (0.55 if last_bid < 10 else 0.30 if last_bid < 20 else 0.15):
            call = "bid"
        else:
            call = "Pass"
        if call == "bid":
            step = rng.choice((1, 1, 1, 2, 2, 3, 4, 5, 7))
            last_bid = min(34, last_bid + step) if last_bid >= 0 else rng.choice(
                (0, 0, 1, 1, 2, 3, 3, 4, 4, 5, 7, 8))
            last_bidder, risk, passes = seat, 0, 0
            calls.append(bid_text(last_bid))
        else:
            if call == "X":
                risk, passes = 1, 0
            elif call == "XX":
                risk, passes = 2, 0
            else:
                passes += 1
            calls.append(call)
        seat = (seat + 1) % 4
    if last_bid < 0:
        return calls, Outcome()
    strain = last_bid % 5
    declarer = _first_to_name(calls, dealer, strain, last_bidder % 2)
    return calls, Outcome(last_bid // 5 + 1, strain, risk, declarer)


def _first_to_name(calls: Sequence[str], dealer: int, strain: int, side: int) -> int:
    """The first player of ``side`` (0 = NS, 1 = EW) to bid ``strain``."""
    for index, call in enumerate(calls):
        seat = (dealer + index) % 4
        if seat % 2 == side and call[0].isdigit() and call[1:] == STRAINS[strain]:
            return seat
    raise AssertionError("unreachable: the final bidder named the final strain")


# --- play ---------------------------------------------------------------------------------

def random_play(rng: random.Random, hands: Sequence[Sequence[int]], leader: int,
                trump: int) -> tuple[list[list[int]], int]:
    """A legal 13-trick play led by ``leader`` (declarer's left-hand opponent); ``trump``
    is a suit number or -1 at no trumps. Returns each trick's cards indexed by seat, and
    the tricks declarer's side won."""
    remaining = [list(hand) for hand in hands]
    declarer_side = (leader + 1) % 2
    tricks: list[list[int]] = []
    declarer_tricks = 0
    for _ in range(13):
        by_seat = [-1] * 4
        led_suit = -1
        for offset in range(4):
            seat = (leader + offset) % 4
            holding = remaining[seat]
            legal = [c for c in holding if card_suit(c) == led_suit] or holding
            # declarer plays a little better than the defenders, so results look plausible
            if offset and rng.random() < (0.8 if seat % 2 == declarer_side else 0.5):
                card = _cheapest_good_card(legal, by_seat, leader, trump)
            else:
                card = rng.choice(legal)
            holding.remove(card)
            by_seat[seat] = card
            if offset == 0:
                led_suit = card_suit(card)
        leader = _trick_winner(by_seat, leader, trump)
        declarer_tricks += leader % 2 == declarer_side
        tricks.append(by_seat)
    return tricks, declarer_tricks


def _cheapest_good_card(legal: Sequence[int], by_seat: Sequence[int], leader: int,
                        trump: int) -> int:
    """Duck under partner's winning card, else win as cheaply as possible, else discard low."""
    played = [seat for seat in range(4) if by_seat[seat] >= 0]
    winning = _trick_winner(by_seat, leader, trump, played)
    seat = (leader + len(played)) % 4
    lowest = min(legal, key=lambda c: (card_suit(c) == trump, card_rank(c)))
    if winning % 2 == seat % 2:
        return lowest
    for card in sorted(legal, key=lambda c: (card_suit(c) == trump, card_rank(c))):
        trial = list(by_seat)
        trial[seat] = card
        if _trick_winner(trial, leader, trump, played + [seat]) == seat:
            return card
    return lowest


def _trick_winner(by_seat: Sequence[int], leader: int, trump: int,
                  seats: Sequence[int] = range(4)) -> int:
    """Highest trump wins, else the highest card of the suit led (among ``seats``)."""
    led_suit = card_suit(by_seat[leader])

    def strength(seat: int) -> int:
        card = by_seat[seat]
        if card_suit(card) == trump:
            return 200 + card_rank(card)
        if card_suit(card) == led_suit:
            return 100 + card_rank(card)
        return card_rank(card) - 100

    return max(seats, key=strength)


# --- score (duplicate, WBF Law 77) --------------------------------------------------------

def duplicate_score(outcome: Outcome, tricks: int, vulnerable: bool) -> int:
    """Declarer side's score."""
    level, strain, risk = outcome.level, outcome.strain, outcome.risk
    if level == 0:
        return 0
    multiplier = (1, 2, 4)[risk]
    if tricks >= level + 6:
        per_trick = 20 if strain < 2 else 30
        trick_score = (per_trick * level + (10 if strain == NT else 0)) * multiplier
        score = trick_score
        score += (500 if vulnerable else 300) if trick_score >= 100 else 50
        if level == 6:
            score += 750 if vulnerable else 500
        elif level == 7:
            score += 1500 if vulnerable else 1000
        score += (0, 50, 100)[risk]
        overtricks = tricks - level - 6
        if risk == 0:
            score += overtricks * (20 if strain < 2 else 30)
        else:
            score += overtricks * (200 if vulnerable else 100) * risk
        return score
    down = level + 6 - tricks
    if risk == 0:
        return -down * (100 if vulnerable else 50)
    if vulnerable:
        penalty = 200 + 300 * (down - 1)
    else:
        penalty = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return -penalty * risk


def is_vulnerable(vulnerability: str, seat: int) -> bool:
    return vulnerability == "All" or vulnerability == ("NS", "EW")[seat % 2]


# --- one board as PBN text ---------------------------------------------------------------

def board_lines(rng: random.Random, board: int, event: str, site: str, date: str) -> list[str]:
    dealer = (board - 1) % 4
    vulnerability = VULNERABILITY[(board - 1) % 16]
    hands = deal_hands(rng)
    calls, outcome = random_auction(rng, dealer)
    players = rng.sample(PLAYERS, 4)

    if outcome.level:
        leader = (outcome.declarer + 1) % 4
        trump = outcome.strain if outcome.strain != NT else -1
        tricks, made = random_play(rng, hands, leader, trump)
        score = duplicate_score(outcome, made, is_vulnerable(vulnerability, outcome.declarer))
        ns_score = score if outcome.declarer % 2 == 0 else -score
        declarer, result = SEATS[outcome.declarer], str(made)
    else:
        tricks, ns_score, declarer, result = [], 0, "", ""

    lines = [
        f'[Event "{event}"]',
        f'[Site "{site}"]',
        f'[Date "{date}"]',
        f'[Board "{board}"]',
        f'[West "{players[3]}"]',
        f'[North "{players[0]}"]',
        f'[East "{players[1]}"]',
        f'[South "{players[2]}"]',
        f'[Dealer "{SEATS[dealer]}"]',
        f'[Vulnerable "{vulnerability}"]',
        f'[Deal "{deal_text(hands, dealer)}"]',
        '[Scoring "IMP"]',
        f'[Declarer "{declarer}"]',
        f'[Contract "{outcome.contract_text()}"]',
        f'[Result "{result}"]',
        f'[Score "NS {ns_score}"]',
        f'[Auction "{SEATS[dealer]}"]',
    ]
    lines += _auction_rows(rng, calls)
    if tricks:
        lines.append(f'[Play "{SEATS[leader]}"]')
        # fixed seat columns from the opening leader, whoever led each trick (PBN 3.6)
        for by_seat in tricks:
            lines.append(" ".join(card_text(by_seat[(leader + i) % 4]) for i in range(4)))
    return lines


def _auction_rows(rng: random.Random, calls: Sequence[str]) -> list[str]:
    """Calls four to a line, ~10% with a note reference; the Note tags follow the calls."""
    rows, notes = [], []
    for start in range(0, len(calls), 4):
        tokens = []
        for call in calls[start:start + 4]:
            tokens.append(call)
            if rng.random() < 0.10:
                notes.append(rng.choice(NOTES))
                tokens.append(f"={len(notes)}=")
        rows.append(" ".join(tokens))
    rows += [f'[Note "{index}:{text}"]' for index, text in enumerate(notes, 1)]
    return rows


def generate(count: int, seed: int) -> Iterator[str]:
    """The file's lines, without line ends."""
    rng = random.Random(seed)
    event, site = rng.choice(EVENTS), rng.choice(SITES)
    date = f"20{rng.randint(10, 25):02d}.{rng.randint(1, 12):02d}.{rng.randint(1, 28):02d}"
    yield "% PBN 2.1"
    yield "% EXPORT"
    yield "%Content-type: text/x-pbn; charset=ISO-8859-1"
    yield f"%Creator: pbnkit benchmarks/generate.py --seed {seed}"
    for board in range(1, count + 1):
        if board > 1:
            yield ""
        yield from board_lines(rng, board, event, site, date)


def write_file(path: str, count: int, seed: int) -> None:
    with open(path, "w", encoding="ascii", newline="") as out:
        for line in generate(count, seed):
            out.write(line + CRLF)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int, metavar="N", help="number of boards")
    parser.add_argument("-o", "--output", required=True, metavar="FILE.pbn")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    args = parser.parse_args(argv)
    if args.count < 0:
        parser.error("N must be zero or more")
    write_file(args.output, args.count, args.seed)
    print(f"wrote {args.count} boards to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
