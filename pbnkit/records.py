"""Syntax records: what the reader produces, with positions, before any bridge rule.

A :class:`Game` keeps everything its text held, in order, so that it can be written back
without loss: the tag pairs, each followed by its *body* (section tokens, strings,
commentary and escape lines up to the next tag pair), and the commentary before the first
tag. Values are kept as written; ``Game.value()`` resolves ``#`` and ``##`` inheritance.

A game also gives what its tags and sections mean as model objects (``game.deal``,
``game.auction``, ``game.play``, ``game.contract``, ...). Those are made by
:mod:`pbnkit.replay.objects`, imported on the first such request: the reader itself
never needs the replay, and reading a file does not load it.
"""

from __future__ import annotations

import enum
import re
from array import array
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import TYPE_CHECKING, NamedTuple, NoReturn

from pbnkit.diagnostics import Diagnostic
from pbnkit.digits import whole_number

if TYPE_CHECKING:
    from pbnkit.lin.board import LinBoard
    from pbnkit.model.auction import Auction
    from pbnkit.model.calls import Contract
    from pbnkit.model.cards import Seat
    from pbnkit.model.deal import Deal
    from pbnkit.model.play import Play
    from pbnkit.replay.objects import RecordObjects

_WORD = re.compile(r"\S+")


class ElementKind(enum.Enum):
    """What an :class:`Element` of a game holds: section tokens, a string, a comment, an
    escaped line, or text skipped after a syntax error."""

    TOKENS = "tokens"      # a run of section tokens as written, white space and line ends kept
    TOKEN = "token"        # one section token: a call, card, suffix, =n=, $n, ^x, *, +, -
    STRING = "string"      # a quoted string inside a section (table cells); text is unescaped
    COMMENT = "comment"    # {...} or ;... -- text is the comment's content, without delimiters
    LINE_COMMENT = "line_comment"
    ESCAPE = "escape"      # a % line inside a game; text is the line after the %
    SKIPPED = "skipped"    # text the reader skipped after a syntax error, kept as written


# Element and TagPair are named tuples rather than frozen dataclasses: a large archive
# has millions of them, and a tuple is built faster. Both are immutable.
class Element(NamedTuple):
    """A section token, string, comment or escape line, at a 1-based line and column.

    A ``TOKENS`` run lays out its tokens as they stand in the file: its text holds the
    white space and line ends between them. A run whose tokens come in another order
    than they stand is *placed* instead (``places``): a LIN board's Play section lists
    each trick's cards from the first column's seat, which has not always played first,
    so that laid out, a board's cards took nine runs; placed, one. The text of a placed
    run is its tokens between single blanks (see :func:`pbnkit.lin.runs.placed`).
    """

    kind: ElementKind
    text: str
    line: int
    column: int
    #: a placed run's token positions: their lines, then their columns, packed as
    #: unsigned 32-bit ints, or only their columns when they all stand on the run's line
    #: (see :meth:`positions`); empty for any other element. Bytes: one object, which the
    #: garbage collector never looks into, where a tuple of positions would be many.
    places: bytes = b""

    def same_content(self, other: Element) -> bool:
        return self.kind is other.kind and self.text == other.text

    def positions(self) -> tuple[list[int], list[int]]:
        """The lines and the columns of the tokens of a placed run."""
        packed = array(PLACE_TYPE, self.places).tolist()
        if len(packed) == self.text.count(" ") + 1:  # a column a token: all on one line
            return [self.line] * len(packed), packed
        count = len(packed) // 2
        return packed[:count], packed[count:]

    def split(self) -> Iterator[Element]:
        """The single tokens of a ``TOKENS`` run, each with its own position.

        Runs are split only on demand: most readers of an archive never look inside
        most sections, and building an object per card is what makes readers slow.
        """
        if self.kind is not ElementKind.TOKENS:
            yield self
            return
        if self.places:
            for text, line, column in zip(self.text.split(" "), *self.positions(),
                                          strict=True):
                yield Element(ElementKind.TOKEN, text, line, column)
            return
        for number, text in enumerate(self.text.split("\n")):
            base = self.column if number == 0 else 1
            for word in _WORD.finditer(text):
                yield Element(ElementKind.TOKEN, word[0], self.line + number, base + word.start())


def _same_body(body: tuple[Element, ...], other: tuple[Element, ...]) -> bool:
    """Whether two bodies hold the same elements, ignoring positions; a placed run holds
    the same as the runs that lay out its tokens (a LIN game read from its file, and
    read back from its archive)."""
    if any(element.places for element in body + other):
        return _contents(body) == _contents(other)
    return len(body) == len(other) and all(x.same_content(y) for x, y in zip(body, other))


def _contents(body: tuple[Element, ...]) -> list[tuple[ElementKind, str]]:
    """A body's elements, runs split into their tokens: kinds and texts."""
    return [(token.kind, token.text) for element in body for token in element.split()]


#: the type code of a placed run's positions (Element.places): unsigned, 32 bits
PLACE_TYPE = "I"


class TagPair(NamedTuple):
    """``[Name "value"]`` and what follows it up to the next tag pair."""

    name: str
    value: str
    line: int
    column: int
    body: tuple[Element, ...] = ()
    quoted: bool = True  # False for the real-world ``[Event Random Deal #]``
    value_column: int = 0  # column of the value's first character

    @property
    def tokens(self) -> tuple[Element, ...]:
        """Single section tokens and strings of the body, in order (no commentary)."""
        return tuple(token for e in self.body
                     if e.kind in (ElementKind.TOKENS, ElementKind.STRING, ElementKind.TOKEN)
                     for token in e.split())

    @property
    def comments(self) -> tuple[Element, ...]:
        return tuple(e for e in self.body if e.kind in (ElementKind.COMMENT, ElementKind.LINE_COMMENT))


