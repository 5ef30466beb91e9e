"""``DL`` codes: the Deal tag (PBN 3.4.11)."""

from __future__ import annotations

from collections.abc import Iterator

from pbnkit.diagnostics import Diagnostic
from pbnkit.errors import InvalidTokenError
from pbnkit.pbn.records import Game
from pbnkit.replay.tags import deal_of

_KIND_CODES = {"duplicate-card": "DL003", "too-many-cards": "DL004",
               "unequal-hands": "DL005", "no-hand": "DL006"}


def check(game: Game) -> Iterator[Diagnostic]:
    tag = game.tag("Deal")
    value = game.value("Deal")
    if tag is None or not value or value in ("?", "#"):
        return
    line, column = tag.line, tag.value_column or tag.column
    try:
        deal = deal_of(value)
    except InvalidTokenError as error:
        code = "DL002" if "invalid rank" in str(error) else "DL001"
        yield Diagnostic(code, str(error), line, column)
        return
    for kind, message in deal.problems():
        yield Diagnostic(_KIND_CODES[kind], message, line, column)
