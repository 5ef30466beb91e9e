"""The rubber score sheet that contract rubber, Chicago and auction bridge 1920 share.

Deals are played in file order onto a sheet. Points below the line count toward game; when a
side reaches the profile's game figure, a line is drawn and both sides start the next game
from nothing. A side with two games wins the rubber (a Chicago chukker ends after four
deals instead), and the next deal starts a new sheet. The file may stop mid-rubber. The
profiles supply the figures: what a deal is worth, the vulnerability, honours, the bonuses
and what an unfinished rubber is worth.

A deal that cannot be scored (no result, say) stays on the sheet, marked unscored, and the
sheet is marked incomplete: its totals leave out an unknown figure and are never final.
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
    SheetUnit,
    points_of,
)


@dataclass(slots=True)
class Sheet:
    """The rubber being written: mutable while deals are added, then tallied.

    ``counted`` is the number of deals that count toward a chukker's four (a passed-out
    deal does not)."""

    number: int
    path: str | None = None
    deals: list[RubberDeal] = field(default_factory=list)
    games: dict[Side, int] = field(default_factory=lambda: {Side.NS: 0, Side.EW: 0})
    below: dict[Side, int] = field(default_factory=lambda: {Side.NS: 0, Side.EW: 0})
    warnings: list[Problem] = field(default_factory=list)
    counted: int = 0

    def warn(self, kind: str, message: str, result: BoardResult) -> None:
        self.warnings.append(Problem(kind, message, result.index, result.board, result.path))


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
    #: What one sheet holds.
    unit: ClassVar[SheetUnit] = "rubber"

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

    # -- hooks with the rubber's answers; Chicago overrides them ---------------------------

    def place(self, sheet: Sheet, result: BoardResult) -> int | None:
        """The deal's place in the sheet where the profile counts places (Chicago)."""
        return None

    def deal_vulnerability(
        self, sheet: Sheet, result: BoardResult, place: int | None
    ) -> tuple[Vulnerability | None, str | None]:
        """The vulnerability this deal is played at, or None and why it cannot be known."""
        return self.vulnerability(sheet.games), None

    def bonus_entries(
        self, sheet: Sheet, entries: Sequence[Entry], game: Side | None, place: int | None,
        vulnerability: Vulnerability | None,
    ) -> list[Entry]:
        """Bonuses earned on the sheet by this deal (after the line is drawn for ``game``):
        the rubber bonus when the game is a side's second."""
        if game is None or sheet.games[game] != 2:
            return []
        return [Entry(game, Line.ABOVE, self.rubber_bonus(sheet.games[game.other]),
                      Reason.RUBBER)]

    def is_over(self, sheet: Sheet) -> bool:
        """Whether the sheet is done: a side has two games."""
        return max(sheet.games.values()) >= 2

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def score(self, results: Sequence[BoardResult]) -> ScoreSheet:
        """Score the deals in order. Each file starts a fresh sheet: a rubber never runs on
        from one file into the next."""
        rubbers: list[Rubber] = []
        boards: list[BoardScore] = []
        sheet = Sheet(1)
        for result in results:
            if sheet.deals and result.path != sheet.path:
                rubbers.append(self._unfinished(sheet))
                sheet = Sheet(sheet.number + 1)
            sheet.path = result.path
            deal = self._play(sheet, result)
            boards.append(_board_row(deal, result, sheet.number))
            if self.is_over(sheet):
                rubbers.append(self._tally(sheet, finished=True))
                sheet = Sheet(sheet.number + 1)
        if sheet.deals:
            rubbers.append(self._unfinished(sheet))
        return ScoreSheet(self.name, tuple(boards), None, tuple(rubbers), (), self.notes)

    def _play(self, sheet: Sheet, result: BoardResult) -> RubberDeal:
        """Write one deal on the sheet, drawing the line when it wins a game."""
        place = self.place(sheet, result)
        vulnerability, unknown = self.deal_vulnerability(sheet, result, place)
        if result.vulnerability is not None and unknown is None:
            message = self.check_vulnerability(result.vulnerability, vulnerability)
            if message is not None:
                sheet.warn("vulnerability-mismatch", message, result)
        entries = self._entries(sheet, result, vulnerability, unknown)
        scored = entries is not None
        entries = entries or []
        game = None
        for side in Side:
            sheet.below[side] += points_of(entries, side, Line.BELOW)
            if sheet.below[side] >= self.game_points:
                game = side
        if game is not None:
            sheet.games[game] += 1
            sheet.below = {Side.NS: 0, Side.EW: 0}
        if result.contract is None or not result.contract.is_passed_out:
            sheet.counted += 1
        entries += self.bonus_entries(sheet, entries, game, place, vulnerability)
        deal = RubberDeal(
            result.index, result.board, result.contract, result.declarer, result.tricks,
            vulnerability, tuple(entries), game, place, result.dealer, scored,
        )
        sheet.deals.append(deal)
        return deal

    def _entries(
        self, sheet: Sheet, result: BoardResult, vulnerability: Vulnerability | None,
        unknown: str | None,
    ) -> list[Entry] | None:
        """The deal's entries; None when it cannot be scored."""
        contract = result.contract
        if contract is not None and contract.is_passed_out:
            return []
        why = result.why_unscorable() or unknown
        if why is not None or contract is None or contract.strain is None:
            sheet.warn("unscored-deal", f"not scored: {why or 'no strain'}", result)
            return None
        entries = self.contract_entries(result, vulnerability)
        hands = result.hands
        why = "the deal is not given" if hands is None else hands.why_no_honours
        if why is not None or hands is None:
            sheet.warn("no-honours", f"honours not scored: {why}", result)
        else:
            entries += self.honour_entries(contract.strain, hands.honours(contract.strain))
        return entries

    def _unfinished(self, sheet: Sheet) -> Rubber:
        settlement, message = self.settle(sheet.games, sheet.below)
        last = sheet.deals[-1]
        sheet.warnings.append(
            Problem(f"unfinished-{self.unit}", message, last.index, last.board, sheet.path))
        return self._tally(sheet, False, settlement)

    def _tally(self, sheet: Sheet, finished: bool, settlement: Sequence[Entry] = ()) -> Rubber:
        unscored = [deal for deal in sheet.deals if not deal.scored]
        if unscored:
            named = ", ".join(_deal_name(deal) for deal in unscored)
            sheet.warnings.append(Problem(
                f"incomplete-{self.unit}",
                f"{self.unit} {sheet.number} is incomplete: {named} could not be scored, so "
                "its totals are not final", unscored[0].index, unscored[0].board, sheet.path))
        return Rubber.tally(sheet.number, sheet.deals, sheet.games, settlement,
                            sheet.warnings, self.counts_rubber_points, finished, sheet.path,
                            self.unit)


def _deal_name(deal: RubberDeal) -> str:
    return f"board {deal.board}" if deal.board else f"record {deal.index}"


def _board_row(deal: RubberDeal, result: BoardResult, rubber: int) -> BoardScore:
    if not deal.scored:
        return BoardScore(result.index, result.board, result.room, rubber=rubber)
    ns, ew = deal.points(Side.NS), deal.points(Side.EW)
    return BoardScore(
        result.index, result.board, result.room, score_ns=ns - ew, rubber=rubber,
        above_ns=deal.points(Side.NS, Line.ABOVE), below_ns=deal.points(Side.NS, Line.BELOW),
        above_ew=deal.points(Side.EW, Line.ABOVE), below_ew=deal.points(Side.EW, Line.BELOW),
    )
