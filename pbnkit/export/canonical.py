"""Export format (PBN 2.1 sections 2.1 and 3) as content: ``export_form(game)``
gives the game with its tags in canonical order, values normalised and sections laid
out, as a Game whose positions are the export layout. ``PbnWriter(export_format=True)``
writes it.

What changes, per the checklist: the 15 mandatory tags first, in order (a missing one is
``?``, or ``""`` for Declarer, Contract and Result of a record without auction or play),
then the other identification tags sorted by name, with ``#``/``##`` resolved; repeated
tags dropped (their commentary kept); seats, suits, ranks, ``NT``, ``X``, ``Pass`` and
``AP`` in upper case; ``Vulnerable`` as None/NS/EW/All; ``Deal`` from the dealer with
ranks descending; ``Result`` as declarer's tricks when the value says so; the auction
from the dealer and the play from the opening leader (leading ``-`` placeholders dropped,
play columns rotated), four calls or cards per line, suffixes turned into NAGs after the
note reference; Notes after their section; supplemental sections sorted by name, one
table row per line, padded to the declared widths; comments after a tag on lines of
their own, and only after the tag in a supplemental section. Text the reader skipped
after a syntax error (a malformed tag pair) is kept as written: after its tag like a
comment, or among the tag's data when it came after some, never at the start of a line
where it would read differently (a ``%`` there is an escape).

Values that do not parse are kept as they are: export never invents or drops data it
does not understand, except strings inside Auction and Play sections, which PBN does
not allow there.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping

from pbnkit.digits import whole_number
from pbnkit.errors import PbnError
from pbnkit.export.rows import sorted_hands
from pbnkit.model import (
    Call,
    Card,
    Contract,
    Deal,
    Seat,
    Strain,
    Vulnerability,
    parse_or_none,
)
from pbnkit.pbn.records import Element, ElementKind, Game, TagPair
from pbnkit.pbn.sections import SectionItem, decode_items
from pbnkit.pbn.tables import is_table_tag, read_columns
from pbnkit.pbn.writer import escape, format_tag

MANDATORY = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer",
             "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result")
_UNKNOWN = {"Date": "????.??.??"}
_PLAYED = ("Declarer", "Contract", "Result")  # "" when the record has no auction or play

_CALL_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
_CARD_NAGS = {suffix: nag + 6 for suffix, nag in _CALL_NAGS.items()}
_MARKERS = ("AP", "-", "*", "+", "^S")
_COMMENTS = (ElementKind.COMMENT, ElementKind.LINE_COMMENT)
_DATA = (ElementKind.TOKENS, ElementKind.TOKEN, ElementKind.STRING)
_SKIPPED = ElementKind.SKIPPED
_DECLARATION = re.compile(r"\s*(?:PBN\s+[0-9]|EXPORT\b|IMPORT\b|Content-type\b)|.*charset\s*=",
                          re.IGNORECASE)
_RESULT = re.compile(r"(\^?)\s*([0-9]+)")
_SIDE_RESULT = re.compile(r"(\^?)\s*(NS|EW)\s+([0-9]+)(?:\s+(NS|EW)\s+([0-9]+))?",
                          re.IGNORECASE)


class _Layout:
    """Positions for the export layout: tags at column 1, elements placed as written."""

    def __init__(self) -> None:
        self.line = 1
        self.column = 1
        self.body: list[Element] = []
        self.run: list[str] | None = None  # words of the TOKENS element being built
        self.run_at = (0, 0)

    def new_line(self) -> None:
        if self.column > 1:
            self.line, self.column = self.line + 1, 1

    def tag(self, name: str, value: str) -> TagPair:
        self.new_line()
        self.flush()
        tag = TagPair(name, value, self.line, 1, (), True, len(name) + 4)
        self.column = 1 + len(format_tag(name, value))
        return tag

    def word(self, text: str, gap: int | None = None) -> None:
        """A section token, ``gap`` spaces after the previous one (one, none at the
        start of a line, when not given). Tokens in a row form one TOKENS element, as
        the reader builds them."""
        if gap is None:
            gap = 1 if self.column > 1 else 0
        if self.run is None:
            self.run, self.run_at = [text], (self.line, self.column + gap)
        elif self.column == 1:
            self.run.append("\n" + " " * gap + text)
        else:
            self.run.append(" " * gap + text)
        self.column += gap + len(text)

    def element(self, kind: ElementKind, text: str, gap: int | None = None) -> None:
        self.flush()
        if kind is ElementKind.ESCAPE:
            self.new_line()
            self.body.append(Element(kind, text, self.line, 1))
            self.column = 2  # the escape takes the line
            self.new_line()
            return
        if gap is None:
            gap = 1 if self.column > 1 else 0
        if kind is _SKIPPED:
            written = text
            if text[:1] == "%" and self.column + gap == 1:
                gap = 1  # a '%' in column 1 would be an escape line
        elif kind is ElementKind.COMMENT:
            written = "{" + text + "}"
        else:
            written = ";" + text if kind is ElementKind.LINE_COMMENT else f'"{escape(text)}"'
        element = Element(kind, text, self.line, self.column + gap)
        self.body.append(element)
        if "\n" in written:
            self.line += written.count("\n")
            self.column = len(written) - written.rfind("\n")
        else:
            self.column += gap + len(written)
        if kind is ElementKind.LINE_COMMENT or kind is _SKIPPED:
            self.new_line()  # skipped text may run to the end of its line (a bad '[', '{')

    def flush(self) -> None:
        if self.run is not None:
            self.body.append(Element(ElementKind.TOKENS, "".join(self.run), *self.run_at))
            self.run = None

    def take_body(self) -> tuple[Element, ...]:
        self.flush()
        body, self.body = tuple(self.body), []
        return body


def export_form(game: Game) -> Game:
    """The game's content in export format, laid out (see the module docstring)."""
    layout = _Layout()
    for element in game.preamble:
        if element.kind is ElementKind.ESCAPE and _DECLARATION.match(element.text):
            continue  # the writer declares the version, the format and the charset
        layout.new_line()
        layout.element(element.kind, element.text)
    preamble = layout.take_body()
    parts = _Parts(game)
    tags: list[TagPair] = []

    def add(name: str, value: str, extras: Iterable[Element] = (),
            fill: Callable[[], None] | None = None) -> None:
        tag = layout.tag(name, value)
        for element in extras:  # comments after a tag start on a line of their own
            layout.new_line()
            layout.element(element.kind, element.text)
        if fill is not None:
            layout.new_line()
            fill()
        tags.append(tag._replace(body=layout.take_body()))

    values = game.values
    dealer = parse_or_none(Seat.from_pbn, values.get("Dealer"))
    played = parts.has("Auction") or parts.has("Play") or "Contract" in values
    for name in MANDATORY:
        value = values.get(name)
        if value is None:
            value = "" if name in _PLAYED and not played else _UNKNOWN.get(name, "?")
        add(name, _normalise(name, value, values, dealer), parts.extras(name),
            parts.data(layout, name))
    inherited = {name for name in values if name not in parts.seen}
    for name in sorted(set(parts.identification) | inherited):
        if name not in MANDATORY and name not in ("Auction", "Play", "Note"):
            add(name, values.get(name, ""), parts.extras(name), parts.data(layout, name))
    for name, start in (("Auction", _auction_start), ("Play", _play_start)):
        tag = parts.first.get(name)
        if tag is not None:
            value, items = start(tag, values, dealer)
            leading, kinds, skipped = _comment_kinds(tag.body)
            add(name, value, leading + parts.repeated.get(name, []),
                functools.partial(_items, layout, items, name == "Play", kinds, skipped))
        for note in parts.notes.get(name, ()):
            add("Note", note.value, _annotations(note.body, True), _rows(layout, note))
    for note in parts.notes.get(None, ()):
        add("Note", note.value, _annotations(note.body, True), _rows(layout, note))
    for tag in sorted(parts.supplemental, key=lambda t: t.name):
        value = values.get(tag.name, tag.value)
        add(tag.name, value, parts.extras(tag.name),
            functools.partial(_supplemental, layout, tag, value))
    first: dict[str, str] = {}
    for tag in tags:
        first.setdefault(tag.name, tag.value)
    return Game(tuple(tags), preamble, 1, game.index, game.path, first, game.diagnostics)


