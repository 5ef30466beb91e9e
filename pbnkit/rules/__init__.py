"""Rules: turn the model's answers about a game into coded diagnostics.

Each family lives in its own module with a ``check(game)`` that yields diagnostics with
line and column; ``check_game`` runs them all and stamps path and board on each.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from pbnkit.diagnostics import Diagnostic, Severity, matches
from pbnkit.pbn.records import Game
from pbnkit.rules import deal, replay, tags
from pbnkit.rules import strict as export_format

#: Import-format checks, run on every game.
CHECKS = (tags.check, deal.check, replay.check)
#: Export-format checks (PBN 9), added by ``--strict``.
STRICT_CHECKS = (export_format.check, replay.check_strict)


def check_game(game: Game, strict: bool = False) -> list[Diagnostic]:
    """All diagnostics of a game: the reader's, then every rule family's."""
    found: list[Diagnostic] = list(game.diagnostics)
    board = game.board
    for check in CHECKS + STRICT_CHECKS if strict else CHECKS:
        for diagnostic in check(game):
            if strict and diagnostic.code == "TG001":
                continue  # export format makes a repeated tag an error: TG105 says so
            found.append(replace(diagnostic, path=game.path, board=board))
    return found


def select(diagnostics: Iterable[Diagnostic], select: tuple[str, ...] = (),
           ignore: tuple[str, ...] = ()) -> list[Diagnostic]:
    """Keep codes matching ``select`` prefixes (all when empty), minus ``ignore``."""
    return [d for d in diagnostics
            if (not select or matches(d.code, select)) and not matches(d.code, ignore)]


def is_error(diagnostic: Diagnostic) -> bool:
    """Whether the diagnostic counts as an error (its own severity, else its code's)."""
    return diagnostic.effective_severity is Severity.ERROR
