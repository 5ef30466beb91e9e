"""Score whole files: choose the profile, score, and shape the ``pbnkit score`` document
(schema ``schemas/score-report.v2.json``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from itertools import islice
from typing import Any

from pbnkit.errors import PbnError
from pbnkit.model import Contract, Seat, Vulnerability
from pbnkit.pbn.records import Game
from pbnkit.scoring import DEFAULT_PROFILE, find_profile, profile_for_scoring, unknown_scoring
from pbnkit.scoring.duplicate import DuplicateProfile
from pbnkit.scoring.base import (
    BoardResult,
    BoardScore,
    Entry,
    Match,
    Problem,
    Ranking,
    Rubber,
    RubberDeal,
    ScoreSheet,
    Standing,
    UnscoredMatch,
)
from pbnkit.scoring.records import results_of

#: Version 2 added the pairs rankings, the team standings, victory points, and per board
#: the ScoreTable row, the pairs, E-W matchpoints and the pairs event's IMPs and datum.
REPORT_VERSION = 2


@dataclass(frozen=True, slots=True)
class ScoreReport:
    """A profile's score sheet with the results it was computed from (same order)."""

    profile: str
    results: tuple[BoardResult, ...]
    sheet: ScoreSheet

    def to_json(self) -> dict[str, Any]:
        """The whole document as one dict (schema ``schemas/score-report.v2.json``)."""
        return {**self._header(), **{name: list(rows) for name, rows in self.sections()}}

    def json_pieces(self, rows: int = 1000) -> Iterator[str]:
        """The document of :meth:`to_json` as ``json.dumps(..., indent=2,
        ensure_ascii=False)`` writes it, made ``rows`` rows at a time: a large report is
        never held in memory as one dict or one string. No newline follows the closing
        brace."""
        return joined(self._json_rows(), rows)

    def _json_rows(self) -> Iterator[str]:
        yield "{"
        separator = "\n"
        for key, value in self._header().items():
            yield f"{separator}  {_dumps(key)}: {_dumps(value, 1)}"
            separator = ",\n"
        for name, rows in self.sections():
            yield f"{separator}  {_dumps(name)}: "
            opening = "[\n"
            for row in map(partial(_dumps, depth=2), rows) if name in _NESTED else _flat(rows):
                yield f"{opening}    {row}"
                opening = ",\n"
            yield "[]" if opening == "[\n" else "\n  ]"
        yield "\n}"

    def _header(self) -> dict[str, Any]:
        return {"version": REPORT_VERSION, "profile": self.profile,
                "notes": list(self.sheet.notes)}

    def sections(self) -> Iterator[tuple[str, Iterator[dict[str, Any]]]]:
        """The document's lists, each row made only when it is asked for: boards,
        matches, rubbers, rankings, standings, unscored matches, problems."""
        sheet = self.sheet
        yield "boards", map(_board, self.results, sheet.boards)
        yield "matches", map(_match, sheet.matches or ())
        yield "rubbers", map(_rubber, sheet.rubbers or ())
        yield "rankings", map(_ranking, sheet.rankings)
        yield "standings", map(_standing, sheet.standings)
        yield "unscored_matches", map(_unscored, sheet.unscored_matches)
        yield "problems", (
            {"kind": p.kind, "message": p.message, "index": p.index, "board": p.board,
             "path": p.path}
            for p in sheet.all_problems
        )


def joined(pieces: Iterable[str], count: int) -> Iterator[str]:
    """``pieces`` joined ``count`` at a time: fewer, larger writes."""
    pieces = iter(pieces)
    while batch := list(islice(pieces, count)):
        yield "".join(batch)


def _dumps(value: Any, depth: int = 0) -> str:
    """``value`` as ``json.dumps(indent=2)`` writes it ``depth`` levels down a document.
    A JSON string never holds a raw newline, so each newline starts a nested line."""
    text = json.dumps(value, indent=2, ensure_ascii=False)
    return text.replace("\n", "\n" + "  " * depth) if depth else text


#: the sections whose rows hold lists and objects; the others' rows hold only plain values
_NESTED = frozenset({"matches", "rubbers"})
#: a row's members as ``_dumps(row, 2)`` separates them. Made by the encoder written in C,
#: which ``json`` uses only without ``indent``: much faster than the Python encoder.
_ROW_MEMBERS = json.JSONEncoder(ensure_ascii=False, separators=(",\n      ", ": "))


#: two rows of plain values as ``_ROW_MEMBERS`` writes a list of them: only between two
#: rows (a JSON string holds no raw newline)
_BETWEEN_ROWS = "},\n      {"


