"""``SC`` codes about a game's ScoreTable (PBN 2.1 section 5.9), and the arithmetic the score
checks share: Law 77 with PBN's ``OldMP`` modifier, matchpoints over a field, and
comparing a written figure with a computed one to the precision written.

A ScoreTable holds the whole field's results on the board. Each row's score must follow
from its contract, declarer and result; its MP and Percentage figures from the table's
scores; its IMPs from its datum where the table gives one.
"""

from __future__ import annotations

import functools

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from pbnkit.diagnostics import Diagnostic
from pbnkit.digits import MAX_DIGITS
from pbnkit.model import Vulnerability
from pbnkit.model.adjusted import ArtificialScore
from pbnkit.pbn.records import TagPair
from pbnkit.pbn.tables import (
    Table,
    is_artificial,
    is_special,
    read_table,
)
from pbnkit.rules.result import read_contract, read_declarer, read_result
from pbnkit.scoring import MatchpointScale, ScoreField, imps
from pbnkit.scoring.base import BoardResult
from pbnkit.scoring.duplicate import Method, score_ns
from pbnkit.scoring.pairs import butler_datum, mean_datum, neuberg
from pbnkit.scoring.table_rows import row_awards
from pbnkit.pickling import by_fields

#: Scoring fields whose datum is not the mean of the table's scores.
_OTHER_DATUM = frozenset(("experts", "median", "cross", "cross1", "cross2"))
#: Scoring fields under which MP and Percentage figures are not plain MP1/MP2 matchpoints
#: (FrenchMP stands for the FrenchMP tag).
NOT_MATCHPOINTS = frozenset((
    "emp", "frenchmp", "mitchell2", "mitchell3", "mitchell4", "ascherman", "bastille",
    "imp", "bam", "instant", "butler", "butler-2", "experts", "cross", "cross1", "cross2",
    "imp_1948", "imp_1961",
))
_OTHER_IMP_SCALES = frozenset(("imp_1948", "imp_1961"))
_DATUM_COLUMNS = ("ButlerDatum", "Datum")
#: The side a figure column is for, by its name's ending, and the sign of its figure from
#: N-S: an individual event's North and South score the N-S figure, East and West the E-W
#: one (MP_North, Percentage_West, ...).
_SIDES = {"NS": 1, "EW": -1, "North": 1, "South": 1, "East": -1, "West": -1}
_KINDS = ("Score", "IMP", "MP", "Percentage")
_FIGURE = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)")
#: the longest figure read: its digits, a sign and a decimal point
_MOST_FIGURE = MAX_DIGITS + 2


# -- Arithmetic shared with the tag checks ----------------------------------------------------


@functools.lru_cache(maxsize=256)
def scoring_fields(value: str | None) -> frozenset[str]:
    """The Scoring tag's fields, lowercase (``IMP;Butler`` -> ``{'imp', 'butler'}``)."""
    return frozenset(f.strip().lower() for f in (value or "").split(";") if f.strip())


def read_number(text: str) -> Decimal | None:
    """A written figure: ``620``, ``+550``, ``-2.5``, ``100.``; None otherwise, and for
    more digits than a number of a file may have (:data:`~pbnkit.digits.MAX_DIGITS`)."""
    text = text.strip()
    return Decimal(text) if len(text) <= _MOST_FIGURE and _FIGURE.fullmatch(text) else None


def agrees(written: Decimal, computed: float) -> bool:
    """Whether a figure agrees with the computed value to the precision written: within
    one unit of its last digit, so that both rounding and cutting off are accepted
    (``57.6`` for 57.65; ``620`` only for 620)."""
    exponent = written.as_tuple().exponent
    unit = Decimal(1).scaleb(min(int(exponent), 0)) if isinstance(exponent, int) else Decimal(1)
    return abs(written - Decimal(repr(float(computed)))) < unit


