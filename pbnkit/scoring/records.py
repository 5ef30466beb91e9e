"""From read games to :class:`BoardResult` values: the facts scoring needs.

The tags are the record's statement; when a tag is missing the replayed auction and
play supply the fact (Contract and Declarer from a finished auction, declarer's tricks
from a complete play), as RULES.md asks.
"""

from __future__ import annotations

from collections.abc import Iterable

from pbnkit.model import PASSED_OUT, Contract, Seat, Vulnerability, parse_or_none
from pbnkit.pbn.records import Game
from pbnkit.rules.deal import parse_deal
from pbnkit.rules.replay import replay
from pbnkit.rules.result import read_contract, read_declarer, read_result
from pbnkit.scoring.base import BoardResult, MatchKey


def _text(game: Game, name: str) -> str | None:
    value = game.value(name)
    return value if value not in (None, "", "?") else None


def board_result(game: Game) -> BoardResult:
    """What one record says happened, with replayed facts filling missing tags."""
    contract: Contract | None = read_contract(game.value("Contract"))
    declarer_tag = read_declarer(game.value("Declarer"))
    declarer = declarer_tag.seat if declarer_tag else None
    tricks = None
    facts = None
    if contract is None or (declarer is None and contract is not PASSED_OUT):
        facts = replay(game)
        contract = contract if contract is not None else facts.contract
        declarer = declarer if declarer is not None else facts.declarer
    result = read_result(game.value("Result"))
    if result is not None and result.declarer_tricks is not None:
        tricks = result.declarer_tricks
    elif result is not None and declarer is not None:
        by_side = dict(result.sides)
        if declarer.side in by_side:
            tricks = by_side[declarer.side]
        elif declarer.side.other in by_side:
            tricks = 13 - by_side[declarer.side.other]
    if tricks is None and contract is not PASSED_OUT:
        facts = facts or replay(game)
        tricks = facts.declarer_tricks
    return BoardResult(
        index=game.index,
        board=_text(game, "Board"),
        declarer=declarer,
        contract=contract,
        tricks=tricks,
        vulnerability=parse_or_none(Vulnerability.from_pbn, game.value("Vulnerable")),
        deal=parse_deal(game.value("Deal")),
        dealer=parse_or_none(Seat.from_pbn, game.value("Dealer")),
        room=_text(game, "Room"),
        path=game.path,
        match_key=MatchKey(
            _text(game, "Event"), _text(game, "Section"), _text(game, "Stage"),
            _text(game, "Round"), _text(game, "HomeTeam"), _text(game, "VisitTeam"),
        ),
    )


def board_results(games: Iterable[Game]) -> list[BoardResult]:
    return [board_result(game) for game in games]
