"""``SC`` codes about the outcome of a deal: the Contract, Declarer and Result tags
checked against the replayed auction and play.

A tag value that cannot be read at all is the tag checks' business (``TG``); here such a
value is simply not compared. Values with a leading ``^`` record an irregularity (PBN
3.9, 3.4.15) and are honoured, not flagged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbnkit.diagnostics import Code, Diagnostic, Severity, register
from pbnkit.model.auction import Auction
from pbnkit.model.calls import PASSED_OUT, Contract, Risk
from pbnkit.model.cards import Seat, Side, Strain
from pbnkit.model.play import Play
from pbnkit.pbn.records import Game

E = Severity.ERROR

OUTCOME = register(
    Code("SC001", "contract-mismatch", E, "The Contract tag disagrees with the auction.",
         "The contract is the last bid, doubled or redoubled if a double or redouble stands "
         "on it (RULES 1.1).", '1S Pass Pass X AP with [Contract "1S"]',
         'Write [Contract "1SX"], or correct the auction.'),
    Code("SC002", "declarer-mismatch", E, "The Declarer tag disagrees with the auction.",
         "Declarer is the player of the side that won the contract who first named its "
         "strain (RULES 1.1). When declarer and dummy were swapped, write ^ and the seat "
         "that actually declared (PBN 3.4.13).", "N 1C, E 1S, S 2H, N 4H, all pass with "
         '[Declarer "N"]', 'Write [Declarer "S"].'),
    Code("SC003", "result-mismatch", E, "The Result tag disagrees with the tricks played.",
         "After 13 tricks Result is declarer's tricks; after * (a claim) it is the total, "
         "at least the tricks already won; for an unfinished play it may be the partial "
         "count (PBN 3.4.15). A table agreement that differs is written with ^.",
         'ten tricks won by declarer in the play, [Result "9"]',
         'Correct the Result, or write [Result "^9"] if 9 was agreed at the table.'),
)

_CONTRACT = re.compile(r"\s*([1-7])(NT|N|[CDHS])(XX|X|R)?\s*", re.IGNORECASE)
_RESULT_SIDES = re.compile(r"(NS|EW)\s+(\d{1,2})(?:\s+(NS|EW)\s+(\d{1,2}))?", re.IGNORECASE)


def read_contract(text: str | None) -> Contract | None:
    """A Contract tag value, leniently (``1N``, ``4Sx``, ``3NR`` as real files write
    them); None when empty, unknown or unreadable."""
    if text is None:
        return None
    if text.strip().upper() == "PASS":
        return PASSED_OUT
    match = _CONTRACT.fullmatch(text)
    if match is None:
        return None
    strain = Strain.NT if match[2].upper() in ("N", "NT") else Strain.from_pbn(match[2])
    risk = {"": Risk.UNDOUBLED, "X": Risk.DOUBLED}.get((match[3] or "").upper(), Risk.REDOUBLED)
    return Contract(int(match[1]), strain, risk)


@dataclass(frozen=True, slots=True)
class DeclarerTag:
    """A Declarer tag value: the seat, and whether it is the irregular ``^`` form, where
    that seat declared although its partner should have (dummy and declarer swapped)."""

    seat: Seat
    swapped: bool = False

    @property
    def auction_declarer(self) -> Seat:
        """Who the auction made declarer."""
        return self.seat.partner if self.swapped else self.seat


def read_declarer(text: str | None) -> DeclarerTag | None:
    value = (text or "").strip().upper()
    swapped = value.startswith("^")
    value = value[1:] if swapped else value
    if value not in ("N", "E", "S", "W"):
        return None
    return DeclarerTag(Seat.from_pbn(value), swapped)


@dataclass(frozen=True, slots=True)
class ResultTag:
    """A Result tag value: declarer's tricks (bare form) or tricks by side."""

    declarer_tricks: int | None
    sides: tuple[tuple[Side, int], ...] = ()
    wrong_agreement: bool = False


