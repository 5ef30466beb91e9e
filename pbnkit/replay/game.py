"""Replay a game's Auction and Play sections, once per record.

:func:`replay` never raises: it reports an illegal call or card (``AU``, ``PL``, and the
``SY`` problems found decoding the sections) and carries on from it. What it establishes
serves the rules' checks, the score checks and scoring alike, so the last replay is kept
and asked for again at no cost. A clean record is decided by the fast path of
:mod:`pbnkit.replay.clean`, with the same answer; any other goes through the full replay.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbnkit.diagnostics import Diagnostic
from pbnkit.model.cards import Seat
from pbnkit.model.values import parse_or_none
from pbnkit.pbn.records import Game
from pbnkit.pbn.sections import Section, section
from pbnkit.replay.auction import AuctionOutcome, replay_auction
from pbnkit.replay.clean import replay_clean
from pbnkit.replay.notes import check_notes
from pbnkit.replay.outcome import Replayed, Tricks
from pbnkit.replay.play import PlayOutcome, PlaySetting, replay_play, setting_of

#: The last game replayed, with its replay. A command asks about one record at a time
#: (its checks, then its score checks or its facts for scoring), so one slot makes each
#: record replayed once. Holding the game keeps its identity from being reused.
_last: tuple[Game, Replayed] | None = None


def replay(game: Game) -> Replayed:
    """Replay the Auction and Play sections of ``game``; never raises."""
    global _last
    last = _last
    if last is not None and last[0] is game:
        return last[1]
    replayed = _replay(game)
    _last = (game, replayed)
    return replayed


def _replay(game: Game) -> Replayed:
    clean = replay_clean(game)
    return full_replay(game) if clean is None else clean


def full_replay(game: Game) -> Replayed:
    """What :func:`replay` finds, always through the full replay of every call and card
    (which :func:`replay_clean` answers exactly for a clean record); never raises."""
    sections = replay_sections(game)
    outcome, setting, played = sections.auction, sections.setting, sections.played
    contract = declarer = tricks = play_declarer = None
    if outcome is not None and outcome.is_finished:
        assert outcome.auction is not None
        contract, declarer = outcome.auction.contract, outcome.auction.declarer
    if played is not None and played.play is not None and played.cards and setting is not None:
        tricks, play_declarer = Tricks.of(played.play), setting.declarer
    return Replayed(sections.diagnostics, contract, declarer, tricks, play_declarer)


@dataclass(frozen=True, slots=True)
class Sections:
    """The full replay of a game's Auction and Play sections: the model states they
    end in, and what breaks the rules on the way. :func:`replay` reads its facts from
    here; a record's ``auction`` and ``play`` (:mod:`pbnkit.replay.objects`) are these
    states."""

    diagnostics: tuple[Diagnostic, ...]
    #: None when the record has no Auction section
    auction: AuctionOutcome | None
    #: None when the record has no Play section, or its play cannot be replayed
    setting: PlaySetting | None
    played: PlayOutcome | None


def replay_sections(game: Game) -> Sections:
    """Replay the Auction and Play sections of ``game`` call by call and card by card,
    without the fast path (which keeps no model states); never raises."""
    found: list[Diagnostic] = []
    outcome = setting = played = None
    auction_section = section(game, "Auction")
    if auction_section is not None:
        outcome, problems = replay_auction(game, auction_section)
        found += list(auction_section.diagnostics) + problems
        found += check_notes(game, auction_section, "AU")
    play_section = section(game, "Play")
    if play_section is not None:
        found += list(play_section.diagnostics) + check_notes(game, play_section, "PL")
        setting, problems = play_setting(game, play_section, outcome)
        found += problems
        if setting is not None:
            played, problems = _replay_play(game, play_section, setting)
            found += problems
    return Sections(tuple(found), outcome, setting, played)


def _replay_play(game: Game, play_section: Section,
                 setting: PlaySetting) -> tuple[PlayOutcome, list[Diagnostic]]:
    found = []
    seat = parse_or_none(Seat.from_pbn, play_section.tag.value)
    if seat is None:
        found.append(at_section(game, play_section, "PL011", f"Play seat "
                                f"{play_section.tag.value!r} is not W, N, E or S"))
        seat = setting.opening_leader
    elif seat is not setting.opening_leader:
        found.append(at_section(game, play_section, "PL009", f"Play seat {seat.name} is not "
                                f"the opening leader {setting.opening_leader.name}; the "
                                f"columns still start at {seat.name}"))
    played, problems = replay_play(game, play_section, setting, seat)
    return played, found + problems


def play_setting(game: Game, play_section: Section,
                 outcome: AuctionOutcome | None) -> tuple[PlaySetting | None, list[Diagnostic]]:
    """Deal, trump, declarer and opening leader for the play; None (with the reason,
    when it is this family's to give) if the play cannot be replayed."""
    if not any(item.text not in ("*", "+") for item in play_section.items):
        return None, []
    auction = outcome.auction if outcome is not None and outcome.is_finished else None
    if auction is None:
        return setting_of(game, play_section.tag, None, None)
    return setting_of(game, play_section.tag, auction.contract, auction.declarer)


def at_section(game: Game, where: Section, code: str, message: str) -> Diagnostic:
    """A diagnostic at the tag that opens a section."""
    return Diagnostic(code, message, where.tag.line, where.tag.column, game.path, game.board)
