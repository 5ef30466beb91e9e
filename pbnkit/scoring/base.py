"""What a scoring profile reads and what it writes.

A profile reads :class:`BoardResult` values, one per record, in file order (the PBN reader
builds them; scoring never reads files) and writes one :class:`ScoreSheet`. Everything here
is a frozen value, so a sheet can be exported or compared without copying.

Scoring reports what it cannot score as :class:`Problem` values rather than raising or
guessing: one odd record must not sink the rest of the file.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Literal, NamedTuple, Protocol

from pbnkit.errors import PbnError
from pbnkit.model.adjusted import ArtificialScore
from pbnkit.model import (
    PASSED_OUT,
    Card,
    Contract,
    Deal,
    Rank,
    Seat,
    Side,
    Strain,
    Suit,
    Vulnerability,
)
from pbnkit.digits import whole_number
from pbnkit.pickling import by_fields

#: Who won a rubber; equal totals are a draw.
RubberWinner = Literal["NS", "EW", "draw"]
#: Who won a team match: team A sits N-S in the Open room.
MatchWinner = Literal["A", "B", "draw"]
#: What one sheet of a rubber profile holds: a rubber, or a Chicago chukker of four deals.
SheetUnit = Literal["rubber", "chukker"]


class UnknownProfileError(PbnError):
    """No scoring profile has that name."""

    def __init__(self, name: str, known: Sequence[str]) -> None:
        self.name = name
        self.known = tuple(known)
        super().__init__(f"unknown scoring profile {name!r} (known: {', '.join(self.known)})")


@by_fields
@dataclass(frozen=True, slots=True)
class MatchKey:
    """The event tags that put the records of one team match together."""

    event: str | None = None
    section: str | None = None
    stage: str | None = None
    round: str | None = None
    home_team: str | None = None
    visit_team: str | None = None


def _bit(card: Card) -> int:
    """The card's bit in one hand's mask: 13 bits per suit, clubs first, twos lowest."""
    return 1 << (13 * card.suit + card.rank - Rank.TWO)


#: The honours of each strain in one hand's mask: A K Q J T of trumps, or the four aces at
#: no trumps.
_HONOURS = {
    strain: sum(_bit(Card(suit, rank)) for suit in Suit for rank in Rank
                if (suit is strain.suit and rank.is_honour)
                or (strain.suit is None and rank is Rank.ACE))
    for strain in Strain
}
_HAND = (1 << 52) - 1


@by_fields
@dataclass(frozen=True, slots=True)
class Hands:
    """A record's original hands, reduced to what scoring asks of them: who holds which
    honours (rubber), and whether two records are the same deal (matchpoints).

    A score run keeps one value per record, so this is two ints instead of a :class:`Deal`
    of 52 cards: ``cards`` holds 52 bits per seat, N in the lowest and W in the highest,
    one bit per card held; bit ``seat`` of ``given`` is set for each hand the record gives.
    Two values are equal when they hold the same hands. ``why_no_honours`` says why
    honours cannot be counted from them, or is None when they can.
    """

    cards: int
    given: int
    why_no_honours: str | None = field(default=None, compare=False)

    @classmethod
    def of(cls, deal: Deal | None) -> Hands | None:
        """The hands of a parsed Deal tag; None without one."""
        if deal is None:
            return None
        # Deal.masks has the layout of _bit (Card.bit): one int per hand, ready made (0 for
        # an unknown hand), and Deal.given the layout of ``given``.
        north, east, south, west = deal.masks
        cards = north | east << 52 | south << 104 | west << 156
        # Honours need all the original hands: with a hand missing we cannot tell whether
        # the other side holds the rest.
        why = ("the deal is incomplete" if not deal.is_complete
               else "the deal is invalid" if deal.problems() else None)
        return cls(cards, deal.given, why)

    def honours(self, strain: Strain) -> dict[Seat, int]:
        """How many honours of ``strain`` each seat holds."""
        wanted = _HONOURS[strain]
        return {seat: (self.cards >> (52 * seat) & _HAND & wanted).bit_count()
                for seat in Seat}


@by_fields
@dataclass(frozen=True, slots=True)
class Pairs:
    """Who sat N-S and E-W for one result: the pair ids as the file writes them (a
    ScoreTable's PairId_NS/PairId_EW, or the PairNS/PairEW tags) and their names. In an
    individual event ``players`` holds the PlayerIds of North, East, South and West (each
    player is ranked alone), and ``ns``/``ew`` join them."""

    ns: str
    ew: str
    ns_names: str | None = None
    ew_names: str | None = None
    players: tuple[str, str, str, str] | None = None


@by_fields
@dataclass(frozen=True, slots=True)
class BoardResult:
    """One record's result, as the record states it.

    ``tricks`` are the tricks won by declarer. ``vulnerability`` is what the record's
    ``Vulnerable`` tag says, which rubber profiles check rather than trust. ``hands`` are
    the original hands, reduced to a few ints.

    A record without a contract of its own but with a ScoreTable gives one result per
    table row: ``row`` is the row's number (1-based), ``weight`` its Multiplicity (how
    many tables had that result) and ``stated_ns`` the row's N-S score when the row gives
    a score but no contract to work it out from. ``pairs`` says who played, when known.
    ``adjusted`` is the artificial score a director awarded instead of a result (Law
    12C2: average plus, ``A6040``...), for a row or record that gives one.
    """

    index: int
    board: str | None = None
    declarer: Seat | None = None
    #: None when the record states no contract at all (a hand record without results)
    contract: Contract | None = PASSED_OUT
    tricks: int | None = None
    vulnerability: Vulnerability | None = None
    hands: Hands | None = None
    dealer: Seat | None = None
    room: str | None = None
    path: str | None = None
    match_key: MatchKey = MatchKey()
    pairs: Pairs | None = None
    row: int | None = None
    weight: int = 1
    stated_ns: int | None = None
    adjusted: ArtificialScore | None = None

    def without_hands(self) -> BoardResult:
        """The same result without its hands (what only rubber honours need)."""
        return BoardResult(self.index, self.board, self.declarer, self.contract, self.tricks,
                           self.vulnerability, None, self.dealer, self.room, self.path,
                           self.match_key, self.pairs, self.row, self.weight, self.stated_ns,
                           self.adjusted)

    @property
    def board_number(self) -> int | None:
        """The board as a positive number; None when the tag is absent or not a number
        (PBN allows any text there)."""
        text = (self.board or "").strip()
        return whole_number(text) or None

    def why_unscorable(self) -> str | None:
        """Why a contract cannot be scored from this record, or None when it can.

        A passed-out record always can: it scores nothing.
        """
        if self.adjusted is not None:
            return None
        if self.contract is None:
            return "no contract" if self.row is None else "no contract and no plain score"
        if self.contract.is_passed_out:
            return None
        if self.declarer is None:
            return f"contract {self.contract} has no declarer"
        if self.tricks is None:
            return f"contract {self.contract} has no result"
        if not 0 <= self.tricks <= 13:
            return f"declarer cannot win {self.tricks} tricks"
        return None


@dataclass(frozen=True, slots=True)
class Problem:
    """Something scoring reports instead of guessing.

    ``kind`` is a stable kebab-case name (``one-room-only``, ``vulnerability-mismatch``,
    ...) that the rules layer maps to a diagnostic code; ``index`` is the record position
    and ``path`` the file it came from, so that a problem traces back to its record when
    several files are scored together.
    """

    kind: str
    message: str
    index: int | None = None
    board: str | None = None
    path: str | None = None


class Line(enum.Enum):
    """Where a rubber entry is written: below the line counts toward game."""

    ABOVE = "above"
    BELOW = "below"


class Reason(enum.Enum):
    """Why a side scored a rubber entry."""

    TRICKS = "tricks"
    OVERTRICKS = "overtricks"
    INSULT = "insult"
    UNDERTRICKS = "undertricks"
    SLAM = "slam"
    HONOURS = "honours"
    RUBBER = "rubber"
    UNFINISHED = "unfinished"
    #: Chicago: the bonus for making or completing a game, 300 or 500
    GAME = "game"
    #: Chicago: a part score made on the fourth deal of a chukker
    PART_SCORE = "part-score"


@dataclass(frozen=True, slots=True)
class Entry:
    """One figure on a rubber score sheet."""

    side: Side
    line: Line
    points: int
    reason: Reason


def points_of(entries: Sequence[Entry], side: Side, line: Line | None = None) -> int:
    """A side's points among ``entries``, on one line or on both."""
    return sum(e.points for e in entries if e.side is side and (line is None or e.line is line))


