"""Export-format checks for tags (PBN 9, items 3-9): ``pbnkit validate --strict``.

Import format is lenient; export format is the canonical form programs should write.
The auction and play layout rules live in :mod:`pbnkit.rules.section_export`.
"""

from __future__ import annotations

from collections.abc import Iterator

from pbnkit.diagnostics import Diagnostic
from pbnkit.errors import InvalidTokenError
from pbnkit.model import Seat
from pbnkit.digits import whole_number
from pbnkit.pbn.records import ElementKind, Game, TagPair
from pbnkit.pbn.tables import TABLES
from pbnkit.replay.tags import deal_of

MANDATORY = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
             "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")
_DATA = (ElementKind.TOKENS, ElementKind.TOKEN, ElementKind.STRING)
_RANK_ORDER = "AKQJT98765432"


def _at(tag: TagPair, code: str, message: str) -> Diagnostic:
    return Diagnostic(code, message, tag.line, tag.column)


def check(game: Game) -> Iterator[Diagnostic]:
    names = [tag.name for tag in game.tags]
    for name in MANDATORY:
        if name not in names and name not in game.values:
            yield Diagnostic("TG101", f"mandatory tag {name} is missing", game.line, 1)
    yield from _order(game)
    yield from _layout(game)
    yield from _values(game)
    seen: set[str] = set()
    for tag in game.tags:
        if tag.name in seen and tag.name != "Note":
            yield _at(tag, "TG105", f"tag {tag.name} repeated")
        seen.add(tag.name)


def _order(game: Game) -> Iterator[Diagnostic]:
    """Export order (PBN 3.1): the identification section (mandatory tags in their order,
    then the rest by name), the auction section, the play section, then the supplemental
    sections (tables, and tags with data of their own) by name. Notes go with the section
    before them. One finding is enough: the rest follows from it."""
    previous: TagPair | None = None
    previous_key: tuple[int, int, str] = (0, 0, "")
    for tag in game.tags:
        if tag.name == "Note":
            continue
        key = _order_key(tag)
        if previous is not None and key < previous_key:
            if key[0] == 0 and previous_key[0] > 0:
                where = f"the {previous.name} section"
            else:
                where = previous.name
            yield _at(tag, "TG102", f"tag {tag.name} comes after {where}")
            return
        previous, previous_key = tag, key


def _order_key(tag: TagPair) -> tuple[int, int, str]:
    name = tag.name
    if name in MANDATORY:
        return (0, 0, f"{MANDATORY.index(name):02}")
    if name == "Auction":
        return (1, 0, "")
    if name == "Play":
        return (2, 0, "")
    if name in TABLES or any(element.kind in _DATA for element in tag.body):
        return (3, 0, name)
    return (0, 1, name)


def _layout(game: Game) -> Iterator[Diagnostic]:
    previous_line = 0
    for tag in game.tags:
        expected_value_column = tag.column + len(tag.name) + 3  # [Name "
        if tag.column != 1 or tag.line == previous_line:
            yield _at(tag, "TG103", f"tag {tag.name} does not start its own line")
        elif not tag.quoted or tag.value_column != expected_value_column:
            yield _at(tag, "TG103", f"tag {tag.name} is not written as [{tag.name} \"value\"]")
        previous_line = tag.line


def _values(game: Game) -> Iterator[Diagnostic]:
    for tag in game.tags:
        value = tag.value
        problem = None
        if tag.name in ("Dealer", "Declarer", "Auction", "Play") and value != value.upper():
            problem = f"{tag.name} {value!r} is not uppercase"
        elif tag.name == "Vulnerable" and value not in ("None", "NS", "EW", "All", "?"):
            problem = f"Vulnerable {value!r} is not None, NS, EW or All"
        elif tag.name == "Contract" and value not in ("", "?") and value != "Pass" and (
                value != value.upper()):
            problem = f"Contract {value!r} is not uppercase"
        elif tag.name == "Result" and value not in ("", "?") and whole_number(value) is None:
            problem = f"Result {value!r} is not declarer's number of tricks"
        elif tag.name == "Deal":
            problem = _deal_form(value, game.value("Dealer"))
        if problem:
            yield Diagnostic("TG104", problem, tag.line, tag.value_column or tag.column)


def _deal_form(value: str, dealer: str | None) -> str | None:
    try:
        deal = deal_of(value)
    except InvalidTokenError:
        return None  # DL001 already says so
    if value != value.upper():
        return "Deal is not uppercase"
    try:
        if dealer and deal.first is not Seat.from_pbn(dealer):
            return f"Deal starts at {deal.first.name}, not at the dealer {dealer}"
    except InvalidTokenError:
        pass
    hands = value.split(":", 1)[1].split()
    for hand in hands:
        for ranks in hand.split("."):
            if ranks != "-" and list(ranks) != sorted(ranks, key=_RANK_ORDER.index):
                return f"ranks {ranks!r} are not in descending order"
    return None
