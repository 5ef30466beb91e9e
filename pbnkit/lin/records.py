"""From LIN pairs to the syntax records the PBN reader makes: tag pairs named as PBN
names them, with the Auction and Play sections and their notes, each at the line and
column of the pair it comes from.

The pairs are grouped into records (boards) by their keys: a vugraph file's ``qx`` starts
each room's board; elsewhere a board starts with its ``pn`` or ``md``. What the file says
before its first board (the ``vg`` header, the ``rs`` results, the ``pn`` players of both
rooms) holds for the boards after it.

Nothing is lost: every pair of a board is kept, as written, with its record
(:class:`pbnkit.lin.board.LinBoard`), and in its ``Lin`` tag, the file's header in a
``LinHeader`` tag on its first board, as the archive stores them, so that a board written
out as LIN again gives back the keys PBN has no word for (``pg``, ``nt``, ``st``...).

Only syntax is decided here: which cards a hand holds is read from ``md`` to know who
led each trick (the play section's columns are seats), but whether a call or card is
legal is the replay's business.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import compress, repeat
from operator import eq
from typing import Final, TypeVar, cast

from pbnkit.diagnostics import Diagnostic
from pbnkit.digits import whole_number
from pbnkit.lin.columns import Pairs, joined
from pbnkit.lin.pair import Pair
from pbnkit.lin.runs import section_body
from pbnkit.formats.hands import ALL_RANKS, holding_bits, holding_text
from pbnkit.records import Element, TagPair

T = TypeVar("T")

#: The keys BBO's hand viewer and vugraph files use. Any other is kept, and reported.
KNOWN_KEYS: Final = frozenset((
    "ah", "an", "at", "bn", "bt", "cb", "cg", "cp", "cr", "cs", "em", "hc", "hs", "ht",
    "lb", "mb", "mc", "md", "mn", "nt", "pc", "pf", "pg", "pn", "pw", "px", "qx", "rh",
    "rs", "sa", "sk", "st", "sv", "tu", "up", "va", "vg", "wt",
))
#: Keys that hold for the boards after them, wherever they stand.
FILE_KEYS: Final = frozenset(("vg", "rs"))

#: LIN seats in ``md`` and ``pn`` order (South first), and the dealer digits 1-4.
SEATS: Final = ("S", "W", "N", "E")
#: Clockwise from North, as PBN counts.
CLOCKWISE: Final = ("N", "E", "S", "W")
SUITS: Final = "SHDC"
RANKS: Final = "AKQJT98765432"

VULNERABLE: Final = {"o": "None", "0": "None", "-": "None", "n": "NS", "e": "EW", "b": "All"}
CALLS: Final = {"p": "Pass", "d": "X", "r": "XX"}
ROOMS: Final = {"o": "Open", "c": "Closed"}
SCORING: Final = {"I": "IMP", "P": "MP", "B": "BAM"}
#: The Note text of a call alerted (``!``) without an explanation.
ALERT_NOTE: Final = "alert"

_BID: Final = re.compile(r"([1-7])(NT|N|[CDHS])", re.IGNORECASE)
_ROOM_BOARD: Final = re.compile(r"\s*([oOcC])([0-9]+)")
_NUMBER: Final = re.compile(r"[0-9]+")
_HAND: Final = re.compile(r"(?:[SHDC][AKQJT2-9]*)*", re.IGNORECASE)
_RS_RESULT: Final = re.compile(r"([1-7])(NT|N|[CDHS])([NESW])(X{0,2})([=+-]\d*)?$",
                               re.IGNORECASE)


# -- Grouping ---------------------------------------------------------------------------------

def group_records(runs: Iterable[Pairs], by_qx: bool) -> Iterator[Pairs | None]:
    """The file's header pairs (None: none), then each record's pairs, in order, as they
    are read, from the file's runs of pairs. ``by_qx``: the file has a ``qx`` pair, which
    starts each record; the pairs before the first are the header. Otherwise a record
    starts with its ``pn`` or ``md`` after the ``md`` of the one before, and the file has
    no header. Only the pairs that may start a record are looked at in Python."""
    pieces: list[Pairs] = []  # of the record being gathered, a piece a run
    if by_qx:
        for run in runs:
            begin = 0
            for at in compress(range(len(run)), map(eq, run.names, repeat("qx"))):
                if at > begin:
                    pieces.append(run.cut(begin, at))
                yield joined(pieces) if pieces else None
                pieces, begin = [], at
            pieces.append(run.cut(begin, len(run)))
        yield joined(pieces) if pieces else None
        return
    yield None
    has_deal = False
    for run in runs:
        names, begin = run.names, 0
        for at, name in enumerate(names):
            if name != "pn" and name != "md":
                continue
            if has_deal:
                if at > begin:
                    pieces.append(run.cut(begin, at))
                yield joined(pieces)  # it has a deal
                pieces, has_deal, begin = [], False, at
            has_deal = name == "md"
        if begin < len(names):
            pieces.append(run.cut(begin, len(names)))
    if pieces:
        yield joined(pieces)


# -- The file's context ------------------------------------------------------------------------

@dataclass(slots=True)
class FileContext:
    """What the file's header (and ``vg``/``rs`` pairs anywhere) says for its boards."""

    tags: dict[str, tuple[str, Pair]] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    players_pair: Pair | None = None
    results: list[str] = field(default_factory=list)
    results_pair: Pair | None = None
    first_board: int = 1
    #: the first line of the pairs that boards still to come may take tags from, and so
    #: have findings at (None: no such pair): found as pairs are taken, not at each board
    first_line: int | None = None

    def take(self, pair: Pair) -> None:
        name = pair.name
        if name == "vg":
            fields = pair.value.split(",")
            for index, tag in ((0, "Event"), (1, "Stage"), (5, "HomeTeam"), (7, "VisitTeam")):
                if index < len(fields) and fields[index].strip():
                    self.tags[tag] = (fields[index].strip(), pair)
            if len(fields) > 2 and fields[2].strip().upper() in SCORING:
                self.tags["Scoring"] = (SCORING[fields[2].strip().upper()], pair)
            first_board = whole_number(fields[3].strip()) if len(fields) > 3 else None
            if first_board is not None:
                self.first_board = first_board
        elif name == "rs":
            self.results, self.results_pair = pair.value.split(","), pair
        elif name == "pn":
            self.players, self.players_pair = pair.value.split(","), pair
        lines = [held.line for _, held in self.tags.values()]
        for held in (self.players_pair, self.results_pair):
            if held is not None:
                lines.append(held.line)
        self.first_line = min(lines) if lines else None

    def result(self, room: str | None, board: str | None) -> str | None:
        """The ``rs`` entry of a vugraph board: two per board (open, closed) from the
        first board of ``vg``."""
        number = whole_number(board) if board is not None else None
        if room not in ROOMS.values() or number is None:
            return None
        at = 2 * (number - self.first_board) + (room == "Closed")
        if 0 <= at < len(self.results) and self.results[at].strip():
            return self.results[at].strip()
        return None


