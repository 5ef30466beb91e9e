"""Replay a game's auction and play and check the facts the tags state about them.

:func:`check` is the import-format pass (lenient, what ``pbnkit validate`` runs);
:func:`check_strict` adds the export-format layout rules of PBN 9 for the auction and
play sections. Both return diagnostics and never raise: the replay reports an illegal
call or card and carries on from it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbnkit.diagnostics import Diagnostic, Severity
from pbnkit.errors import InvalidTokenError
from pbnkit.model.auction import Auction
from pbnkit.model.calls import Contract
from pbnkit.model.cards import Seat, Strain
from pbnkit.model.deal import Deal
from pbnkit.model.values import parse_or_none
from pbnkit.pbn.records import Game
from pbnkit.pbn.sections import Section, section
from pbnkit.rules.auction import AuctionOutcome, replay_auction
from pbnkit.rules.notes import check_notes
from pbnkit.rules.play import PlayOutcome, PlaySetting, replay_play
from pbnkit.rules.result import (
    check_contract,
    check_result,
    read_contract,
    read_declarer,
)
from pbnkit.rules.section_export import check_layout

_UNSET = ("", "?")


@dataclass(frozen=True, slots=True)
class Replayed:
    """Everything the replay of one game established, for checks and for scoring."""

    auction: AuctionOutcome | None
    setting: PlaySetting | None
    play: PlayOutcome | None
    diagnostics: tuple[Diagnostic, ...]

    @property
    def finished_auction(self) -> Auction | None:
        """The auction, if its calls ended it (so contract and declarer are known)."""
        if self.auction is None or not self.auction.is_finished:
            return None
        return self.auction.auction

    @property
    def contract(self) -> Contract | None:
        auction = self.finished_auction
        return auction.contract if auction is not None else None

    @property
    def declarer(self) -> Seat | None:
        auction = self.finished_auction
        return auction.declarer if auction is not None else None

    @property
    def declarer_tricks(self) -> int | None:
        """Declarer's tricks when every trick was played with a known winner."""
        play = self.play.play if self.play is not None else None
        if play is None or self.setting is None or self.setting.declarer is None:
            return None
        if not play.is_complete or play.unknown_tricks:
            return None
        return play.tricks_won(self.setting.declarer.side)


def replay(game: Game) -> Replayed:
    """Replay the Auction and Play sections of ``game``; never raises."""
    found: list[Diagnostic] = []
    outcome = setting = played = None
    auction_section = section(game, "Auction")
    if auction_section is not None:
        outcome, problems = replay_auction(game, auction_section)
        found += list(auction_section.diagnostics) + problems
        found += check_notes(game, auction_section, "AU")
        if outcome.is_finished:
            assert outcome.auction is not None
            found += check_contract(game, outcome.auction)
    play_section = section(game, "Play")
    if play_section is not None:
        found += list(play_section.diagnostics) + check_notes(game, play_section, "PL")
        setting, problems = play_setting(game, play_section, outcome)
        found += problems
        if setting is not None:
            played, problems = _replay_play(game, play_section, setting)
            found += problems
    return Replayed(outcome, setting, played, tuple(found))


def check(game: Game) -> list[Diagnostic]:
    """Diagnostics from replaying the Auction and Play sections of ``game``, in order of
    position in the file, with the annotation problems found decoding them (SY codes)."""
    return sorted(replay(game).diagnostics, key=lambda d: (d.line, d.column))


