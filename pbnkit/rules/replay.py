"""Replay a game's auction and play and check the facts the tags state about them.

:func:`check` is the import-format pass (lenient, what ``pbnkit validate`` runs);
:func:`check_strict` adds the export-format layout rules of PBN 9 for the auction and
play sections. Both return diagnostics and never raise. The replay itself, and what it
reports about calls and cards, is :func:`pbnkit.replay.replay`: it runs once per record,
and scoring reads the same replay.
"""

from __future__ import annotations

from pbnkit.diagnostics import Diagnostic, Severity
from pbnkit.model.cards import Seat
from pbnkit.model.values import parse_or_none
from pbnkit.pbn.records import Game
from pbnkit.pbn.sections import section
from pbnkit.replay.game import at_section, play_setting, replay
from pbnkit.rules.result import check_claim, check_contract, check_result
from pbnkit.rules.section_export import check_layout


def check(game: Game) -> list[Diagnostic]:
    """Diagnostics from replaying the Auction and Play sections of ``game``, in order of
    position in the file, with the annotation problems found decoding them (SY codes)
    and the Contract, Declarer and Result tags (and a LIN board's claim) checked against
    the replay."""
    replayed = replay(game)
    found = list(replayed.diagnostics)
    if replayed.contract is not None:
        found += check_contract(game, replayed.contract, replayed.declarer)
    claim = game.lin.claim if game.lin is not None else None
    if replayed.tricks is not None:
        found += check_result(game, replayed.tricks, replayed.play_declarer, claim)
    if claim is not None:
        found += check_claim(game, claim, replayed.tricks, replayed.play_declarer)
    return sorted(found, key=lambda d: (d.line, d.column))


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
            found.append(at_section(game, auction_section, "AU101", f"Auction seat "
                                    f"{seat.name} is not the dealer {dealer.name}"))
    play_section = section(game, "Play")
    if play_section is not None:
        found += check_layout(game, play_section, "PL")
        setting, _ = play_setting(game, play_section, None)
        seat = parse_or_none(Seat.from_pbn, play_section.tag.value)
        if setting is not None and seat is not None and seat is not setting.opening_leader:
            diagnostic = at_section(game, play_section, "PL009", f"Play seat {seat.name} is "
                                    f"not the opening leader {setting.opening_leader.name}")
            found.append(_with_severity(diagnostic, Severity.ERROR))
    return sorted(found, key=lambda d: (d.line, d.column))


def _with_severity(diagnostic: Diagnostic, severity: Severity) -> Diagnostic:
    return Diagnostic(diagnostic.code, diagnostic.message, diagnostic.line, diagnostic.column,
                      diagnostic.path, diagnostic.board, severity)
