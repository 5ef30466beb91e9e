"""What the replay of a record establishes: its diagnostics and the facts the rules and
scoring read, the same whether the full replay or the fast path for clean records
(:mod:`pbnkit.replay.clean`) found them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from pbnkit.diagnostics import Diagnostic
from pbnkit.model.calls import Contract
from pbnkit.model.cards import Seat, Side
from pbnkit.model.play import Play
from pbnkit.pickling import by_fields


class Tricks(NamedTuple):
    """The trick count a replayed play ends with: all that the Result checks and scoring
    read of it, whichever way the play was replayed."""

    #: completed tricks won by North-South and by East-West
    ns: int
    ew: int
    #: completed tricks, with a known winner or not
    played: int
    #: completed tricks whose winner is unknown
    unknown: int
    #: 13, or the hand size of an end position
    total: int

    @classmethod
    def of(cls, play: Play) -> Tricks:
        return cls(play.won[0], play.won[1], len(play.tricks), play.unknown_tricks,
                   play.total_tricks)

    def won(self, side: Side) -> int:
        return self.ns if side is Side.NS else self.ew

    @property
    def is_complete(self) -> bool:
        return self.played >= self.total


@by_fields
@dataclass(frozen=True, slots=True)
class Replayed:
    """What the replay of one game established, for checks and for scoring."""

    diagnostics: tuple[Diagnostic, ...]
    #: the contract and declarer of the auction, if its calls ended it
    contract: Contract | None = None
    declarer: Seat | None = None
    #: the tricks of the play, if any card was replayed
    tricks: Tricks | None = None
    #: declarer as the play was replayed: for Declarer "^S" that is South
    play_declarer: Seat | None = None

    @property
    def declarer_tricks(self) -> int | None:
        """Declarer's tricks when every trick was played with a known winner."""
        tricks, declarer = self.tricks, self.play_declarer
        if tricks is None or declarer is None or not tricks.is_complete or tricks.unknown:
            return None
        return tricks.won(declarer.side)
