"""``AU`` codes: replay an Auction section call by call and report what breaks the rules.

The replay places each call by its position from the Auction tag's seat, honours the
irregularities PBN records (``^I`` accepted insufficient bid, ``^S`` skipped player),
expands ``AP``, and stops at ``*`` or ``+``. An illegal call is reported and then
recorded anyway, so one error does not turn every later call into another.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbnkit.diagnostics import Diagnostic
from pbnkit.errors import InvalidTokenError
from pbnkit.model.auction import Auction, CallFault
from pbnkit.model.calls import DOUBLE, PASS, REDOUBLE, Call
from pbnkit.model.cards import Seat
from pbnkit.model.values import parse_or_none
from pbnkit.pbn.records import Game
from pbnkit.pbn.sections import Section, SectionItem
from pbnkit.pickling import by_fields

_FAULT_CODES = {
    CallFault.INSUFFICIENT: "AU001",
    CallFault.DOUBLE_OWN_SIDE: "AU002",
    CallFault.NOTHING_TO_DOUBLE: "AU003",
    CallFault.REDOUBLE_WITHOUT_DOUBLE: "AU004",
    CallFault.AUCTION_OVER: "AU005",
    CallFault.NOT_INSUFFICIENT: "AU012",
    CallFault.IRREGULAR_NON_BID: "AU012",
}

#: Spellings seen in real files, read as the call they mean (AU009).
_LENIENT = {"P": PASS, "PAS": PASS, "D": DOUBLE, "DBL": DOUBLE, "R": REDOUBLE, "RDBL": REDOUBLE,
            "REDBL": REDOUBLE}
_SHORT_NT = re.compile(r"([1-7])N", re.IGNORECASE)
#: Calls as PBN spells them: each word all uppercase or all lowercase (PBN 3.11).
_STANDARD_CALLS = frozenset(
    ["Pass", "pass", "X", "x", "XX", "xx"]
    + [f"{level}{strain}" for level in range(1, 8)
       for strain in ("C", "D", "H", "S", "NT", "c", "d", "h", "s", "nt")])
_MARKERS = ("*", "+")


def read_call(text: str) -> tuple[Call | None, bool]:
    """A call token as ``(call, standard)``; ``(None, False)`` when it is no call."""
    try:
        return Call.from_pbn(text), text in _STANDARD_CALLS  # any case reads
    except InvalidTokenError:
        pass
    if text.upper() in _LENIENT:
        return _LENIENT[text.upper()], False
    if _SHORT_NT.fullmatch(text):
        return Call.from_pbn(text + "T"), False
    return None, False


@by_fields
@dataclass(frozen=True, slots=True)
class AuctionOutcome:
    """What the replay of an Auction section established.

    ``auction`` is None when the section could not be replayed at all; ``reliable`` is
    False when an unreadable call made the state after it unknown. ``marker`` is ``*``,
    ``+`` or None.
    """

    auction: Auction | None
    first_seat: Seat | None
    reliable: bool
    marker: str | None

    @property
    def is_finished(self) -> bool:
        """The calls themselves ended the auction (so contract and declarer are known)."""
        return self.reliable and self.auction is not None and self.auction.is_finished


class _Replay:
    def __init__(self, game: Game, section: Section):
        self.game, self.section = game, section
        self.found: list[Diagnostic] = []

    def report(self, code: str, message: str, line: int, column: int) -> None:
        self.found.append(Diagnostic(code, message, line, column, self.game.path, self.game.board))

    def run(self) -> AuctionOutcome:
        tag, items = self.section.tag, self.section.items
        seat = parse_or_none(Seat.from_pbn, tag.value)
        dealer_text = (self.game.value("Dealer") or "").strip()
        dealer = parse_or_none(Seat.from_pbn, dealer_text)
        if seat is None and (items or tag.value.strip() not in ("", "?")):
            self.report("AU008", f"Auction seat {tag.value!r} is not W, N, E or S",
                        tag.line, tag.column)
        if dealer is None and dealer_text in ("", "?") and items:
            self.report("AU014", "auction section without a Dealer tag", tag.line, tag.column)
        if seat is None:
            seat = dealer
        if seat is None or not items:
            return AuctionOutcome(None, None, True, None)
        leading = 0
        while leading < len(items) and items[leading].text == "-":
            leading += 1
        first_seat = seat.next(leading)
        rest = items[leading:]
        opening = rest[0] if rest and rest[0].text not in _MARKERS else None
        if opening is not None and dealer is not None and first_seat is not dealer:
            self.report("AU007", f"the first call is {first_seat.name}'s but the dealer is "
                        f"{dealer.name}", opening.line, opening.column)
        return self.walk(Auction(first_seat), rest)

    def walk(self, auction: Auction, items: tuple[SectionItem, ...]) -> AuctionOutcome:
        """Calls by position from the first caller; the model records even an illegal
        call, after it is reported, so the walk goes on from what the file says."""
        marker: str | None = None
        reliable = True
        last: SectionItem | None = None
        for item in items:
            if marker is not None:
                self.report("AU011", f"{item.text} after {marker} in the auction",
                            item.line, item.column)
                break
            if item.text in _MARKERS:
                marker = item.text
                continue
            last = item
            if item.irregularity in ("R", "L"):
                self.report("AU013", f"^{item.irregularity} belongs to the play, not the auction",
                            item.line, item.column)
            if not reliable:
                continue
            if auction.is_finished:
                self.report("AU005", f"{item.text} after the auction ended "
                            f"({_ending(auction)})", item.line, item.column)
                break
            if item.text == "^S":
                auction = auction.with_skip()
            elif item.text.upper() == "AP":
                if item.irregularity == "I":
                    self.report("AU012", "^I before AP", item.line, item.column)
                for _ in range(auction.passes_to_end()):
                    auction = auction.with_call(PASS)
            else:
                auction, reliable = self.call(auction, item)
        if marker is None and reliable and not auction.is_finished:
            where = last if last is not None else (items[-1] if items else None)
            line, column = (where.line, where.column) if where else (self.section.tag.line,
                                                                      self.section.tag.column)
            self.report("AU006", f"the auction stops after {len(auction.calls)} calls without "
                        "ending (no closing passes, * or +)", line, column)
        return AuctionOutcome(auction, auction.dealer, reliable, marker)

    def call(self, auction: Auction, item: SectionItem) -> tuple[Auction, bool]:
        call, standard = read_call(item.text)
        if call is None:
            why = "'-' stands only before the first call" if item.text == "-" else "not a call"
            self.report("AU010", f"invalid call {item.text!r}: {why}; the auction is not "
                        "checked further", item.line, item.column)
            return auction, False
        if not standard:
            self.report("AU009", f"{item.text!r} is not a PBN call; read as {call}",
                        item.line, item.column)
        accepted = item.irregularity == "I"
        fault = auction.fault(call, accepted)
        if fault is not None:
            self.report(_FAULT_CODES[fault], auction.explain(call, fault), item.line, item.column)
        return auction.with_judged_call(call, fault, accepted), True


def _ending(auction: Auction) -> str:
    if auction.is_passed_out:
        return "passed out"
    declarer = auction.declarer.name if auction.declarer is not None else "?"
    return f"final contract {auction.contract} by {declarer}"


def replay_auction(game: Game, section: Section) -> tuple[AuctionOutcome, list[Diagnostic]]:
    """Replay the Auction section of ``game``; never raises."""
    replay = _Replay(game, section)
    outcome = replay.run()
    return outcome, replay.found
