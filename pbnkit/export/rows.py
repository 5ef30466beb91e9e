"""A Game as a row of the boards table, and back.

``game_row`` builds the plain-Python row (the same dict feeds Parquet through the fixed
Arrow schema and JSON through ``json.dumps``); ``row_game`` restores the Game from the
lossless columns. Derived columns are lenient: a value that does not parse gives null,
never an exception, because one odd record must not stop an archive.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import os
import re
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from pbnkit.diagnostics import CODES, Diagnostic, Severity
from pbnkit.digits import signed_number, whole_number
from pbnkit.errors import PbnError
from pbnkit.export.schema import BOARDS
from pbnkit.lin.runs import laid_out
from pbnkit.model import PASSED_OUT, Contract, Deal, Seat, Vulnerability, parse_or_none
from pbnkit.model.deal import DEAL_RE
from pbnkit.pbn.records import Element, ElementKind, Game, TagPair
from pbnkit.pbn.sections import decode_items
from pbnkit.pbn.tables import TABLES, is_column_spec, read_columns
from pbnkit.replay.game import replay
from pbnkit.replay.tags import read_contract, read_declarer, read_result

if TYPE_CHECKING:
    from pbnkit.formats.reader import Reader

Row = dict[str, Any]

_COMMENTS = (ElementKind.COMMENT, ElementKind.LINE_COMMENT)
_NOTE = re.compile(r"\s*([0-9]+)\s*:(.*)", re.DOTALL)
_INT16 = range(-(2 ** 15), 2 ** 15)
_INT32 = range(-(2 ** 31), 2 ** 31)
_SEATS = "NESW"  # clockwise, as pbnkit.model.Seat numbers them


def element_row(element: Element) -> Row:
    return {"kind": element.kind.value, "text": element.text, "line": element.line,
            "column": element.column}


class TagColumns(NamedTuple):
    """The ``tags`` column of a row, kept as columns (each a tuple over the game's tags):
    a score of tag dicts per board would cost more than reading the board. The Parquet
    sink builds Arrow arrays from batches of these, the bodies from their elements;
    :meth:`rows` gives the JSON form."""

    names: tuple[str, ...]
    values: tuple[str, ...]
    lines: tuple[int, ...]
    columns: tuple[int, ...]
    bodies: tuple[tuple[Element, ...], ...]
    quoted: tuple[bool, ...]
    value_columns: tuple[int, ...]

    @classmethod
    def of(cls, tags: Sequence[TagPair]) -> TagColumns:
        if not tags:
            return cls((), (), (), (), (), (), ())
        # TagPair's own field order: name, value, line, column, body, quoted, value_column
        return cls(*zip(*tags))

    def rows(self) -> list[Row]:
        return [{"name": name, "value": value, "quoted": quoted, "line": line,
                 "column": column, "value_column": value_column,
                 "body": [element_row(e) for e in laid_out(body)]}
                for name, value, line, column, body, quoted, value_column in zip(*self)]


def diagnostic_row(diagnostic: Diagnostic, stage: str) -> Row:
    try:
        severity = diagnostic.effective_severity.value
    except KeyError:  # a code this pbnkit does not know: keep it, call it a warning
        severity = Severity.WARNING.value
    return {"code": diagnostic.code, "severity": severity, "message": diagnostic.message,
            "line": diagnostic.line, "column": diagnostic.column, "stage": stage}


def game_row(game: Game, encoding: str, checked: Sequence[Diagnostic] = (),
             root: str | None = None, digest: bytes | None = None) -> Row:
    """The boards-table row of a game. ``checked`` are the rule diagnostics (those of
    ``pbnkit.rules.check_game`` beyond the reader's own); ``root`` is the common root of
    the run's inputs (see :func:`source_name`); ``digest`` the SHA-256 of the whole file
    (:func:`record_id`; None: no id)."""
    values = game.values
    diagnostics = ([diagnostic_row(d, "read") for d in game.diagnostics]
                   + [diagnostic_row(d, "check") for d in checked]
                   if game.diagnostics or checked else [])
    date = values.get("Date")
    hands = _hands(values.get("Deal"))
    level, strain, risk, declarer, contract_source = contract_facts(game)
    row: Row = {
        "path": game.path,
        "source": source_name(game.path, root),
        "index": game.index,
        "record_id": record_id(digest, game.index),
        "line": game.line,
        "encoding": encoding,
        "event": values.get("Event"),
        "site": values.get("Site"),
        "date": _date(date),
        "date_text": date,
        "time": _time(values.get("Time"), date),
        "board": _board(values.get("Board")),
        "round": _whole(values.get("Round")),
        "table": _whole(values.get("Table")),
        "section": values.get("Section"),
        "stage": values.get("Stage"),
        "home_team": values.get("HomeTeam"),
        "visit_team": values.get("VisitTeam"),
        "room": values.get("Room"),
        "west": values.get("West"),
        "north": values.get("North"),
        "east": values.get("East"),
        "south": values.get("South"),
        "dealer": _seat(values.get("Dealer")),
        "vulnerable": _vulnerable(values.get("Vulnerable")),
        **hands,
        **_points(hands),
        "scoring": values.get("Scoring"),
        "declarer": declarer,
        "contract_level": level,
        "contract_strain": strain,
        "contract_risk": risk,
        "contract_source": contract_source,
        "result": _result(values.get("Result"), declarer),
        **_sections(game),
        "tags": TagColumns.of(game.tags),
        "preamble": [element_row(e) for e in game.preamble],
        "trailer": [],
        "diagnostics": diagnostics,
        "errors": sum(d["severity"] == "error" for d in diagnostics) if diagnostics else 0,
        "warnings": sum(d["severity"] == "warning" for d in diagnostics) if diagnostics else 0,
        "original": game.original or None,
        "original_head": game.original_head,
        "original_tail": game.original_tail,
    }
    return row


def record_id(digest: bytes | None, index: int | None) -> str | None:
    """A record's id: 32 hex digits of the SHA-256 of its file's SHA-256 (``digest``) and
    its 0-based index in the file. Only the file's bytes and the record's place go in, so
    every run, every ``-j`` (chunks carry their file's digest) and a copy of the file
    under another name give the same ids; null without a digest or an index."""
    if digest is None or index is None:
        return None
    return hashlib.sha256(digest + index.to_bytes(8, "big")).hexdigest()[:32]


def file_row(reader: Reader, encoding: str, root: str | None = None) -> Row:
    """The row of a file without records, once its reader is done: the file's bytes
    (``original_head``) and the problems found in it, beside null record columns (``index``
    null tells this row from a record's)."""
    row: Row = dict.fromkeys(BOARDS.names)
    row.update({
        "path": reader.path, "source": source_name(reader.path, root), "encoding": encoding,
        "auction": SectionItems("call", [], []), "play": SectionItems("card", [], []),
        "notes": [], "commentary": [], "tables": [], "tags": TagColumns.of(()),
        "preamble": [], "diagnostics": [], "errors": 0, "warnings": 0,
        "original_head": reader.original_head or b"", "original_tail": b"",
    })
    add_file_problems(row, reader.trailer, reader.diagnostics)
    return row


def add_file_problems(row: Row, trailer: Iterable[Element], problems: Iterable[Diagnostic]) -> None:
    """Put what belongs to the file, not to a game, on its last row."""
    row["trailer"] = [element_row(e) for e in trailer]
    add_findings(row, problems)


def add_findings(row: Row, problems: Iterable[Diagnostic]) -> None:
    """Add findings about the file (stage ``file``) to its last row."""
    extra = [diagnostic_row(d, "file") for d in problems]
    row["diagnostics"] = row["diagnostics"] + extra
    row["errors"] += sum(d["severity"] == "error" for d in extra)
    row["warnings"] += sum(d["severity"] == "warning" for d in extra)


def is_record(row: Row) -> bool:
    """Whether a row holds a record (and not only a file without any)."""
    return row["index"] is not None


# -- The source ---------------------------------------------------------------------------------

def common_root(paths: Iterable[str | os.PathLike[str]]) -> str | None:
    """The deepest directory that holds every file of ``paths`` (URIs aside), for
    :func:`source_name`; None when there is no such file, or no such directory (paths
    on several Windows drives)."""
    names = [os.fspath(path) for path in paths]
    folders = [os.path.dirname(os.path.abspath(name)) for name in names if not _is_uri(name)]
    try:
        return os.path.commonpath(folders) if folders else None
    except ValueError:
        return None


@functools.lru_cache(maxsize=64)
def source_name(path: str | None, root: str | None) -> str | None:
    """The ``source`` column: a URI as it is, else the path relative to ``root`` (the
    common root of the run's inputs, from :func:`common_root`; the file's own directory
    when None), with ``/`` between its parts."""
    if path is None or _is_uri(path):
        return path
    full = os.path.abspath(path)
    try:
        relative = os.path.relpath(full, root or os.path.dirname(full))
    except ValueError:  # another Windows drive
        relative = os.path.basename(full)
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        relative = os.path.basename(full)  # a root that does not hold it: its name only
    return relative.replace(os.sep, "/")


def _is_uri(name: str) -> bool:
    return "://" in name


# -- Derived columns ---------------------------------------------------------------------------

def _integer(text: str | None, bounds: range) -> int | None:
    """A whole number, signed or not, in ``bounds``; None otherwise."""
    if text is None:
        return None
    number = signed_number(text.strip())
    return number if number is not None and number in bounds else None


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


_HAND = re.compile(r"[2-9TJQKAtjqka]*(?:\.[2-9TJQKAtjqka]*){3}")
_RANK_ORDER = {rank: order for order, rank in enumerate("AKQJT98765432")}
#: Each rank is possessive (``?+``, from Python 3.11; plain ``?`` before, which matches the
#: same): no rank can stand for a later one, so giving one back never helps a match, and
#: told so, the engine keeps no state to go back to, which makes it much faster.
_MAYBE = "?+" if sys.version_info >= (3, 11) else "?"
_DESCENDING_SUIT = "".join(rank + _MAYBE for rank in "AKQJT98765432")
_DESCENDING_HAND = rf"{_DESCENDING_SUIT}(?:\.{_DESCENDING_SUIT}){{3}}"
_DESCENDING = re.compile(_DESCENDING_HAND)
#: a Deal value already as export format writes it (the usual case): one match gives it all
_SORTED_DEAL = re.compile(r"\s*([NESW])\s*:\s*({0}|-)\s+({0}|-)\s+({0}|-)\s+({0}|-)\s*"
                          .format(_DESCENDING_HAND))
_HAND_COLUMNS = tuple(f"deal_{seat.lower()}" for seat in "NESW")
_POINT_COLUMNS = tuple(f"hcp_{seat.lower()}" for seat in "NESW")


def sorted_hands(text: str) -> tuple[int, list[str | None]] | None:
    """A well-formed Deal value as (index of the first seat in "NESW", the four hands
    with ranks descending, None for '-'); None when not well formed. The same as
    ``Deal.from_pbn(text)`` and ``Hand.pbn()`` for such values, without building 52 Card
    objects per deal, which would be much of the cost of a row."""
    match = _SORTED_DEAL.fullmatch(text)
    if match is not None:
        first, *fields = match.groups()
        return _SEATS.index(first), [None if hand == "-" else hand for hand in fields]
    match = DEAL_RE.fullmatch(text)
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


_Contract = tuple[int | None, str | None, str | None, str | None, str | None]


def contract_facts(game: Game) -> _Contract:
    """Level, strain, risk, declarer and where the contract came from ("tag", "auction",
    or None when neither gives it), as the scorer reads them (``record_facts``): the
    Contract and Declarer tags, else the replayed auction, which runs only for records
    whose tags do not give both."""
    values = game.values
    found = _tag_contract(values.get("Contract"), values.get("Declarer"))
    if found is not None:
        return found
    contract = read_contract(values.get("Contract"))
    declarer_tag = read_declarer(values.get("Declarer"))
    declarer = declarer_tag.seat if declarer_tag is not None else None
    replayed = replay(game)
    return _contract_columns(contract if contract is not None else replayed.contract,
                             declarer if declarer is not None else replayed.declarer,
                             "tag" if contract is not None else "auction")


@functools.lru_cache(maxsize=512)
def _tag_contract(contract_text: str | None, declarer_text: str | None) -> _Contract | None:
    """:func:`contract_facts` from the tags, remembered for each spelling; None when the
    auction must tell."""
    contract = read_contract(contract_text)
    declarer = read_declarer(declarer_text)
    if contract is None or (declarer is None and contract is not PASSED_OUT):
        return None
    return _contract_columns(contract, None if declarer is None else declarer.seat, "tag")


def _contract_columns(contract: Contract | None, declarer: Seat | None,
                      source: str) -> _Contract:
    seat = None if declarer is None else _SEATS[declarer]
    if contract is None:
        return None, None, None, seat, None
    return (contract.level, None if contract.strain is None else contract.strain.pbn(),
            contract.risk.pbn(), seat, source)


_DATE = re.compile(r"\s*([0-9]{4})([./-]?)([0-9]{2})\2([0-9]{2})(?:[ T]([0-9:]+))?\s*")
#: day or month, month or day, then the year: 3/30/2021, 30.03.2021, 30-03-2021
_NUMERIC_DATE = re.compile(r"\s*([0-9]{1,2})([./-])([0-9]{1,2})\2([0-9]{4})\s*")
#: day, month name, year: 2-Aug-2023, 2 Aug 2023, 2 August 2023
_NAMED_DATE = re.compile(r"\s*([0-9]{1,2})[- ]([A-Za-z]{3,9})\.?[- ]([0-9]{4})\s*")
_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december")
_MONTHS = {**{name: number for number, name in enumerate(_MONTH_NAMES, 1)},
           **{name[:3]: number for number, name in enumerate(_MONTH_NAMES, 1)},
           "sept": 9}
_TIME = re.compile(r"\s*([0-9]{1,2}):([0-9]{2})(?::([0-9]{2}))?\s*")


@functools.lru_cache(maxsize=256)
def _date(text: str | None) -> datetime.date | None:
    """A Date tag value as a date, from each form real files write: ``YYYY.MM.DD`` as PBN
    writes it, ``YYYY-MM-DD``, ``YYYY/MM/DD`` or ``YYYYMMDD`` (maybe followed by a time);
    ``2-Aug-2023`` (an English month name); day and month in either order before the year,
    ``3/30/2021`` or ``30.03.2021``. The order of day and month is read from the numbers,
    not from the separator, since files of either convention use both: a part above 12 is
    the day; when both are 12 or less and differ the date is ambiguous and None, rather
    than maybe a wrong day. None too when a part is unknown (``?``) or the value is no
    calendar date."""
    if not text:
        return None
    match = _DATE.fullmatch(text)
    if match is not None:
        return _calendar(int(match[1]), int(match[3]), int(match[4]))
    match = _NUMERIC_DATE.fullmatch(text)
    if match is not None:
        first, second = int(match[1]), int(match[3])
        if first > 12 or first == second:
            return _calendar(int(match[4]), second, first)
        if second > 12:
            return _calendar(int(match[4]), first, second)
        return None
    match = _NAMED_DATE.fullmatch(text)
    if match is not None and match[2].lower() in _MONTHS:
        return _calendar(int(match[3]), _MONTHS[match[2].lower()], int(match[1]))
    return None


def _calendar(year: int, month: int, day: int) -> datetime.date | None:
    try:
        return datetime.date(year, month, day)
    except ValueError:
        return None


@functools.lru_cache(maxsize=256)
def _time(text: str | None, date: str | None) -> datetime.time | None:
    """The Time tag (``HH:MM:SS``, or ``HH:MM``) as a time of day; without a Time tag, the
    time a Date value writes after the date (``2023-08-02 14:12``). None when neither is
    a time of day."""
    if text is None and date:
        match = _DATE.fullmatch(date)
        text = match[5] if match is not None else None
    match = _TIME.fullmatch(text) if text else None
    if match is None:
        return None
    try:
        return datetime.time(int(match[1]), int(match[2]), int(match[3] or 0))
    except ValueError:
        return None


@functools.lru_cache(maxsize=1024)
def _whole(text: str | None) -> int | None:
    """A Round or Table value written as a whole number; None for any other text (kept
    in ``tags``)."""
    number = whole_number(text.strip()) if text is not None else None
    return number if number is not None and number in _INT32 else None


def _points(hands: Row) -> Row:
    """High-card points (A 4, K 3, Q 2, J 1) of each known hand (``hands`` as
    :func:`_hands` gives them, in the order N, E, S, W)."""
    return {points: None if hand is None else _hcp(hand)
            for points, hand in zip(_POINT_COLUMNS, hands.values())}


def _hcp(hand: str) -> int:
    return 4 * hand.count("A") + 3 * hand.count("K") + 2 * hand.count("Q") + hand.count("J")


@functools.lru_cache(maxsize=1024)
def _board(text: str | None) -> int | None:
    return _integer(text, _INT32)


@functools.lru_cache(maxsize=256)
def _result(text: str | None, declarer: str | None) -> int | None:
    """Declarer's tricks as the scorer reads the Result tag: ``n``, ``NS n``, ``EW n``,
    ``NS n EW m``, maybe after ``^``; the other side's tricks give 13 minus them."""
    result = read_result(text)
    if result is None:
        return None
    return result.tricks_of(None if declarer is None else Seat.from_pbn(declarer))


#: a section body of plain calls or cards, each blank-separated word one item as written,
#: with at most a note reference =n= after it (the common case, read without the general
#: decoder, which gives the same items). A body of letters, digits and blanks only is
#: plain without the longer match.
_WORDS_ONLY = re.compile(r"[A-Za-z0-9\s]*")
_PLAIN = re.compile(r"\s*(?:(?:[A-Za-z0-9]+|-+|[*+])(?:\s*=[0-9]+=)?(?:\s+|\Z))*")
_ANNOTATIONS = ("irregularity", "suffix", "note", "nags", "comments")
#: the annotations of an item that has none; the lists of nags and comments are tuples
#: here, shared by every such item (rows() gives lists)
NO_ANNOTATIONS: tuple[Any, ...] = (None, None, None, (), ())


class SectionItems(NamedTuple):
    """The ``auction`` or ``play`` column of a row, kept as columns: a board's fifty
    calls and cards as fifty dicts would cost more than the rest of its row. The Parquet
    sink turns batches of these into Arrow arrays directly; :meth:`rows` gives the dicts
    of the JSON form. ``annotations`` holds the annotations of items by position: of those
    that have any in a plain body (a call in ten or so of a noted auction), of every item
    in a body that needs the general decoder; None when no item has any."""

    token: str  # "call" or "card"
    seats: list[str | None]
    texts: list[str]
    #: item position -> its annotations, in _ANNOTATIONS order
    annotations: dict[int, tuple[Any, ...]] | None = None

    def rows(self) -> list[Row]:
        annotations = self.annotations or {}
        return [{"seat": seat, self.token: text, "irregularity": irregularity,
                 "suffix": suffix, "note": note, "nags": list(nags), "comments": list(comments)}
                for position, (seat, text) in enumerate(zip(self.seats, self.texts))
                for irregularity, suffix, note, nags, comments
                in (annotations.get(position, NO_ANNOTATIONS),)]


def _sections(game: Game) -> Row:
    """The auction, play, notes, commentary and tables columns, from one pass over the
    tag pairs rather than one a column (a board has a score of them)."""
    auction = play = None
    notes: list[Row] = []
    commentary = [{"tag": None, "kind": e.kind.value, "text": e.text}
                  for e in game.preamble if e.kind in _COMMENTS]
    tables = []
    section = None  # the Auction or Play section a Note follows
    for tag in game.tags:
        name = tag.name
        if name == "Auction" or name == "Play":
            section = name
            if name == "Auction" and auction is None:
                auction = tag
            elif name == "Play" and play is None:
                play = tag
        elif name == "Note":
            notes.append(_note(tag.value, section))
        elif name in TABLES and is_column_spec(tag.value.removeprefix("##")):
            # a table whose value, as written, is its column spec (a ``##`` before it
            # passes it on to later games; a ``#`` value cannot be resolved from the tag)
            tables.append(_table(tag))
        if tag.body:
            commentary.extend({"tag": name, "kind": e.kind.value, "text": e.text}
                              for e in tag.body if e.kind in _COMMENTS)
    return {"auction": _items(auction, "call"), "play": _items(play, "card"), "notes": notes,
            "commentary": commentary, "tables": tables}


def _items(tag: TagPair | None, token: str) -> SectionItems:
    if tag is None:
        return SectionItems(token, [], [])
    seats = _rotation(tag.value)
    body = tag.body
    text = body[0].text if len(body) == 1 and body[0].kind is ElementKind.TOKENS else None
    if text is not None and (_WORDS_ONLY.fullmatch(text) or _PLAIN.fullmatch(text)):
        if "=" not in text:
            texts = text.split()
            return SectionItems(token, _seats_of(texts, seats), texts)
        texts, annotations = _noted(text)
        return SectionItems(token, _seats_of(texts, seats), texts, annotations)
    items, _ = decode_items(tag)
    texts = [item.text for item in items]
    annotations = {}
    for position, item in enumerate(items):
        nags = item.nags
        if nags and not all(-32768 <= nag <= 32767 for nag in nags):
            nags = tuple(nag for nag in nags if -32768 <= nag <= 32767)
        annotations[position] = (item.irregularity, item.suffix,
                                 None if item.note is None else _int16(item.note),
                                 list(nags), list(item.comments))
    return SectionItems(token, _seats_of(texts, seats), texts, annotations)


def _noted(text: str) -> tuple[list[str], dict[int, tuple[Any, ...]]]:
    """The items of a plain body (``_PLAIN``) that holds note references, and the
    annotations of those that have one. Split at ``=``, the body alternates runs of items
    and the numbers of the notes, each of which belongs to the last item before it."""
    texts: list[str] = []
    annotations: dict[int, tuple[Any, ...]] = {}
    parts = text.split("=")
    for position in range(0, len(parts), 2):
        texts += parts[position].split()
        if position + 1 < len(parts):
            annotations[len(texts) - 1] = (None, None, _integer(parts[position + 1], _INT16),
                                           (), ())
    return texts, annotations


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


def _note(value: str, section: str | None) -> Row:
    match = _NOTE.fullmatch(value)
    index = _integer(match[1], _INT16) if match else None
    return {"section": section, "index": index, "text": match[2] if match else value}


def _table(tag: TagPair) -> Row:
    columns = [column.name for column in read_columns(tag.value.removeprefix("##"))]
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
    differs from the code's own in the code table (or the code is unknown here)."""
    found = []
    for d in row["diagnostics"]:
        if d["stage"] not in stages:
            continue
        listed = CODES.get(d["code"])
        severity = None
        if listed is None or listed.severity.value != d["severity"]:
            severity = Severity(d["severity"])
        found.append(Diagnostic(d["code"], d["message"], d["line"], d["column"], row["path"],
                                board, severity))
    return tuple(found)