class TagValues(dict[str, str]):
    """A game's effective tag values: a dict that refuses changes.

    ``MappingProxyType`` would be read-only too, but it cannot be pickled, and a process
    pool sends games between processes. Reads are plain ``dict`` reads (C speed).
    """

    __slots__ = ()

    def _read_only(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("Game.values is read-only")

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple[type[TagValues], tuple[dict[str, str]]]:
        # The default dict pickling would call __setitem__ on an empty instance.
        return TagValues, (dict(self),)

    def __repr__(self) -> str:
        return f"TagValues({dict.__repr__(self)})"


@dataclass(frozen=True, slots=True)
class Game:
    """One game (record) of a hand-record file, PBN's or LIN's: its facts in tag pairs
    and sections, as PBN names them (a LIN board's are made from its pairs)."""

    tags: tuple[TagPair, ...]
    preamble: tuple[Element, ...] = ()
    line: int = 1
    index: int = 0
    path: str | None = None
    #: tag values after ``#``/``##`` inheritance, including tags inherited from earlier
    #: games through ``##`` that this game does not repeat.
    values: Mapping[str, str] = field(default_factory=TagValues)
    diagnostics: tuple[Diagnostic, ...] = ()
    #: The record's bytes as read (line ends and encoding as in the file): from the start
    #: of the line of its first tag pair up to that of the next record, so the semi-empty
    #: lines and commentary after it are its own; the file's last record ends with its own
    #: last line. Empty when not read from a file (built, or restored from an archive
    #: that does not keep it). Not compared: two games are equal for what they hold.
    original: bytes = field(default=b"", compare=False, repr=False)
    #: On the file's first record only: the file's bytes before it (a BOM, escape lines,
    #: commentary, semi-empty lines). ``original_head``, every record's ``original`` in
    #: order, and ``original_tail`` are the file, byte for byte.
    original_head: bytes | None = field(default=None, compare=False, repr=False)
    #: On the file's last record only: the file's bytes after it.
    original_tail: bytes | None = field(default=None, compare=False, repr=False)
    #: A record read from LIN: its LIN as written (the board's pairs, the file's header
    #: on its first board, the claim); None for a record read from any other format.
    #: Its facts are in its tags, as every record's; not compared, as ``original``.
    lin: LinBoard | None = field(default=None, compare=False, repr=False)
    #: The model objects made so far (see :meth:`_made`); never pickled, never compared.
    #: Unset until then, rather than None: a default would cost every game read a store.
    _objects: RecordObjects | None = field(init=False, compare=False, repr=False)

    def __getstate__(self) -> tuple[object, ...]:
        # A game sent to another process goes without its objects: they are made again
        # there when asked for, and would cost more to send than to make.
        return (*_STATE(self), None)

    def _repr_html_(self) -> str | None:
        """Jupyter's view: the record as the report shows a board (see :mod:`pbnkit.views`)."""
        from pbnkit.views import html

        return html("game", self)

    def value(self, name: str) -> str | None:
        """The effective value of a tag (first occurrence wins, inheritance resolved)."""
        return self.values.get(name)

    def tag(self, name: str) -> TagPair | None:
        """The first tag pair of that name, as written."""
        for tag in self.tags:
            if tag.name == name:
                return tag
        return None

    @property
    def board(self) -> str | None:
        """The Board tag's value, as written (see :attr:`board_number`)."""
        return self.value("Board")

    @property
    def board_number(self) -> int | None:
        """The Board tag's number; None when it is absent or not a positive integer
        (``3a``, ``0``: what ``TG008`` reports), as scoring reads it."""
        text = (self.value("Board") or "").strip()
        return whole_number(text) or None

    @property
    def deal(self) -> Deal | None:
        """The Deal tag's deal; None when absent, unreadable or impossible."""
        return self._made().deal(self)

    @property
    def auction(self) -> Auction | None:
        """The Auction section replayed call by call; None without one, or when it
        cannot be read to its end (see :meth:`RecordObjects.auction`)."""
        return self._made().auction(self)

    @property
    def play(self) -> Play | None:
        """The Play section replayed card by card; None without a card, or when deal,
        trump or opening leader are unknown (see :meth:`RecordObjects.play`)."""
        return self._made().play(self)

    @property
    def contract(self) -> Contract | None:
        """The Contract tag's contract, else the auction's (``PASSED_OUT`` when passed
        out); None when neither tells. What scoring reads (:func:`record_facts`)."""
        return self._made().facts(self).contract

    @property
    def declarer(self) -> Seat | None:
        """The Declarer tag's seat (South for ``^S``), else the auction's declarer."""
        return self._made().facts(self).declarer

    @property
    def result(self) -> int | None:
        """Declarer's tricks: from the Result tag, else from a complete play; None when
        neither tells."""
        return self._made().facts(self).tricks

    def _made(self) -> RecordObjects:
        objects = getattr(self, "_objects", None)
        if objects is None:
            from pbnkit.replay.objects import RecordObjects

            objects = RecordObjects()
            object.__setattr__(self, "_objects", objects)
        return objects

    def same_content(self, other: Game) -> bool:
        """Equal tags, values, bodies and commentary, ignoring positions."""
        if len(self.tags) != len(other.tags) or len(self.preamble) != len(other.preamble):
            return False
        if not all(a.same_content(b) for a, b in zip(self.preamble, other.preamble)):
            return False
        for a, b in zip(self.tags, other.tags):
            if (a.name, a.value) != (b.name, b.value) or not _same_body(a.body, b.body):
                return False
        return True


#: What pickles of a game (:meth:`Game.__getstate__`): every field but its objects, the
#: last field.
_STATE = attrgetter(*(f.name for f in fields(Game) if f.name != "_objects"))
