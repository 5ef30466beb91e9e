"""The fast path for clean records: decide in one loop over ints that the full replay of a
record's Auction and Play sections would report nothing, and find the same facts.

The full replay (:mod:`pbnkit.replay.auction`, :mod:`pbnkit.replay.play`) decodes every
call and card into an annotated item and builds a persistent state after each, so that
it can say where and why something breaks. Most records break nothing. For them
:func:`replay_clean` reads the words of each section body and replays them as ints: calls
by bid rank, cards by deck index (:attr:`Card.index`), hands as bit sets
(:attr:`Deal.masks`), tricks won as two counters.

It accepts a record only when all of this holds (else it returns None):

* Each section present (the first Auction tag, the first Play tag) has a body of section
  tokens alone: calls or cards separated by blanks, each optionally followed by one note
  reference ``=n=``, the play optionally ending in ``*``. No comment, string, ``-``,
  ``+``, ``^`` irregularity, ``!`` or ``?`` suffix or ``$n`` NAG, so decoding it finds
  no ``SY`` problem and every item is a plain call or card.
* The note references of a section and its Note tags (``n:text``, 1-32) name the same
  indices (no ``AU``/``PL`` 016-018).
* The auction: the Auction seat is the Dealer; every call is spelled as PBN defines it
  (or ``AP``; not ``P`` or ``1N``: AU009), legal, and the last call ends the auction
  (AU001-AU008, AU010-AU014).
* The play, unless it is ``*`` alone (no card, so nothing to replay): a complete deal of
  four valid hands of 13; the contract (not passed out) and declarer from the tags or
  else the auction, as :func:`setting_of` reads them for the full replay (PL005, PL006);
  the Play seat is the opening leader (PL009, PL011); whole tricks, at most 13 (no
  unknown card in a short row, no PL007), each card held by the player of its column
  and not yet played (PL001), following suit when able (PL002).

The rules are not restated here: each step calls the model's kernels on ints, the same
ones :class:`~pbnkit.model.auction.Auction` and :class:`~pbnkit.model.play.Play` call
(:func:`~pbnkit.model.auction.is_sufficient`, :func:`~pbnkit.model.auction.double_fault`,
:func:`~pbnkit.model.auction.declarer_seat`, :func:`~pbnkit.model.play.holds_suit`,
:func:`~pbnkit.model.play.trick_powers`...); this module only decides that a record is
clean enough for them.

Under these conditions each step of the full replay is one of the int steps here, and
nothing it could report is possible, so an answer is exact: no diagnostic, and the
finished auction's contract and declarer and the play's trick counts. The Contract,
Declarer and Result checks then run on these facts exactly as on the full replay's.
"""

from __future__ import annotations

import re
from typing import cast

from pbnkit.model.auction import (
    ALL_CALLS,
    declarer_seat,
    double_fault,
    is_sufficient,
    passes_to_close,
    redouble_fault,
)
from pbnkit.model.calls import PASSED_OUT, Contract, Risk
from pbnkit.model.cards import CARDS_BY_TEXT, SEATS, STRAINS, Seat
from pbnkit.model.play import holds_suit, trick_powers
from pbnkit.pbn.records import ElementKind, Game, TagPair
from pbnkit.replay.notes import note_index
from pbnkit.digits import whole_number
from pbnkit.replay.outcome import Replayed, Tricks
from pbnkit.replay.play import setting_of

#: A body the section decoder reads as words, note references and blanks alone (its
#: other white space, such as a no-break space, is an unexpected character: SY007).
_PLAIN = re.compile(r"[A-Za-z0-9=* \t\r\n\v\f]+")
_NOTE = re.compile(r"=[0-9]+=")
#: Seat values as ``Seat.from_pbn`` reads them after ``strip().upper()``.
_SEATS = {seat.name: int(seat) for seat in SEATS}

#: Calls as PBN spells them, all uppercase or all lowercase (another spelling is AU009):
#: bids by rank (1C is 0, 7NT is 34), then the rest.
_PASS, _DOUBLE, _REDOUBLE, _ALL_PASS = 35, 36, 37, 38
_CALLS = {call.pbn(): call.rank for call in ALL_CALLS if call.is_bid} | {
    "Pass": _PASS, "X": _DOUBLE, "XX": _REDOUBLE, "AP": _ALL_PASS}
