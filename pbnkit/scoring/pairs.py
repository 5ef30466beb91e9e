"""The pairs event: each board's field scored by matchpoints, Butler or cross-IMPs, and
the pairs ranked on their totals.

A board's field is its results outside any team match: the same deal (the same hands) in
the same event and section. Matchpoints compare each N-S score with the others of its
field (E-W get the rest of the top); Butler IMPs each score against the field's datum;
cross-IMPs against every other score. In an event where results name their pairs, a
board with fewer results than the most played is scaled up to the full top (Neuberg), and
each pair's figures add up to its ranking.

Matchpoints take one sort per board and one bisection per result
(:class:`~pbnkit.scoring.duplicate.ScoreField`), never a comparison of every result with
every other; cross-IMPs compare each result with each *different* score once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from pbnkit.model.adjusted import ArtificialScore
from pbnkit.digits import whole_number
from pbnkit.scoring.base import BoardResult, BoardScore, Hands, Ranking
from pbnkit.scoring.duplicate import MatchpointScale, Method, PairsScoring, ScoreField, imps


#: A board's field: event, section, board and deal.
FieldKey = tuple[str | None, str | None, str, Hands | None]


def butler_datum(scores: Sequence[int], weights: Sequence[int],
                 method: Method = Method.BUTLER) -> int:
    """The Butler datum of a board: the mean N-S score, rounded to the nearest 10 (an exact
    5 away from zero, as scoring programs print it: -85 gives -90). ``Butler`` leaves out
    the highest and the lowest score when there are five or more (EBU and WBF practice);
    ``Butler-2`` always leaves out those 2 extreme scores (PBN 2.1 3.4.12), but with one or
    two results that would leave nothing to average: then every score is kept (one
    result is its own datum, two their mean).

    >>> butler_datum([120, 50, -80, -80, -110, -140, -150, -150], [1] * 8)
    -90
    >>> butler_datum([600, 300, -100], [1] * 3, Method.BUTLER_2)
    300
    """
    spread = sorted(score for score, weight in zip(scores, weights) for _ in range(weight))
    if len(spread) >= (3 if method is Method.BUTLER_2 else 5):
        spread = spread[1:-1]
    return _to_ten(Decimal(sum(spread)) / len(spread))


def mean_datum(scores: Sequence[int], weights: Sequence[int]) -> int:
    """The mean of every N-S score, none left out, rounded as :func:`butler_datum`: the
    datum some programs give under plain ``Butler`` ("the average value of all scores",
    PBN 2.1 3.4.12), where pbnkit leaves out the extremes from five results on."""
    return _to_ten(Decimal(sum(score * weight for score, weight in zip(scores, weights)))
                   / sum(weights))


def _to_ten(mean: Decimal) -> int:
    return int((mean / 10).quantize(Decimal(1), rounding=ROUND_HALF_UP)) * 10


def neuberg(points: float, count: int, expected: int,
            scale: MatchpointScale = MatchpointScale.MP1) -> tuple[float, float]:
    """The matchpoints of a board with ``count`` results scaled up to the top of
    ``expected`` results, and that top (Neuberg's formula): (MP + 1) x E / e - 1, with
    half a point for MP2. As if the missing results had been spread like these ones.

    >>> neuberg(2.0, 2, 3)
    (3.5, 4.0)
    """
    win = float(scale.value)
    return (points + win / 2) * expected / count - win / 2, win * (expected - 1)


def cross_imps(scores: Sequence[int], weights: Sequence[int]) -> dict[int, int]:
    """Each score's IMPs against every other result of the board, summed (a result tied
    with its own score gains nothing)."""
    counted: Counter[int] = Counter()
    for score, weight in zip(scores, weights):
        counted[score] += weight
    return {score: sum(count * imps(score - other) for other, count in counted.items())
            for score in counted}


@dataclass(slots=True)
class _Pair:
    """A pair's running totals while the boards are added."""

    names: str | None
    directions: set[str] = field(default_factory=set)
    boards: int = 0
    total: float = 0.0
    top: float = 0.0