def _annotations(body: Iterable[Element], data_follows: bool = False) -> list[Element]:
    """Commentary, escape lines and skipped text of a body: what export writes after the
    tag on lines of its own. With ``data_follows`` skipped text after the body's first
    section token or string is left to the data (:func:`_data`)."""
    found = []
    started = False
    for element in body:
        kind = element.kind
        if kind in _DATA:
            started = True
        elif kind in _COMMENTS or kind is ElementKind.ESCAPE or (
                kind is _SKIPPED and not (started and data_follows)):
            found.append(element)
    return found


def _data(body: Iterable[Element]) -> tuple[Element, ...]:
    """Section tokens and strings of a body, with the skipped text that came among them."""
    found: list[Element] = []
    for element in body:
        if element.kind in _DATA or (element.kind is _SKIPPED and found):
            found.append(element)
    return tuple(found)


def _rows(layout: _Layout, tag: TagPair) -> Callable[[], None] | None:
    """Section data after a tag that has none in PBN (not PBN, but kept)."""
    data = _data(tag.body)
    return (lambda: _generic_rows(layout, data)) if data else None


class _Parts:
    """The game's tags sorted into the export sections; first occurrence wins."""

    def __init__(self, game: Game):
        self.first: dict[str, TagPair] = {}
        self.comments: dict[str, list[Element]] = {}
        self.repeated: dict[str, list[Element]] = {}
        self.identification: list[str] = []
        self.supplemental: list[TagPair] = []
        self.notes: dict[str | None, list[TagPair]] = {}
        self.seen: set[str] = set()
        section = None
        for tag in game.tags:
            self.seen.add(tag.name)
            if tag.name == "Note":
                self.notes.setdefault(section, []).append(tag)
                continue
            if tag.name in self.first:  # a repeated tag: only its commentary survives
                self.repeated.setdefault(tag.name, []).extend(_annotations(tag.body))
                continue
            self.first[tag.name] = tag
            self.comments[tag.name] = _annotations(tag.body, True)
            if tag.name in ("Auction", "Play"):
                section = tag.name
            elif tag.name not in MANDATORY and _is_supplemental(tag):
                self.supplemental.append(tag)
            else:
                self.identification.append(tag.name)

    def has(self, name: str) -> bool:
        return name in self.first

    def extras(self, name: str) -> list[Element]:
        return self.comments.get(name, []) + self.repeated.get(name, [])

    def data(self, layout: _Layout, name: str) -> Callable[[], None] | None:
        """Section data after an identification tag (not PBN, but kept)."""
        tag = self.first.get(name)
        return None if tag is None else _rows(layout, tag)


