"""The play as a persistent state: ``with_card()`` returns a new Play.

A Play starts from a :class:`Deal` (hands may be unknown), the trump strain and the
opening leader. Legality is the guard stack of :meth:`Play.fault`; the replay of faulty
records may ``force`` a card past a rule so that one error does not hide the rest.

Unknown cards (PBN ``-``) are allowed: they use up a card of the hand without saying
which, so a trick holding one may have no known winner, and then neither is the leader
of the next trick. Cards of such a trick are given with their seat.

The replay asks for every card of every record whether it may be played, so the state is
built for that: cards played are a bit set (see :attr:`Card.bit`), following suit is a
mask test against the deal's hands, and the leader, the turn and the tricks won are kept
up to date card by card instead of being recounted. A new state is a tuple built in one
step, never a copy of a dataclass.

>>> from pbnkit.model.deal import Deal
>>> deal = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
>>> play = Play(deal, Strain.S, Seat.E).with_card(Card.from_pbn("CA"))
>>> play.turn, [card.pbn() for card in play.legal_cards()]
(Seat.S, ['CT', 'C9', 'C8'])
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from pbnkit.errors import IllegalError
from pbnkit.model.cards import DECK, SEATS, SUIT_MASKS, Card, Seat, Side, Strain, Suit
from pbnkit.model.deal import Deal


class CardFault(enum.Enum):
    """Why a card cannot be played; the value completes "illegal card X: ..."."""

    PLAY_OVER = "all tricks have been played"
    OUT_OF_TURN = "not this player's turn"
    LEADER_UNKNOWN = "the previous trick's winner is unknown, so the seat must be given"
    ALREADY_IN_TRICK = "the player has already played to this trick"
    LEAD_NOT_FIRST = "a lead out of turn (^L) must be the first card of a trick"
    RIGHTFUL_LEADER = "marked as a lead out of turn (^L) but it is the player's turn to lead"
    ALREADY_PLAYED = "the card has already been played"
    NOT_HELD = "the card is not in the player's hand"
    HELD_BY_OTHER = "the card is in another player's hand"
    REVOKE = "revoke: the player does not follow suit but holds the suit led"
    NOT_A_REVOKE = "marked as a revoke (^R) but it is not one"


#: Faults that describe an impossible sequence rather than a broken rule: ``force``
#: cannot record a card past them.
_STRUCTURAL = frozenset({
    CardFault.PLAY_OVER, CardFault.OUT_OF_TURN, CardFault.LEADER_UNKNOWN,
    CardFault.ALREADY_IN_TRICK, CardFault.LEAD_NOT_FIRST,
})


@dataclass(frozen=True, slots=True)
class PlayedCard:
    """A card and its player; ``card`` is None for an unknown card (PBN ``-``)."""

    seat: Seat
    card: Card | None

    def __repr__(self) -> str:
        return f"PlayedCard({self.seat!r}, {self.card!r})"


#: Every PlayedCard there can be, shared: ``_PLAYED[seat][card.index]``, and index 52 for
#: an unknown card. The replay records 52 of them per record.
_PLAYED = tuple(tuple(PlayedCard(seat, card) for card in DECK + (None,)) for seat in SEATS)
_UNKNOWN = 52


@dataclass(frozen=True, slots=True)
class Trick:
    """Up to four cards in the order played; when ``leader`` is None (unknown) in the
    order given. ``winner`` is set once the trick is complete and the winner is known."""

    leader: Seat | None
    cards: tuple[PlayedCard, ...] = ()
    winner: Seat | None = None

    @property
    def is_complete(self) -> bool:
        return len(self.cards) == 4

    @property
    def suit_led(self) -> Suit | None:
        """The suit of the first card, if the leader and that card are known."""
        if self.leader is None or not self.cards or self.cards[0].card is None:
            return None
        return self.cards[0].card.suit

    def card(self, seat: Seat) -> Card | None:
        for played in self.cards:
            if played.seat is seat:
                return played.card
        return None

    def has_played(self, seat: Seat) -> bool:
        return any(played.seat is seat for played in self.cards)

    def pbn(self) -> str:
        return " ".join("-" if p.card is None else p.card.pbn() for p in self.cards)

    def finished(self, trump: Suit | None) -> Trick:
        """This trick with its winner: the highest trump, else the highest card of the
        suit led. Unknown when any card is unknown, or when the leader is unknown and
        the cards leave it open (no trump, and more than one suit)."""
        winner = _winner(self.cards, self.suit_led, trump)
        return self if winner is None else replace(self, winner=winner)


# -- The rules of the play on ints ---------------------------------------------------------
# Play's guards and the fast path for clean records (pbnkit.replay.clean) both call these:
# a card by its deck index (Card.index), a hand as a bit set (Card.bit), a suit by number
# and the trump as a strain number (4: no trumps).

def holds_suit(hand: int, suit: int) -> bool:
    """Whether a hand (the cards it has left) holds a card of ``suit``: then it must
    follow that suit when it is led, and any other card is a revoke."""
    return bool(hand & SUIT_MASKS[suit])


def trick_powers(trump: int) -> tuple[tuple[int, ...], ...]:
    """What each card is worth in a trick at ``trump`` (a strain number, 4 at no
    trumps), by the suit led and the card's deck index: the card worth most wins."""
    return _POWER[trump]


