"""Lenient readers of the tags a record's facts come from: Deal, Contract, Declarer and
Result, as real files write them.

A value that cannot be read gives None here; saying what is wrong with it is the tag
checks' business (``TG``, ``DL``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from pbnkit.errors import InvalidTokenError
from pbnkit.model.calls import PASSED_OUT, Contract, Risk
from pbnkit.model.cards import Seat, Side, Strain
from pbnkit.model.deal import Deal
from pbnkit.digits import whole_number
from pbnkit.pickling import by_fields

_CONTRACT = re.compile(r"\s*([1-7])(NT|N|[CDHS])(XX|X|R|\*\*|\*)?\s*", re.IGNORECASE)
#: Passed out as programs write it: PBN's Pass, and PO, AP (all pass), P
PASSED_OUT_SPELLINGS = frozenset(("PASS", "PO", "AP", "P"))
_RESULT_SIDES = re.compile(r"(NS|EW)\s+(\d{1,2})(?:\s+(NS|EW)\s+(\d{1,2}))?", re.IGNORECASE)


@functools.lru_cache(maxsize=16)
def deal_of(text: str) -> Deal:
    """:meth:`Deal.from_pbn`, remembered: the deal checks, the play and scoring all read
    the Deal of the same record, and a Deal is immutable. Raises InvalidTokenError (an
    error is not remembered)."""
    return Deal.from_pbn(text)


def parse_deal(value: str | None) -> Deal | None:
    """The Deal of a tag value, or None when absent, unknown or malformed."""
    if not value or value in ("?", "#"):
        return None
    try:
        return deal_of(value)
    except InvalidTokenError:
        return None


# The readers below are remembered: their values are immutable, and each record's
# Contract, Declarer and Result are read by the replay, its checks and scoring alike.
@functools.lru_cache(maxsize=512)
def read_contract(text: str | None) -> Contract | None:
    """A Contract tag value, leniently (``1N``, ``4Sx``, ``3NR``, ``3D*`` and ``3D**``,
    ``PO`` or ``AP`` for passed out, as real files write them); None when empty, unknown
    or unreadable."""
    if text is None:
        return None
    if text.strip().upper() in PASSED_OUT_SPELLINGS:
        return PASSED_OUT
    match = _CONTRACT.fullmatch(text)
    if match is None:
        return None
    strain = Strain.NT if match[2].upper() in ("N", "NT") else Strain.from_pbn(match[2])
    risk = {"": Risk.UNDOUBLED, "X": Risk.DOUBLED, "*": Risk.DOUBLED}.get(
        (match[3] or "").upper(), Risk.REDOUBLED)
    return Contract(int(match[1]), strain, risk)


@by_fields
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


@functools.lru_cache(maxsize=64)
def read_declarer(text: str | None) -> DeclarerTag | None:
    value = (text or "").strip().upper()
    swapped = value.startswith("^")
    value = value[1:] if swapped else value
    if value not in ("N", "E", "S", "W"):
        return None
    return DeclarerTag(Seat.from_pbn(value), swapped)


@by_fields
@dataclass(frozen=True, slots=True)
class ResultTag:
    """A Result tag value: declarer's tricks (bare form) or tricks by side."""

    declarer_tricks: int | None
    sides: tuple[tuple[Side, int], ...] = ()
    wrong_agreement: bool = False

    def tricks_of(self, declarer: Seat | None) -> int | None:
        """Declarer's tricks: stated bare, or by declarer's side, or 13 less the other
        side's; None when the tag does not tell (by side, with no declarer known)."""
        if self.declarer_tricks is not None:
            return self.declarer_tricks
        if declarer is None:
            return None
        by_side = dict(self.sides)
        if declarer.side in by_side:
            return by_side[declarer.side]
        if declarer.side.other in by_side:
            return 13 - by_side[declarer.side.other]
        return None


@functools.lru_cache(maxsize=512)
def read_result(text: str | None) -> ResultTag | None:
    """``9``, ``NS 9``, ``EW 4 NS 9``, each optionally after ``^``; None otherwise."""
    value = (text or "").strip()
    wrong = value.startswith("^")
    value = value[1:].strip() if wrong else value
    tricks = whole_number(value)
    if tricks is not None and tricks <= 13:
        return ResultTag(tricks, (), wrong)
    match = _RESULT_SIDES.fullmatch(value)
    if match is None:
        return None
    sides = [(Side(match[1].upper()), int(match[2]))]
    if match[3]:
        sides.append((Side(match[3].upper()), int(match[4])))
    if len({side for side, _ in sides}) != len(sides) or any(n > 13 for _, n in sides):
        return None
    return ResultTag(None, tuple(sides), wrong)