def _is_supplemental(tag: TagPair) -> bool:
    return is_table_tag(tag.name) or any(e.kind in _DATA for e in tag.body)


# -- Values ----------------------------------------------------------------------------------

def _normalise(name: str, value: str, values: Mapping[str, str], dealer: Seat | None) -> str:
    try:
        if name == "Dealer":
            return Seat.from_pbn(value).pbn()
        if name == "Vulnerable":
            return Vulnerability.from_pbn(value).pbn()
        if name == "Deal":
            fast = sorted_hands(value)
            if fast is None:
                deal = Deal.from_pbn(value)
                return deal.pbn(dealer or deal.first)
            first, hands = fast
            start = "NESW".index(dealer.pbn()) if dealer else first
            return f"{'NESW'[start]}:" + " ".join(
                hands[(start - first + offset) % 4] or "-" for offset in range(4))
        if name == "Declarer":
            return ("^" if value.startswith("^") else "") + Seat.from_pbn(value.lstrip("^")).pbn()
        if name == "Contract":
            try:
                return Contract.from_pbn(value).pbn()
            except PbnError:
                return Strain.from_pbn(value).pbn()  # an end position
        if name == "Result":
            return _result(value, parse_or_none(Seat.from_pbn, (values.get("Declarer") or "").lstrip("^")))
    except PbnError:
        pass
    return value


