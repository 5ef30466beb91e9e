"""What the replay establishes about a game, for scoring: the contract and declarer of a
finished auction, and declarer's tricks in a complete play."""

from __future__ import annotations

from dataclasses import dataclass

from pbnkit.model import Contract, Seat
from pbnkit.pbn.records import Game
from pbnkit.pbn.sections import section
from pbnkit.rules import replay
from pbnkit.rules.auction import replay_auction
from pbnkit.rules.play import replay_play


@dataclass(frozen=True, slots=True)
class ReplayedFacts:
    contract: Contract | None = None
    declarer: Seat | None = None
    #: declarer's tricks when all 13 tricks were played with known cards
    declarer_tricks: int | None = None


def replayed_facts(game: Game) -> ReplayedFacts:
    """Replay the auction and play sections; facts the replay cannot establish are None."""
    outcome = None
    contract = declarer = tricks = None
    auction_section = section(game, "Auction")
    if auction_section is not None:
        outcome, _ = replay_auction(game, auction_section)
        if outcome.is_finished and outcome.auction is not None:
            contract, declarer = outcome.auction.contract, outcome.auction.declarer
    play_section = section(game, "Play")
    if play_section is not None:
        setting, _ = replay.play_setting(game, play_section, outcome)
        if setting is not None and setting.declarer is not None:
            played, _ = replay_play(game, play_section, setting, setting.opening_leader
                                    if replay.seat_of(play_section.tag.value) is None
                                    else replay.seat_of(play_section.tag.value))
            play = played.play
            if play is not None and play.is_complete and not play.unknown_tricks:
                tricks = play.tricks_won(setting.declarer.side)
    return ReplayedFacts(contract, declarer, tricks)
