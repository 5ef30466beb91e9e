"""``DL`` codes: the Deal tag (PBN 3.4.11)."""

from __future__ import annotations

from collections.abc import Iterator

from pbnkit.diagnostics import Code, Diagnostic, Severity, register
from pbnkit.errors import InvalidTokenError
from pbnkit.pbn.records import Game
from pbnkit.replay.tags import deal_of

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

register(
    Code("DL001", "malformed-deal", E, "The Deal value is not '<seat>:' and four hands.",
         "Each hand is spades.hearts.diamonds.clubs, or '-' when unknown, separated by "
         "spaces (PBN 3.4.11).", '[Deal "N:AKQ.JT9.876"]',
         '[Deal "N:AKQ.JT9.876.5432 - - -"]'),
    Code("DL002", "bad-rank", E, "A character in a hand that is not a rank.",
         "Ranks are A K Q J T 9 8 7 6 5 4 3 2; ten is T, never 10.",
         '[Deal "N:A10.. ..."]', "Write T for the ten."),
    Code("DL003", "duplicate-card", E, "A card is dealt more than once.",
         "Each of the 52 cards is in exactly one hand.", "SA in North and in South", ""),
    Code("DL004", "too-many-cards", E, "A hand holds more than 13 cards.", "", "", ""),
    Code("DL005", "unequal-hands", E, "The known hands hold different numbers of cards.",
         "A full deal has 13 cards per hand; an end position has the same smaller number "
         "in every known hand (PBN 6.2), so a hand of another size means cards are missing "
         "or extra.", "N with 13 cards, E with 12", ""),
    Code("DL006", "no-hand", E, "The Deal gives no hand at all.",
         "At least one hand must be known (PBN 3.4.11).", '[Deal "N:- - - -"]', ""),
)

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