def trick_winner(cards: Sequence[int], trump: int, lead: int = 0) -> int:
    """Which of a trick's cards wins it, as its place in ``cards``: the highest trump,
    else the highest card of the suit led. ``lead`` is the place of the card led (the
    other cards' order does not matter); ``trump`` as for :func:`trick_powers`."""
    power = _POWER[trump][cards[lead] // 13]
    worth = [power[card] for card in cards]
    return worth.index(max(worth))


#: _POWER[trump][led][card]: a trump beats any card of the suit led, which beats any
#: other card, and in one suit the higher card wins.
_POWER = tuple(tuple(tuple(52 + card if card // 13 == trump else card if card // 13 == led
                           else -1 for card in range(52))
                     for led in range(4)) for trump in range(5))


def _winner(cards: tuple[PlayedCard, ...], led: Suit | None, trump: Suit | None) -> Seat | None:
    """Who wins four cards (see :meth:`Trick.finished`); ``led`` is None when the
    leader is unknown, and then the order of ``cards`` is not the order played."""
    indexes = []
    suits = 0  # the suits of the cards, a bit each
    for played in cards:
        if played.card is None:
            return None
        indexes.append(played.card.index)
        suits |= 1 << played.card.suit
    strain = 4 if trump is None else int(trump)
    if led is None and not (strain < 4 and suits >> strain & 1) and suits & (suits - 1):
        return None  # no trump, and more than one suit: which was led decides
    # With the leader unknown, the cards are one suit or hold a trump: whichever was led,
    # the same card wins.
    return cards[trick_winner(indexes, strain)].seat


class _PlayState(NamedTuple):
    """The fields of a :class:`Play`. A tuple, so that each card builds the next state
    in one cheap step and no state can be changed afterwards."""

    deal: Deal
    trump: Strain | None
    opening_leader: Seat
    #: the completed tricks
    tricks: tuple[Trick, ...]
    #: who leads (or led) the trick in progress; None when it cannot be known
    leader: Seat | None
    #: the seat to play next; None once the play is over or the leader is unknown
    turn: Seat | None
    #: the cards of the trick in progress, in the order played
    trick_cards: tuple[PlayedCard, ...]
    #: the suit of the trick's first card, if the leader and that card are known
    suit_led: Suit | None
    #: every known card played so far, as a bit set
    played_mask: int
    #: how many unknown cards (``-``) each seat has played
    unknown: tuple[int, int, int, int]
    #: completed tricks won by North-South and by East-West
    won: tuple[int, int]
    #: completed tricks whose winner is unknown
    unknown_tricks: int
    #: 13, or the hand size of an end position
    total_tricks: int


class Play(_PlayState):
    """The cards played so far, trick by trick."""

    __slots__ = ()

    def __new__(cls, deal: Deal, trump: Strain | None, opening_leader: Seat) -> Play:
        size = deal.hand_size
        total = size if size is not None and 0 < size < 13 else 13
        return tuple.__new__(cls, (deal, trump, opening_leader, (), opening_leader,
                                   opening_leader, (), None, 0, (0, 0, 0, 0), (0, 0), 0, total))

    def __repr__(self) -> str:
        return (f"Play({self.deal!r}, {self.trump!r}, {self.opening_leader!r}) "
                f"after {len(self.tricks)} tricks")

    def _repr_html_(self) -> str | None:
        """Jupyter's view: the tricks with their lead and winner (see :mod:`pbnkit.views`)."""
        from pbnkit.views import html

        return html("play", self)

    @property
    def trump_suit(self) -> Suit | None:
        return None if self.trump is None else self.trump.suit

    @property
    def is_complete(self) -> bool:
        return len(self.tricks) >= self.total_tricks

    @property
    def current(self) -> Trick | None:
        """The trick in progress; None between tricks."""
        return Trick(self.leader, self.trick_cards) if self.trick_cards else None

    @property
    def trick(self) -> Trick:
        """The trick in progress (empty between tricks)."""
        return Trick(self.leader, self.trick_cards)

    @property
    def played(self) -> frozenset[Card]:
        """Every known card played so far."""
        return frozenset(card for card in DECK if self.played_mask & card.bit)

    def tricks_won(self, side: Side) -> int:
        """Completed tricks with a known winner on ``side``."""
        return self.won[0] if side is Side.NS else self.won[1]

    def can_follow(self, seat: Seat, suit: Suit) -> bool | None:
        """Whether ``seat`` still holds a card of ``suit``: True, False, or None when
        unknown cards leave it open."""
        deal = self.deal
        if not deal.given >> seat & 1:  # an unknown hand
            # Cards of the suit that are neither played nor in a known hand.
            outstanding = SUIT_MASKS[suit] & ~self.played_mask & ~deal.held
            return False if not outstanding else None
        hand = deal.masks[seat] & ~self.played_mask
        if not self.unknown[seat]:
            return holds_suit(hand, suit)
        # Unknown cards (-) the seat played may have been of the suit.
        left = (hand & SUIT_MASKS[suit]).bit_count()
        if left > self.unknown[seat]:
            return True
        return False if left == 0 else None

    def fault(self, card: Card, revoke_accepted: bool = False, *, seat: Seat | None = None,
              lead_out_of_turn: bool = False) -> CardFault | None:
        """Why ``card`` may not be played now, or None. ``seat`` is who plays it: by
        default the seat whose turn it is. See :meth:`with_card` for the flags."""
        played_seat, fault = self._seat_fault(seat, lead_out_of_turn)
        if fault is not None:
            return fault
        assert played_seat is not None
        return self._card_fault(card, played_seat, revoke_accepted, lead_out_of_turn)

    def _card_fault(self, card: Card, seat: Seat, revoke_accepted: bool,
                    lead_out_of_turn: bool) -> CardFault | None:
        """Whether ``seat``, who may play now, may play ``card``."""
        bit, deal = card.bit, self.deal
        # A card is played once.
        if self.played_mask & bit:
            return CardFault.ALREADY_PLAYED
        if deal.given >> seat & 1:
            # Only from one's own hand.
            if not deal.masks[seat] & bit:
                return CardFault.NOT_HELD
        # An unknown hand cannot hold a card that a known hand holds.
        elif deal.held & bit:
            return CardFault.HELD_BY_OTHER
        led = None if lead_out_of_turn else self.suit_led
        able = None if led is None or card.suit is led else self.can_follow(seat, led)
        # Follow suit when able.
        if able is True and not revoke_accepted:
            return CardFault.REVOKE
        # ^R only on a card that fails to follow while the player (possibly) could: not on a
        # lead, a card of the suit led, or a discard from a known void.
        if revoke_accepted and (led is None or card.suit is led or able is False):
            return CardFault.NOT_A_REVOKE
        return None

    def _seat_fault(self, seat: Seat | None,
                    lead_out_of_turn: bool) -> tuple[Seat | None, CardFault | None]:
        """Who plays, and whether they may play now at all."""
        turn = self.turn
        if turn is not None and not lead_out_of_turn:
            # Clockwise from the leader (the usual case, so it is tested first: a known
            # turn means the play is not over).
            if seat is not None and seat is not turn:
                return seat, CardFault.OUT_OF_TURN
            return turn, None
        # Thirteen tricks (or an end position's hand size) end the play.
        if len(self.tricks) >= self.total_tricks:
            return seat, CardFault.PLAY_OVER
        if lead_out_of_turn:
            # The wrong leader starts a trick; the rest follow clockwise from them.
            if seat is None or self.trick_cards:
                return seat, CardFault.LEAD_NOT_FIRST
            if seat is self.leader:
                return seat, CardFault.RIGHTFUL_LEADER
            return seat, None
        # After a trick with an unknown winner only the caller knows who plays.
        if seat is None:
            return seat, CardFault.LEADER_UNKNOWN
        if any(played.seat is seat for played in self.trick_cards):
            return seat, CardFault.ALREADY_IN_TRICK
        return seat, None

    def explain(self, card: Card | None, fault: CardFault, seat: Seat | None = None) -> str:
        """A lowercase message naming the card, its seat and the reason."""
        if seat is None:
            seat = self.turn
        who = f" by {seat.name}" if seat is not None else ""
        text = "-" if card is None else card.pbn()
        detail = ""
        if fault in (CardFault.HELD_BY_OTHER, CardFault.NOT_HELD) and card is not None:
            holder = self.deal.holder(card)
            detail = f" ({holder.name} holds it)" if holder is not None else ""
        elif fault in (CardFault.REVOKE, CardFault.NOT_A_REVOKE):
            led = self.suit_led
            detail = f" ({led.name} led)" if led is not None else ""
        return f"illegal card {text}{who}: {fault.value}{detail}"

    def legal_cards(self) -> tuple[Card, ...]:
        """The cards the player to act may play (none if that player is unknown)."""
        seat = self.turn
        if seat is None:
            return ()
        hand = self.deal[seat]
        candidates = DECK if hand is None else hand.cards
        return tuple(c for c in sorted(candidates, reverse=True) if self.fault(c) is None)

    def with_card(self, card: Card, revoke_accepted: bool = False, *, seat: Seat | None = None,
                  lead_out_of_turn: bool = False, force: bool = False) -> Play:
        """The play after ``card``.

        * ``revoke_accepted`` is PBN ``^R``: a revoke that was not noticed in time.
        * ``seat`` says who plays: needed only after a trick with an unknown winner.
        * ``lead_out_of_turn`` is PBN ``^L``: ``seat`` led although it was not their
          turn, the opponents accepted, and the trick goes on clockwise from them.
        * ``force`` records the card even if it breaks a rule (not held, revoke...).

        Raises :class:`IllegalError` naming the card and the reason.
        """
        played_seat, fault = self._seat_fault(seat, lead_out_of_turn)
        if fault is None:
            assert played_seat is not None
            fault = self._card_fault(card, played_seat, revoke_accepted, lead_out_of_turn)
        if fault is not None and not force:
            raise IllegalError(self.explain(card, fault, played_seat))
        return self.with_judged_card(card, fault, played_seat, lead_out_of_turn)

    def with_judged_card(self, card: Card, fault: CardFault | None, seat: Seat | None,
                         lead_out_of_turn: bool = False) -> Play:
        """The play after ``card`` by ``seat``, forced past ``fault``: what :meth:`fault`
        has just said of that card with the same seat and flags.

        A replay that reports a card's fault and then records it anyway checks each card
        once this way. Like ``with_card(force=True)``, it raises :class:`IllegalError` for
        a fault that no card can be recorded past (a play that is over, a wrong turn).
        """
        if fault is not None and fault in _STRUCTURAL:
            raise IllegalError(self.explain(card, fault, seat))
        assert seat is not None  # only a structural fault leaves the seat open
        return self._add(_PLAYED[seat][card.index], card, lead_out_of_turn)

    def with_unknown_card(self, seat: Seat | None = None, *,
                          lead_out_of_turn: bool = False) -> Play:
        """The play after an unknown card (PBN ``-``) by ``seat`` (default: the turn);
        ``seat`` and ``lead_out_of_turn`` as for :meth:`with_card`."""
        played_seat, fault = self._seat_fault(seat, lead_out_of_turn)
        if fault is CardFault.RIGHTFUL_LEADER:
            fault, lead_out_of_turn = None, False
        if fault is not None:
            raise IllegalError(self.explain(None, fault, played_seat))
        assert played_seat is not None
        return self._add(_PLAYED[played_seat][_UNKNOWN], None, lead_out_of_turn)

    def _add(self, played: PlayedCard, card: Card | None, lead_out_of_turn: bool) -> Play:
        """The next state: ``played`` joins the trick, which ends at its fourth card."""
        if lead_out_of_turn:
            leader: Seat | None = played.seat
            cards: tuple[PlayedCard, ...] = (played,)
        else:
            leader, cards = self.leader, self.trick_cards + (played,)
        played_mask, unknown = self.played_mask, self.unknown
        if card is None:
            counts = list(unknown)
            counts[played.seat] += 1
            unknown = (counts[0], counts[1], counts[2], counts[3])
        else:
            played_mask |= card.bit
        if len(cards) == 1:
            suit_led = card.suit if card is not None and leader is not None else None
        else:
            suit_led = self.suit_led
        if len(cards) < 4:
            turn = None if leader is None else SEATS[(leader + len(cards)) % 4]
            return tuple.__new__(Play, (
                self.deal, self.trump, self.opening_leader, self.tricks, leader, turn, cards,
                suit_led, played_mask, unknown, self.won, self.unknown_tricks,
                self.total_tricks))
        winner = _winner(cards, suit_led, self.trump_suit)
        tricks = self.tricks + (Trick(leader, cards, winner),)
        won, unknown_tricks = self.won, self.unknown_tricks
        if winner is None:
            unknown_tricks += 1
        elif winner & 1:  # E and W are the odd seats
            won = (won[0], won[1] + 1)
        else:
            won = (won[0] + 1, won[1])
        turn = None if len(tricks) >= self.total_tricks else winner
        return tuple.__new__(Play, (
            self.deal, self.trump, self.opening_leader, tricks, winner, turn, (), None,
            played_mask, unknown, won, unknown_tricks, self.total_tricks))
