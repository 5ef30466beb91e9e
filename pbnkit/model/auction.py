"""The auction as a persistent state: ``with_call()`` returns a new Auction.

Legality is a short stack of named guards (:meth:`Auction.fault`); a call that breaks
one raises :class:`~pbnkit.errors.IllegalError` from :meth:`Auction.with_call`, unless
the caller asks to ``force`` it, which the replay of faulty records needs so that one
bad call does not hide everything after it.

>>> auction = Auction.from_calls(Seat.N, "1C 1S 2H Pass 4H Pass Pass Pass")
>>> auction.contract, auction.declarer
(Contract.from_pbn('4H'), Seat.S)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Final, NamedTuple, overload

from pbnkit.errors import IllegalError
from pbnkit.model.calls import (
    DOUBLE,
    PASS,
    PASSED_OUT,
    REDOUBLE,
    Call,
    CallKind,
    Contract,
    Risk,
)
from pbnkit.model.cards import SEATS, Seat, Strain


class CallFault(enum.Enum):
    """Why a call cannot be made; the value completes "illegal call X: ..."."""

    AUCTION_OVER = "the auction has ended"
    INSUFFICIENT = "insufficient bid"
    NOT_INSUFFICIENT = "marked insufficient (^I) but it is sufficient"
    IRREGULAR_NON_BID = "only a bid can be marked insufficient (^I)"
    DOUBLE_OWN_SIDE = "double of one's own side's bid"
    NOTHING_TO_DOUBLE = "nothing to double"
    REDOUBLE_WITHOUT_DOUBLE = "no opposing double to redouble"


class AuctionCall(NamedTuple):
    """A call and the seat that made it; ``insufficient`` for an accepted ``^I`` bid.
    (A tuple: the replay makes one per call of every record.)"""

    seat: Seat
    call: Call
    insufficient: bool = False

    def __repr__(self) -> str:
        return f"AuctionCall({self.seat!r}, {self.call!r})"


class CallLog:
    """The calls of one auction state: an immutable sequence (``len``, indexing, slices
    as tuples, iteration, equality with another log or a tuple) that shares one list
    with the states before and after it.

    ``appended`` adds a call at the end of the shared list when this state is its
    longest, so that an auction of n calls is built in O(n) steps, not the O(n²) of
    copying a tuple each call; a state with later calls after it copies its own calls
    first (a branch), so no state ever sees another's calls. The list only grows, and
    each state reads only its first ``length`` entries. (One auction is built by one
    thread: two threads appending to the same state at once is not supported.)
    """

    __slots__ = ("_items", "_length")

    def __init__(self, items: list[AuctionCall], length: int) -> None:
        self._items: Final = items
        self._length: Final = length

    def appended(self, entry: AuctionCall) -> CallLog:
        """This state's calls and ``entry``."""
        items = self._items
        if self._length == 0:  # a new auction: the empty log is everyone's
            return CallLog([entry], 1)
        if len(items) != self._length:  # a branch: later calls of another state follow
            items = items[:self._length]
        items.append(entry)
        return CallLog(items, self._length + 1)

    def __len__(self) -> int:
        return self._length

    def __iter__(self) -> Iterator[AuctionCall]:
        return islice(self._items, self._length)

    @overload
    def __getitem__(self, index: int) -> AuctionCall: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[AuctionCall, ...]: ...

    def __getitem__(self, index: int | slice) -> AuctionCall | tuple[AuctionCall, ...]:
        if isinstance(index, slice):
            return tuple(self._items[:self._length][index])
        position = index + self._length if index < 0 else index
        if not 0 <= position < self._length:
            raise IndexError("call index out of range")
        return self._items[position]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CallLog):
            return self._length == other._length and (
                self._items is other._items or tuple(self) == tuple(other))
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"CallLog({tuple(self)!r})"

    def __reduce__(self) -> tuple[type[CallLog], tuple[list[AuctionCall], int]]:
        return CallLog, (list(self), self._length)  # this state's calls, not the branches'


#: the calls of an auction before the first one
NO_CALLS: Final = CallLog([], 0)

#: Every call in bidding order after Pass, X and XX, for :meth:`Auction.legal_calls`.
ALL_CALLS = (PASS, DOUBLE, REDOUBLE) + tuple(
    Call.bid(level, strain) for level in range(1, 8) for strain in Strain
)


# -- The rules of the auction on ints ----------------------------------------------------
# Auction's guards and the fast path for clean records (pbnkit.replay.clean) both call
# these: a bid by its rank (Call.rank: 1C is 0, 7NT is 34), a seat by number, the risk as
# 0, 1 or 2, and -1 for "no bid yet".

def is_sufficient(rank: int, last_rank: int) -> bool:
    """Whether a bid of ``rank`` may follow the last bid's: it must outrank it, level
    first, then C < D < H < S < NT."""
    return rank > last_rank


