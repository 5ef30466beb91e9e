"""The rubber score sheet that contract rubber and auction bridge 1920 share.

Deals are played in file order onto a sheet. Points below the line count toward game; when a
side reaches the profile's game figure, a line is drawn and both sides start the next game
from nothing. A side with two games wins the rubber, and the next deal starts a new sheet.
The file may stop mid-rubber. The profiles supply the figures: what a deal is worth, the
vulnerability, honours, the rubber bonus and what an unfinished rubber is worth.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from pbnkit.model import Seat, Side, Strain, Vulnerability
from pbnkit.scoring.base import (
    BoardResult,
    BoardScore,
    Entry,
    Line,
    Problem,
    Reason,
    Rubber,
    RubberDeal,
    ScoreSheet,
    points_of,
)


@dataclass(slots=True)
class _Sheet:
    """The rubber being written: mutable while deals are added, then tallied."""

    number: int
    path: str | None = None
    deals: list[RubberDeal] = field(default_factory=list)
    games: dict[Side, int] = field(default_factory=lambda: {Side.NS: 0, Side.EW: 0})
    below: dict[Side, int] = field(default_factory=lambda: {Side.NS: 0, Side.EW: 0})
    warnings: list[Problem] = field(default_factory=list)

    def warn(self, kind: str, message: str, result: BoardResult) -> None:
        self.warnings.append(Problem(kind, message, result.index, result.board))


class RubberScoring(abc.ABC):
    """Base of the rubber profiles: the sheet mechanics, with the figures left abstract."""

    name: ClassVar[str]
    description: ClassVar[str]
    #: Below-the-line points that win a game.
    game_points: ClassVar[int]
    #: Whether the margin is also given in rubber points (hundreds).
    counts_rubber_points: ClassVar[bool] = False
    #: Conventions the output should state.
    notes: ClassVar[tuple[str, ...]] = ()

    @abc.abstractmethod
    def vulnerability(self, games: Mapping[Side, int]) -> Vulnerability | None:
        """The vulnerability the games won give; None where the code has none."""

    @abc.abstractmethod
    def check_vulnerability(
        self, stated: Vulnerability, computed: Vulnerability | None
    ) -> str | None:
        """A warning when the record's Vulnerable tag disagrees with the sheet."""

    @abc.abstractmethod
    def contract_entries(
        self, result: BoardResult, vulnerability: Vulnerability | None
    ) -> list[Entry]:
        """What the play of a scorable contract is worth, honours apart."""

    @abc.abstractmethod
    def honour_entries(self, strain: Strain, held: Mapping[Seat, int]) -> list[Entry]:
        """What the honours held are worth in ``strain``."""

    @abc.abstractmethod
    def rubber_bonus(self, loser_games: int) -> int:
        """The bonus for winning the rubber."""

    @abc.abstractmethod
    def settle(
        self, games: Mapping[Side, int], below: Mapping[Side, int]
    ) -> tuple[list[Entry], str]:
        """The entries and the warning for a rubber the record leaves unfinished."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def score(self, results: Sequence[BoardResult]) -> ScoreSheet:
        """Score the deals in order. Each file starts a fresh sheet: a rubber never runs on
        from one file into the next."""
        rubbers: list[Rubber] = []
        boards: list[BoardScore] = []
        sheet = _Sheet(1)
        for result in results:
            if sheet.deals and result.path != sheet.path:
                rubbers.append(self._unfinished(sheet))
                sheet = _Sheet(sheet.number + 1)
            sheet.path = result.path
            deal = self._play(sheet, result)
            boards.append(_board_row(deal, result, sheet.number))
            if max(sheet.games.values()) == 2:
                rubbers.append(self._tally(sheet))
                sheet = _Sheet(sheet.number + 1)
        if sheet.deals:
            rubbers.append(self._unfinished(sheet))
        return ScoreSheet(self.name, tuple(boards), None, tuple(rubbers), (), self.notes)

    def _play(self, sheet: _Sheet, result: BoardResult) -> RubberDeal:
        """Write one deal on the sheet, drawing the line when it wins a game."""
        vulnerability = self.vulnerability(sheet.games)
        if result.vulnerability is not None:
            message = self.check_vulnerability(result.vulnerability, vulnerability)
            if message is not None:
                sheet.warn("vulnerability-mismatch", message, result)
        entries = self._entries(sheet, result, vulnerability)
        game = None
        for side in Side:
            sheet.below[side] += points_of(entries, side, Line.BELOW)
            if sheet.below[side] >= self.game_points:
                game = side
        if game is not None:
            sheet.games[game] += 1
            sheet.below = {Side.NS: 0, Side.EW: 0}
            if sheet.games[game] == 2:
                bonus = self.rubber_bonus(sheet.games[game.other])
                entries.append(Entry(game, Line.ABOVE, bonus, Reason.RUBBER))
        deal = RubberDeal(
            result.index, result.board, result.contract, result.declarer, result.tricks,
            vulnerability, tuple(entries), game,
        )
        sheet.deals.append(deal)
        return deal

    def _entries(
        self, sheet: _Sheet, result: BoardResult, vulnerability: Vulnerability | None
    ) -> list[Entry]:
        contract = result.contract
        if contract is not None and contract.is_passed_out:
            return []
        why = result.why_unscorable()
        if why is not None or contract is None or contract.strain is None:
            sheet.warn("unscored-deal", f"not scored: {why or 'no strain'}", result)
            return []
        entries = self.contract_entries(result, vulnerability)
        hands = result.hands
        why = "the deal is not given" if hands is None else hands.why_no_honours
        if why is not None or hands is None:
            sheet.warn("no-honours", f"honours not scored: {why}", result)
        else:
            entries += self.honour_entries(contract.strain, hands.honours(contract.strain))
        return entries

    def _unfinished(self, sheet: _Sheet) -> Rubber:
        settlement, message = self.settle(sheet.games, sheet.below)
        last = sheet.deals[-1]
        sheet.warnings.append(Problem("unfinished-rubber", message, last.index, last.board))
        return self._tally(sheet, settlement)

    def _tally(self, sheet: _Sheet, settlement: Sequence[Entry] = ()) -> Rubber:
        return Rubber.tally(sheet.number, sheet.deals, sheet.games, settlement,
                            sheet.warnings, self.counts_rubber_points)


def _board_row(deal: RubberDeal, result: BoardResult, rubber: int) -> BoardScore:
    ns, ew = deal.points(Side.NS), deal.points(Side.EW)
    return BoardScore(
        result.index, result.board, result.room, score_ns=ns - ew, rubber=rubber,
        above_ns=deal.points(Side.NS, Line.ABOVE), below_ns=deal.points(Side.NS, Line.BELOW),
        above_ew=deal.points(Side.EW, Line.ABOVE), below_ew=deal.points(Side.EW, Line.BELOW),
    )