def _flat(rows: Iterable[dict[str, Any]], count: int = 1000) -> Iterator[str]:
    """``_dumps(row, 2)`` of each row of plain values (a board's: one per record). The
    rows are encoded ``count`` at a time, in one call of the encoder written in C, and
    the text cut at the rows' bounds: a call for each row, set up in Python, took nearly
    as long again as the encoding itself."""
    rows = iter(rows)
    while batch := list(islice(rows, count)):
        if not all(batch):  # an empty row is "{}", whose braces hold no members
            yield from map(partial(_dumps, depth=2), batch)
            continue
        for members in _ROW_MEMBERS.encode(batch)[2:-2].split(_BETWEEN_ROWS):
            yield "{\n      " + members + "\n    }"


def choose_profile(scoring: str | None, requested: str | None) -> str:
    """``--profile`` when given, else what the Scoring tag selects (docs/scoring.md)."""
    if requested:
        return find_profile(requested).name
    return profile_for_scoring(scoring)


@dataclass(frozen=True, slots=True)
class TeamOptions:
    """``--vp``: victory points for team matches, on the scale for ``boards`` boards a
    match (None: the boards each match compared); ``scale``: ``"continuous"`` (the WBF
    2013 scale, two decimals) or ``"discrete"`` (whole points)."""

    victory_points: bool = False
    boards: int | None = None
    scale: str = "continuous"


def score_results(results: Iterable[BoardResult], profile: str,
                  scoring: str | None | Mapping[str | None, str] = None,
                  teams: TeamOptions = TeamOptions(),
                  board_scores: Sequence[int | None] | None = None,
                  neuberg: bool = True) -> ScoreReport:
    """Score results; each file starts a fresh sheet (a rubber never runs on into the
    next file). The Scoring tag's modifiers (``scoring``: one tag, or each file's by
    path) choose how a pairs field is scored: MP2 gives matchpoints 1 / 0.5 / 0, Butler
    and Cross IMPs. ``board_scores``: each result's duplicate score
    (:func:`~pbnkit.scoring.duplicate.board_score`), made already; the other profiles
    have no use for them. ``neuberg``: factor a board with fewer results, or with
    artificial scores, up to the full top (else each board has its own top)."""
    results = tuple(results)
    scorer = find_profile(profile)
    if isinstance(scorer, DuplicateProfile):
        scorer = DuplicateProfile.for_scoring(scoring, teams.victory_points, teams.boards,
                                              neuberg, teams.scale)
        return ScoreReport(profile, results, scorer.score(results, board_scores))
    return ScoreReport(profile, results, scorer.score(results))


class MixedProfilesError(PbnError):
    """Files whose Scoring tags select different profiles, scored without ``--profile``."""


def score_games(games: Iterable[Game], profile: str | None = None,
                teams: TeamOptions = TeamOptions()) -> ScoreReport:
    """Score games as they stream by: only the small :class:`BoardResult` of each game is
    kept. Without ``profile``, each file's first Scoring tag decides, and files that
    disagree are refused rather than scored under the wrong rules."""
    results = []
    scoring: dict[str | None, str] = {}
    for game in games:
        if game.path not in scoring and game.value("Scoring"):
            scoring[game.path] = game.value("Scoring") or ""
        results.extend(results_of(game))
    return score_collected(results, scoring, profile, teams)


def score_collected(results: Sequence[BoardResult], scoring: Mapping[str | None, str],
                    profile: str | None = None, teams: TeamOptions = TeamOptions(),
                    board_scores: Sequence[int | None] | None = None,
                    neuberg: bool = True) -> ScoreReport:
    """Score results gathered from files in order; ``scoring`` holds each file's first
    Scoring tag, by path, in file order (what chooses the profile without ``profile``);
    ``board_scores`` as for :func:`score_results`.

    A Scoring tag that names no system pbnkit knows is scored as ``duplicate`` with an
    ``unknown-scoring`` problem naming the word (docs/scoring.md)."""
    warnings: list[Problem] = []
    if profile is None:
        chosen = {path: profile_for_scoring(value) for path, value in scoring.items()}
        if len(set(chosen.values())) > 1:
            listing = ", ".join(f"{path}: {name}" for path, name in chosen.items())
            raise MixedProfilesError(f"the files select different profiles ({listing}); "
                                     "score them separately or choose one with --profile")
        profile = next(iter(chosen.values()), None)
        for path, value in scoring.items():
            word = unknown_scoring(value)
            if word is not None:
                warnings.append(Problem(
                    "unknown-scoring", f"Scoring {value!r}: {word!r} names no scoring system "
                    f"pbnkit knows, so the file is scored as {DEFAULT_PROFILE}", path=path))
    report = score_results(results, choose_profile(None, profile), scoring, teams,
                           board_scores, neuberg)
    if not warnings:
        return report
    sheet = replace(report.sheet, problems=tuple(warnings) + report.sheet.problems)
    return replace(report, sheet=sheet)


def _name(value: Seat | Vulnerability | Contract | None) -> str | None:
    return None if value is None else value.pbn()