# -- One record -----------------------------------------------------------------------------

def tag(name: str, value: str, pair: Pair, body: tuple[Element, ...] = ()) -> TagPair:
    """A tag pair at the position of the LIN pair it comes from."""
    key, _, _, line, column, _, _ = pair
    return _new_tag(TagPair, (name, value, line, column, body, True, column + len(key) + 1))


_new_tag: Final = tuple.__new__  # a TagPair without the frame of its __new__


def tag_at(name: str, value: str, pairs: Pairs, at: int,
           body: tuple[Element, ...] = ()) -> TagPair:
    """A tag pair at the position of the ``at``-th of the pairs."""
    column = pairs.columns[at]
    return _new_tag(TagPair, (name, value, pairs.lines[at], column, body, True,
                              column + len(pairs.keys[at]) + 1))


def record_tags(pairs: Pairs, context: FileContext, lin: str,
                problems: list[Diagnostic]) -> tuple[tuple[TagPair, ...], TagPair | None]:
    """The tag pairs of one record, PBN's first, then ``Lin``: the record's pairs as
    written (``lin``); and the Result tag of its claim, if it has one."""
    shape = shape_of(pairs.names)
    bidding = (_odd_bidding(pairs, shape.cards[0] if shape.cards else len(pairs), problems)
               if shape.odd else shape.bidding)
    for at in shape.file_pairs:
        context.take(pairs.pair(at))
    # the first pair of each key that makes a tag, by its index: a tag is made at its
    # place in the columns, without a Pair for it
    named = shape.named
    values = pairs.values
    tags: dict[str, TagPair] = {name: tag(name, value, pair)
                                for name, (value, pair) in context.tags.items()}
    room, board = _room_and_board(pairs, named, problems)
    qx = named.get("qx")
    if room is not None and qx is not None:
        tags["Room"] = tag_at("Room", room, pairs, qx)
    if board is not None:
        tags["Board"] = tag_at("Board", board, pairs, named["ah"] if qx is None else qx)
    tags.update(_players(pairs, named.get("pn"), context, room))
    hands = None
    md = named.get("md")
    if md is not None:
        dealer, deal, hands = read_md(values[md])
        if dealer is not None:
            tags["Dealer"] = tag_at("Dealer", dealer, pairs, md)
        tags["Deal"] = tag_at("Deal", deal, pairs, md)
    sv = named.get("sv")
    if sv is not None:
        vulnerable = values[sv]
        tags["Vulnerable"] = tag_at("Vulnerable", VULNERABLE.get(vulnerable.strip().lower(),
                                                                 vulnerable), pairs, sv)
    result = context.result(room, board)
    if result is not None and context.results_pair is not None:
        tags.update(_rs_tags(result, context.results_pair))
    ordered = [tags[name] for name in _ORDER if name in tags]
    if bidding:
        ordered += _auction(pairs, bidding, tags.get("Dealer"), problems)
    if shape.cards:
        ordered += _play(pairs, shape.cards, shape.claim, hands, problems)
    claim = shape.claim
    claimed = None
    if claim is not None:
        claimed = tag_at("Result", values[claim].strip(), pairs, claim)
        ordered.append(claimed)
    ordered.append(tag_at("Lin", lin, pairs, 0))
    return tuple(ordered), claimed