@dataclass(frozen=True, slots=True)
class RubberDeal:
    """One deal of a rubber and what each side wrote for it.

    ``vulnerability`` is the one the sheet gives (the games won so far in rubber, the place
    in the chukker in Chicago; None in auction bridge, which has none); ``game`` is the side
    that completed a game with this deal. A deal that ends the rubber carries the rubber
    bonus among its entries. ``place`` is the deal's place (1 to 4) in a Chicago chukker: a
    passed-out deal is dealt again at the same place. ``scored`` is False for a deal that
    could not be scored (no result, say): its entries are then unknown, not nothing.
    """

    index: int
    board: str | None
    contract: Contract | None
    declarer: Seat | None
    tricks: int | None
    vulnerability: Vulnerability | None
    entries: tuple[Entry, ...] = ()
    game: Side | None = None
    place: int | None = None
    dealer: Seat | None = None
    scored: bool = True

    def points(self, side: Side, line: Line | None = None) -> int:
        return points_of(self.entries, side, line)


@dataclass(frozen=True, slots=True)
class Rubber:
    """A rubber: the deals from one fresh score sheet to two games, or to the end of file.
    In Chicago (``unit`` ``"chukker"``) the same sheet holds a chukker: four deals.

    ``settlement`` holds what an unfinished rubber is worth when the record stops (contract
    rubber only). Totals include every deal's entries and the settlement. ``margin`` is the
    winner's lead (0 for a draw); ``rubber_points`` is that margin in hundreds where the
    profile counts them. ``complete`` is False when a deal could not be scored: the totals
    then leave out what that deal was worth, and are not final.
    """

    number: int
    deals: tuple[RubberDeal, ...]
    games_ns: int
    games_ew: int
    finished: bool
    settlement: tuple[Entry, ...]
    above_ns: int
    below_ns: int
    above_ew: int
    below_ew: int
    total_ns: int
    total_ew: int
    winner: RubberWinner
    margin: int
    rubber_points: int | None
    warnings: tuple[Problem, ...] = ()
    path: str | None = None
    complete: bool = True
    unit: SheetUnit = "rubber"

    @property
    def unscored(self) -> tuple[RubberDeal, ...]:
        """The deals that could not be scored."""
        return tuple(deal for deal in self.deals if not deal.scored)

    @classmethod
    def tally(
        cls,
        number: int,
        deals: Sequence[RubberDeal],
        games: dict[Side, int],
        settlement: Sequence[Entry] = (),
        warnings: Sequence[Problem] = (),
        rubber_points: bool = False,
        finished: bool | None = None,
        path: str | None = None,
        unit: SheetUnit = "rubber",
    ) -> Rubber:
        """Add up a rubber's deals and settlement. ``finished`` defaults to two games won."""
        entries = [e for deal in deals for e in deal.entries] + list(settlement)
        above = {side: points_of(entries, side, Line.ABOVE) for side in Side}
        below = {side: points_of(entries, side, Line.BELOW) for side in Side}
        total_ns = above[Side.NS] + below[Side.NS]
        total_ew = above[Side.EW] + below[Side.EW]
        winner: RubberWinner = (
            "NS" if total_ns > total_ew else "EW" if total_ew > total_ns else "draw"
        )
        margin = abs(total_ns - total_ew)
        return cls(
            number=number,
            deals=tuple(deals),
            games_ns=games[Side.NS],
            games_ew=games[Side.EW],
            finished=max(games.values()) >= 2 if finished is None else finished,
            settlement=tuple(settlement),
            above_ns=above[Side.NS],
            below_ns=below[Side.NS],
            above_ew=above[Side.EW],
            below_ew=below[Side.EW],
            total_ns=total_ns,
            total_ew=total_ew,
            winner=winner,
            margin=margin,
            rubber_points=hundreds(margin) if rubber_points else None,
            warnings=tuple(warnings),
            path=path,
            complete=all(deal.scored for deal in deals),
            unit=unit,
        )