def _result(value: str, declarer: Seat | None) -> str:
    """Declarer's tricks, when the value tells them (NS n / EW n for declarer's side)."""
    match = _RESULT.fullmatch(value.strip())
    number = whole_number(match[2]) if match else None
    if match and number is not None:
        return match[1] + str(number)
    match = _SIDE_RESULT.fullmatch(value.strip())
    if match and declarer is not None:
        for side, tricks in ((match[2], match[3]), (match[4], match[5])):
            number = whole_number(tricks) if side else None
            if side and side.upper() == declarer.side.value and number is not None:
                return match[1] + str(number)
    return value


# -- Auction and play -----------------------------------------------------------------------

def _plain_dash(item: SectionItem) -> bool:
    return (item.text == "-" and item.irregularity is None and item.suffix is None
            and item.note is None and not item.nags and not item.comments)


def _auction_start(tag: TagPair, values: Mapping[str, str],
                   dealer: Seat | None) -> tuple[str, tuple[SectionItem, ...]]:
    """The Auction seat (the dealer) and the calls from the dealer's on."""
    items, _ = decode_items(tag)
    seat = parse_or_none(Seat.from_pbn, tag.value)
    if seat is not None and dealer is not None and seat != dealer:
        skip = (dealer - seat) % 4
        if len(items) >= skip and all(_plain_dash(i) for i in items[:skip]):
            return dealer.pbn(), items[skip:]
    return (seat.pbn() if seat else tag.value), items


def _play_start(tag: TagPair, values: Mapping[str, str],
                dealer: Seat | None) -> tuple[str, tuple[SectionItem, ...]]:
    """The Play seat (the opening leader) and the cards in the leader's column order."""
    items, _ = decode_items(tag)
    seat = parse_or_none(Seat.from_pbn, tag.value)
    declarer = parse_or_none(Seat.from_pbn, (values.get("Declarer") or "").lstrip("^"))
    if seat is None or declarer is None or declarer.lho == seat:
        return (seat.pbn() if seat else tag.value), items
    cards = list(items)
    star = cards.pop() if cards and cards[-1].text == "*" else None
    if any(item.text == "*" for item in cards):
        return seat.pbn(), items
    padding = -len(cards) % 4
    cards += [SectionItem("-", 0, 0)] * padding
    shift = (declarer.lho - seat) % 4
    rotated = [card for start in range(0, len(cards), 4)
               for card in cards[start + shift:start + 4] + cards[start:start + shift]]
    while padding and rotated and _plain_dash(rotated[-1]):
        rotated.pop()
        padding -= 1
    return declarer.lho.pbn(), tuple(rotated) + ((star,) if star else ())


@functools.lru_cache(maxsize=4096)
def _token(text: str, play: bool) -> str:
    upper = text.upper()
    if upper in _MARKERS:
        return upper
    try:
        return Card.from_pbn(text).pbn() if play else Call.from_pbn(text).pbn()
    except PbnError:
        return "Pass" if upper == "P" and not play else text