@dataclass(slots=True)
class PairsEvent:
    """Scores the pairs fields of a sheet's boards and ranks the pairs."""

    scoring: PairsScoring
    #: each file's own method, by path (its Scoring tag), where files differ
    by_path: Mapping[str | None, PairsScoring] = field(default_factory=dict)
    #: scale a board with fewer results than the event's most (a result missing, or
    #: replaced by an artificial score) up to the full top (Neuberg); else each board is
    #: scored on its own top, as some club programs do
    factored: bool = True

    def score(self, results: Sequence[BoardResult], boards: list[BoardScore]) -> list[Ranking]:
        """Fill ``boards`` (matchpoints and percentages, or IMPs) in place; return the
        rankings of the events whose results name their pairs."""
        # Most deals of a large file of hand records are played once: a list is made only
        # for a repeated one (or for any board of an event that ranks its pairs), so that
        # grouping costs little more per record than its key.
        first: dict[FieldKey, int] = {}
        fields: dict[FieldKey, list[int]] = {}
        ranked: set[tuple[str | None, str | None]] = set()
        methods: dict[tuple[str | None, str | None], PairsScoring] = {}
        for position, (result, row) in enumerate(zip(results, boards, strict=True)):
            if result.room is not None or result.board is None or (
                    row.score_ns is None and result.adjusted is None):
                continue
            key = result.match_key
            if (key.event, key.section) not in methods:
                methods[key.event, key.section] = self.by_path.get(result.path, self.scoring)
            field_key = (key.event, key.section, result.board.strip(), result.hands)
            seen = first.setdefault(field_key, position)
            if seen != position:
                fields.setdefault(field_key, [seen]).append(position)
            if result.pairs is not None:
                ranked.add((key.event, key.section))
        if ranked:
            for field_key, position in first.items():
                if field_key[:2] in ranked and field_key not in fields:
                    fields[field_key] = [position]
        del first
        most: Counter[tuple[str | None, str | None]] = Counter()
        for (event, section, _, _), positions in fields.items():
            if (event, section) in ranked:
                count = sum(results[p].weight for p in positions)
                most[event, section] = max(most[event, section], count)
        by_direction = _numbered_by_direction(results, fields)
        pairs: dict[tuple[str | None, str | None], dict[_PairKey, _Pair]] = {}
        for (event, section, _, _), positions in fields.items():
            expected = most[event, section] if (event, section) in ranked else None
            awards_ew = self._field(results, boards, positions, expected,
                                    methods[event, section], self.factored)
            if expected is not None:
                self._add_to_pairs(results, boards, positions,
                                   pairs.setdefault((event, section), {}),
                                   (event, section) in by_direction, awards_ew)
        return [line for (event, section), entries in pairs.items()
                for line in self._rank(event, section, entries, methods[event, section])]

    @staticmethod
    def _field(results: Sequence[BoardResult], boards: list[BoardScore],
               positions: list[int], expected: int | None, scoring: PairsScoring,
               factored: bool = True) -> dict[int, float]:
        """Score one board's field; ``expected`` is the most results a board of the event
        has, when the event ranks its pairs (else None: a board played once is left).

        Artificial scores (Law 12C2) are not compared: each gets its share of the top, or
        its IMPs, and the board's other results are compared among themselves. Returns
        the E-W IMPs of each award, by position (an award's two sides need not balance)."""
        played = [p for p in positions if results[p].adjusted is None]
        awarded = [p for p in positions if results[p].adjusted is not None]
        scores = [boards[p].score_ns or 0 for p in played]
        weights = [results[p].weight for p in played]
        count = sum(weights)
        everyone = count + sum(results[p].weight for p in awarded)
        if everyone < 2 and expected is None:
            return {}
        method = scoring.method
        if method is Method.MATCHPOINTS:
            full = max(expected or 0, everyone)
            PairsEvent._matchpoints(boards, played, ScoreField(scores, weights),
                                    full if factored else None, scoring)
            win = float(scoring.scale.value)
            top = win * ((full if factored else count) - 1)
            for position in awarded if top > 0 else ():
                award = _award(results[position])
                boards[position] = boards[position]._replace(
                    mp_ns=award.ns * top / 100, mp_ew=award.ew * top / 100,
                    pct_ns=award.ns, pct_ew=award.ew)
            return {}
        awards_ew: dict[int, float] = {}
        comparisons = everyone - 1
        # Law 12C2's IMPs are for one comparison: a summed cross-IMP scale counts as many
        # as the result would have made
        per_award = 1.0 if method.is_butler or comparisons < 1 else comparisons / {
            "none": 1, "scores": everyone, "comparisons": comparisons}[scoring.divisor]
        for position in awarded:
            award = _award(results[position])
            scaled = 1.0 if award.imps is not None else per_award
            boards[position] = boards[position]._replace(imp_ns=award.imps_ns * scaled)
            awards_ew[position] = award.imps_ew * scaled
        if method.is_butler and played:
            datum = butler_datum(scores, weights, method)
            for position, score in zip(played, scores):
                boards[position] = boards[position]._replace(
                    imp_ns=float(imps(score - datum)), datum=datum)
        elif method is Method.CROSS and count >= 2:
            sums = cross_imps(scores, weights)
            divisor = {"none": 1, "scores": count, "comparisons": count - 1}[
                scoring.divisor]
            for position, score in zip(played, scores):
                boards[position] = boards[position]._replace(
                    imp_ns=sums[score] / divisor, cross_sum=sums[score],
                    cross_average=sums[score] / (count - 1))
        return awards_ew

    @staticmethod
    def _matchpoints(boards: list[BoardScore], positions: list[int], scores: ScoreField,
                     expected: int | None, scoring: PairsScoring) -> None:
        win = float(scoring.scale.value)
        count = scores.count
        for position in positions:
            points = scores.points(boards[position].score_ns or 0, scoring.scale)
            top = win * (count - 1)
            if expected is not None and count < expected:
                points, top = neuberg(points, count, expected, scoring.scale)
            if top <= 0:
                continue
            boards[position] = boards[position]._replace(
                mp_ns=points, mp_ew=top - points,
                pct_ns=points / top * 100, pct_ew=(top - points) / top * 100)

    @staticmethod
    def _add_to_pairs(results: Sequence[BoardResult], boards: Sequence[BoardScore],
                      positions: list[int], pairs: dict[_PairKey, _Pair],
                      by_direction: bool, awards_ew: Mapping[int, float]) -> None:
        for position in positions:
            result, row = results[position], boards[position]
            if result.pairs is None:
                continue
            sides: tuple[tuple[str, str | None, str, int], ...] = (
                (result.pairs.ns, result.pairs.ns_names, "NS", 1),
                (result.pairs.ew, result.pairs.ew_names, "EW", -1))
            if result.pairs.players is not None:
                # an individual event: each player scores the side's figure alone
                north, east, south, west = result.pairs.players
                sides = ((north, None, "NS", 1), (south, None, "NS", 1),
                         (east, None, "EW", -1), (west, None, "EW", -1))
            for pair_id, names, direction, sign in sides:
                pair = pairs.setdefault((direction if by_direction else None, pair_id),
                                        _Pair(names))
                pair.names = pair.names or names
                pair.directions.add(direction)
                pair.boards += 1
                award = result.adjusted
                if row.mp_ns is not None and row.mp_ew is not None:
                    pair.total += row.mp_ns if sign > 0 else row.mp_ew
                    # an award's two shares need not add up to the top (A+ to both)
                    pair.top += row.mp_ns + row.mp_ew if award is None else (
                        row.mp_ns * 100 / award.ns if award.ns else
                        row.mp_ew * 100 / award.ew if award.ew else 0.0)
                elif row.imp_ns is not None:
                    pair.total += row.imp_ns if sign > 0 else awards_ew.get(
                        position, -row.imp_ns)

    @staticmethod
    def _rank(event: str | None, section: str | None, pairs: dict[_PairKey, _Pair],
              scoring: PairsScoring) -> list[Ranking]:
        matchpoints = scoring.method is Method.MATCHPOINTS
        direction = {key: next(iter(pair.directions)) if len(pair.directions) == 1
                     else None for key, pair in pairs.items()}
        # A Mitchell (every pair stays N-S or E-W) gives two fields, each with its own
        # winner; IMPs add up across the room, as do the pairs of a Howell.
        by_direction = matchpoints and None not in direction.values()
        groups: dict[str | None, list[_PairKey]] = {}
        for key in pairs:
            groups.setdefault(direction[key] if by_direction else None, []).append(key)
        lines = []
        # IMPs add up over the boards played: a pair that sat out boards is credited with
        # its average per board for them (a percentage needs no such credit)
        session = max(pair.boards for pair in pairs.values())
        credited = {key: pair.total / pair.boards * session for key, pair in pairs.items()
                    if not matchpoints and 0 < pair.boards < session}
        for group in sorted(groups, key=lambda name: ("NS", "EW", None).index(name)):
            figures = {}
            for pair_id in groups[group]:
                pair = pairs[pair_id]
                percentage = pair.total / pair.top * 100 if matchpoints and pair.top else None
                figures[pair_id] = (percentage if matchpoints else
                                    credited.get(pair_id, pair.total), percentage)
            order = sorted(groups[group], key=lambda p: (-round(figures[p][0] or 0.0, 9),
                                                         _id_order(p[1]), p[0] or ""))
            rank = 0
            previous: float | None = None
            for place, pair_id in enumerate(order, start=1):
                value = round(figures[pair_id][0] or 0.0, 9)
                if value != previous:
                    rank, previous = place, value
                pair = pairs[pair_id]
                lines.append(Ranking(
                    event, section, direction[pair_id], pair_id[1], pair.names, pair.boards,
                    pair.total, figures[pair_id][1], rank,
                    pair.top if matchpoints else None, by_direction, credited.get(pair_id)))
        return lines


def _award(result: BoardResult) -> ArtificialScore:
    assert result.adjusted is not None
    return result.adjusted


def _numbered_by_direction(results: Sequence[BoardResult],
                           fields: dict[FieldKey, list[int]]) -> set[tuple[str | None, str | None]]:
    """The events that number their N-S and E-W pairs apart (a Mitchell's N-S 1 and E-W 1
    are two pairs): a number seen on both sides of one board cannot be one pair."""
    found: set[tuple[str | None, str | None]] = set()
    for (event, section, _, _), positions in fields.items():
        if (event, section) in found:
            continue
        played = [pairs for p in positions if (pairs := results[p].pairs) is not None]
        ns, ew = {pairs.ns for pairs in played}, {pairs.ew for pairs in played}
        if ns & ew:
            found.add((event, section))
    return found


#: A pair: its direction where the event numbers the directions apart, and its id.
_PairKey = tuple[str | None, str]


def _id_order(pair_id: str) -> tuple[int, str]:
    """Pair ids in their natural order: 2 before 10, numbers before names."""
    number = whole_number(pair_id)
    return (number, "") if number is not None else (1 << 62, pair_id)