#: How :func:`hundreds` rounds; profiles that count rubber points print it.
ROUNDING_NOTE = (
    "rubber points are the margin divided by 100, rounded to the nearest whole number; "
    "an exact 50 rounds down, toward zero"
)


def hundreds(margin: int) -> int:
    """Rubber points of a non-negative margin: 1250 -> 12, 1260 -> 13 (see ROUNDING_NOTE)."""
    whole, rest = divmod(margin, 100)
    return whole + (rest > 50)


@dataclass(frozen=True, slots=True)
class MatchBoard:
    """One board compared between the two rooms of a team match.

    ``diff`` is the Open room's N-S score minus the Closed room's, and belongs to team A.
    A board on which a director awarded an artificial score in a room (``adjusted``, as
    written) is not compared: its IMPs are the award's (as stated, else Law 12C2's 3 for
    average plus), and that room has no score.
    """

    board: str
    open_index: int
    closed_index: int
    open_ns: int | None
    closed_ns: int | None
    diff: int | None
    imps: int
    adjusted: str | None = None


@dataclass(frozen=True, slots=True)
class Match:
    """A two-room team match scored in IMPs. ``winner`` is None when no board could be
    compared; ``problems`` lists the boards left out and why."""

    key: MatchKey
    boards: tuple[MatchBoard, ...]
    imps_a: int
    imps_b: int
    winner: MatchWinner | None
    problems: tuple[Problem, ...] = ()
    #: victory points of each team, when a scale was asked for
    vp_a: float | None = None
    vp_b: float | None = None

    @classmethod
    def tally(
        cls, key: MatchKey, boards: Sequence[MatchBoard], problems: Sequence[Problem] = ()
    ) -> Match:
        imps_a = sum(board.imps for board in boards)
        winner: MatchWinner | None = (
            None if not boards else "A" if imps_a > 0 else "B" if imps_a < 0 else "draw"
        )
        return cls(key, tuple(boards), imps_a, -imps_a, winner, tuple(problems))

    @property
    def won_a(self) -> int:
        """The IMPs team A won, board by board: what a team's score card adds up."""
        return sum(board.imps for board in self.boards if board.imps > 0)

    @property
    def won_b(self) -> int:
        """The IMPs team B won, board by board."""
        return -sum(board.imps for board in self.boards if board.imps < 0)

    @property
    def teams(self) -> tuple[str, str]:
        """The two teams as a sheet names them: the home and visiting teams when the
        records name both, else A and B."""
        home, visit = self.key.home_team, self.key.visit_team
        return (home, visit) if home and visit else ("A", "B")

    def verdict(self) -> str:
        """``Aurora 27, Borealis 8: Aurora win by 19``: each team's IMPs, the winner
        and the margin, as players read a match."""
        team_a, team_b = self.teams
        totals = f"{team_a} {self.won_a}, {team_b} {self.won_b}"
        if self.winner is None:
            return f"{totals}: no board compared"
        if self.winner == "draw":
            return f"{totals}: a draw"
        winner = team_a if self.winner == "A" else team_b
        named = self.key.home_team and self.key.visit_team
        wins = f"{winner} win" if named else f"team {winner} wins"
        return f"{totals}: {wins} by {abs(self.imps_a)}"