def butler_method(scoring: frozenset[str]) -> Method:
    """The Butler datum a Scoring tag's fields ask for: ``Butler-2`` always leaves out the
    2 extreme scores, anything else (``Butler``, ``Mean``, ``IMP`` alone) from five on."""
    return Method.BUTLER_2 if "butler-2" in scoring else Method.BUTLER



def vulnerability_of(vulnerable: Vulnerability | None,
                     board: int | None) -> tuple[Vulnerability | None, str]:
    """The board's vulnerability and where it comes from: the Vulnerable tag wins over
    the board number, as in duplicate scoring (some events renumber boards)."""
    if vulnerable is not None:
        return vulnerable, "Vulnerable tag"
    if board is not None:
        return Vulnerability.for_board(board), f"board {board}"
    return None, "no vulnerability"


@by_fields
@dataclass(frozen=True, slots=True)
class Fit:
    """The results of one board and how they are matchpointed.

    ``count_self`` is a convention seen in real tables (the reference verifier's own
    sample): each score is also compared with itself, as a tie, so the top is one
    comparison larger and nobody gets 0% or 100%.

    ``expected`` is the most results a board of the event has, where the event's results
    name their pairs: a board with fewer is scaled up to that top (Neuberg), as
    ``pbnkit score`` ranks it.
    """

    field: ScoreField
    scale: MatchpointScale = MatchpointScale.MP1
    count_self: bool = False
    expected: int | None = None

    @classmethod
    def of(cls, scores: Sequence[int], weights: Sequence[int] | None,
           scale: MatchpointScale, count_self: bool = False) -> Fit:
        return cls(ScoreField(scores, weights), scale, count_self)

    @property
    def count(self) -> int:
        return self.field.count

    def points_of(self, ns: int) -> tuple[float, float] | None:
        """N-S matchpoints of one of these results, and the top; None when no result
        scored ``ns`` or there is nothing to compare with."""
        if ns not in self.field:
            return None
        if self.expected is not None and self.count < self.expected:
            return neuberg(self.field.points(ns, self.scale), self.count, self.expected,
                           self.scale)
        if self.count < 2:
            return None
        win = float(self.scale.value)
        points, top = self.field.points(ns, self.scale), win * (self.count - 1)
        if self.count_self:
            points, top = points + win / 2, top + win
        return points, top

    def describe(self) -> str:
        rule = self.scale.name
        if self.expected is not None and self.count < self.expected:
            return f"{rule}, Neuberg from {self.count} results to {self.expected}"
        return f"{rule}, each score also tied with itself" if self.count_self else rule


@by_fields
@dataclass(frozen=True, slots=True)
class TableScores:
    """What the ScoreTable check found, and the table's field for the record's own
    ScoreMP/ScorePercentage (None when the table cannot be matchpointed)."""

    found: list[Diagnostic]
    fit: Fit | None
    #: the figures the table states but that cannot be checked: (kind, why), for one
    #: note per file and kind
    unchecked: tuple[tuple[str, str], ...] = ()
    #: the conventions other than pbnkit's own that the figures follow: (kind, what), for
    #: one SC035 note per file and kind
    followed: tuple[tuple[str, str], ...] = ()
    #: where the table's MP or Percentage figures were explained: its number of results
    #: and the number they were factored to (Neuberg), or None for plain matchpoints; the
    #: file's checks compare it with the event's most results
    figures: tuple[int, int | None] | None = None


