"""From read games to :class:`BoardResult` values: the facts scoring needs.

The contract, declarer, tricks and vulnerability are the record's facts
(:func:`pbnkit.replay.record_facts`: its tags, with the replay filling missing ones);
scoring adds what identifies the board and the match.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from collections.abc import Iterable

from pbnkit.model import Seat, parse_or_none
from pbnkit.model.adjusted import read_artificial, stated_imps
from pbnkit.pbn.records import Game
from pbnkit.replay import parse_deal, record_facts
from pbnkit.scoring.base import BoardResult, Hands, MatchKey
from pbnkit.scoring.table_rows import record_pairs, table_results

_PAIR_TAGS = ("PairNS", "PairEW", "North", "South", "East", "West")


def _text(game: Game, name: str) -> str | None:
    value = game.value(name)
    return value if value not in (None, "", "?") else None


def board_result(game: Game) -> BoardResult:
    """What one record says happened, with replayed facts filling missing tags."""
    facts = record_facts(game)
    # A director's award written where the contract or result goes ([Contract "A+"])
    adjusted = None if facts.contract is not None else (
        read_artificial(game.value("Contract")) or read_artificial(game.value("Result")))
    if adjusted is not None and (imps := stated_imps(game.value("ScoreIMP"))) is not None:
        adjusted = replace(adjusted, imps=imps)
    return BoardResult(
        index=game.index,
        board=_text(game, "Board"),
        declarer=facts.declarer,
        contract=facts.contract,
        tricks=facts.tricks,
        vulnerability=facts.vulnerability,
        hands=Hands.of(parse_deal(game.value("Deal"))),
        dealer=parse_or_none(Seat.from_pbn, game.value("Dealer")),
        room=_text(game, "Room"),
        path=game.path,
        match_key=_match_key(
            _text(game, "Event"), _text(game, "Section"), _text(game, "Stage"),
            _text(game, "Round"), _text(game, "HomeTeam"), _text(game, "VisitTeam"),
        ),
        pairs=record_pairs([game.value(name) for name in _PAIR_TAGS])
        if "PairNS" in game.values else None,
        adjusted=adjusted,
    )


def results_of(game: Game) -> list[BoardResult]:
    """The results a record gives: its own, or, when it states no contract of its own,
    the rows of its ScoreTable (a pairs event's file gives the field's results there)."""
    record = board_result(game)
    if record.contract is None and record.adjusted is None:
        rows = table_results(game, record)
        if rows:
            return rows
    return [record]


@functools.lru_cache(maxsize=1024)
def _match_key(*tags: str | None) -> MatchKey:
    """One shared key for the many records of one match or event: a large file keeps a
    result per record, and each would otherwise hold its own copies of the tag texts."""
    return MatchKey(*tags)


def board_results(games: Iterable[Game]) -> list[BoardResult]:
    return [result for game in games for result in results_of(game)]
