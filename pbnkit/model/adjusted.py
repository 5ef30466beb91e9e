"""Artificial adjusted scores (Law 12C2): what a director awards when a board cannot be
played or its result cannot stand, and the spellings scoring programs write them in.

An artificial score gives each side a share of the board's top: average plus 60 %,
average 50 %, average minus 40 %, or a percentage stated outright. The two sides' shares
need not add up to 100 (average plus to both, when neither side is at fault). In IMP
scoring average plus is worth 3 IMPs and average minus 3 IMPs less than nothing; a file
may also state the IMPs themselves (``^3`` in an IMP column).

PBN writes an artificial table element with a leading ``^`` (``^60``); scoring programs
also write ``A``, ``A+``, ``A-``, ``A=``, ``A6040`` (60 % to N-S, 40 % to E-W), ``60%``
and ``40%/60%``, in the Contract cell as often as in the score cells.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

#: IMPs for each percentage point away from an average (Law 12C2: 60 % is 3 IMPs)
_IMPS_PER_POINT = 3 / 10

_AVERAGES = {"A": 50.0, "A=": 50.0, "A+": 60.0, "A-": 40.0,
             "AVE": 50.0, "AVE+": 60.0, "AVE-": 40.0, "AVG": 50.0, "AVG+": 60.0, "AVG-": 40.0}
#: ``A6040``: two two-digit percentages, N-S first
_SPLIT = re.compile(r"A(\d\d)(\d\d)")
#: ``60%``, ``^60``, ``40%/60%`` (or ``40/60%``), figures with an optional fraction
_NUMBER = r"\d{1,3}(?:[.,]\d+)?"
_PERCENT = re.compile(rf"\^?({_NUMBER})%?")
_PAIR = re.compile(rf"({_NUMBER})%?\s*/\s*({_NUMBER})%")


@dataclass(frozen=True, slots=True)
class ArtificialScore:
    """Each side's share of the board's top, in percent; ``text`` as written.

    >>> read_artificial("A6040")
    ArtificialScore(ns=60.0, ew=40.0, text='A6040')
    """

    ns: float
    ew: float
    text: str
    #: N-S's IMPs when the file states them (``^3`` in an IMP column)
    imps: float | None = None

    @property
    def imps_ns(self) -> float:
        """N-S's IMPs for the award in IMP scoring: 3 for average plus, 0 for average,
        -3 for average minus, in proportion for another percentage; as stated, if so."""
        return self.imps if self.imps is not None else (self.ns - 50) * _IMPS_PER_POINT

    @property
    def imps_ew(self) -> float:
        """E-W's IMPs, on their own share (a split award need not sum to nothing)."""
        return -self.imps if self.imps is not None else (self.ew - 50) * _IMPS_PER_POINT


@functools.lru_cache(maxsize=256)
def read_artificial(text: str | None, ew: bool = False) -> ArtificialScore | None:
    """An artificial score as scoring programs write it, None for anything else (a
    contract, a plain score). ``ew``: the text is in an E-W column, so a single figure is
    E-W's share (and N-S get the rest of 100).

    >>> read_artificial("A+")
    ArtificialScore(ns=60.0, ew=40.0, text='A+')
    >>> read_artificial("^60", ew=True)
    ArtificialScore(ns=40.0, ew=60.0, text='^60')
    """
    if text is None:
        return None
    written = text.strip()
    value = written.upper()
    if value in _AVERAGES:
        share = _AVERAGES[value]
    elif (split := _SPLIT.fullmatch(value)) is not None:
        return ArtificialScore(float(split[1]), float(split[2]), written)
    elif (pair := _PAIR.fullmatch(value)) is not None:
        return ArtificialScore(_figure(pair[1]), _figure(pair[2]), written)
    elif (single := _PERCENT.fullmatch(value)) is not None and value != single[1]:
        share = _figure(single[1])  # a bare number is a score, not a percentage
    else:
        return None
    if not 0 <= share <= 100:
        return None
    return ArtificialScore(100 - share, share, written) if ew else \
        ArtificialScore(share, 100 - share, written)


#: IMPs a file states for an award: ``3``, ``-1.5``, ``^3`` (an IMP cell), ``NS 3`` or
#: ``EW 3`` (a ScoreIMP tag)
_STATED_IMPS = re.compile(r"(?:(NS|EW)\s+)?\^?([+-]?\d{1,3}(?:\.\d+)?)", re.IGNORECASE)


def stated_imps(text: str | None) -> float | None:
    """N-S's IMPs as a file states them for an award, None for anything else (an E-W
    figure counts against N-S).

    >>> stated_imps("EW 3"), stated_imps("^+1.5")
    (-3.0, 1.5)
    """
    match = _STATED_IMPS.fullmatch((text or "").strip())
    if match is None:
        return None
    return float(match[2]) * (-1 if (match[1] or "").upper() == "EW" else 1)


def _figure(text: str) -> float:
    return float(text.replace(",", "."))