_CALLS |= {spelling.lower(): code for spelling, code in _CALLS.items()}
#: How many passes end the auction, before and after the first bid.
_CLOSING_UNBID, _CLOSING_BID = passes_to_close(False), passes_to_close(True)
_CARDS = {text: card.index for text, card in CARDS_BY_TEXT.items()}
#: Suit number and bit of each card index, looked up rather than computed per card.
_SUIT = tuple(index // 13 for index in range(52))
_BIT = tuple(1 << index for index in range(52))
#: _TURNS[leader][first]: the seats of a trick in playing order, each with its column in
#: rows that start at seat ``first``.
_TURNS = tuple(tuple(tuple(((leader + turn) & 3, (leader - first + turn) & 3) for turn in range(4))
                     for first in range(4)) for leader in range(4))


def replay_clean(game: Game) -> Replayed | None:
    """What :func:`pbnkit.replay.replay` finds for a clean record (no diagnostics, and
    the facts); None when the record is not in the form described above."""
    auction_tag = play_tag = None
    auction_notes: list[TagPair] = []
    play_notes: list[TagPair] = []
    notes = None  # where the Note tags right after a section go
    for tag in game.tags:
        name = tag.name
        if name == "Note":
            if notes is not None:
                notes.append(tag)
            continue
        notes = None
        if name == "Auction" and auction_tag is None:
            auction_tag, notes = tag, auction_notes
        elif name == "Play" and play_tag is None:
            play_tag, notes = tag, play_notes
    contract: Contract | None = None
    declarer: Seat | None = None
    if auction_tag is not None:
        calls = _words(auction_tag, auction_notes)
        ended = None if calls is None else _auction(game, auction_tag, calls)
        if ended is None:
            return None
        contract, declarer = ended
    if play_tag is None:
        return Replayed((), contract, declarer)
    cards = _words(play_tag, play_notes)
    if cards is not None and cards[-1] == "*":
        cards.pop()  # the end of the play (a claim, or no play at all)
        if not cards:
            return Replayed((), contract, declarer)  # the full replay has no card to place
    played = None if cards is None else _play(game, play_tag, cards, contract, declarer)
    if played is None:
        return None
    return Replayed((), contract, declarer, *played)


def _words(tag: TagPair, notes: list[TagPair]) -> list[str] | None:
    """The calls or cards of a plain section body whose note references and Note tags
    agree; None otherwise."""
    body = tag.body
    if not body or any(element.kind is not ElementKind.TOKENS for element in body):
        return None
    text = body[0].text if len(body) == 1 else " ".join(element.text for element in body)
    if not _PLAIN.fullmatch(text):
        return None
    words = text.split()
    used: set[int] = set()
    if "=" in text:
        plain = []
        noted = True  # nothing yet that a reference could follow
        for word in words:
            if word[0] != "=":
                plain.append(word)
                noted = False
            elif noted or not _NOTE.fullmatch(word):
                return None  # a second reference on one item, or a malformed one (SY006)
            else:
                # a number too long to read is 0, no note's index: the full replay says why
                used.add(whole_number(word[1:-1]) or 0)
                noted = True
        words = plain
    defined = set()
    for note in notes:
        index = note_index(note)
        if index is not None:
            if not 1 <= index <= 32:
                return None
            defined.add(index)
    return words if words and defined == used else None


def _auction(game: Game, tag: TagPair, calls: list[str]) -> tuple[Contract, Seat | None] | None:
    """The contract and declarer of legal calls from the dealer that end the auction
    with the last one."""
    seat = _SEATS.get(tag.value.strip().upper())
    if seat is None or seat != _SEATS.get((game.value("Dealer") or "").strip().upper()):
        return None
    bid = bidder = -1  # rank and seat of the last bid
    risk = passes = 0
    bids: list[tuple[int, int]] = []  # each bid's seat and strain, for the declarer
    closing = _CLOSING_UNBID  # passes that end the auction now
    last = len(calls) - 1
    for position, text in enumerate(calls):
        code = _CALLS.get(text)
        if code is None:
            return None
        if code < _PASS:
            if not is_sufficient(code, bid):
                return None
            bid, bidder, risk, passes, closing = code, seat, 0, 0, _CLOSING_BID
            bids.append((seat, code % 5))
        elif code == _PASS:
            passes += 1
        elif code == _DOUBLE:
            if double_fault(seat, bidder, risk) is not None:
                return None
            risk, passes = 1, 0
        elif code == _REDOUBLE:
            if redouble_fault(seat, bidder, risk) is not None:
                return None
            risk, passes = 2, 0
        else:
            passes = closing
        seat = (seat + 1) & 3
        if passes >= closing:
            if position != last:
                return None
            if bid < 0:
                return PASSED_OUT, None
            strain = bid % 5
            contract = Contract(bid // 5 + 1, STRAINS[strain], Risk(risk))
            return contract, SEATS[declarer_seat(bids, bidder, strain)]
    return None


def _play(game: Game, tag: TagPair, cards: list[str], contract: Contract | None,
          declarer: Seat | None) -> tuple[Tricks, Seat | None] | None:
    """The tricks of whole tricks of legal cards, in seat columns from the opening
    leader, and declarer as the play sees it."""
    if len(cards) % 4 or not 4 <= len(cards) <= 52:
        return None  # a short last row has unknown cards; a 14th trick is PL007
    setting, _ = setting_of(game, tag, contract, declarer)
    if setting is None or not setting.deal.is_complete:
        return None  # the setting's problems come with no setting
    first = int(setting.opening_leader)
    if _SEATS.get(tag.value.strip().upper()) != first:
        return None
    looked_up = list(map(_CARDS.get, cards))
    if None in looked_up:
        return None
    indexes = cast(list[int], looked_up)  # no None in it, as just checked
    powers = trick_powers(4 if setting.trump is None else int(setting.trump))
    hands = list(setting.deal.masks)
    won = [0, 0]
    leader = first
    for start in range(0, len(indexes), 4):
        row = indexes[start:start + 4]
        led = _SUIT[row[(leader - first) & 3]]
        power = powers[led]
        best, winner = -1, leader  # the best card's power so far, and its player
        for seat, column in _TURNS[leader][first]:
            card = row[column]
            bit, hand = _BIT[card], hands[seat]
            if not hand & bit:
                return None  # not this player's card, or played already
            hand ^= bit
            hands[seat] = hand
            if _SUIT[card] != led and holds_suit(hand, led):
                return None  # a revoke
            if power[card] > best:
                best, winner = power[card], seat
        leader = winner
        won[winner & 1] += 1
    return Tricks(won[0], won[1], len(indexes) // 4, 0, 13), setting.declarer
