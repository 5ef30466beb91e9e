"""The play as a persistent state: ``with_card()`` returns a new Play.

A Play starts from a :class:`Deal` (hands may be unknown), the trump strain and the
opening leader. Legality is the guard stack of :meth:`Play.fault`; the replay of faulty
records may ``force`` a card past a rule so that one error does not hide the rest.

Unknown cards (PBN ``-``) are allowed: they use up a card of the hand without saying
which, so a trick holding one may have no known winner, and then neither is the leader
of the next trick. Cards of such a trick are given with their seat.

>>> from pbnkit.model.deal import Deal
>>> deal = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
>>> play = Play(deal, Strain.S, Seat.E).with_card(Card.from_pbn("CA"))
>>> play.turn, [card.pbn() for card in play.legal_cards()]
(Seat.S, ['CT', 'C9', 'C8'])
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

from pbnkit.errors import IllegalError
from pbnkit.model.cards import DECK, Card, Seat, Side, Strain, Suit
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
        cards = [played.card for played in self.cards]
        if any(card is None for card in cards):
            return self
        suits = {card.suit for card in cards if card is not None}
        led = self.suit_led
        if led is None and trump not in suits and len(suits) > 1:
            return self
        if led is None:
            led = suits.pop()

        def strength(played: PlayedCard) -> int:
            card = played.card
            assert card is not None
            if card.suit is trump:
                return 100 + card.rank
            return card.rank if card.suit is led else 0
        return replace(self, winner=max(self.cards, key=strength).seat)


@dataclass(frozen=True, slots=True)
class Play:
    """The cards played so far, trick by trick."""

    deal: Deal
    trump: Strain | None
    opening_leader: Seat
    tricks: tuple[Trick, ...] = ()
    #: the trick in progress; None between tricks
    current: Trick | None = None
    #: every known card played so far
    played: frozenset[Card] = frozenset()
    #: how many unknown cards (``-``) each seat has played
    unknown: tuple[int, int, int, int] = (0, 0, 0, 0)

    def __repr__(self) -> str:
        return (f"Play({self.deal!r}, {self.trump!r}, {self.opening_leader!r}) "
                f"after {len(self.tricks)} tricks")

    @property
    def trump_suit(self) -> Suit | None:
        return None if self.trump is None else self.trump.suit

    @property
    def total_tricks(self) -> int:
        """13, or the hand size of an end position."""
        size = self.deal.hand_size
        return size if size is not None and 0 < size < 13 else 13

    @property
    def is_complete(self) -> bool:
        return len(self.tricks) >= self.total_tricks

    @property
    def leader(self) -> Seat | None:
        """Who leads (or led) the current trick; None when it cannot be known."""
        if self.current is not None:
            return self.current.leader
        if not self.tricks:
            return self.opening_leader
        return self.tricks[-1].winner

    @property
    def turn(self) -> Seat | None:
        """The seat to play next; None once the play is over or the leader is unknown."""
        leader = self.leader
        if self.is_complete or leader is None:
            return None
        return leader.next(len(self.current.cards) if self.current else 0)

    @property
    def trick(self) -> Trick:
        """The trick in progress (empty between tricks)."""
        return self.current if self.current is not None else Trick(self.leader)

    def tricks_won(self, side: Side) -> int:
        """Completed tricks with a known winner on ``side``."""
        return sum(1 for trick in self.tricks if trick.winner is not None
                   and trick.winner.side is side)

    @property
    def unknown_tricks(self) -> int:
        """Completed tricks whose winner is unknown."""
        return sum(1 for trick in self.tricks if trick.winner is None)

    def can_follow(self, seat: Seat, suit: Suit) -> bool | None:
        """Whether ``seat`` still holds a card of ``suit``: True, False, or None when
        unknown cards leave it open."""
        hand = self.deal[seat]
        if hand is None:
            outstanding = [c for c in DECK if c.suit is suit and c not in self.played
                           and self.deal.holder(c) is None]
            return False if not outstanding else None
        left = sum(1 for card in hand.suit(suit) if card not in self.played)
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
        hand = self.deal[played_seat]
        # A card is played once.
        if card in self.played:
            return CardFault.ALREADY_PLAYED
        # Only from one's own hand.
        if hand is not None and card not in hand:
            return CardFault.NOT_HELD
        # An unknown hand cannot hold a card that a known hand holds.
        if hand is None and self.deal.holder(card) is not None:
            return CardFault.HELD_BY_OTHER
        led = None if lead_out_of_turn else self.trick.suit_led
        able = None if led is None or card.suit is led else self.can_follow(played_seat, led)
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
        trick = self.trick
        # Thirteen tricks (or an end position's hand size) end the play.
        if self.is_complete:
            return seat, CardFault.PLAY_OVER
        if lead_out_of_turn:
            # The wrong leader starts a trick; the rest follow clockwise from them.
            if seat is None or trick.cards:
                return seat, CardFault.LEAD_NOT_FIRST
            if seat is trick.leader:
                return seat, CardFault.RIGHTFUL_LEADER
            return seat, None
        turn = self.turn
        if turn is None:
            # After a trick with an unknown winner only the caller knows who plays.
            if seat is None:
                return seat, CardFault.LEADER_UNKNOWN
            if trick.has_played(seat):
                return seat, CardFault.ALREADY_IN_TRICK
            return seat, None
        # Clockwise from the leader.
        if seat is not None and seat is not turn:
            return seat, CardFault.OUT_OF_TURN
        return turn, None

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
            led = self.trick.suit_led
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
        played_seat, _ = self._seat_fault(seat, lead_out_of_turn)
        fault = self.fault(card, revoke_accepted, seat=seat, lead_out_of_turn=lead_out_of_turn)
        if fault is not None and (fault in _STRUCTURAL or not force):
            raise IllegalError(self.explain(card, fault, played_seat))
        assert played_seat is not None
        return self._add(PlayedCard(played_seat, card), lead_out_of_turn)

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
        return self._add(PlayedCard(played_seat, None), lead_out_of_turn)

    def _add(self, played: PlayedCard, lead_out_of_turn: bool) -> Play:
        trick = Trick(played.seat) if lead_out_of_turn else self.trick
        trick = replace(trick, cards=trick.cards + (played,))
        unknown, known = self.unknown, self.played
        if played.card is None:
            counts = list(unknown)
            counts[played.seat] += 1
            unknown = (counts[0], counts[1], counts[2], counts[3])
        else:
            known = known | {played.card}
        if trick.is_complete:
            return replace(self, tricks=self.tricks + (trick.finished(self.trump_suit),),
                           current=None, played=known, unknown=unknown)
        return replace(self, current=trick, played=known, unknown=unknown)
