"""Calls, contracts and vulnerability: the values the auction produces."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from pbnkit.errors import InvalidTokenError
from pbnkit.model.cards import SEATS, Seat, Side, Strain
from pbnkit.pickling import by_fields


class Risk(enum.IntEnum):
    """Undoubled, doubled or redoubled."""

    UNDOUBLED = 0
    DOUBLED = 1
    REDOUBLED = 2

    def pbn(self) -> str:
        return ("", "X", "XX")[self]

    def __repr__(self) -> str:
        return f"Risk.{self.name}"


class CallKind(enum.Enum):
    """What a call is: a bid (level and strain), a pass, a double or a redouble."""

    BID = "bid"
    PASS = "pass"
    DOUBLE = "double"
    REDOUBLE = "redouble"


@by_fields
@dataclass(frozen=True, slots=True)
class Call:
    """A call: a bid (level and strain), Pass, Double or Redouble."""

    kind: CallKind
    level: int = 0
    strain: Strain | None = None

    @classmethod
    def bid(cls, level: int, strain: Strain) -> Call:
        if not 1 <= level <= 7:
            raise InvalidTokenError(f"invalid bid level: {level}")
        return cls(CallKind.BID, level, strain)

    @classmethod
    def from_pbn(cls, text: str) -> Call:
        """Read ``Pass``, ``X``, ``XX`` or a bid like ``3NT`` (any case, as import allows)."""
        call = _CALLS.get(text.strip().upper())
        if call is None:
            raise InvalidTokenError(f"invalid call: {text!r}")
        return call

    def pbn(self) -> str:
        if self.kind is CallKind.BID:
            assert self.strain is not None
            return f"{self.level}{self.strain.pbn()}"
        return {CallKind.PASS: "Pass", CallKind.DOUBLE: "X", CallKind.REDOUBLE: "XX"}[self.kind]

    def __repr__(self) -> str:
        return f"Call.from_pbn({self.pbn()!r})"

    def __str__(self) -> str:
        return self.pbn()

    @property
    def is_bid(self) -> bool:
        return self.kind is CallKind.BID

    @property
    def rank(self) -> int:
        """Bid order: 1C is 0, 7NT is 34. Only for bids."""
        assert self.strain is not None
        return (self.level - 1) * 5 + int(self.strain)


PASS = Call(CallKind.PASS)
DOUBLE = Call(CallKind.DOUBLE)
REDOUBLE = Call(CallKind.REDOUBLE)

#: Every call by its PBN spelling in uppercase: reading a call is a lookup.
_CALLS = {"PASS": PASS, "X": DOUBLE, "XX": REDOUBLE} | {
    f"{level}{strain.name}": Call(CallKind.BID, level, strain)
    for level in range(1, 8) for strain in Strain
}

_CONTRACT_RE = re.compile(r"([1-7])(NT|[CDHS])(XX|X)?", re.IGNORECASE)


@by_fields
@dataclass(frozen=True, slots=True)
class Contract:
    """The final contract: level, strain and risk. ``Contract.PASSED_OUT`` has level 0."""

    level: int
    strain: Strain | None
    risk: Risk = Risk.UNDOUBLED

    @classmethod
    def from_pbn(cls, text: str) -> Contract:
        """Read a Contract tag value: ``Pass``, ``4S``, ``3NTX``, ``6HXX`` (any case)."""
        key = text.strip()
        if key.upper() == "PASS":
            return PASSED_OUT
        match = _CONTRACT_RE.fullmatch(key)
        if match is None:
            raise InvalidTokenError(f"invalid contract: {text!r}")
        risk = Risk(len(match[3] or ""))
        return cls(int(match[1]), Strain[match[2].upper()], risk)

    def pbn(self) -> str:
        if self.is_passed_out:
            return "Pass"
        assert self.strain is not None
        return f"{self.level}{self.strain.pbn()}{self.risk.pbn()}"

    def __repr__(self) -> str:
        return f"Contract.from_pbn({self.pbn()!r})"

    def __str__(self) -> str:
        return self.pbn()

    @property
    def is_passed_out(self) -> bool:
        return self.level == 0

    @property
    def tricks_needed(self) -> int:
        """Tricks declarer must win: six plus the level."""
        return 6 + self.level


PASSED_OUT = Contract(0, None)


class Vulnerability(enum.Enum):
    """Which sides are vulnerable. Import format also spells None as Love or ``-``
    and All as Both."""

    NONE = "None"
    NS = "NS"
    EW = "EW"
    ALL = "All"

    @classmethod
    def from_pbn(cls, text: str) -> Vulnerability:
        key = text.strip().upper()
        for vulnerability, spellings in _VULNERABILITY_SPELLINGS.items():
            if key in spellings:
                return vulnerability
        raise InvalidTokenError(f"invalid vulnerability: {text!r}")

    @classmethod
    def for_board(cls, board: int) -> Vulnerability:
        """Duplicate vulnerability of a board number (the 16-board cycle)."""
        return _BOARD_CYCLE[(board - 1) % 16]

    @classmethod
    def of_sides(cls, ns: bool, ew: bool) -> Vulnerability:
        return {(False, False): cls.NONE, (True, False): cls.NS,
                (False, True): cls.EW, (True, True): cls.ALL}[(ns, ew)]

    def pbn(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Vulnerability.{self.name}"

    def is_vulnerable(self, side: Side | Seat) -> bool:
        if isinstance(side, Seat):
            side = side.side
        if self is Vulnerability.ALL:
            return True
        return bool(self.value == side.value)


_VULNERABILITY_SPELLINGS = {
    Vulnerability.NONE: ("NONE", "LOVE", "-"),
    Vulnerability.NS: ("NS",),
    Vulnerability.EW: ("EW",),
    Vulnerability.ALL: ("ALL", "BOTH"),
}

_BOARD_CYCLE = tuple(
    Vulnerability(v) for v in (
        "None", "NS", "EW", "All", "NS", "EW", "All", "None",
        "EW", "All", "None", "NS", "All", "None", "NS", "EW",
    )
)


def dealer_for_board(board: int) -> Seat:
    """Duplicate dealer of a board number: N, E, S, W for boards 1, 2, 3, 4..."""
    return SEATS[(board - 1) % 4]
