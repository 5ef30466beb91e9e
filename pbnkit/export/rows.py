"""A Game as a row of the boards table, and back.

``game_row`` builds the plain-Python row (the same dict feeds Parquet through the fixed
Arrow schema and JSON through ``json.dumps``); ``row_game`` restores the Game from the
lossless columns. Derived columns are lenient: a value that does not parse gives null,
never an exception, because one odd record must not stop an archive.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from pbnkit.diagnostics import CODES, Diagnostic, Severity
from pbnkit.errors import PbnError
from pbnkit.model import Contract, Deal, Seat, Strain, Vulnerability, parse_or_none
from pbnkit.pbn.records import Element, ElementKind, Game, TagPair
from pbnkit.pbn.sections import decode_items
from pbnkit.pbn.tables import read_columns

Row = dict[str, Any]

_COMMENTS = (ElementKind.COMMENT, ElementKind.LINE_COMMENT)
_NOTE = re.compile(r"\s*([0-9]+)\s*:(.*)", re.DOTALL)
_RESULT = re.compile(r"\^?\s*([0-9]+)")
_SIDE_RESULT = re.compile(r"\^?\s*(NS|EW)\s+([0-9]+)(?:\s+(NS|EW)\s+([0-9]+))?", re.IGNORECASE)
_INT16 = range(-(2 ** 15), 2 ** 15)
_SEATS = "NESW"  # clockwise, as pbnkit.model.Seat numbers them


def element_row(element: Element) -> Row:
    return {"kind": element.kind.value, "text": element.text, "line": element.line,
            "column": element.column}


class TagColumns(NamedTuple):
    """The ``tags`` column of a row, kept as columns (each a tuple over the game's tags):
    a score of tag dicts per board would cost more than reading the board. The Parquet
    sink builds Arrow arrays from batches of these; :meth:`rows` gives the JSON form."""

    names: tuple[str, ...]
    values: tuple[str, ...]
    lines: tuple[int, ...]
    columns: tuple[int, ...]
    bodies: tuple[list[Row], ...]
    quoted: tuple[bool, ...]
    value_columns: tuple[int, ...]

    @classmethod
    def of(cls, tags: Sequence[TagPair]) -> TagColumns:
        if not tags:
            return cls((), (), (), (), (), (), ())
        # TagPair's own field order: name, value, line, column, body, quoted, value_column
        names, values, lines, columns, bodies, quoted, value_columns = zip(*tags)
        rows = tuple([element_row(e) for e in body] if body else [] for body in bodies)
        return cls(names, values, lines, columns, rows, quoted, value_columns)

    def rows(self) -> list[Row]:
        return [{"name": name, "value": value, "quoted": quoted, "line": line,
                 "column": column, "value_column": value_column, "body": body}
                for name, value, line, column, body, quoted, value_column in zip(*self)]


def diagnostic_row(diagnostic: Diagnostic, stage: str) -> Row:
    try:
        severity = diagnostic.effective_severity.value
    except KeyError:  # a code this pbnkit does not know: keep it, call it a warning
        severity = Severity.WARNING.value
    return {"code": diagnostic.code, "severity": severity, "message": diagnostic.message,
            "line": diagnostic.line, "column": diagnostic.column, "stage": stage}


def game_row(game: Game, encoding: str, checked: Sequence[Diagnostic] = ()) -> Row:
    """The boards-table row of a game. ``checked`` are the rule diagnostics (those of
    ``pbnkit.rules.check_game`` beyond the reader's own)."""
    values = game.values
    diagnostics = ([diagnostic_row(d, "read") for d in game.diagnostics]
                   + [diagnostic_row(d, "check") for d in checked])
    row: Row = {
        "path": game.path,
        "index": game.index,
        "line": game.line,
        "encoding": encoding,
        "event": values.get("Event"),
        "site": values.get("Site"),
        "date": values.get("Date"),
        "board": _integer(values.get("Board"), range(-(2 ** 31), 2 ** 31)),
        "room": values.get("Room"),
        "west": values.get("West"),
        "north": values.get("North"),
        "east": values.get("East"),
        "south": values.get("South"),
        "dealer": _seat(values.get("Dealer")),
        "vulnerable": _vulnerable(values.get("Vulnerable")),
        **_hands(values.get("Deal")),
        "scoring": values.get("Scoring"),
        "declarer": _seat((values.get("Declarer") or "").lstrip("^")),
        **dict(zip(_CONTRACT_COLUMNS, _contract(values.get("Contract")))),
        "auction": _items(game, "Auction", "call"),
        "play": _items(game, "Play", "card"),
        "notes": _notes(game.tags),
        "commentary": _commentary(game),
        "tables": [_table(tag) for tag in game.tags if _is_table(tag)],
        "tags": TagColumns.of(game.tags),
        "preamble": [element_row(e) for e in game.preamble],
        "trailer": [],
        "diagnostics": diagnostics,
        "errors": sum(d["severity"] == "error" for d in diagnostics),
        "warnings": sum(d["severity"] == "warning" for d in diagnostics),
    }
    row["result"] = _result(values.get("Result"), row["declarer"])
    return row


def add_file_problems(row: Row, trailer: Iterable[Element], problems: Iterable[Diagnostic]) -> None:
    """Put what belongs to the file, not to a game, on its last row."""
    row["trailer"] = [element_row(e) for e in trailer]
    extra = [diagnostic_row(d, "file") for d in problems]
    row["diagnostics"] = row["diagnostics"] + extra
    row["errors"] += sum(d["severity"] == "error" for d in extra)
    row["warnings"] += sum(d["severity"] == "warning" for d in extra)


# -- Derived columns ---------------------------------------------------------------------------

def _integer(text: str | None, bounds: range) -> int | None:
    if text is None:
        return None
    try:
        number = int(text.strip())
    except ValueError:
        return None
    return number if number in bounds else None


# The values of a few tags come from a small set of spellings, and parsing one costs more
# than a cache look-up: each is parsed once per spelling.

@functools.lru_cache(maxsize=256)
def _seat(text: str | None) -> str | None:
    seat = parse_or_none(Seat.from_pbn, text)
    return seat.pbn() if seat is not None else None


@functools.lru_cache(maxsize=256)
def _rotation(text: str) -> str | None:
    """The seats in order from the seat a section tag names, None when it names none."""
    seat = _seat(text)
    return _SEATS[_SEATS.index(seat):] + _SEATS[:_SEATS.index(seat)] if seat else None


@functools.lru_cache(maxsize=256)
def _vulnerable(text: str | None) -> str | None:
    try:
        return Vulnerability.from_pbn(text).pbn() if text is not None else None
    except PbnError:
        return None


_DEAL = re.compile(r"\s*([NESWnesw])\s*:(.*)", re.DOTALL)
_HAND = re.compile(r"[2-9TJQKAtjqka]*(?:\.[2-9TJQKAtjqka]*){3}")
_RANK_ORDER = {rank: order for order, rank in enumerate("AKQJT98765432")}
_DESCENDING_HAND = r"A?K?Q?J?T?9?8?7?6?5?4?3?2?(?:\.A?K?Q?J?T?9?8?7?6?5?4?3?2?){3}"
_DESCENDING = re.compile(_DESCENDING_HAND)
#: a Deal value already as export format writes it (the usual case): one match gives it all
_SORTED_DEAL = re.compile(r"\s*([NESW])\s*:\s*({0}|-)\s+({0}|-)\s+({0}|-)\s+({0}|-)\s*"
                          .format(_DESCENDING_HAND))
_HAND_COLUMNS = tuple(f"deal_{seat.lower()}" for seat in "NESW")


def sorted_hands(text: str) -> tuple[int, list[str | None]] | None:
    """A well-formed Deal value as (index of the first seat in "NESW", the four hands
    with ranks descending, None for '-'); None when not well formed. The same as
    ``Deal.from_pbn(text)`` and ``Hand.pbn()`` for such values, without building 52 Card
    objects per deal, which is half the cost of a row."""
    match = _SORTED_DEAL.fullmatch(text)
    if match is not None:
        first, *fields = match.groups()
        return _SEATS.index(first), [None if hand == "-" else hand for hand in fields]
    match = _DEAL.fullmatch(text)
    if match is None:
        return None
    fields = match[2].split()
    if len(fields) != 4 or not all(f == "-" or _HAND.fullmatch(f) for f in fields):
        return None
    return _SEATS.index(match[1].upper()), [
        None if hand == "-" else _sorted_hand(hand.upper()) for hand in fields]


def _sorted_hand(hand: str) -> str:
    if _DESCENDING.fullmatch(hand):  # already as export format writes it
        return hand
    return ".".join("".join(sorted(suit, key=_RANK_ORDER.__getitem__))
                    for suit in hand.split("."))


def _hands(text: str | None) -> Row:
    """Each seat's hand as ``Hand.pbn()`` writes it (model parse when not well formed)."""
    hands: Row = dict.fromkeys(_HAND_COLUMNS)
    if not text:
        return hands
    fast = sorted_hands(text)
    if fast is not None:
        first, fields = fast
        for offset, hand in enumerate(fields):
            hands[_HAND_COLUMNS[(first + offset) % 4]] = hand
        return hands
    try:
        deal = Deal.from_pbn(text)
    except PbnError:
        return hands
    for seat in Seat:
        held = deal[seat]
        hands[f"deal_{seat.name.lower()}"] = None if held is None else held.pbn()
    return hands


_CONTRACT_COLUMNS = ("contract_level", "contract_strain", "contract_risk")


@functools.lru_cache(maxsize=256)
def _contract(text: str | None) -> tuple[int | None, str | None, str | None]:
    if not text:
        return None, None, None
    try:
        contract = Contract.from_pbn(text)
    except PbnError:
        try:  # an end position gives the strain only (PBN 3.10)
            return None, Strain.from_pbn(text).pbn(), None
        except PbnError:
            return None, None, None
    return (contract.level, None if contract.strain is None else contract.strain.pbn(),
            contract.risk.pbn())


def _result(text: str | None, declarer: str | None) -> int | None:
    """Declarer's tricks from the forms ``n``, ``NS n``, ``EW n``, ``NS n EW m``."""
    if not text:
        return None
    match = _RESULT.fullmatch(text.strip())
    if match:
        return _integer(match[1], range(14))
    match = _SIDE_RESULT.fullmatch(text.strip())
    if match is None or declarer is None:
        return None
    side = Seat.from_pbn(declarer).side.value
    for name, tricks in ((match[1], match[2]), (match[3], match[4])):
        if name and name.upper() == side:
            return _integer(tricks, range(14))
    return None


#: a section body of plain calls or cards, each blank-separated word one item as written,
#: with at most a note reference =n= after it (the common case, read without the general
#: decoder, which gives the same items); _NOTED then finds each item and its note. A body
#: of letters, digits and blanks only is plain without the longer match.
_WORDS_ONLY = re.compile(r"[A-Za-z0-9\s]*")
_PLAIN = re.compile(r"\s*(?:(?:[A-Za-z0-9]+|-+|[*+])(?:\s*=[0-9]+=)?(?:\s+|\Z))*")
_NOTED = re.compile(r"([A-Za-z0-9]+|-+|[*+])(?:\s*=([0-9]+)=)?")
_ANNOTATIONS = ("irregularity", "suffix", "note", "nags", "comments")


class SectionItems(NamedTuple):
    """The ``auction`` or ``play`` column of a row, kept as columns: a board's fifty
    calls and cards as fifty dicts would cost more than the rest of its row. The Parquet
    sink turns batches of these into Arrow arrays directly; :meth:`rows` gives the dicts
    of the JSON form. ``annotations`` is None when no item has any."""

    token: str  # "call" or "card"
    seats: list[str | None]
    texts: list[str]
    annotations: list[tuple[Any, ...]] | None = None  # per item, in _ANNOTATIONS order

    def rows(self) -> list[Row]:
        if self.annotations is None:
            return [{"seat": seat, self.token: text, "irregularity": None, "suffix": None,
                     "note": None, "nags": [], "comments": []}
                    for seat, text in zip(self.seats, self.texts)]
        return [{"seat": seat, self.token: text, **dict(zip(_ANNOTATIONS, extra))}
                for seat, text, extra in zip(self.seats, self.texts, self.annotations)]


def _items(game: Game, name: str, token: str) -> SectionItems:
    tag = game.tag(name)
    if tag is None:
        return SectionItems(token, [], [])
    seats = _rotation(tag.value)
    body = tag.body
    text = body[0].text if len(body) == 1 and body[0].kind is ElementKind.TOKENS else None
    if text is not None and (_WORDS_ONLY.fullmatch(text) or _PLAIN.fullmatch(text)):
        if "=" not in text:
            texts = text.split()
            return SectionItems(token, _seats_of(texts, seats), texts)
        found = _NOTED.findall(text)
        texts = [word for word, _ in found]
        annotations: list[tuple[Any, ...]] = [
            (None, None, _int16(int(note)) if note else None, [], []) for _, note in found]
        return SectionItems(token, _seats_of(texts, seats), texts, annotations)
    items, _ = decode_items(tag)
    texts = [item.text for item in items]
    annotations = []
    for item in items:
        nags = item.nags
        if nags and not all(-32768 <= nag <= 32767 for nag in nags):
            nags = tuple(nag for nag in nags if -32768 <= nag <= 32767)
        annotations.append((item.irregularity, item.suffix,
                            None if item.note is None else _int16(item.note),
                            list(nags), list(item.comments)))
    return SectionItems(token, _seats_of(texts, seats), texts, annotations)


def _int16(number: int) -> int | None:
    """A note reference as the int16 column holds it: null when out of range."""
    return number if -32768 <= number <= 32767 else None


def _seats_of(texts: list[str], seats: str | None) -> list[str | None]:
    """One seat per item from the section's seat on; '*' (the end) has none."""
    if seats is None:
        return [None] * len(texts)
    if "*" not in texts:
        return list((seats * (len(texts) // 4 + 1))[:len(texts)])
    found: list[str | None] = []
    position = 0
    for text in texts:
        if text == "*" or seats is None:
            found.append(None)
            position += text != "*"
            continue
        found.append(seats[position % 4])
        position += 1
    return found


def _notes(tags: tuple[TagPair, ...]) -> list[Row]:
    notes = []
    section = None
    for tag in tags:
        if tag.name in ("Auction", "Play"):
            section = tag.name
        elif tag.name == "Note":
            match = _NOTE.fullmatch(tag.value)
            index = _integer(match[1], _INT16) if match else None
            notes.append({"section": section, "index": index,
                          "text": match[2] if match else tag.value})
    return notes


def _commentary(game: Game) -> list[Row]:
    found = [{"tag": None, "kind": e.kind.value, "text": e.text}
             for e in game.preamble if e.kind in _COMMENTS]
    for tag in game.tags:
        if tag.body:
            found.extend({"tag": tag.name, "kind": e.kind.value, "text": e.text}
                         for e in tag.body if e.kind in _COMMENTS)
    return found


def _is_table(tag: TagPair) -> bool:
    return tag.name.endswith("Table") and bool(tag.value.strip())


def _table(tag: TagPair) -> Row:
    columns = [column.name for column in read_columns(tag.value)]
    cells = [e.text for e in tag.tokens]
    width = len(columns)
    return {"name": tag.name, "columns": columns,
            "rows": [cells[i:i + width] for i in range(0, len(cells), width)]}


# -- Back to records ----------------------------------------------------------------------------

_KIND = {kind.value: kind for kind in ElementKind}


def row_elements(rows: Iterable[Row]) -> tuple[Element, ...]:
    return tuple(Element(_KIND[r["kind"]], r["text"], r["line"], r["column"]) for r in rows)


def row_tags(rows: Iterable[Row]) -> tuple[TagPair, ...]:
    return tuple(
        TagPair(r["name"], r["value"], r["line"], r["column"], row_elements(r["body"]),
                r["quoted"], r["value_column"])
        for r in rows
    )


def row_diagnostics(row: Row, board: str | None,
                    stages: tuple[str, ...] = ("read",)) -> tuple[Diagnostic, ...]:
    """The stored diagnostics of the given stages; the severity is set only where it
    differs from the code's registered one (or the code is unknown here)."""
    found = []
    for d in row["diagnostics"]:
        if d["stage"] not in stages:
            continue
        registered = CODES.get(d["code"])
        severity = None
        if registered is None or registered.severity.value != d["severity"]:
            severity = Severity(d["severity"])
        found.append(Diagnostic(d["code"], d["message"], d["line"], d["column"], row["path"],
                                board, severity))
    return tuple(found)
