"""The facts of a record: its contract, declarer, declarer's tricks and vulnerability.

The tags are the record's statement; when a tag is missing the replayed auction and play
supply the fact (Contract and Declarer from a finished auction, declarer's tricks from a
complete play), as docs/scoring.md says. Scoring and the score checks both start from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbnkit.model.calls import PASSED_OUT, Contract, Vulnerability
from pbnkit.model.cards import Seat
from pbnkit.model.values import parse_or_none
from pbnkit.pbn.records import Game
from pbnkit.replay.game import replay
from pbnkit.replay.outcome import Replayed
from pbnkit.replay.tags import read_contract, read_declarer, read_result
from pbnkit.pickling import by_fields


@by_fields
@dataclass(frozen=True, slots=True)
class RecordFacts:
    """What one record says happened; None where neither the tags nor the replay say."""

    contract: Contract | None
    declarer: Seat | None
    #: declarer's tricks
    tricks: int | None
    vulnerability: Vulnerability | None


def record_facts(game: Game) -> RecordFacts:
    """The facts of ``game``: from its tags, with replayed facts filling missing ones.
    The replay runs only when a tag is missing (and at most once: see :func:`replay`)."""
    contract: Contract | None = read_contract(game.value("Contract"))
    declarer_tag = read_declarer(game.value("Declarer"))
    declarer = declarer_tag.seat if declarer_tag else None
    tricks = None
    replayed: Replayed | None = None
    if contract is None or (declarer is None and contract is not PASSED_OUT):
        replayed = replay(game)
        contract = contract if contract is not None else replayed.contract
        declarer = declarer if declarer is not None else replayed.declarer
    result = read_result(game.value("Result"))
    if result is not None:
        tricks = result.tricks_of(declarer)
    if tricks is None and contract is not PASSED_OUT:
        tricks = (replayed or replay(game)).declarer_tricks
    vulnerability = parse_or_none(Vulnerability.from_pbn, game.value("Vulnerable"))
    return RecordFacts(contract, declarer, tricks, vulnerability)
