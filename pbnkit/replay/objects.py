"""The model objects of a read record: its deal, auction, play and facts, made on demand.

``game.deal``, ``game.auction``, ``game.play``, ``game.contract``, ``game.declarer`` and
``game.result`` (:class:`pbnkit.pbn.records.Game`) come from here. Each is made the first
time it is asked for and kept in the game's :class:`RecordObjects`, so it is made once
per record, and let go with the record. Nothing here restates a rule: the deal is read
as the deal checks read it, the sections are replayed as ``pbnkit validate`` replays
them (:func:`replay_sections`), and contract, declarer and declarer's tricks are the
facts scoring reads (:func:`record_facts`).

Nothing raises on bad data: what cannot be read is None, and what is wrong with it is
what ``pbnkit.validate`` (or :func:`pbnkit.rules.check_game`) reports for the record.
"""

from __future__ import annotations

from pbnkit.model.auction import Auction
from pbnkit.model.deal import Deal
from pbnkit.model.play import Play
from pbnkit.pbn.records import Game
from pbnkit.replay.facts import RecordFacts, record_facts
from pbnkit.replay.game import Sections, replay_sections
from pbnkit.replay.tags import parse_deal


class RecordObjects:
    """What one record's objects are, once made. It holds no reference to its game (the
    game holds it), so that the two are freed together without the cycle collector."""

    def __init__(self) -> None:
        self.deal_read = False
        self.made_deal: Deal | None = None
        self.sections: Sections | None = None
        self.made_facts: RecordFacts | None = None

    def deal(self, game: Game) -> Deal | None:
        """The Deal tag's deal; None when it is absent, unreadable or impossible (a card
        twice, hands of different sizes: the ``DL`` checks say which)."""
        if not self.deal_read:
            deal = parse_deal(game.value("Deal"))
            self.made_deal = deal if deal is not None and not deal.problems() else None
            self.deal_read = True
        return self.made_deal

    def replayed(self, game: Game) -> Sections:
        if self.sections is None:
            self.sections = replay_sections(game)
        return self.sections

    def auction(self, game: Game) -> Auction | None:
        """The Auction section replayed: every call up to its end, ``*`` or ``+``; None
        without a section, seat or dealer, or when a token that is no call leaves the
        rest unknown (``AU010``). Illegal calls are recorded as made, as the file says."""
        outcome = self.replayed(game).auction
        if outcome is None or not outcome.reliable:
            return None
        return outcome.auction

    def play(self, game: Game) -> Play | None:
        """The Play section replayed: its tricks, and the cards of the trick in progress;
        None without a section holding a card, or when the deal, trump or opening leader
        cannot be known (``PL005``, ``PL006``)."""
        sections = self.replayed(game)
        played = sections.played
        return played.play if played is not None else None

    def facts(self, game: Game) -> RecordFacts:
        """Contract, declarer and declarer's tricks as scoring reads them."""
        if self.made_facts is None:
            self.made_facts = record_facts(game)
        return self.made_facts