# Not a frozen dataclass, made when the module is imported (a cost every command would
# pay) and whose __init__ sets each field through object.__setattr__, several times the
# cost of this one's: its attributes are Final, read-only to mypy, as those of
# lin.columns.Pairs.
class Shape:
    """What the keys of a record decide, whatever their values: where its calls, cards
    and tags stand (see :func:`shape_of`)."""

    __slots__ = ("bidding", "odd", "file_pairs", "named", "cards", "claim")

    def __init__(self, bidding: list[int], odd: bool, file_pairs: list[int],
                 named: dict[str, int], cards: list[int], claim: int | None) -> None:
        #: the pairs of calls and explanations, in order (empty when ``odd``)
        self.bidding: Final = bidding
        #: an unknown key, or an explanation after the first card: the bidding is found
        #: pair by pair, each such pair reported where it stands
        self.odd: Final = odd
        #: the ``vg`` and ``rs`` pairs, which hold for the boards after them
        self.file_pairs: Final = file_pairs
        #: the first pair of each key of :data:`_NAMED` there is
        self.named: Final = named
        #: the ``pc`` pairs, and the first ``mc``
        self.cards: Final = cards
        self.claim: Final = claim


def shape_of(names: list[str]) -> Shape:
    """The shape of a record whose keys (in lower case) are ``names``, in one pass. Most
    keys are ``pc``, ``mb`` and ``pg``, told apart by comparing them; only the few others
    are looked up in sets, not a set made of all the keys (which hashes each new
    string)."""
    bidding: list[int] = []
    cards: list[int] = []
    others: list[int] = []
    late_note = False
    for at, name in enumerate(names):
        if name == "pc":
            cards.append(at)
        elif name == "mb":
            bidding.append(at)
        elif name == "an":
            bidding.append(at)
            late_note = late_note or bool(cards)
        elif name != "pg":
            others.append(at)
    odd = late_note
    file_pairs: list[int] = []
    named: dict[str, int] = {}
    for at in others:
        name = names[at]
        if name in _NAMED:
            named.setdefault(name, at)
        elif name in FILE_KEYS:
            file_pairs.append(at)
        elif name not in KNOWN_KEYS:
            odd = True
    return Shape([] if odd else bidding, odd, file_pairs, named, cards, named.get("mc"))


