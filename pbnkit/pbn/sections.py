"""Decode Auction and Play section bodies into calls or cards with their annotations.

The grammar keeps section tokens coarse; here each whitespace-separated token is split
into its self-delimiting parts (``1S!!=1=$25`` is a call, a suffix, a note reference and a
NAG) and annotations are attached to the call or card before them. No bridge rule here:
whether a call is legal is the model's question.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

from pbnkit.diagnostics import Diagnostic
from pbnkit.digits import MAX_DIGITS, whole_number
from pbnkit.pbn.records import Element, ElementKind, Game, TagPair
from pbnkit.pickling import by_fields

_PART = re.compile(
    r"(?P<word>[A-Za-z0-9]+|-+)|(?P<space>[ \t\r\v\f]+)|(?P<newline>\n)"
    r"|(?P<note>=[0-9]+=)|(?P<nag>\$[0-9]+)|(?P<malformed>=[^=\s]*=?|\$[^\s$=]*)"
    r"|(?P<suffix>!!|\?\?|!\?|\?!|!|\?)"
    r"|(?P<irregular>\^\S?)|(?P<end>\*)|(?P<more>\+)|(?P<other>.)"
)


#: the positions of a run that is not placed: none (never changed)
_NOT_PLACED: Final[tuple[list[int], list[int]]] = ([], [])


class SectionItem(NamedTuple):
    """A call or card token (or ``-``, ``AP``, ``^S``, ``*``, ``+``) with its annotations.

    ``text`` is as written (import format allows lowercase); ``irregularity`` is ``I``,
    ``R`` or ``L`` when a ``^x`` came before it (``^S`` is an item of its own).
    """

    text: str
    line: int
    column: int
    irregularity: str | None = None
    suffix: str | None = None
    note: int | None = None
    nags: tuple[int, ...] = ()
    comments: tuple[str, ...] = ()

    @property
    def is_placeholder(self) -> bool:
        return self.text == "-"


@by_fields
@dataclass(frozen=True, slots=True)
class Section:
    """An Auction or Play section: its tag, items, the Note tags after it, and the
    problems found while decoding."""

    tag: TagPair
    items: tuple[SectionItem, ...]
    notes: tuple[TagPair, ...]
    diagnostics: tuple[Diagnostic, ...]


def _problem(message: str, line: int, column: int, code: str = "SY006") -> Diagnostic:
    return Diagnostic(code, message, line, column)


def _too_long(text: str, line: int, column: int) -> Diagnostic:
    """A note reference or NAG of more digits than any number of a file may have."""
    shown = text if len(text) <= 24 else f"{text[:12]}...{text[-4:]}"
    return _problem(f"malformed annotation {shown!r}: a number of {len(text.strip('=$'))} digits "
                    f"(at most {MAX_DIGITS})", line, column)


class _Decoder:
    """Attach annotations to the call or card before them, one token at a time."""

    def __init__(self, tag: TagPair):
        self.tag = tag
        self.items: list[SectionItem] = []
        self.problems: list[Diagnostic] = []
        self.irregularity: tuple[str, int, int] | None = None

    def annotate(self, line: int, column: int, **change: Any) -> None:
        if not self.items:
            self.problems.append(_problem("annotation before the first call or card", line, column))
            return
        self.items[-1] = self.items[-1]._replace(**change)

    def comment(self, element: Element) -> None:
        if self.items:
            self.annotate(element.line, element.column,
                          comments=self.items[-1].comments + (element.text,))

    def run(self, element: Element) -> None:
        """Decode a run of section tokens in one pass over its text: one regular
        expression finds words, annotations and line ends, so no object is built per
        token before it is known to be a call or card."""
        items = self.items
        line, line_start = element.line, -element.column + 1
        # a placed run: its tokens between single blanks, each at its own place
        lines, columns = element.positions() if element.places else _NOT_PLACED
        token = 0
        for part in _PART.finditer(element.text):
            kind = part.lastgroup
            if kind == "space":
                if lines:  # the next token: the columns count from where it stands
                    token += 1
                    line, line_start = lines[token], part.end() - columns[token] + 1
                continue
            if kind == "newline":
                line, line_start = line + 1, part.end()
                continue
            text, column = part[0], part.start() - line_start + 1
            if kind in ("word", "end", "more"):
                letter = None
                if self.irregularity is not None:
                    letter, self.irregularity = self.irregularity[0], None
                items.append(SectionItem(text, line, column, letter))
            elif kind == "irregular":
                self._irregularity(text, line, column)
            elif kind == "malformed":
                # one finding for the whole token, so `=a=` is not read as a card `a`
                self.problems.append(_problem(f"malformed annotation {text!r}", line, column))
            elif kind == "note":
                if items and items[-1].note is not None:
                    self.problems.append(_problem(
                        f"second note reference {text} on {items[-1].text}", line, column))
                elif (note := whole_number(text[1:-1])) is None:
                    self.problems.append(_too_long(text, line, column))
                else:
                    self.annotate(line, column, note=note)
            elif kind == "nag":
                nag = whole_number(text[1:])
                if nag is None:
                    self.problems.append(_too_long(text, line, column))
                elif items and nag in items[-1].nags:
                    self.problems.append(_problem(f"NAG {text} repeated", line, column))
                else:
                    self.annotate(line, column, nags=(items[-1].nags if items else ()) + (nag,))
            elif kind == "suffix":
                if items and items[-1].suffix is not None:
                    self.problems.append(_problem(
                        f"second suffix {text!r} on {items[-1].text}", line, column))
                else:
                    self.annotate(line, column, suffix=text)
            else:
                self.problems.append(_problem(
                    f"unexpected character {text!r} in {self.tag.name} section", line, column,
                    "SY007"))

    def _irregularity(self, text: str, line: int, column: int) -> None:
        letter = text[1:].upper()
        if letter == "S":
            self.items.append(SectionItem("^S", line, column))
        elif letter not in ("I", "R", "L"):
            self.problems.append(_problem(f"unknown irregularity {text!r}", line, column))
        elif self.irregularity is not None:
            self.problems.append(_problem(
                f"second irregularity {text!r} before one call or card", line, column))
        else:
            self.irregularity = (letter, line, column)


def decode_items(tag: TagPair) -> tuple[tuple[SectionItem, ...], tuple[Diagnostic, ...]]:
    """The calls or cards of a section body, with their annotations and commentary."""
    decoder = _Decoder(tag)
    for element in tag.body:
        if element.kind in (ElementKind.COMMENT, ElementKind.LINE_COMMENT):
            decoder.comment(element)
        elif element.kind in (ElementKind.TOKENS, ElementKind.TOKEN):
            decoder.run(element)
        elif element.kind is ElementKind.STRING:
            decoder.problems.append(_problem(f"unexpected string in {tag.name} section",
                                             element.line, element.column, "SY007"))
    if decoder.irregularity is not None:
        letter, line, column = decoder.irregularity
        decoder.problems.append(_problem(f"^{letter} not followed by a call or card", line, column))
    return tuple(decoder.items), tuple(decoder.problems)


def section(game: Game, name: str) -> Section | None:
    """The first ``Auction`` or ``Play`` section of a game, with the Note tags that follow
    it (PBN 3.5.4: notes come after the calls or cards, before the next other tag)."""
    for position, tag in enumerate(game.tags):
        if tag.name != name:
            continue
        notes = []
        for following in game.tags[position + 1:]:
            if following.name != "Note":
                break
            notes.append(following)
        items, problems = decode_items(tag)
        return Section(tag, items, tuple(notes), problems)
    return None