def _items(layout: _Layout, items: Iterable[SectionItem], play: bool,
           kinds: list[ElementKind], skipped: list[Element]) -> None:
    """Four calls or cards per line, each with ^x before it, then =n= and its NAGs; then
    the text skipped among them."""
    nags = _CARD_NAGS if play else _CALL_NAGS
    position = 0
    for item in items:
        if position and position % 4 == 0 and (item.text != "*" or layout.column > 1):
            layout.new_line()
        if item.irregularity:
            layout.word("^" + item.irregularity)
        layout.word(_token(item.text, play))
        if item.note is not None:
            layout.word(f"={item.note}=")
        marks = set(item.nags) | ({nags[item.suffix]} if item.suffix in nags else set())
        for nag in sorted(marks):
            layout.word(f"${nag}")
        for text in item.comments:
            kind = kinds.pop(0) if kinds else ElementKind.COMMENT
            if kind is ElementKind.COMMENT and "}" in text:
                kind = ElementKind.LINE_COMMENT
            layout.element(kind, text)
        if item.text != "*":
            position += 1
    for element in skipped:
        layout.element(_SKIPPED, element.text)


def _comment_kinds(
        body: tuple[Element, ...]) -> tuple[list[Element], list[ElementKind], list[Element]]:
    """Commentary, escapes and skipped text before the first call or card (they stay with
    the tag), the kinds of the comments after it, in order, which the decoded items do
    not keep, and the skipped text after it (written after the calls or cards)."""
    leading: list[Element] = []
    kinds: list[ElementKind] = []
    skipped: list[Element] = []
    started = False
    for element in body:
        if element.kind in (ElementKind.TOKENS, ElementKind.TOKEN):
            started = True
        elif element.kind is ElementKind.ESCAPE or (
                (element.kind in _COMMENTS or element.kind is _SKIPPED) and not started):
            leading.append(element)
        elif element.kind in _COMMENTS:
            kinds.append(element.kind)
        elif element.kind is _SKIPPED:
            skipped.append(element)
    return leading, kinds, skipped


# -- Supplemental sections -------------------------------------------------------------------

def _supplemental(layout: _Layout, tag: TagPair, value: str) -> None:
    data = _data(tag.body)
    if is_table_tag(tag.name) and value.strip():
        _table_rows(layout, value, data)
    else:
        _generic_rows(layout, data)


def _table_rows(layout: _Layout, spec: str, data: tuple[Element, ...]) -> None:
    """One row per line, single spaces, cells padded to the declared minimum width;
    skipped text after the cell it followed."""
    columns = [(column.width or 0, column.align or "L") for column in read_columns(spec)]
    cells = [cell for element in data for cell in _cells(element)]
    pending = 0  # padding owed after the previous (left-aligned) cell
    index = 0
    for kind, text in cells:
        if kind is _SKIPPED:
            layout.element(kind, text)
            continue
        column = index % len(columns)
        if index and column == 0:
            layout.new_line()
            pending = 0
        width, align = columns[column]
        pad = max(0, width - (len(escape(text)) + 2 if kind is ElementKind.STRING else len(text)))
        lead = 0 if column == 0 or layout.column == 1 else 1 + pending
        gap = lead + (pad if align == "R" else 0)
        if kind is ElementKind.STRING:
            layout.element(kind, text, gap)
        else:
            layout.word(text, gap)
        pending = 0 if align == "R" else pad
        index += 1


def _cells(element: Element) -> list[tuple[ElementKind, str]]:
    if element.kind is ElementKind.STRING or element.kind is _SKIPPED:
        return [(element.kind, element.text)]
    return [(ElementKind.TOKEN, token.text) for token in element.split()]


def _generic_rows(layout: _Layout, data: tuple[Element, ...]) -> None:
    """A section that is not a table: its tokens with single spaces, its lines kept."""
    for element in data:
        if element.kind is ElementKind.STRING or element.kind is _SKIPPED:
            layout.element(element.kind, element.text)
            continue
        for number, line in enumerate(element.text.split("\n")):
            if number:
                layout.new_line()
            for word in line.split():
                layout.word(word)