def read_result(text: str | None) -> ResultTag | None:
    """``9``, ``NS 9``, ``EW 4 NS 9``, each optionally after ``^``; None otherwise."""
    value = (text or "").strip()
    wrong = value.startswith("^")
    value = value[1:].strip() if wrong else value
    if value.isdigit() and int(value) <= 13:
        return ResultTag(int(value), (), wrong)
    match = _RESULT_SIDES.fullmatch(value)
    if match is None:
        return None
    sides = [(Side(match[1].upper()), int(match[2]))]
    if match[3]:
        sides.append((Side(match[3].upper()), int(match[4])))
    if len({side for side, _ in sides}) != len(sides) or any(n > 13 for _, n in sides):
        return None
    return ResultTag(None, tuple(sides), wrong)


def _report(game: Game, code: str, message: str, tag_name: str) -> Diagnostic:
    tag = game.tag(tag_name)
    line, column = (tag.line, tag.column) if tag is not None else (game.line, 1)
    return Diagnostic(code, message, line, column, game.path, game.board)


def check_contract(game: Game, auction: Auction) -> list[Diagnostic]:
    """Contract and Declarer tags against a finished auction."""
    found = []
    contract = auction.contract
    written = read_contract(game.value("Contract"))
    if contract is not None and written is not None and written != contract:
        found.append(_report(game, "SC001", f"Contract {game.value('Contract')!r} but the "
                             f"auction ends in {contract}", "Contract"))
    declarer = read_declarer(game.value("Declarer"))
    if auction.is_passed_out:
        if declarer is not None:
            found.append(_report(game, "SC002", f"Declarer {game.value('Declarer')!r} but the "
                                 "auction was passed out", "Declarer"))
    elif declarer is not None and declarer.auction_declarer is not auction.declarer:
        assert auction.declarer is not None
        swapped = f" (^ means its partner {declarer.auction_declarer.name} was declarer)" \
            if declarer.swapped else ""
        found.append(_report(game, "SC002", f"Declarer {game.value('Declarer')!r}{swapped} but "
                             f"the auction makes {auction.declarer.name} declarer"
                             f"{_shift_hint(auction.declarer, declarer.auction_declarer)}",
                             "Declarer"))
    return found


def _shift_hint(found: Seat, expected: Seat) -> str:
    """Some writers leave out the passes before the opening bid; the tell-tale sign is a
    declarer off by the same rotation."""
    passes = (expected - found) % 4
    return (f"; {expected.name} would be, had the auction left out {passes} opening "
            f"pass{'es' if passes > 1 else ''}")


def check_result(game: Game, play: Play, declarer: Seat | None) -> list[Diagnostic]:
    """Result against the tricks of a replayed play.

    Every form reduces to one test per side named: the count lies between the tricks that
    side has won and those plus every trick whose winner is not known (unplayed, claimed
    or with unknown cards). For 13 known tricks that is one number; after ``*`` it is the
    claim's range; for an unfinished play it admits both the partial and a total count.
    """
    result = read_result(game.value("Result"))
    if result is None or result.wrong_agreement:
        return []
    if result.declarer_tricks is not None:
        if declarer is None:
            return []
        claims = [(declarer.side, result.declarer_tricks)]
    else:
        claims = list(result.sides)
    for side, count in claims:
        won, lost = play.tricks_won(side), play.tricks_won(side.other)
        whose = "declarer" if result.declarer_tricks is not None else side.value
        if won == play.total_tricks - lost and count != won:
            why = f"{whose} won {won} tricks"
        elif count < won:
            why = f"{whose} had already won {won} tricks when the play stopped"
        elif count > play.total_tricks - lost:
            why = (f"the other side had already won {lost} tricks, so {whose} can have at most "
                   f"{play.total_tricks - lost}")
        else:
            continue
        return [_report(game, "SC003", f"Result {game.value('Result')!r} but {why}", "Result")]
    return []