#: the PBN names of seats, vulnerabilities and the contracts met, looked up for each
#: record rather than made by a method each time
_SEAT_NAMES: dict[Seat | None, str | None] = {None: None, **{s: s.pbn() for s in Seat}}
_VULNERABILITY_NAMES: dict[Vulnerability | None, str | None] = {
    None: None, **{v: v.pbn() for v in Vulnerability}}
_CONTRACT_NAMES: dict[Contract | None, str | None] = {None: None}  # some hundred at most


def _board(result: BoardResult, row: BoardScore) -> dict[str, Any]:
    contract = _CONTRACT_NAMES.get(result.contract)
    if contract is None and result.contract is not None:
        contract = _CONTRACT_NAMES[result.contract] = result.contract.pbn()
    return {
        "path": result.path, "index": result.index, "board": result.board,
        "room": result.room, "declarer": _SEAT_NAMES[result.declarer],
        "contract": contract, "tricks": result.tricks,
        "vulnerable": _VULNERABILITY_NAMES[result.vulnerability], "score_ns": row.score_ns,
        "mp_ns": row.mp_ns, "pct_ns": row.pct_ns, "mp_ew": row.mp_ew, "pct_ew": row.pct_ew,
        "row": result.row, "weight": result.weight,
        "adjusted": result.adjusted.text if result.adjusted is not None else None,
        "pair_ns": result.pairs.ns if result.pairs else None,
        "pair_ew": result.pairs.ew if result.pairs else None,
        "imp_ns": row.imp_ns, "datum": row.datum, "cross_sum": row.cross_sum,
        "cross_average": row.cross_average,
    }


def _match(match: Match) -> dict[str, Any]:
    key = match.key
    return {
        "key": {"event": key.event, "section": key.section, "stage": key.stage,
                "round": key.round, "home_team": key.home_team, "visit_team": key.visit_team},
        "boards": [{"board": b.board, "open_ns": b.open_ns, "closed_ns": b.closed_ns,
                    "diff": b.diff, "imps": b.imps, "adjusted": b.adjusted}
                   for b in match.boards],
        "imps_a": match.imps_a, "imps_b": match.imps_b,
        "team_a": match.teams[0], "team_b": match.teams[1],
        "imps_won_a": match.won_a, "imps_won_b": match.won_b,
        "winner": match.winner,  # None when no board could be compared
        "vp_a": match.vp_a, "vp_b": match.vp_b,
    }


def _ranking(line: Ranking) -> dict[str, Any]:
    return {"event": line.event, "section": line.section, "direction": line.direction,
            "id": line.id, "names": line.names, "boards": line.boards, "total": line.total,
            "top": line.top, "percentage": line.percentage, "rank": line.rank,
            "credited": line.credited}


def _standing(line: Standing) -> dict[str, Any]:
    return {"event": line.event, "section": line.section, "team": line.team,
            "matches": line.matches, "imps_for": line.imps_for,
            "imps_against": line.imps_against, "vp": line.vp, "rank": line.rank}


def _unscored(match: UnscoredMatch) -> dict[str, Any]:
    key = match.key
    return {"event": key.event, "section": key.section, "stage": key.stage,
            "round": key.round, "home_team": key.home_team, "visit_team": key.visit_team,
            "room": match.room, "board_count": len(set(match.boards)),
            "board_range": match.board_range, "path": match.path, "index": match.index}


def _entry(entry: Entry) -> dict[str, Any]:
    return {"side": entry.side.value, "line": entry.line.value, "points": entry.points,
            "reason": entry.reason.value}


def _deal(deal: RubberDeal) -> dict[str, Any]:
    return {"index": deal.index, "board": deal.board, "declarer": _name(deal.declarer),
            "contract": _name(deal.contract), "tricks": deal.tricks,
            "vulnerable": _name(deal.vulnerability),
            "entries": [_entry(e) for e in deal.entries],
            "scored": deal.scored, "place": deal.place, "dealer": _name(deal.dealer)}


def _rubber(rubber: Rubber) -> dict[str, Any]:
    return {
        "unit": rubber.unit, "number": rubber.number, "path": rubber.path,
        "complete": rubber.complete,
        "deals": [_deal(d) for d in rubber.deals],
        "settlement": [_entry(e) for e in rubber.settlement],
        "games": {"NS": rubber.games_ns, "EW": rubber.games_ew},
        "finished": rubber.finished,
        "above": {"NS": rubber.above_ns, "EW": rubber.above_ew},
        "below": {"NS": rubber.below_ns, "EW": rubber.below_ew},
        "total": {"NS": rubber.total_ns, "EW": rubber.total_ew},
        "winner": rubber.winner, "margin": rubber.margin,
        "rubber_points": rubber.rubber_points,
    }