def check_score_table(tag: TagPair, spec: str | None, result: BoardResult,
                      scoring: frozenset[str]) -> TableScores:
    """The ScoreTable checks of one game; ``spec`` is the tag value after inheritance."""
    table = read_table(tag, spec)
    if not table.columns or not table.rows:
        return TableScores([], None)
    scale = MatchpointScale.MP2 if "mp2" in scoring else MatchpointScale.MP1
    rows = _TableRows(table)
    found = rows.check_scores(result, "oldmp" in scoring)
    unchecked = []
    scores, weights = rows.scores(), rows.weights()
    followed = []
    awarded = [(row, award) for row, award in enumerate(row_awards(table))
               if award is not None]
    fit, followed_awards = None, None
    if awarded and weights is not None and not scoring & NOT_MATCHPOINTS and (
            rows.columns["MP"] or rows.columns["Percentage"]):
        fit, more, followed_awards = rows.check_awarded(tag, awarded, weights, scale)
        found += more
        if followed_awards is not None:
            followed.append(("table-awards", f"the matchpoints of ScoreTables with artificial "
                             f"scores follow {followed_awards}"))
    # Why the field of the table's scores is not known, when it is not.
    why = ("a row's score is artificial or unknown" if scores is None
           else "a Multiplicity is not a whole number" if weights is None
           else "it holds one result" if sum(weights) < 2 else None)
    cross = sorted(scoring & {"cross", "cross1", "cross2"})
    if scores is not None and weights is not None:
        if not scoring & NOT_MATCHPOINTS:
            fit, more = rows.check_matchpoints(tag, scores, weights, scale)
            found += more
        if cross and why is None:
            found += rows.check_cross_imps(scores, weights, cross[0])
        found += rows.check_ranks(scores, weights)
    elif table.index("Rank") is not None:
        unchecked.append(("table-rank", f"Rank not checked in a ScoreTable where {why}"))
    if rows.columns["MP"] or rows.columns["Percentage"]:
        method = sorted(scoring & NOT_MATCHPOINTS)
        reason = (f"Scoring says {method[0]!r}, not plain matchpoints" if method else
                  None if fit is not None or followed_awards is not None else why)
        if reason is not None:
            unchecked.append(("table-matchpoints", f"{rows.named('MP', 'Percentage')} not "
                              f"checked in a ScoreTable where {reason}"))
    if rows.datum is not None:
        if scoring & _OTHER_DATUM:
            unchecked.append(("table-datum", f"{rows.datum} not checked in a ScoreTable "
                              f"where Scoring says {min(scoring & _OTHER_DATUM)!r}: that "
                              "datum is not the mean of the scores"))
        elif scores is None or weights is None:
            unchecked.append(("table-datum", f"{rows.datum} not checked in a ScoreTable "
                              f"where {why}"))
        else:
            wrong, other = rows.check_datum(rows.datum, scores, weights, scoring)
            found += wrong
            followed += other
    if rows.columns["IMP"]:
        if rows.datum is not None and not scoring & _OTHER_IMP_SCALES:
            found += rows.check_datum_imps(rows.datum)
            reason = None
        elif scoring & _OTHER_IMP_SCALES:
            reason = f"Scoring names the {min(scoring & _OTHER_IMP_SCALES)} scale"
        elif cross:
            reason = why
        else:
            reason = ("it has no datum column (ButlerDatum, Datum) and Scoring names no "
                      "cross-IMPs: the IMPs are not known to be against this table's field")
        if reason is not None:
            unchecked.append(("table-imps", f"{rows.named('IMP')} not checked in a "
                              f"ScoreTable where {reason}"))
    victory = [column.name for column in table.columns if column.name.startswith("VP")]
    if victory:
        unchecked.append(("table-vp", f"{', '.join(victory)} not checked in a ScoreTable: "
                          "victory points are a match's, and the table gives one board"))
    figures: tuple[int, int | None] | None = None
    if awarded:
        # factored to the board's own results, awards included: no Neuberg beyond the
        # board for the file's checks to compare with the event's most
        figures = (fit.expected, None) if fit is not None and fit.expected else None
    elif fit is not None and (rows.columns["MP"] or rows.columns["Percentage"]) and \
            not fit.count_self:
        figures = (fit.count, fit.expected)
    return TableScores(found, fit, tuple(unchecked), tuple(followed), figures)