#: The keys whose first pair makes a tag
_NAMED: Final = frozenset(("qx", "ah", "pn", "md", "sv", "mc"))


def _odd_bidding(pairs: Pairs, cards_from: int, problems: list[Diagnostic]) -> list[int]:
    """The calls and explanations of a record with an unknown key or an explanation after
    its first card, found pair by pair, and those pairs reported in their order."""
    bidding: list[int] = []
    for at, name in enumerate(pairs.names):
        if name == "pc":
            continue
        if name == "mb" or name == "an":
            if name == "an" and at > cards_from:
                problems.append(Diagnostic("SY302", "explanation (an) after the play has "
                                           "begun", pairs.lines[at], pairs.columns[at]))
            else:
                bidding.append(at)
        if name not in KNOWN_KEYS:
            problems.append(Diagnostic("SY301", f"unknown LIN key {pairs.keys[at]!r} (kept "
                                       "as written)", pairs.lines[at], pairs.columns[at]))
    return bidding


_ORDER: Final = ("Event", "Stage", "Board", "West", "North", "East", "South", "Dealer",
                 "Vulnerable", "Deal", "Scoring", "Declarer", "Contract", "Result", "Room",
                 "HomeTeam", "VisitTeam")


def one_line(text: str) -> str:
    """LIN text as one line (a tag value holds no line end)."""
    return text.replace("\r", "").replace("\n", "") if "\n" in text else text


def _room_and_board(pairs: Pairs, named: dict[str, int],
                    problems: list[Diagnostic]) -> tuple[str | None, str | None]:
    """The room and board of a record, from its first ``qx`` (o1, c1...), else the
    number its first ``ah`` ends with."""
    qx = named.get("qx")
    if qx is not None:
        value = pairs.values[qx]
        match = _ROOM_BOARD.match(value)
        number = whole_number(match[2]) if match is not None else None
        if match is not None and number is not None:
            return ROOMS[match[1].lower()], str(number)
        problems.append(Diagnostic("TG301", f"qx {value!r} names no room and board "
                                   "(o1, c1...)", pairs.lines[qx], pairs.value_column(qx)))
    ah = named.get("ah")
    if ah is not None:
        value = pairs.values[ah]
        last = value[value.rfind(" ") + 1:]  # "Board 12": the last word is the number
        number = whole_number(last)
        if number is None:
            numbers = _NUMBER.findall(value)
            number = whole_number(numbers[-1]) if numbers else None
        if number is not None:
            return None, str(number)
        problems.append(Diagnostic("TG301", f"ah {value!r} names no board",
                                   pairs.lines[ah], pairs.value_column(ah)))
    return None, None


def _players(pairs: Pairs, pn: int | None, context: FileContext,
             room: str | None) -> dict[str, TagPair]:
    """The players of a board: its own ``pn`` (the index of its first), else the
    file's. A vugraph ``pn`` names eight, the open room's four and then the closed
    room's."""
    pair = context.players_pair
    if pn is not None:
        names = pairs.values[pn].split(",")
    elif pair is not None:
        names = context.players
    else:
        return {}
    if len(names) >= 8 and room == "Closed":
        names = names[4:8]
    found = {}
    for seat, name in zip(SEATS, names):
        name = name.strip()
        if name:
            player = _PLAYER_TAGS[seat]
            if pn is not None:
                found[player] = tag_at(player, name, pairs, pn)
            elif pair is not None:
                found[player] = tag(player, name, pair)
    return found