@dataclass(frozen=True, slots=True)
class UnscoredMatch:
    """A team match whose records are all in one room: no board can be compared, so it
    has no result and stays out of the standings. ``boards`` are its board numbers as
    written, in file order; ``index`` and ``path`` are its first record's."""

    key: MatchKey
    room: str
    boards: tuple[str, ...]
    index: int
    path: str | None = None
    #: the files its records are in: a match may be split over files, a room to a file
    files: int = 1

    @property
    def board_range(self) -> str:
        """The boards as a reader scans them: ``1-24``, ``1-3, 7``; boards without a
        number last, as written."""
        numbers = sorted({number for number in map(whole_number, self.boards) if number is not None})
        runs: list[str] = []
        last: int | None = None
        for number in numbers:
            if number - 1 == last:
                runs[-1] = f"{runs[-1].split('-')[0]}-{number}"
            else:
                runs.append(str(number))
            last = number
        others = [board for board in dict.fromkeys(self.boards)
                  if board and whole_number(board) is None]
        return ", ".join(runs + others)

    @property
    def title(self) -> str:
        """``Event / Round 2 (Aurora v Borealis)``, or what of it the tags give."""
        key = self.key
        named = " / ".join(part for part in (key.event, key.section, key.stage, key.round)
                           if part) or "(no event)"
        teams = f" ({key.home_team} v {key.visit_team})" if key.home_team and key.visit_team \
            else ""
        return named + teams

    @property
    def problem(self) -> Problem:
        """The match as the sheet lists it among what was not scored: once, not per board."""
        count = len(set(self.boards))
        boards = (f"board {self.board_range} was" if count == 1
                  else f"{count} boards ({self.board_range}) were")
        return Problem("one-room-match",
                       f"team match {self.title} is not scored: its {boards} played in the "
                       f"{self.room} room only, so no board can be compared"
                       + (f" (records in {self.files} files from this one)"
                          if self.files > 1 else ""),
                       self.index, None, self.path)