def double_fault(seat: int, bidder: int, risk: int) -> CallFault | None:
    """Why ``seat`` may not double the last bid, by ``bidder`` at ``risk``, or None."""
    # Only a bid not yet doubled can be doubled; passes in between are fine.
    if bidder < 0 or risk:
        return CallFault.NOTHING_TO_DOUBLE
    # Only an opponent's bid.
    if not (bidder ^ seat) & 1:
        return CallFault.DOUBLE_OWN_SIDE
    return None


def redouble_fault(seat: int, bidder: int, risk: int) -> CallFault | None:
    """Why ``seat`` may not redouble the last bid, by ``bidder`` at ``risk``, or None."""
    # Only an opponent's double of one's own side's bid, still standing.
    if risk != Risk.DOUBLED or bidder < 0 or (bidder ^ seat) & 1:
        return CallFault.REDOUBLE_WITHOUT_DOUBLE
    return None


def passes_to_close(bid_made: bool) -> int:
    """How many passes in a row end the auction: three after a bid (or a double or
    redouble of it), four when nobody has bid."""
    return 3 if bid_made else 4


def declarer_seat(bids: Iterable[tuple[int, int]], bidder: int, strain: int) -> int:
    """The declarer: of the side of ``bidder`` (who made the last bid, in ``strain``),
    the player who first named that strain. ``bids`` are each bid's seat and strain
    number, in order; the last bid is among them."""
    for seat, named in bids:
        if named == strain and not (seat ^ bidder) & 1:
            return seat
    raise AssertionError("the last bid names its own strain")  # pragma: no cover