_PLAYER_TAGS: Final = {"S": "South", "W": "West", "N": "North", "E": "East"}


#: A hand as its ranks in each suit, spades first, high to low: ("AK", "", "QJ2", ...).
Hand = tuple[str, str, str, str]
_SUIT_INDEX: Final = {suit: index for index, suit in enumerate(SUITS)}
_PLAIN_HAND: Final = re.compile(r"S([2-9TJQKA]*)H([2-9TJQKA]*)D([2-9TJQKA]*)C([2-9TJQKA]*)")
#: A deal as BBO writes it: the dealer, three hands and perhaps the fourth
_PLAIN_DEAL: Final = re.compile(rf"([1-4]?){_PLAIN_HAND.pattern},{_PLAIN_HAND.pattern},"
                                rf"{_PLAIN_HAND.pattern},(?:{_PLAIN_HAND.pattern})?")
_NO_HAND: Final[Hand] = ("", "", "", "")
#: The hands in LIN's order (South first) clockwise from each seat, as a Deal tag lists
#: them: their indices in that order.
_FROM: Final = {seat: [SEATS.index(other) for other in CLOCKWISE[at:] + CLOCKWISE[:at]]
                for at, seat in enumerate(CLOCKWISE)}


def read_md(value: str) -> tuple[str | None, str, dict[str, Hand] | None]:
    """The dealer, the PBN Deal text, and the hand of each seat (None when a hand cannot
    be read: the Deal text then keeps the hands as written for the deal checks)."""
    plain = _PLAIN_DEAL.fullmatch(value)
    if plain is not None:  # as BBO writes a deal: one match, not one a hand
        groups = plain.groups("")
        dealer = SEATS[int(groups[0]) - 1] if groups[0] else None
        read = _bbo_hands(groups)
        if read is not None:
            return _deal(dealer, read)
    text = value.strip()
    dealer = None
    if text[:1].isdigit():
        dealer = SEATS[(int(text[0]) - 1) % 4] if text[0] in "1234" else None
        text = text[1:]
    written = text.split(",")
    while len(written) > 4 and not written[-1].strip():
        written.pop()  # a trailing comma
    written += [""] * (4 - len(written))
    parsed = list(map(_read_hand, written))
    if len(written) > 4 or None in parsed:
        return dealer, "S:" + " ".join(w.strip() or "-" for w in written), None
    return _deal(dealer, cast("list[Hand]", parsed))  # no None in it


def _bbo_hands(written: tuple[str, ...]) -> list[Hand] | None:
    """The hands of a deal as BBO writes it (``written``: the dealer, then the four
    holdings of each hand), and the fourth made up when it is left out, as
    :func:`_fourth_hand` makes it; None when a holding names a rank twice."""
    read: list[Hand] = []
    # each suit's ranks in the hands read, as bits
    spades = hearts = diamonds = clubs = 0
    apart = True  # no rank in two hands
    full = True  # the first three hands hold 13 cards each
    for at in range(1, 17, 4):
        s, h, d, c = written[at], written[at + 1], written[at + 2], written[at + 3]
        bits_s, bits_h, bits_d, bits_c = _ranks(s), _ranks(h), _ranks(d), _ranks(c)
        if bits_s < 0 or bits_h < 0 or bits_d < 0 or bits_c < 0:
            return None
        apart = apart and not (spades & bits_s or hearts & bits_h or diamonds & bits_d
                               or clubs & bits_c)
        spades, hearts, diamonds, clubs = (spades | bits_s, hearts | bits_h,
                                           diamonds | bits_d, clubs | bits_c)
        full = full and (at == 13 or len(s) + len(h) + len(d) + len(c) == 13)
        read.append((holding_text(bits_s), holding_text(bits_h), holding_text(bits_d),
                     holding_text(bits_c)))
    if full and apart and read[3] == _NO_HAND:
        read[3] = (holding_text(ALL_RANKS ^ spades), holding_text(ALL_RANKS ^ hearts),
                   holding_text(ALL_RANKS ^ diamonds), holding_text(ALL_RANKS ^ clubs))
    return read