class BoardScore(NamedTuple):
    """The scored row of one record, in file order.

    ``score_ns`` is signed from N-S: the Law 77 score in duplicate; in rubber profiles the
    N-S points minus the E-W points written for this deal (the four ``above``/``below``
    figures give the detail, as PBN's ``ScoreRubber`` does). Matchpoints and percentages
    are filled only when the board was played more than once outside a team match; in a
    pairs event a board with fewer results than the most played is scaled up to the full
    top (Neuberg). ``imp_ns`` holds a pairs event's IMPs (Butler: against ``datum``;
    cross-IMPs: as the event totals them, ``cross_sum`` being the plain sum against every
    other result and ``cross_average`` that sum per comparison).

    A named tuple, not a frozen dataclass like the other values here: a run makes one per
    record, in the parent process after the last ``-j`` unit, and a tuple of these 18
    fields is made much faster than a frozen dataclass.
    """

    #: the record's position, as BoardResult.index (it hides the tuple's index method)
    index: int  # type: ignore[assignment]
    board: str | None
    room: str | None = None
    score_ns: int | None = None
    mp_ns: float | None = None
    mp_ew: float | None = None
    pct_ns: float | None = None
    pct_ew: float | None = None
    rubber: int | None = None
    above_ns: int | None = None
    below_ns: int | None = None
    above_ew: int | None = None
    below_ew: int | None = None
    row: int | None = None
    imp_ns: float | None = None
    datum: int | None = None
    cross_sum: int | None = None
    #: cross-IMPs: the sum divided by the number of comparisons (results - 1)
    cross_average: float | None = None


@dataclass(frozen=True, slots=True)
class Ranking:
    """One pair's line in a pairs event's final ranking.

    ``direction`` is ``NS`` or ``EW`` when the pair sat one way all event (null when it
    changed). ``total`` is matchpoints or IMPs; ``percentage`` is None for IMPs. ``rank``
    is shared by equal results: the best place among them. An IMP event whose pairs sat
    out boards ranks them on ``credited``, as club scoring programs do.
    """

    event: str | None
    section: str | None
    direction: str | None
    id: str
    names: str | None
    boards: int
    total: float
    percentage: float | None
    rank: int
    #: the top the pair could have scored (matchpoints only): the percentage's divisor
    top: float | None = None
    #: ranked against its own direction only (the two fields of a Mitchell)
    within_direction: bool = False
    #: IMPs: the total credited with the pair's average per board played for the boards
    #: of the event it did not play (a sit-out), on which it is ranked; None when it
    #: played as many boards as any pair
    credited: float | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """One team's line in the standings of a team event (several matches).

    ``vp`` is None when no victory-point scale was asked for; the rank then follows the
    IMP difference.
    """

    event: str | None
    section: str | None
    team: str
    matches: int
    imps_for: int
    imps_against: int
    vp: float | None
    rank: int


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """Everything a profile computed for one sequence of records.

    ``matches`` is None for profiles without team matches, ``rubbers`` None for profiles
    without rubbers. ``problems`` holds what belongs to no match or rubber; ``notes`` are
    conventions the output should state (such as rounding).
    """

    profile: str
    boards: tuple[BoardScore, ...] = ()
    matches: tuple[Match, ...] | None = None
    rubbers: tuple[Rubber, ...] | None = None
    problems: tuple[Problem, ...] = ()
    notes: tuple[str, ...] = ()
    rankings: tuple[Ranking, ...] = ()
    standings: tuple[Standing, ...] = ()
    #: team matches left out of ``matches`` and the standings: their records are all in
    #: one room
    unscored_matches: tuple[UnscoredMatch, ...] = ()

    @property
    def all_problems(self) -> tuple[Problem, ...]:
        """Every problem on the sheet: its own, then each match's, then each unscored
        match, then each rubber's."""
        found = list(self.problems)
        for match in self.matches or ():
            found.extend(match.problems)
        found.extend(match.problem for match in self.unscored_matches)
        for rubber in self.rubbers or ():
            found.extend(rubber.warnings)
        return tuple(found)


class Profile(Protocol):
    """A scoring profile, registered by name in :mod:`pbnkit.scoring`."""

    name: ClassVar[str]
    description: ClassVar[str]

    def score(self, results: Sequence[BoardResult]) -> ScoreSheet: ...