class _TableRows:
    """A ScoreTable's rows, read cell by cell as the checks need them."""

    def __init__(self, table: Table) -> None:
        self.table = table
        #: the figure columns of each kind present, with their sign from N-S
        self.columns: dict[str, list[tuple[str, int]]] = {kind: [] for kind in _KINDS}
        for column in table.columns:
            kind, _, side = column.name.partition("_")
            if kind in self.columns and side in _SIDES and \
                    (column.name, _SIDES[side]) not in self.columns[kind]:
                self.columns[kind].append((column.name, _SIDES[side]))
        self.datum = next((n for n in _DATUM_COLUMNS if table.index(n) is not None), None)

    def named(self, *kinds: str) -> str:
        """The columns of those kinds, for a message: ``MP_NS, Percentage_NS``."""
        return ", ".join(name for kind in kinds for name, _ in self.columns[kind])

    def text(self, row: int, name: str) -> str | None:
        column = self.table.index(name)
        return None if column is None else self.table.rows[row][column]

    def report(self, code: str, row: int, name: str, message: str) -> Diagnostic:
        column = self.table.index(name)
        assert column is not None
        cell = self.table.cells[row][column]
        return Diagnostic(code, f"{self.table.name} row {row + 1}: {name} "
                          f"{self.table.rows[row][column]} but {message}", cell.line, cell.column)

    def figure(self, row: int, name: str) -> Decimal | None:
        text = self.text(row, name)
        return None if text is None or is_special(text) else read_number(text)

    def score(self, row: int) -> int | None:
        """The row's N-S score: Score_NS, else minus Score_EW (tables often fill only the
        side that scored), or an individual event's Score_North...; None when none is a
        plain integer."""
        for name, sign in self.columns["Score"]:
            figure = self.figure(row, name)
            text = self.text(row, name)
            if text is not None and is_artificial(text):
                return None
            if figure is not None and figure == figure.to_integral_value():
                return sign * int(figure)
        return None

    def scores(self) -> list[int] | None:
        """Every row's N-S score, or None when a row has none (artificial, unknown)."""
        scores = [self.score(row) for row in range(len(self.table.rows))]
        return None if any(s is None for s in scores) else [s for s in scores if s is not None]

    def weights(self) -> list[int] | None:
        if self.table.index("Multiplicity") is None:
            return [1] * len(self.table.rows)
        weights = [self.figure(row, "Multiplicity") for row in range(len(self.table.rows))]
        if any(w is None or w < 1 or w != w.to_integral_value() for w in weights):
            return None
        return [int(w) for w in weights if w is not None]

    def check_scores(self, result: BoardResult, old_mp: bool) -> list[Diagnostic]:
        """Each row's score against its contract, declarer and result."""
        if not self.table.has("Contract", "Declarer", "Result"):
            return []
        vulnerability, source = vulnerability_of(result.vulnerability, result.board_number)
        if vulnerability is None:
            return []
        found = []
        for row in range(len(self.table.rows)):
            computed = self._row_score(row, vulnerability, old_mp)
            if computed is None:
                continue
            expected, play = computed
            for name, sign in self.columns["Score"]:
                figure = self.figure(row, name)
                if figure is not None and figure != sign * expected:
                    found.append(self.report(
                        "SC026", row, name, f"{play} ({source}) scores {sign * expected:+d} "
                        f"for {_side(name)}"))
        return found

    def _row_score(self, row: int, vulnerability: Vulnerability,
                   old_mp: bool) -> tuple[int, str] | None:
        texts = [self.text(row, name) or "?" for name in ("Contract", "Declarer", "Result")]
        contract = read_contract(texts[0]) if not is_special(texts[0]) else None
        if contract is not None and contract.is_passed_out:
            return 0, "a passed-out board"
        if contract is None or any(is_special(text) for text in texts[1:]):
            return None
        declarer, result = read_declarer(texts[1]), read_result(texts[2])
        if declarer is None or result is None or result.wrong_agreement:
            return None
        tricks = result.tricks_of(declarer.seat)
        if tricks is None:
            return None
        vulnerable = vulnerability.is_vulnerable(declarer.seat)
        play = (f"{contract} by {declarer.seat.name} with {tricks} tricks, "
                f"{'vulnerable' if vulnerable else 'not vulnerable'}")
        return score_ns(contract, declarer.seat, tricks, vulnerability, old_mp), play

    def check_matchpoints(self, tag: TagPair, scores: list[int], weights: list[int],
                          scale: MatchpointScale) -> tuple[Fit | None, list[Diagnostic]]:
        """MP and Percentage columns against the table's scores. The convention that
        explains most figures is used: plain matchpoints, each score also tied with itself,
        or, when neither explains them all, Neuberg to a larger field (as ``pbnkit score``
        factors a board with fewer results than the event's most; the file's checks then
        compare that field with the event's). When the best explains fewer than half, the
        table is reported once (SC029) and not used for the record's own figures."""
        field = ScoreField(scores, weights)
        fits = [Fit(field, scale), Fit(field, scale, count_self=True)]
        if fits[0].count < 2:
            return None, []
        cells = [(row, name, figure)
                 for name, _ in self.columns["MP"] + self.columns["Percentage"]
                 for row in range(len(scores))
                 if (figure := self.figure(row, name)) is not None]
        if not cells:
            return fits[0], []
        agreeing = [[agrees(figure, _expected(fit, scores[row], name))
                     for row, name, figure in cells] for fit in fits]
        if not any(all(each) for each in agreeing):
            # Only the figures searched when the others fail: most tables are plain.
            for size in self._factored_to(fits[0].count, scale):
                fit = Fit(field, scale, expected=size)
                fits.append(fit)
                agreeing.append([agrees(figure, _expected(fit, scores[row], name))
                                 for row, name, figure in cells])
        best = max(range(len(fits)), key=lambda at: (sum(agreeing[at]), -at))
        if 2 * sum(agreeing[best]) < len(cells):
            order = [name for name, _ in self.columns["MP"] + self.columns["Percentage"]]
            names = sorted({name for _, name, _ in cells}, key=order.index)
            return None, [Diagnostic(
                "SC029", f"{self.table.name}: only {sum(agreeing[best])} of {len(cells)} "
                f"{'/'.join(names)} figures follow from its {fits[0].count} scores "
                f"({scale.name}); the table may list only part of the field", tag.line,
                tag.value_column or tag.column)]
        fit = fits[best]
        found = []
        for (row, name, figure), ok in zip(cells, agreeing[best]):
            if not ok:
                expected = _expected(fit, scores[row], name)
                unit = "%" if name.startswith("Percentage") else ""
                found.append(self.report(
                    "SC027", row, name, f"{scores[row]:+d} for N-S gets {figure_text(expected)}"
                    f"{unit} among the table's {fit.count} scores ({fit.describe()})"))
        return fit, found

    def check_awarded(self, tag: TagPair, awarded: list[tuple[int, ArtificialScore]],
                      weights: list[int], scale: MatchpointScale
                      ) -> tuple[Fit | None, list[Diagnostic], str | None]:
        """MP and Percentage columns of a table with artificial scores (Law 12C2). The
        other rows are matchpointed among themselves, then either factored to the whole
        table (Neuberg, as ``pbnkit score`` does) or left on their own top (``score
        --no-neuberg``); each award gets its share of that top. The method most figures
        follow is taken and named; figures it does not explain are SC027."""
        awards = dict(awarded)
        played = [row for row in range(len(self.table.rows)) if row not in awards]
        scores = [self.score(row) for row in played]
        known = [score for score in scores if score is not None]
        if len(known) != len(scores) or not known:
            return None, [], None  # an unknown score: the field is not known
        field = ScoreField(known, [weights[row] for row in played])
        everyone = field.count + sum(weights[row] for row in awards)
        fits = [Fit(field, scale, expected=everyone), Fit(field, scale)]
        names = [name for name, _ in self.columns["MP"] + self.columns["Percentage"]]
        cells = [(row, name, figure) for name in names for row in range(len(self.table.rows))
                 if (figure := self.figure(row, name)) is not None
                 or (figure := _award_figure(self.text(row, name))) is not None]
        scored = dict(zip(played, known))

        def expected(fit: Fit, row: int, name: str) -> float | None:
            award = awards.get(row)
            if award is None:
                return _expected(fit, scored[row], name) if fit.points_of(scored[row]) \
                    else None
            win = float(scale.value)
            top = win * ((fit.expected or fit.count) - 1)
            share = award.ns if _SIDES[_side(name)] > 0 else award.ew
            return share if name.startswith("Percentage") else share * top / 100

        agreeing = [[(value := expected(fit, row, name)) is not None and agrees(figure, value)
                     for row, name, figure in cells] for fit in fits]
        if not cells:
            return fits[0], [], None
        best = max(range(len(fits)), key=lambda at: (sum(agreeing[at]), -at))
        if 2 * sum(agreeing[best]) < len(cells):
            return None, [Diagnostic(
                "SC029", f"{self.table.name}: only {sum(agreeing[best])} of {len(cells)} "
                f"figures follow from its {field.count} scores and {len(awards)} artificial "
                f"ones, factored or not ({scale.name})", tag.line,
                tag.value_column or tag.column)], None
        fit = fits[best]
        found = []
        for (row, name, figure), ok in zip(cells, agreeing[best]):
            value = expected(fit, row, name)
            if not ok and value is not None:
                unit = "%" if name.startswith("Percentage") else ""
                what = (f"{scored[row]:+d} for N-S" if row in scored
                        else f"the artificial score {awards[row].text}")
                found.append(self.report(
                    "SC027", row, name, f"{what} gets {figure_text(value)}{unit} among the "
                    f"table's {field.count} scores and {len(awards)} artificial ones "
                    f"({scale.name}, {'factored' if best == 0 else 'unfactored'})"))
        method = ("Neuberg: the other results factored to the whole table, as pbnkit score "
                  "does" if best == 0 else "each board's own top, unfactored, as pbnkit "
                  "score --no-neuberg does")
        return (fit if best == 0 else None), found, method

    def _factored_to(self, count: int, scale: MatchpointScale) -> list[int]:
        """The larger fields a table of ``count`` results may have been factored to
        (Neuberg): the one its MP_NS + MP_EW top names, else any up to four times its
        size, or 32 (a table's percentages alone do not name the field)."""
        win = float(scale.value)
        tops = set()
        for row in range(len(self.table.rows)):
            ns, ew = self.figure(row, "MP_NS"), self.figure(row, "MP_EW")
            if ns is not None and ew is not None:
                tops.add(float(ns + ew))
        named = {round(top / win) + 1 for top in tops}
        if named:
            return sorted(field for field in named if field > count)
        return list(range(count + 1, max(4 * count, 32) + 1))

    def check_ranks(self, scores: list[int], weights: list[int]) -> list[Diagnostic]:
        """Each row's Rank: one more than the results with a better N-S score (tied
        results share the better rank)."""
        if self.table.index("Rank") is None:
            return []
        counted: Counter[int] = Counter()
        for score, weight in zip(scores, weights):
            counted[score] += weight
        ranks: dict[int, int] = {}
        rank = 1
        for score in sorted(counted, reverse=True):
            ranks[score], rank = rank, rank + counted[score]
        found = []
        for row, score in enumerate(scores):
            figure = self.figure(row, "Rank")
            if figure is not None and figure != ranks[score]:
                found.append(self.report(
                    "SC027", row, "Rank", f"{score:+d} for N-S ranks {ranks[score]} among "
                    f"the table's {rank - 1} scores"))
        return found

    def check_datum(self, column: str, scores: list[int], weights: list[int],
                    scoring: frozenset[str]) -> tuple[list[Diagnostic], list[tuple[str, str]]]:
        """Each row's stated datum against the Butler datum of the table's scores, as
        ``pbnkit score`` computes it (:func:`~pbnkit.scoring.pairs.butler_datum`). Under
        plain Butler, a table whose every datum is the mean of all its scores follows PBN
        2.1's words ("the average value of all scores"): accepted, and said."""
        method = butler_method(scoring)
        datum = butler_datum(scores, weights, method)
        stated = [(row, figure) for row in range(len(scores))
                  if (figure := self.figure(row, column)) is not None]
        wrong = [(row, figure) for row, figure in stated if figure != datum]
        if not wrong:
            return [], []
        mean = mean_datum(scores, weights)
        if method is Method.BUTLER and all(figure == mean for _, figure in stated):
            return [], [("mean-datum", f"{column} of a ScoreTable is the mean of all its "
                         f"{sum(weights)} scores ({mean:+d}), none left out, as PBN 2.1 "
                         "words plain Butler; pbnkit score leaves out the highest and the "
                         f"lowest from five results on ({datum:+d})")]
        left_out = ("the 2 extreme scores left out" if method is Method.BUTLER_2
                    and sum(weights) >= 3 else "the highest and the lowest left out"
                    if method is Method.BUTLER and sum(weights) >= 5 else "none left out")
        row, _ = wrong[0]
        more = f" (and {len(wrong) - 1} more rows)" if len(wrong) > 1 else ""
        return [self.report("SC034", row, column, f"the {method.value.capitalize()} datum of "
                            f"the table's {sum(weights)} scores is {datum:+d} (their mean, "
                            f"{left_out}, to the nearest 10){more}")], []

    def check_datum_imps(self, datum_column: str) -> list[Diagnostic]:
        found = []
        for row in range(len(self.table.rows)):
            score, datum = self.score(row), self.figure(row, datum_column)
            if score is None or datum is None:
                continue
            imps_ns = imps(score - int(datum))
            found += self._compare_imps(row, imps_ns, f"{score:+d} against the datum "
                                        f"{int(datum):+d}")
        return found

    def check_cross_imps(self, scores: list[int], weights: list[int],
                         method: str) -> list[Diagnostic]:
        """Cross-IMPs summed (``cross``), or divided by the number of scores (``cross1``)
        or of comparisons (``cross2``)."""
        count = sum(weights)
        divisor = {"cross": 1, "cross1": count, "cross2": count - 1}[method]
        if divisor < 1:
            return []
        how = {"cross": "", "cross1": f", divided by {count} scores",
               "cross2": f", divided by {count - 1} comparisons"}[method]
        found = []
        for row, score in enumerate(scores):
            total = sum(w * imps(score - other) for other, w in zip(scores, weights))
            found += self._compare_imps(row, total / divisor,
                                        f"{score:+d} against each other score{how}")
        return found

    def _compare_imps(self, row: int, imps_ns: float, why: str) -> list[Diagnostic]:
        found = []
        for name, sign in self.columns["IMP"]:
            expected = sign * imps_ns
            figure = self.figure(row, name)
            if figure is not None and not agrees(figure, expected):
                found.append(self.report("SC028", row, name, f"{why} gives {_side(name)} "
                                         f"{'+' if expected >= 0 else ''}"
                                         f"{figure_text(expected)} IMPs"))
        return found


def _expected(fit: Fit, ns: int, column: str) -> float:
    points = fit.points_of(ns)
    assert points is not None
    mp_ns, top = points
    kind, _, side = column.partition("_")
    mp = mp_ns if _SIDES[side] > 0 else top - mp_ns
    return mp if kind == "MP" else mp / top * 100


def _award_figure(text: str | None) -> Decimal | None:
    """A figure written as an artificial one (``^25.2``) in an MP or Percentage cell."""
    return read_number(text[1:]) if text is not None and is_artificial(text) else None


def _side(column: str) -> str:
    """Who a figure column is for: ``NS``, ``EW``, or an individual event's ``North``."""
    return column.partition("_")[2]


def figure_text(value: float) -> str:
    """A computed figure for a message: ``99.35``, ``5``."""
    return f"{value:.2f}".rstrip("0").rstrip(".")