def _deal(dealer: str | None,
          read: list[Hand]) -> tuple[str | None, str, dict[str, Hand] | None]:
    """:func:`read_md`'s answer for the hands read, in LIN's order (South first)."""
    if read.count(_NO_HAND) == 1:
        read[read.index(_NO_HAND)] = _fourth_hand(read) or _NO_HAND
    first = dealer or "N"
    deal = first + ":" + " ".join([_hand_text(read[at]) for at in _FROM[first]])
    return dealer, deal, {"S": read[0], "W": read[1], "N": read[2], "E": read[3]}


def _hand_text(hand: Hand) -> str:
    """A hand as a Deal tag writes it (``-``: unknown)."""
    spades, hearts, diamonds, clubs = hand
    if not (spades or hearts or diamonds or clubs):
        return "-"
    return f"{spades}.{hearts}.{diamonds}.{clubs}"


def _fourth_hand(hands: Iterable[Hand]) -> Hand | None:
    """What BBO leaves out: the fourth hand holds the cards the other three do not, when
    they hold 13 different cards each (else it is not made up from a bad deal)."""
    given = [hand for hand in hands if hand != _NO_HAND]
    if [len("".join(hand)) for hand in given] != [13] * len(given):
        return None
    suits = []
    for holdings in zip(*given):  # a suit's holdings in the others' hands
        held = 0  # the ranks held, as bits (a holding read names each of its ranks once)
        for holding in holdings:
            bits = holding_bits(holding)
            if held & bits:  # a rank held twice
                return None
            held |= bits
        suits.append(holding_text(ALL_RANKS ^ held))
    return suits[0], suits[1], suits[2], suits[3]


def _ranks(written: str) -> int:
    """The bits of a suit's ranks as written, in any order (the model's reading, see
    :func:`holding_bits`); -1 when one is named twice."""
    bits = holding_bits(written)
    return bits if bits >= 0 and bits.bit_count() == len(written) else -1


def _read_hand(text: str) -> Hand | None:
    """``SAKH..D..C..`` (any order of suits, any case) as ranks by suit, high to low;
    None if it is not a hand, or names a card twice."""
    plain = _PLAIN_HAND.fullmatch(text)  # as BBO writes a hand
    if plain is None:
        text = text.strip().upper()
        plain = _PLAIN_HAND.fullmatch(text)
    if plain is not None:
        suits = list(plain.groups())
    elif _HAND.fullmatch(text) is not None:
        suits = ["", "", "", ""]
        for part in re.findall(r"[SHDC][^SHDC]*", text):
            suits[_SUIT_INDEX[part[0]]] += part[1:]
    else:
        return None
    spades, hearts, diamonds, clubs = map(_ranks, suits)
    if spades < 0 or hearts < 0 or diamonds < 0 or clubs < 0:
        return None
    return (holding_text(spades), holding_text(hearts), holding_text(diamonds),
            holding_text(clubs))


def _rs_tags(result: str, pair: Pair) -> dict[str, TagPair]:
    """Contract, Declarer and Result from a vugraph ``rs`` entry (``3NN=``, ``4SXE-1``)."""
    if result.upper() in ("P", "PASS"):
        return {"Contract": tag("Contract", "Pass", pair)}
    match = _RS_RESULT.match(result.replace(" ", ""))
    if match is None:
        return {}
    level = int(match[1])
    strain = "NT" if match[2].upper() in ("N", "NT") else match[2].upper()
    over = match[5] or "="
    made = 0 if over[0] == "=" or len(over) == 1 else whole_number(over[1:])
    if made is None:
        return {}
    tricks = level + 6 + (made if over[0] != "-" else -made)
    return {"Contract": tag("Contract", f"{level}{strain}{match[4].upper()}", pair),
            "Declarer": tag("Declarer", match[3].upper(), pair),
            "Result": tag("Result", str(tricks), pair)}