class Auction(NamedTuple):
    """The calls made so far, from the dealer.

    ``turn`` is the seat to call next. Skipped players (PBN ``^S``: a call out of rotation
    that was accepted) leave no call behind; they only move ``turn`` on.

    A tuple, so that each call builds the next state in one cheap step (the replay makes
    one per call of every record) and no state can be changed afterwards; its calls are
    a :class:`CallLog`, which each state shares with the next, so that the step does not
    copy the calls made so far.
    """

    dealer: Seat
    calls: CallLog = NO_CALLS
    #: for each skipped player (``^S``), how many calls had been made before the skip
    skips: tuple[int, ...] = ()
    last_bid: AuctionCall | None = None
    risk: Risk = Risk.UNDOUBLED
    #: passes since the last bid, double or redouble (or since the start)
    passes: int = 0

    @classmethod
    def from_calls(cls, dealer: Seat, calls: Iterable[Call] | str) -> Auction:
        """An auction from legal calls; a string is split on blanks and read with
        :meth:`Call.from_pbn`."""
        if isinstance(calls, str):
            calls = [Call.from_pbn(text) for text in calls.split()]
        auction = cls(dealer)
        for call in calls:
            auction = auction.with_call(call)
        return auction

    def __repr__(self) -> str:
        if not self.skips and not any(entry.insufficient for entry in self.calls):
            calls = " ".join(entry.call.pbn() for entry in self.calls)
            return f"Auction.from_calls({self.dealer!r}, {calls!r})"
        steps = []
        for index, entry in enumerate((*self.calls, None)):
            steps += [".with_skip()"] * self.skips.count(index)
            if entry is not None:
                accepted = ", insufficient_accepted=True" if entry.insufficient else ""
                steps.append(f".with_call({entry.call!r}{accepted})")
        return f"Auction({self.dealer!r})" + "".join(steps)

    def _repr_html_(self) -> str | None:
        """Jupyter's view: the calls under W, N, E, S (see :mod:`pbnkit.views`)."""
        from pbnkit.views import html

        return html("auction", self)

    @property
    def turn(self) -> Seat:
        """The seat to call next."""
        return SEATS[(self.dealer + len(self.calls) + len(self.skips)) % 4]

    @property
    def is_passed_out(self) -> bool:
        """Four passes and no bid."""
        return self.last_bid is None and self.passes >= passes_to_close(False)

    @property
    def is_finished(self) -> bool:
        """Three passes after a bid, double or redouble, or passed out."""
        return self.passes >= passes_to_close(self.last_bid is not None)

    @property
    def contract(self) -> Contract | None:
        """The final contract (``PASSED_OUT`` after four passes); None while the auction
        is still open."""
        if not self.is_finished:
            return None
        return self.standing_contract

    @property
    def standing_contract(self) -> Contract | None:
        """The contract if the auction ended now; None before the first bid."""
        if self.last_bid is None:
            return PASSED_OUT if self.is_passed_out else None
        call = self.last_bid.call
        return Contract(call.level, call.strain, self.risk)

    @property
    def declarer(self) -> Seat | None:
        """The player of the side that won the contract who first named its strain;
        None while the auction is open or when it was passed out."""
        if not self.is_finished or self.last_bid is None:
            return None
        last = self.last_bid
        assert last.call.strain is not None  # a bid's
        bids = ((entry.seat, entry.call.strain) for entry in self.calls
                if entry.call.strain is not None)  # the bids
        return SEATS[declarer_seat(bids, last.seat, last.call.strain)]

    def fault(self, call: Call, insufficient_accepted: bool = False) -> CallFault | None:
        """Why ``call`` may not be made now by the seat whose turn it is, or None."""
        seat, bid = self.turn, self.last_bid
        # Three passes closed the auction: nothing may follow.
        if self.is_finished:
            return CallFault.AUCTION_OVER
        # ^I marks bids only: an irregular double or redouble must be withdrawn (PBN 3.9).
        if insufficient_accepted and not call.is_bid:
            return CallFault.IRREGULAR_NON_BID
        if call.is_bid:
            sufficient = is_sufficient(call.rank, -1 if bid is None else bid.call.rank)
            # A bid must outrank the last one: level first, then C < D < H < S < NT.
            if not sufficient and not insufficient_accepted:
                return CallFault.INSUFFICIENT
            # ^I on a bid that needed no acceptance describes something that did not happen.
            if sufficient and insufficient_accepted:
                return CallFault.NOT_INSUFFICIENT
        elif call.kind is CallKind.DOUBLE:
            return double_fault(seat, -1 if bid is None else bid.seat, self.risk)
        elif call.kind is CallKind.REDOUBLE:
            return redouble_fault(seat, -1 if bid is None else bid.seat, self.risk)
        return None

    def is_legal(self, call: Call, insufficient_accepted: bool = False) -> bool:
        return self.fault(call, insufficient_accepted) is None

    def legal_calls(self) -> tuple[Call, ...]:
        """Every call the player to act may make (none once the auction has ended)."""
        return tuple(call for call in ALL_CALLS if self.fault(call) is None)

    def with_call(self, call: Call, insufficient_accepted: bool = False, *,
                  force: bool = False) -> Auction:
        """The auction after ``call`` by the seat whose turn it is.

        ``insufficient_accepted`` is PBN's ``^I``: the opponents accepted an insufficient
        bid, which then stands as if it were sufficient. ``force`` records a call that
        breaks a rule anyway (a double or redouble then doubles the last bid, if there is
        one); nothing can be recorded after the auction has ended.

        Raises :class:`IllegalError` naming the call and the reason.
        """
        fault = self.fault(call, insufficient_accepted)
        if fault is not None and not force:
            raise IllegalError(self.explain(call, fault))
        return self.with_judged_call(call, fault, insufficient_accepted)

    def with_judged_call(self, call: Call, fault: CallFault | None,
                         insufficient_accepted: bool = False) -> Auction:
        """The auction after ``call``, forced past ``fault``: what :meth:`fault` has just
        said of that call with the same flag. A replay that reports a call's fault and
        then records it anyway checks each call once this way; like
        ``with_call(force=True)`` it raises :class:`IllegalError` after the auction ended.
        """
        if fault is CallFault.AUCTION_OVER:
            raise IllegalError(self.explain(call, fault))
        entry = AuctionCall(self.turn, call, insufficient_accepted and fault is None)
        dealer, calls, skips = self.dealer, self.calls.appended(entry), self.skips
        if call.is_bid:
            return Auction(dealer, calls, skips, entry, Risk.UNDOUBLED, 0)
        if call.kind is CallKind.PASS:
            return Auction(dealer, calls, skips, self.last_bid, self.risk, self.passes + 1)
        risk = self.risk
        if self.last_bid is not None:
            risk = max(risk, Risk.DOUBLED if call.kind is CallKind.DOUBLE else Risk.REDOUBLED)
        return Auction(dealer, calls, skips, self.last_bid, risk, 0)

    def explain(self, call: Call, fault: CallFault) -> str:
        """A lowercase message naming the call, its seat and the reason."""
        context = ""
        if self.last_bid is not None and fault is not CallFault.AUCTION_OVER:
            context = f" (last bid {self.last_bid.call} by {self.last_bid.seat.name}"
            context += f", {self.risk.pbn()})" if self.risk else ")"
        return f"illegal call {call} by {self.turn.name}: {fault.value}{context}"

    def with_skip(self) -> Auction:
        """The auction after the player to act was skipped (PBN ``^S``): someone called
        out of rotation and the opponents accepted it, so the turn moves on."""
        if self.is_finished:
            raise IllegalError(f"cannot skip {self.turn.name}: {CallFault.AUCTION_OVER.value}")
        return Auction(self.dealer, self.calls, self.skips + (len(self.calls),), self.last_bid,
                       self.risk, self.passes)

    def passes_to_end(self) -> int:
        """How many passes would end the auction now (what PBN's ``AP`` stands for)."""
        if self.is_finished:
            return 0
        return passes_to_close(self.last_bid is not None) - self.passes
