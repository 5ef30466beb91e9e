"""``SC`` codes about stated scores: the Score, ScoreIMP, ScoreMP, ScorePercentage and
ScoreRubber tags and the ScoreTable section, checked against what the record's contract,
declarer, result and vulnerability are worth (Law 77 of the Laws of Duplicate Bridge,
the Laws of Rubber Bridge; PBN 2.1 sections 4.2 and 5).

Some figures need the rest of the file (the other room of a team match, the other results
of a board, the deals before this one in a rubber), so the checks run per file:
:class:`ScoreChecks` sees the games in order through ``add`` and gives the file-level
findings from ``finish``. It keeps a few small values per game, never the game itself.

For parallel runs ``add`` comes in two halves: :func:`score_record` reads one game into a
small picklable :class:`ScoreRecord` plus the findings that game allows on its own (a
worker's job), and :meth:`ScoreChecks.add_record` takes them in file order (the parent's).
Most records of a large file need only their score and its check: a worker sends those
as a :class:`PlainRecord` (see :func:`compact`), a hundred times cheaper to send.

A value that cannot be read is the tag checks' business (``TG013``); a record that cannot
be scored (no result, no declarer) is simply not compared: no guessing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from decimal import Decimal

from pbnkit.diagnostics import Diagnostic, Severity
from pbnkit.model import Side
from pbnkit.pbn.records import Game, TagPair
from pbnkit.pbn.tables import read_table
from pbnkit.rules.event_scores import (FIELD_IMPS, check_team_totals, check_totals,
                                      field_imps, read_totals)
from pbnkit.rules.not_scored import not_scored
from pbnkit.rules.table_cells import cell_spellings
from pbnkit.rules.plain_records import PlainRecord
from pbnkit.rules.stated_scores import ScoreRecord, Stated, StatedRubber, read_rubber, read_stated
from pbnkit.rules.table_scores import (
    NOT_MATCHPOINTS,
    Fit,
    agrees,
    check_score_table,
    figure_text,
    scoring_fields,
    vulnerability_of,
)
from pbnkit.scoring import (
    DEFAULT_PROFILE,
    ScoreField,
    find_profile,
    profile_for_scoring,
    team_matches,
)
from pbnkit.scoring.base import BoardResult, Line, Match, Problem, Ranking, RubberDeal
from pbnkit.scoring.duplicate import DuplicateProfile
from pbnkit.scoring.pairs import FieldKey
from pbnkit.scoring.records import board_result
from pbnkit.scoring.table_rows import table_results

_SCORE_TAGS = ("Score", "ScoreIMP", "ScoreMP", "ScorePercentage")
# Scoring fields whose IMPs are not the two-room difference on the WBF scale.
_OTHER_IMPS = frozenset(("butler", "butler-2", "experts", "cross", "cross1", "cross2", "mean",
                         "median", "imp_1948", "imp_1961", "bam", "instant"))
# Of those, the ones pbnkit does not compute ("mean" only says Butler's datum is a mean).
_UNCOMPUTED_IMPS = _OTHER_IMPS - FIELD_IMPS - {"mean"}

AnyRecord = ScoreRecord | PlainRecord


def compact(record: ScoreRecord) -> AnyRecord:
    """The record as the duplicate checks take it: a :class:`PlainRecord` when it is
    plain (see :meth:`ScoreChecks._keep`: of a plain record, only its score in the
    board's field is kept), else itself."""
    result, stated = record.result, record.stated
    if (record.rows or record.totals is not None or record.unchecked or record.followed
            or record.table_figures is not None or result.pairs
            is not None or result.room is not None or "ScoreIMP" in stated
            or "ScoreMP" in stated or "ScorePercentage" in stated):
        return record
    ns = record.score_ns()
    key = result.match_key
    board = (key.event, key.section, result.board.strip(), result.hands) \
        if result.board and ns is not None else None
    return PlainRecord(result.index, record.line, record.scoring_tag, board, ns,
                       tuple(_check_score(record)))


class ScoreChecks:
    """The SC020-SC030 checks of one file.

    ``profile`` is the scoring profile's name; None lets the file's first Scoring tag
    decide (docs/scoring.md, "Choosing the profile"), as ``pbnkit score`` does. Call
    :meth:`add` for every game in file order (or :meth:`add_record` with what
    :func:`score_record` made of it), then :meth:`finish` once.
    """

    def __init__(self, profile: str | None = None) -> None:
        self._requested = find_profile(profile).name if profile else None
        self._scoring: str | None = None
        self._decided: str | None = None  # the profile the Scoring tag names, once read
        self._pending: list[AnyRecord] = []  # Score tags waiting for the profile
        self._noted_imps = False
        # Kept to the end of the file, for the checks that need all of it. A rubber
        # profile needs every record; the duplicate checks only the records of team
        # matches, and of the other records each board's scores and the records that
        # state matchpoints: a large file keeps an int for most of its records.
        self._records: list[ScoreRecord] = []
        self._rooms: list[ScoreRecord] = []
        # A board's field as pbnkit score groups it: event, section, board and deal.
        self._fields: dict[FieldKey, list[int]] = {}
        self._stating_mp: dict[FieldKey, list[ScoreRecord]] = {}
        self._stating_imps: dict[FieldKey, list[ScoreRecord]] = {}
        # The events (event, section) whose records name their pairs: score ranks them,
        # and scales their boards with a result missing (Neuberg).
        self._ranked: set[tuple[str | None, str | None]] = set()
        # A pairs event's results (table rows, records naming their pairs), kept only to
        # rank the pairs against a TotalScoreTable.
        self._event: list[BoardResult] = []
        self._totals: list[ScoreRecord] = []
        self._unchecked: dict[str, Diagnostic] = {}  # SC032, once per kind
        self._followed: dict[str, Diagnostic] = {}  # SC035, once per kind
        # The records whose ScoreTable figures were explained, for the event's field size.
        self._tables: list[ScoreRecord] = []
        # The first line of a finding that :meth:`finish` (or a later Scoring tag) may
        # still give: that of the first record waiting for the profile, and of the first
        # record or SC032 note kept for the end of the file.
        self._pending_from: int | None = None
        self._kept_from: int | None = None

    @property
    def profile(self) -> str | None:
        """The profile in force, or None while no Scoring tag has decided it."""
        return self._requested or self._decided

    def profile_after(self, scoring_tag: str | None) -> str | None:
        """The profile in force once a record with this Scoring tag is added."""
        if self.profile is None and scoring_tag:
            return profile_for_scoring(scoring_tag)
        return self.profile

    def restore_pending(self, full: dict[int, ScoreRecord]) -> None:
        """Put back, before the profile is decided, the full records (by index) of the
        plain records waiting for it: a profile that is not duplicate needs them."""
        self._pending = [full[r.index] if isinstance(r, PlainRecord) else r
                         for r in self._pending]

    @property
    def open_from(self) -> int | None:
        """The first line at which a finding about the records given so far may still come
        (from a later record's Scoring tag or from :meth:`finish`); None when none can.
        What is before it is settled: a validator can list it while the file is read."""
        if self._pending_from is None or self._kept_from is None:
            return self._kept_from if self._pending_from is None else self._pending_from
        return min(self._pending_from, self._kept_from)

    def add(self, game: Game) -> list[Diagnostic]:
        """The checks one game allows on its own; later games may complete them."""
        return self.add_record(*score_record(game))

    def add_record(self, record: AnyRecord,
                   table_diagnostics: Sequence[Diagnostic] = ()) -> list[Diagnostic]:
        """Take the next game's record and its ScoreTable findings, both from
        :func:`score_record`, in file order: what depends on the games before it (the
        profile, SC030 once per file) is decided here. Returns the findings due now, the
        table's first, as :meth:`add` gives them."""
        if self._scoring is None and record.scoring_tag:
            self._scoring = record.scoring_tag
            self._decided = profile_for_scoring(self._scoring)
        found = list(table_diagnostics)
        self._pending.append(record)
        if isinstance(record, ScoreRecord):
            found += self._note_imps(record)
            for kind, why, where in record.unchecked:
                self._unchecked_once(kind, record, where, why)
            for kind, what, where in record.followed:
                self._followed_once(kind, record, where, what)
        if self.profile is not None:
            found += self._flush(self.profile)
        elif self._pending_from is None:
            self._pending_from = record.line  # records come in file order: the first is least
        return found

    def finish(self) -> list[Diagnostic]:
        """The checks that need the whole file: team matches, matchpoints, rubbers."""
        profile = self.profile or DEFAULT_PROFILE
        found = self._flush(profile)
        if profile == "duplicate":
            found += (self._imps() + self._matchpoints() + self._pairs_imps()
                      + self._table_fields() + self._total_scores())
        else:
            found += self._rubbers(profile)
        return found + list(self._unchecked.values()) + list(self._followed.values())

    # -- in file order -----------------------------------------------------------------------

    def _flush(self, profile: str) -> list[Diagnostic]:
        found: list[Diagnostic] = []
        if profile == "duplicate":
            for record in self._pending:
                if isinstance(record, PlainRecord):
                    found += record.found
                    if record.field is not None and record.ns is not None:
                        self._fields.setdefault(record.field, []).append(record.ns)
                    continue
                found += _check_score(record)
                self._keep(record)
        else:
            full = [r for r in self._pending if isinstance(r, ScoreRecord)]
            # rubber checks need whole records: pbnkit.rules.unit_scores restores them
            assert len(full) == len(self._pending)
            self._records += full
            self._hold(full[0].line if full else None)
        self._pending = []
        self._pending_from = None
        return found

    def _hold(self, line: int | None) -> None:
        """A record (or note) at ``line`` waits for the end of the file."""
        if line is not None and (self._kept_from is None or line < self._kept_from):
            self._kept_from = line

    def _keep(self, record: ScoreRecord) -> None:
        """File a checked record for the duplicate checks at the end of the file."""
        result, ns = record.result, record.score_ns()
        if record.rows or result.pairs is not None:
            self._event += record.rows or (result.without_hands(),)
        if record.totals is not None:
            self._totals.append(record)
            self._hold(record.line)
        if record.table_figures is not None:
            self._tables.append(record)
            self._hold(record.line)
        if result.room is None and "ScoreIMP" in record.stated and \
                not record.scoring & _OTHER_IMPS:
            self._unchecked_once("imps", record, record.stated_at("ScoreIMP"),
                                 "ScoreIMP not checked in this file where a record has no "
                                 "Room: the other room's result is not known")
        stating = [n for n in ("ScoreMP", "ScorePercentage")
                   if n in record.stated and not record.in_table]
        if result.room is not None:
            record.result = result.without_hands()  # the hands only serve rubber honours
            self._rooms.append(record)
            if "ScoreIMP" in record.stated and not record.scoring & _OTHER_IMPS:
                self._hold(record.line)  # what _imps checks
            if stating:
                self._unchecked_once("matchpoints-rooms", record, record.stated_at(stating[0]),
                                     f"{stating[0]} not checked on a record with a Room: "
                                     "matchpoints compare a pairs field, and a team match "
                                     "has none")
        elif result.board and ns is not None:
            key = result.match_key
            board = (key.event, key.section, result.board.strip(), result.hands)
            self._fields.setdefault(board, []).append(ns)
            if result.pairs is not None:
                self._ranked.add((key.event, key.section))
            method = sorted(record.scoring & NOT_MATCHPOINTS)
            if stating and method:
                self._unchecked_once("matchpoints-method", record, record.stated_at(stating[0]),
                                     f"{stating[0]} not checked in this file: Scoring says "
                                     f"{method[0]!r}, not plain matchpoints")
            elif stating:
                record.result = result.without_hands()
                self._stating_mp.setdefault(board, []).append(record)
                self._hold(record.line)
            # "Mean" alone says Butler against the mean, as score takes IMP alone
            if "ScoreIMP" in record.stated and record.scoring & (FIELD_IMPS | {"mean"}) and \
                    not record.scoring & _UNCOMPUTED_IMPS:
                record.result = result.without_hands()
                self._stating_imps.setdefault(board, []).append(record)
                self._hold(record.line)

    def _note_imps(self, record: ScoreRecord) -> list[Diagnostic]:
        stated = record.stated.get("ScoreIMP")
        # A pairs field gives Butler and cross-IMPs (checked at the end of the file); in a
        # team match's rooms they mean nothing pbnkit computes.
        other = sorted(record.scoring & (_UNCOMPUTED_IMPS if record.result.room is None
                                         else _OTHER_IMPS))
        if stated is None or not other or self._noted_imps:
            return []
        self._noted_imps = True
        scoring = record.scoring_tag or ""
        return [record.diagnostic(
            "SC030", f"ScoreIMP not checked in this file: Scoring {scoring!r} does not mean the "
            "two-room difference on the WBF scale", stated.line, stated.column)]

    # -- per file ----------------------------------------------------------------------------

    def _imps(self) -> list[Diagnostic]:
        # Only records with a Room play in a team match (team_matches ignores the others).
        checked = [r for r in self._rooms
                   if "ScoreIMP" in r.stated and not r.scoring & _OTHER_IMPS]
        if not checked:
            return []
        results = [r.result for r in self._rooms]
        matches, _ = team_matches(results, [r.score_ns() for r in self._rooms])
        imps_ns: dict[int, tuple[int, str]] = {}
        for match in matches:
            for board in match.boards:
                if board.open_ns is None or board.closed_ns is None:
                    continue  # an artificial score's IMPs are the award's, not a comparison
                room = f"{board.open_ns:+d} in the Open room, {board.closed_ns:+d} in the Closed"
                imps_ns[board.open_index] = (board.imps, room)
                imps_ns[board.closed_index] = (-board.imps, room)
        found = []
        for record in checked:
            if record.result.index not in imps_ns:
                self._unchecked_once("imps", record, record.stated_at("ScoreIMP"),
                                     "ScoreIMP not checked where a board was not compared "
                                     "between two rooms of this file (board "
                                     f"{record.result.board} first)")
                continue
            ns, rooms = imps_ns[record.result.index]
            stated = record.stated["ScoreIMP"]
            for side, figure in stated.claims(_declarer_side(record.result)):
                expected = ns if side is Side.NS else -ns
                if not agrees(figure, expected):
                    found.append(record.diagnostic(
                        "SC021", f"ScoreIMP {stated.text!r} but N-S scored {rooms} room: "
                        f"{side.value} {expected:+d} IMPs", stated.line, stated.column))
        return found

    def _matchpoints(self) -> list[Diagnostic]:
        """ScoreMP and ScorePercentage against the board's other results in the file."""
        most: dict[tuple[str | None, str | None], int] = {}
        for (event, section, _, _), scores in self._fields.items():
            if (event, section) in self._ranked:
                most[event, section] = max(most.get((event, section), 0), len(scores))
        found = []
        for board, scores in self._fields.items():
            stating = self._stating_mp.get(board, ())
            expected = most.get(board[:2])
            if len(scores) < 2 and (expected or 0) < 2 and stating:
                first = stating[0]
                name = "ScoreMP" if "ScoreMP" in first.stated else "ScorePercentage"
                self._unchecked_once("matchpoints", first, first.stated_at(name),
                                     f"{name} not checked where the file holds one result of "
                                     f"a board (board {first.result.board} first): the other "
                                     "results are not in the file")
            if (len(scores) < 2 and (expected or 0) < 2) or not stating:
                continue
            # One field per board, sorted once, serves every record of the board.
            field = ScoreField(scores)
            for record in stating:
                ns = record.score_ns()
                assert ns is not None
                fit = Fit(field, record.scale, expected=expected)
                for name in ("ScoreMP", "ScorePercentage"):
                    stated = record.stated.get(name)
                    if stated is None:
                        continue
                    wrong, why = _compare_matchpoints(
                        record, stated, fit, ns, "SC022",
                        f"computed from the {len(scores)} results of this board in this file")
                    found += wrong
                    if why is not None:
                        self._unchecked_once("matchpoints-top", record,
                                             (stated.line, stated.column), why)
        return found

    def _pairs_imps(self) -> list[Diagnostic]:
        """ScoreIMP against the Butler or cross-IMPs of the board's results in the file."""
        found = []
        for board, stating in self._stating_imps.items():
            scores = self._fields[board]
            if len(scores) < 2:
                self._unchecked_once("field-imps", stating[0], stating[0].stated_at("ScoreIMP"),
                                     "ScoreIMP not checked where the file holds one result of "
                                     f"a board (board {board[2]} first)")
                continue
            expected = field_imps(scores, stating[0].scoring)
            for record in stating:
                ns, stated = record.score_ns(), record.stated["ScoreIMP"]
                assert ns is not None
                for side, figure in stated.claims(_declarer_side(record.result)):
                    value = expected[ns] if side is Side.NS else -expected[ns]
                    if not agrees(figure, value):
                        found.append(record.diagnostic(
                            "SC033", f"ScoreIMP {stated.text!r} but {ns:+d} for N-S gets "
                            f"{side.value} {figure_text(value)} IMPs among the "
                            f"{len(scores)} results of this board in this file",
                            stated.line, stated.column))
        return found

    def _total_scores(self) -> list[Diagnostic]:
        """Each TotalScoreTable against pbnkit's ranking of the file's pairs event."""
        if not self._totals:
            return []
        rankings: Sequence[Ranking] | None = None
        matches: list[Match] | None = None
        found = []
        for record in self._totals:
            assert record.totals is not None
            if record.totals.teams:
                if matches is None:
                    matches, _ = team_matches([r.result for r in self._rooms],
                                              [r.score_ns() for r in self._rooms])
                wrong, note, discrete = check_team_totals(record.totals, matches,
                                                          record.result.match_key)
                if discrete is not None:
                    self._followed_once("discrete-vp", record, (record.totals.line,
                                                                record.totals.column), discrete)
            else:
                if rankings is None:
                    scorer = DuplicateProfile.for_scoring(self._scoring)
                    rankings = scorer.score(self._event).rankings
                wrong, note, sat_out = check_totals(record.totals, rankings)
                if sat_out is not None:
                    self._followed_once("sit-out", record, (record.totals.line,
                                                            record.totals.column), sat_out)
            found += [record.diagnostic("SC031", message, cell.line, cell.position)
                      for cell, message in wrong]
            if note is not None:
                self._unchecked_once("totals", record, (record.totals.line,
                                                        record.totals.column), note)
        return found

    def _table_fields(self) -> list[Diagnostic]:
        """Each ScoreTable's MP or Percentage figures against the event's field, as
        ``pbnkit score`` factors them: a table with fewer results than the event's most is
        scaled up to it (Neuberg). Figures factored to that field agree with score;
        plain figures (unfactored) are another program's convention: both are accepted and
        noted (SC035). Figures factored to another field are warned about (SC029)."""
        most = _most_results(self._event)
        found = []
        for record in self._tables:
            assert record.table_figures is not None
            count, factored = record.table_figures
            key = record.result.match_key
            expected, board = most.get((key.event, key.section)), record.result.board
            if factored is None:
                if expected is not None and count < expected:
                    self._followed_once(
                        "unfactored", record, record.table_at,
                        f"ScoreTable matchpoints of a board with fewer results than the "
                        f"event's most ({expected}) are plain, not factored (Neuberg) as "
                        f"pbnkit score factors them (board {board} first, {count} results)")
            elif expected == factored:
                self._followed_once(
                    "neuberg", record, record.table_at,
                    f"ScoreTable matchpoints of a board with fewer results than the event's "
                    f"most ({expected}) are factored to it (Neuberg), as pbnkit score "
                    f"factors them (board {board} first, {count} results)")
            elif expected is None:
                self._followed_once(
                    "neuberg-unranked", record, record.table_at,
                    f"ScoreTable matchpoints are factored (Neuberg) from {count} results to "
                    f"{factored} (board {board} first); the file's results name no pairs, "
                    "so the event's most results are not known to compare")
            else:
                found.append(record.diagnostic(
                    "SC029", f"ScoreTable: its figures are factored (Neuberg) from {count} "
                    f"results to {factored}, but the event's boards have at most {expected} "
                    "results in this file", *record.table_at))
        return found

    def _followed_once(self, kind: str, record: ScoreRecord, where: tuple[int, int],
                       message: str) -> None:
        """An SC035 note, the first of its kind in the file only."""
        if kind not in self._followed:
            self._followed[kind] = record.diagnostic("SC035", message, *where)
            self._hold(where[0])

    def _unchecked_once(self, kind: str, record: ScoreRecord, where: tuple[int, int],
                        message: str) -> None:
        """An SC032 note, the first of its kind in the file only."""
        if kind not in self._unchecked:
            self._unchecked[kind] = record.diagnostic("SC032", message, *where)
            self._hold(where[0])

    def _rubbers(self, profile: str) -> list[Diagnostic]:
        by_index = {r.result.index: r for r in self._records}
        sheet = find_profile(profile).score([r.result for r in self._records])
        found: list[Diagnostic] = []
        for rubber in sheet.rubbers or ():
            kinds: dict[str, dict[int, Problem]] = defaultdict(dict)
            for problem in rubber.warnings:
                if problem.index is not None:
                    kinds[problem.kind][problem.index] = problem
            for deal in rubber.deals:
                record = by_index[deal.index]
                warning = kinds["vulnerability-mismatch"].get(deal.index)
                if warning is not None and record.vulnerable_at is not None:
                    found.append(record.diagnostic("SC025", warning.message,
                                                   *record.vulnerable_at))
                if deal.index in kinds["unscored-deal"]:
                    # Whatever this deal was worth is unknown, and with it the games won:
                    # the rest of the rubber cannot be checked.
                    later = [by_index[after.index] for after in rubber.deals
                             if after.index > deal.index and by_index[after.index].rubber]
                    if later and later[0].rubber is not None:
                        board = record.result.board
                        self._unchecked_once(
                            "rubber", later[0], (later[0].rubber.line, later[0].rubber.column),
                            "ScoreRubber not checked after "
                            + (f"board {board}" if board else f"game {deal.index + 1}")
                            + ", which could not be scored: the games won since are not known")
                    break
                if record.rubber is not None:
                    found += _check_rubber(record, record.rubber, deal,
                                           deal.index in kinds["no-honours"])
        return found


def _most_results(results: Sequence[BoardResult]) -> dict[tuple[str | None, str | None], int]:
    """The most results a board has, by event and section, in the events whose results
    name their pairs: the field ``pbnkit score`` factors a board to (Neuberg)."""
    counts: dict[FieldKey, int] = defaultdict(int)
    ranked = set()
    for result in results:
        if result.room is not None or result.board is None:
            continue
        key = result.match_key
        counts[key.event, key.section, result.board.strip(), result.hands] += result.weight
        if result.pairs is not None:
            ranked.add((key.event, key.section))
    most: dict[tuple[str | None, str | None], int] = {}
    for (event, section, _, _), count in counts.items():
        if (event, section) in ranked:
            most[event, section] = max(most.get((event, section), 0), count)
    return most


def score_record(game: Game) -> tuple[ScoreRecord, list[Diagnostic]]:
    """What the checks keep of one game, and the findings that need only that game (its
    ScoreTable). Pure: a worker process can call it, and the parent passes both to
    :meth:`ScoreChecks.add_record` in file order."""
    values = game.values
    scoring_tag = values.get("Scoring")
    record = ScoreRecord(board_result(game), scoring_fields(scoring_tag), scoring_tag,
                         line=game.line)
    # The first tag of each name, as Game.tag gives it: one pass instead of one per name.
    first = {tag.name: tag for tag in reversed(game.tags)}
    for name in _SCORE_TAGS:
        tag, value = first.get(name), values.get(name)
        if tag is not None and value:
            stated = read_stated(tag, value)
            if stated is not None:
                record.stated[name] = stated
    tag, value = first.get("ScoreRubber"), values.get("ScoreRubber")
    if tag is not None and value:
        record.rubber = read_rubber(tag, value)
    tag = first.get("Vulnerable")
    if tag is not None:
        record.vulnerable_at = (tag.line, tag.value_column or tag.column)
    if (values.get("FrenchMP") or "").strip().lower() == "yes":
        record.scoring = record.scoring | {"frenchmp"}
    record.ns = record._law77()
    table = first.get("ScoreTable")
    if table is not None and record.result.contract is None and record.result.adjusted is None:
        record.rows = tuple(table_results(game, record.result) or ())  # as score reads them
    totals = first.get("TotalScoreTable")
    if totals is not None:
        record.totals = read_totals(totals, values.get("TotalScoreTable"))
    if table is None:
        return record, not_scored(game, record, None)
    cells = read_table(table, game.value(table.name))
    return record, (_table(game, table, record) + [
        record.diagnostic(d.code, d.message, d.line, d.column) for d in cell_spellings(cells)]
        + not_scored(game, record, cells))


def _table(game: Game, tag: TagPair, record: ScoreRecord) -> list[Diagnostic]:
    scores = check_score_table(tag, game.value(tag.name), record.result, record.scoring)
    found = [record.diagnostic(d.code, d.message, d.line, d.column) for d in scores.found]
    record.table_at = (tag.line, tag.value_column or tag.column)
    unchecked = [(kind, why, record.table_at) for kind, why in scores.unchecked]
    record.followed = tuple((kind, what, record.table_at) for kind, what in scores.followed)
    record.table_figures = scores.figures
    own = record.score_ns()
    # The table is the whole field: the file's other records are not compared with.
    record.in_table = True
    for name in ("ScoreMP", "ScorePercentage"):
        stated = record.stated.get(name)
        if stated is None or own is None:
            continue
        if scores.fit is None:
            method = sorted(record.scoring & NOT_MATCHPOINTS)
            unchecked.append(("matchpoints-in-table", f"{name} not checked against the "
                              "ScoreTable: " + (f"Scoring says {method[0]!r}, not plain "
                                                "matchpoints" if method else "the table's "
                                                "matchpoints are not known"),
                              (stated.line, stated.column)))
            continue
        wrong, why = _compare_matchpoints(record, stated, scores.fit, own, "SC023",
                                          f"in the ScoreTable's {scores.fit.count} results")
        found += wrong
        if why is not None:
            unchecked.append(("matchpoints-in-table", why, (stated.line, stated.column)))
    record.unchecked = tuple(unchecked)
    return found


def _declarer_side(result: BoardResult) -> Side | None:
    return result.declarer.side if result.declarer is not None else None


def _check_score(record: ScoreRecord) -> list[Diagnostic]:
    stated = record.stated.get("Score")
    ns = record.score_ns()
    if stated is None or ns is None:
        return []
    result = record.result
    assert result.contract is not None
    found = []
    for side, figure in stated.claims(_declarer_side(result)):
        expected = ns if side is Side.NS else -ns
        if agrees(figure, expected):
            continue
        if result.contract.is_passed_out:
            what = "a passed-out board scores 0"
        else:
            vulnerability, source = vulnerability_of(result.vulnerability, result.board_number)
            assert result.declarer is not None and vulnerability is not None
            vulnerable = "vulnerable" if vulnerability.is_vulnerable(result.declarer) \
                else "not vulnerable"
            what = (f"{result.contract} by {result.declarer.name} with {result.tricks} tricks, "
                    f"{vulnerable} ({source}), scores {side.value} {expected:+d}")
        found.append(record.diagnostic(
            "SC020", f"Score {stated.text!r} but {what}", stated.line, stated.column,
            Severity.WARNING if stated.commented else None))
    return found


def _compare_matchpoints(record: ScoreRecord, stated: Stated, fit: Fit, ns: int, code: str,
                         among: str) -> tuple[list[Diagnostic], str | None]:
    """The findings of a ScoreMP or ScorePercentage against ``fit``, and why it could not
    be compared, if it could not."""
    points = fit.points_of(ns)
    if points is None:
        return [], (f"{stated.name} not checked where the record's score, {ns:+d} for N-S, "
                    "is not among the ScoreTable's results")
    mp_ns, top = points
    found: list[Diagnostic] = []
    for side, figure in stated.claims(_declarer_side(record.result)):
        mp = mp_ns if side is Side.NS else top - mp_ns
        if stated.name == "ScoreMP":
            if figure > Decimal(repr(top)):
                return found, (f"ScoreMP not checked where it is more than the top of "
                               f"{figure_text(top)} {among}: the figure counts a larger "
                               "field")
            expected, unit = mp, "matchpoints"
        else:
            expected, unit = mp / top * 100, "%"
        if not agrees(figure, expected):
            found.append(record.diagnostic(
                code, f"{stated.name} {stated.text!r} but {ns:+d} for N-S gets {side.value} "
                f"{figure_text(expected)}{' ' if unit != '%' else ''}{unit} {among} "
                f"({fit.describe()})", stated.line, stated.column))
    return found, None


def _check_rubber(record: ScoreRecord, stated: StatedRubber, deal: RubberDeal,
                  honours_unknown: bool) -> list[Diagnostic]:
    if stated.bare is not None:
        side = _declarer_side(record.result)
        claims = [] if side is None else [(side, stated.bare)]
    else:
        claims = list(stated.sides)
    found = []
    for side, (above, below) in claims:
        computed = (deal.points(side, Line.ABOVE), deal.points(side, Line.BELOW))
        # Honours are above the line: without the whole deal they are unknown.
        if computed[1] == below and (honours_unknown or computed[0] == above):
            continue
        found.append(record.diagnostic(
            "SC024", f"ScoreRubber {stated.text!r} but the rubber sheet gives {side.value} "
            f"{computed[0]}/{computed[1]} for this deal"
            f"{' (honours not counted: the deal is not fully given)' if honours_unknown else ''}",
            stated.line, stated.column))
    return found


__all__ = ["ScoreChecks", "ScoreRecord", "Stated", "StatedRubber", "read_rubber",
           "read_stated", "score_record"]