# -- The sections ---------------------------------------------------------------------------

def pbn_call(value: str) -> str:
    """A LIN call (``p``, ``d``, ``r``, ``1n``, ``2S``) as PBN writes it; anything else
    as written, for the section checks to report."""
    call = value.strip().rstrip("!")
    if call.lower() in CALLS:
        return CALLS[call.lower()]
    match = _BID.fullmatch(call)
    if match is not None:
        strain = match[2].upper()
        return match[1] + ("NT" if strain in ("N", "NT") else strain)
    return call or "-"


#: LIN calls as written → as PBN writes them: a file has a few dozen spellings of calls.
_PBN_CALLS: Final[dict[str, str]] = {}


def _remember_call(value: str) -> str:
    if len(_PBN_CALLS) >= 10_000:  # spellings of non-calls too: a bound all the same
        _PBN_CALLS.clear()
    call = _PBN_CALLS[value] = pbn_call(value)
    return call


def _auction(pairs: Pairs, bidding: Sequence[int], dealer: TagPair | None,
             problems: list[Diagnostic]) -> list[TagPair]:
    """The Auction tag, its calls with note references, and its Note tags, from the
    ``bidding`` pairs (indices of calls and explanations)."""
    texts: list[str] = []  # the section's tokens: calls and note references
    lines: list[int] = []
    columns: list[int] = []
    notes: list[TagPair] = []
    start = -1
    last = len(bidding) - 1
    names, values = pairs.names, pairs.values
    for step, at in enumerate(bidding):
        name, value, line = names[at], values[at], pairs.lines[at]
        if name == "mb":
            start = at if start < 0 else start
            texts.append(_PBN_CALLS.get(value) or _remember_call(value))
            lines.append(line)
            columns.append(pairs.value_column(at))
            if not value.endswith("!") or (step < last and names[bidding[step + 1]] == "an"):
                continue
            text = ALERT_NOTE
        elif step == 0 or names[bidding[step - 1]] != "mb":
            problems.append(Diagnostic("SY302", "explanation (an) without a call just "
                                       "before it", line, pairs.columns[at]))
            continue
        else:
            # BBO pads or cuts explanations to a width: the blanks at the end are its own
            text = value.rstrip()
        number = len(notes) + 1  # the note of the call just read
        texts.append(f"={number}=")
        lines.append(line)
        columns.append(pairs.value_column(at))
        notes.append(tag_at("Note", f"{number}:{text}", pairs, at))
    if start < 0:
        return []
    seat = dealer.value if dealer is not None else "?"
    # a call's line is never before the one of the call before it
    body = section_body(texts, lines, columns, lines[0] == lines[-1])
    return [tag_at("Auction", seat, pairs, start, body), *notes]