def check_strict(game: Game) -> list[Diagnostic]:
    """The export-format rules (PBN 9, items 10-11) for the auction and play sections:
    the Auction seat is the dealer, the Play seat the opening leader, four calls or cards
    to a line, no suffixes, uppercase only, notes before NAGs and NAGs ascending.

    Call it in addition to :func:`check`."""
    found: list[Diagnostic] = []
    auction_section = section(game, "Auction")
    if auction_section is not None:
        found += check_layout(game, auction_section, "AU")
        dealer = parse_or_none(Seat.from_pbn, game.value("Dealer"))
        seat = parse_or_none(Seat.from_pbn, auction_section.tag.value)
        if seat is not None and dealer is not None and seat is not dealer:
            found.append(_at(game, auction_section, "AU101", f"Auction seat {seat.name} is not "
                             f"the dealer {dealer.name}"))
    play_section = section(game, "Play")
    if play_section is not None:
        found += check_layout(game, play_section, "PL")
        setting, _ = play_setting(game, play_section, None)
        seat = parse_or_none(Seat.from_pbn, play_section.tag.value)
        if setting is not None and seat is not None and seat is not setting.opening_leader:
            diagnostic = _at(game, play_section, "PL009", f"Play seat {seat.name} is not the "
                             f"opening leader {setting.opening_leader.name}")
            found.append(_with_severity(diagnostic, Severity.ERROR))
    return sorted(found, key=lambda d: (d.line, d.column))


def _replay_play(game: Game, play_section: Section,
                 setting: PlaySetting) -> tuple[PlayOutcome, list[Diagnostic]]:
    found = []
    seat = parse_or_none(Seat.from_pbn, play_section.tag.value)
    if seat is None:
        found.append(_at(game, play_section, "PL011", f"Play seat {play_section.tag.value!r} "
                         "is not W, N, E or S"))
        seat = setting.opening_leader
    elif seat is not setting.opening_leader:
        found.append(_at(game, play_section, "PL009", f"Play seat {seat.name} is not the "
                         f"opening leader {setting.opening_leader.name}; the columns still "
                         f"start at {seat.name}"))
    played, problems = replay_play(game, play_section, setting, seat)
    found += problems
    if played.play is not None and played.cards:
        found += check_result(game, played.play, setting.declarer)
    return played, found


def play_setting(game: Game, play_section: Section,
                 outcome: AuctionOutcome | None) -> tuple[PlaySetting | None, list[Diagnostic]]:
    """Deal, trump, declarer and opening leader for the play; None (with the reason,
    when it is this family's to give) if the play cannot be replayed."""
    if not any(item.text not in ("*", "+") for item in play_section.items):
        return None, []
    deal_text = (game.value("Deal") or "").strip()
    if deal_text in _UNSET:
        return None, [_at(game, play_section, "PL005", "play section without a Deal tag")]
    try:
        deal = Deal.from_pbn(deal_text)
    except InvalidTokenError:
        return None, []  # the deal checks (DL) report an unreadable Deal
    if deal.problems():
        return None, []
    auction = outcome.auction if outcome is not None and outcome.is_finished else None
    contract_text = game.value("Contract")
    contract = read_contract(contract_text)
    trump: Strain | None
    if deal.is_end_position:
        trump = parse_or_none(Strain.from_pbn, contract_text)
        if trump is None and contract is not None:
            trump = contract.strain
        seat = parse_or_none(Seat.from_pbn, play_section.tag.value)
        if trump is None or seat is None:
            return None, []  # the end-position checks need both; the tag checks report them
        declarer = read_declarer(game.value("Declarer"))
        return PlaySetting(deal, trump, declarer.seat if declarer else None, seat), []
    if contract is None and auction is not None:
        contract = auction.contract
    if contract is None or contract.is_passed_out:
        why = "the board was passed out" if contract else "no Contract tag"
        return None, [_at(game, play_section, "PL006", f"play section but {why}")]
    declarer = read_declarer(game.value("Declarer"))
    seat = declarer.seat if declarer else auction.declarer if auction else None
    if seat is None:
        return None, [_at(game, play_section, "PL006", "play section without a Declarer tag")]
    return PlaySetting(deal, contract.strain, seat, seat.lho), []


def _at(game: Game, where: Section, code: str, message: str) -> Diagnostic:
    return Diagnostic(code, message, where.tag.line, where.tag.column, game.path, game.board)


def _with_severity(diagnostic: Diagnostic, severity: Severity) -> Diagnostic:
    return Diagnostic(diagnostic.code, diagnostic.message, diagnostic.line, diagnostic.column,
                      diagnostic.path, diagnostic.board, severity)