def _play(pairs: Pairs, cards: list[int], claim: int | None, hands: dict[str, Hand] | None,
          problems: list[Diagnostic]) -> list[TagPair]:
    """The Play tag, from the cards (the ``pc`` pairs, at ``cards``) and the claim (the
    index of the first ``mc``): one row per trick, each card in the column of the seat
    that played it. A trick's leader is the holder of its first card; the others follow
    clockwise, in the order LIN lists them. A claim ends the play with ``*``."""
    if claim is not None and cards[-1] > claim:
        problems.append(Diagnostic("SY302", "cards (pc) after the claim (mc)",
                                   pairs.lines[claim], pairs.columns[claim]))
    # Each card's text; its line and column are its pair's (its key is pc, two letters)
    texts = _picked(pairs.values, cards)
    if not as_bbo_writes(texts):  # others write sa, " SA"
        texts = [value if len(value) == 2 and value.isupper()
                 else value.strip().upper() or "-" for value in texts]
    missing = -len(texts) % 4  # the trick the play stops in: its cards to come are
    texts += ["-"] * missing   # unknown, "-" at the last card played
    cards = cards + [cards[-1]] * missing
    # the holdings of each suit, the hands' in LIN's order (South first) between bars:
    # who holds a card is then a search in C
    suits = _suits(hands) if hands else []
    order: list[int] = []  # the cards in the order of the Play section's columns
    first = -1
    leader = 3  # a card no hand holds: the replay reports it; the columns keep the order
    for trick, led in enumerate(texts[0::4]):
        if suits and len(led) == 2 and led[0] in _SUIT_INDEX:
            holdings = suits[_SUIT_INDEX[led[0]]]
            at = holdings.find(led[1])
            if at >= 0:  # the first hand that holds it (two may, in a bad deal)
                leader = _LIN_SEATS[holdings.count("|", 0, at)]
        if first < 0:
            first = leader
        turn = (first - leader) % 4  # the leader's card goes to the leader's column
        order += _TRICK_ORDERS[trick][turn] if trick < 13 else _trick_order(trick, turn)
    # the pairs of the cards in the columns' order: their lines and columns, picked once
    placed_pairs = _picked(cards, order)
    pair_columns = pairs.columns
    columns = [pair_columns[at] + 3 for at in placed_pairs]
    texts = _picked(texts, order)
    pair_lines = pairs.lines
    first_line = pair_lines[cards[0]]
    # the pairs' lines never go down: cards from one line (most boards) are all on it
    one_line = pair_lines[cards[-1]] == first_line and (
        claim is None or pair_lines[claim] == first_line)
    lines = [first_line] if one_line else _picked(pair_lines, placed_pairs)
    if claim is not None:
        texts.append("*")
        columns.append(pair_columns[claim])
        if not one_line:
            lines.append(pair_lines[claim])
    return [tag_at("Play", CLOCKWISE[first], pairs, cards[0],
                   section_body(texts, lines, columns, one_line))]


def _suits(hands: dict[str, Hand]) -> list[str]:
    """The holdings of each suit, the hands' in LIN's order (South first) between bars."""
    south, west, north, east = hands["S"], hands["W"], hands["N"], hands["E"]
    return [f"{south[0]}|{west[0]}|{north[0]}|{east[0]}",
            f"{south[1]}|{west[1]}|{north[1]}|{east[1]}",
            f"{south[2]}|{west[2]}|{north[2]}|{east[2]}",
            f"{south[3]}|{west[3]}|{north[3]}|{east[3]}"]


#: The seats of LIN's order (South first), as PBN counts them clockwise from North
_LIN_SEATS: Final = [CLOCKWISE.index(seat) for seat in SEATS]


def _picked(items: list[T], order: list[int]) -> list[T]:
    """``items`` in ``order``."""
    return [items[at] for at in order]


def as_bbo_writes(cards: list[str]) -> bool:
    """Whether each card (a ``pc`` value, which holds no bar) is two characters, all of
    them upper case (``SA``): the bars that join them then stand every third character.
    String methods in C, where the lengths' set took a call of ``len`` a card."""
    written = "|".join(cards)
    count = len(cards)
    if len(written) != 3 * count - 1 or written[2::3] != "|" * (count - 1):
        return False
    if written.isascii():  # a flag of the string: then two copies in C say what
        # isupper says, which looks up each character's case in Unicode's tables
        return written.upper() == written != written.lower()
    return written.isupper()


def _trick_order(trick: int, turn: int) -> tuple[int, ...]:
    """Where the cards of a trick (0, 1...) go, in the Play section's order, when its
    leader sits ``turn`` seats after the opening leader: from the first column's seat."""
    at = 4 * trick
    return (*range(at + turn, at + 4), *range(at, at + turn))


_TRICK_ORDERS: Final = [[_trick_order(trick, turn) for turn in range(4)] for trick in range(13)]
