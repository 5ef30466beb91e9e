"""Exact reading of one file in parts, for parallel readers.

:func:`plan_chunks` cuts a file at game boundaries and gives, for each part, a
:class:`Resume`: everything a reader needs to start there and yield exactly the games a
whole read yields for that range (``read(path, resume=part)``). :func:`merge` combines
what the readers of the parts found about the file as a whole.

The plan is made with ``bytes``/``str`` searches a megabyte at a time; Python looks only at
the games where a part may end, at lines holding a ``{``, and at the few games it must
parse: blocks that do not start with a tag pair (are they a game, or commentary for the
next one?) and, when the file uses ``#`` inheritance, games that hold an inherited tag.
"""

from __future__ import annotations

import mmap
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import BinaryIO, Final, NamedTuple

from pbnkit.diagnostics import Diagnostic
from pbnkit.formats.reader import Reader
from pbnkit.pbn.parser import terminal
from pbnkit.pbn.reader import Inheritance, file_diagnostics, parse_with_recovery
from pbnkit.pbn.records import Element, TagPair
from pbnkit.pbn.split import (_BLANK, _BLANK_AFTER, _CHUNK, Encoding, blank_lines, codec_of,
                              decoded, detect, line_separable, normalized, whole_lines)
from pbnkit.pickling import by_fields

# A tag whose value starts with `#`, quoted or not: a file without one has nothing to
# inherit. Names found in commentary too only make the plan parse a few more games.
_HASH_VALUE = re.compile(rb'\[[ \t\r\n\v\f]*([A-Za-z0-9_]+)(?:[ \t\r\n\v\f]*"|[ \t]+)#')


@by_fields
@dataclass(frozen=True, slots=True)
class Resume:
    """Where a part of a file starts and the reader's state there.

    A part starts at the first line of a game that starts with a tag pair, outside any
    ``{comment}``, and after a game and semi-empty lines only, so no commentary is waiting
    for the next game. The semi-empty lines before it end the part before, so that a
    game's original bytes (``Game.original``, up to the next game) are all in its part;
    ``separator`` carries their text, for the export-format check of the game's
    separation, made as in a whole read.
    """

    start: int  #: byte offset of the first line (after a BOM)
    end: int  #: byte offset after the last line
    line: int  #: number of the first line
    games_before: int  #: games in the parts before (``Game.index`` goes on from here)
    bom: bool = False
    declared: str | None = None  #: charset declared in the file's head
    #: ``Inheritance.previous`` and ``persistent`` at the start, for the tags that the
    #: file inherits with ``#`` (no other tag's state can change what is read)
    previous: tuple[tuple[str, str], ...] = ()
    persistent: tuple[tuple[str, str], ...] = ()
    #: the semi-empty lines just before the start, as written (without line ends)
    separator: tuple[str, ...] = ()
    #: the part ends where the file ends
    last: bool = True


class ReadSummary(NamedTuple):
    """What a reader found about the file beside its games (picklable)."""

    encoding: Encoding
    diagnostics: tuple[Diagnostic, ...]
    trailer: tuple[Element, ...]


def summary(reader: Reader) -> ReadSummary:
    """What a reader found about the file, once its iteration is over."""
    return ReadSummary(reader.encoding_info, tuple(reader.diagnostics), reader.trailer)


def merge(parts: Iterable[ReadSummary], path: str | None = None,
          strict: bool = False) -> ReadSummary:
    """The summary of a whole read from those of its parts, in file order.

    ``encoding.name`` is then the file's encoding, and the diagnostics include those only
    the whole file decides (export format: line ends that are not CRLF).
    """
    parts = list(parts)
    first = parts[0].encoding
    encoding = Encoding(declared=first.declared, bom=first.bom)
    diagnostics: list[Diagnostic] = []
    trailer: tuple[Element, ...] = ()
    for part in parts:
        encoding.fallback_lines += part.encoding.fallback_lines
        encoding.windows_1252_lines += part.encoding.windows_1252_lines
        encoding.bare_line_ends += part.encoding.bare_line_ends
        diagnostics += part.diagnostics
        trailer += part.trailer
    if strict:
        diagnostics += file_diagnostics(encoding, path)
    return ReadSummary(encoding, tuple(diagnostics), trailer)


def plan_chunks(path: str | os.PathLike[str], target_bytes: int) -> list[Resume]:
    """Parts of about ``target_bytes`` each, cut only between two games that both start
    with a tag pair. One part when the file is small, or when its charset is not ASCII
    based (then bytes cannot be searched for line ends, braces and blank lines)."""
    return list(iter_chunks(path, target_bytes))


#: near the end of a run, what remains is cut in this many units per job at most, for
#: the jobs to end together: a worker always holds the unit after the one it runs, and
#: a process pool cannot take that one back (see ``pipeline.engines._shared``)
TAIL_SHARES_PER_JOB: Final = 2


def tail_shares(jobs: int) -> int:
    """How many units what remains is cut in, near the end, for ``jobs`` jobs (1: no
    tail)."""
    return TAIL_SHARES_PER_JOB * jobs if jobs > 1 else 1


def unit_size(remaining: int, target: int, shares: int, least: int) -> int:
    """The size of the next unit, with ``remaining`` from its start on: ``target``, and
    less near the end (what remains over ``shares``), but not under ``least``. The plans
    of large files (bytes) and of archives (rows) both cut by it."""
    return max(min(least, target), min(target, remaining // shares))


def iter_chunks(path: str | os.PathLike[str], target_bytes: int,
                tail: tuple[int, int] | None = None) -> Iterator[Resume]:
    """:func:`plan_chunks` part by part, as the pass over the file finds them: a part can
    be read while the rest of the file is still being planned. With ``tail`` (shares,
    least bytes) the last parts are smaller, what remains of the file over ``shares``
    but not under ``least bytes``, so that the jobs sharing them end nearly together."""
    size = os.path.getsize(path)
    with open(path, "rb") as stream:
        head = stream.read(_CHUNK)
        encoding = detect(head)
        start = 3 if encoding.bom else 0
        whole = Resume(start, size, 1, 0, encoding.bom, encoding.declared)
        # a NUL byte in the head makes it no PBN file (the reader stops at its first
        # chunk, SY009): cutting it would read the whole of it for nothing
        if size - start <= target_bytes or not line_separable(codec_of(encoding)) \
                or b"\0" in head:
            yield whole
            return
        with mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ) as data:
            # Most files hold no '#' at all: one byte search, not a regex, tells.
            inherited = {m[1].decode("ascii") for m in _HASH_VALUE.finditer(data)} \
                if data.find(b"#") >= 0 else set()
        stream.seek(start)
        with open(path, "rb") as blocks:
            yield from _Planner(blocks, encoding, target_bytes, inherited,
                                tail).plan(stream, start, size)


class _LineCount:
    """The line numbers of positions of a text, asked in order: each is counted on from
    the one before."""

    def __init__(self, text: str, line: int):
        self.text = text
        self.pos = 0
        self.line = line

    def at(self, pos: int) -> int:
        self.line += self.text.count("\n", self.pos, pos)
        self.pos = pos
        return self.line


#: A block's first line (a line not semi-empty after a semi-empty one), and the tag pair
#: it starts with when export format writes it, ``[Name "value"]`` (a case of the
#: grammar's TAG_PAIRS, on one line), else "". Searched from the line end before the
#: semi-empty line: a literal the regular expression engine finds at C speed.
_BLOCK_AFTER: Final = re.compile(
    r'\n[ \t\v\f]*\n(?![ \t\v\f]*(?:\n|\Z))(\[[A-Za-z0-9_]+ "[^"\\\n]*"\])?')
#: how far back from the end of a text :func:`_last_blank` looks for a semi-empty line
#: (a game is a kilobyte or two)
_TAIL_WINDOW: Final = 64 << 10


def _blank_spans_from(text: str, pos: int) -> Iterator[tuple[int, int]]:
    """The semi-empty lines of ``text`` (whose ``{`` are none) from the line start
    ``pos`` on, as :func:`~pbnkit.pbn.split.blank_lines` gives them, found as they are
    asked for."""
    if pos == 0:
        first = _BLANK.match(text)
        if first is not None:
            yield first.span()
    for found in _BLANK_AFTER.finditer(text, max(pos - 1, 0)):
        yield found.span(1)


def _last_blank(text: str, pos: int, limit: int) -> int:
    """The start of the first semi-empty line at or after ``limit`` in ``text``, or,
    when the text has none, of the last one in its last ``_TAIL_WINDOW`` characters;
    none before the line start ``pos`` (``pos`` itself: none found)."""
    if limit < len(text):
        found = _BLANK_AFTER.search(text, max(limit - 1, pos))
        if found is not None:
            return found.start(1)
    last = pos
    for found in _BLANK_AFTER.finditer(text, max(len(text) - _TAIL_WINDOW, pos)):
        last = found.start(1)
    return last


def _run_start(text: str, pos: int, stop: int) -> int:
    """The start of the semi-empty lines that run up to the one at ``stop`` (not before
    the line start ``pos``)."""
    start = stop
    while start > pos:
        before = text.rfind("\n", pos, start - 1) + 1 or pos
        blank = _BLANK.match(text, before)
        if blank is None or blank.end() != start:
            break
        start = before
    return start


def may_hold(path: str | os.PathLike[str], *texts: bytes) -> bool:
    """Whether the PBN file at ``path`` may hold any of ``texts`` (ASCII: tag names,
    keys): False only when its bytes, searched at C speed, hold none; a charset that is
    not ASCII based (its characters are not their bytes) may hold anything.

    One opening of the file for all the texts, and a small file (most LIN files are
    one board, a few hundred bytes) read whole rather than mapped: the mapping, and a
    buffer the size of a chunk for the head, cost more system time than its reading."""
    with open(path, "rb") as stream:
        size = os.fstat(stream.fileno()).st_size
        head = stream.read(min(size, _CHUNK))
        if not line_separable(codec_of(detect(head))):
            return True
        # the whole file, or all the reader reads of one with a NUL byte (SY009)
        if len(head) >= size or b"\0" in head:
            return any(text in head for text in texts)
        with mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ) as data:
            return any(data.find(text) >= 0 for text in texts)


class _Planner:
    """One pass over the file, block by block (a block is the text between semi-empty
    lines outside commentary: a game, or commentary waiting for the next game)."""

    def __init__(self, blocks: BinaryIO, encoding: Encoding, target: int,
                 inherited: set[str], tail: tuple[int, int] | None = None):
        self.blocks = blocks  # for reading the blocks that must be parsed
        self.codec = codec_of(encoding)
        self.encoding = encoding
        self.target = target
        self.shares, self.least = (1, target) if tail is None else tail
        self.inheritance = Inheritance()
        self.games = 0
        # A game holding one of these tags is parsed to follow the inheritance state.
        self.inherited = re.compile(
            r"\[[ \t\n\v\f]*(?:%s)[ \t\n\v\f\"\]]" % "|".join(map(re.escape, sorted(inherited)))
        ) if inherited else None
        self.tag_pairs = terminal("TAG_PAIRS")

    def plan(self, stream: BinaryIO, start: int, size: int) -> Iterator[Resume]:
        part = Resume(start, size, 1, 0, self.encoding.bom, self.encoding.declared)
        offset, line, in_comment = start, 1, False
        block: tuple[int, int, bool] | None = None  # start, line, starts with a tag pair
        after_game = False  # the last block ended a game that started with a tag pair
        separator: int | None = None  # where a cut before the next block goes
        # A game that starts with a tag pair only adds to the count, when nothing is
        # inherited: its line is not needed, and lines are counted only where they are.
        counting_only = self.inherited is None
        wanted = self._target(part.start, size)  # the part's size: made once a part
        for raw in whole_lines(stream):
            # Line ends become one character each (CRLF as " \n"), so offsets stay
            # byte offsets; Latin-1 keeps every ASCII character where it was.
            # (most files have no CR: a search spares two copies of the block)
            lf = raw.replace(b"\r\n", b" \n") if b"\r" in raw else raw
            if b"\r" in lf:  # a lone CR: a second pass only then (a search is cheaper)
                lf = lf.replace(b"\r", b"\n")
            text = lf.decode("latin-1")
            if not text.endswith("\n"):
                text += "\n"
            # Where no cut can fall, the games are counted by regular expressions
            # (:meth:`_counted`), not block by block
            fast = counting_only and not in_comment and "{" not in text
            spans: Iterator[tuple[int, int]]
            if fast:
                spans = _blank_spans_from(text, 0)
            else:
                blanks, in_comment = blank_lines(text, in_comment)
                spans = iter(blanks)
            lines = _LineCount(text, line)
            pos = 0
            text_end = (len(text), -1)
            while True:
                blank_start, blank_end = next(spans, text_end)
                if blank_start > pos and block is None:
                    tagged = self.tag_pairs.match(text, pos, text.index("\n", pos)) is not None
                    if separator is not None and after_game and tagged and \
                            separator - part.start >= wanted:
                        yield replace(part, end=offset + pos, last=False)
                        part = self._resume(separator, offset + pos, lines.at(pos), size)
                        wanted = self._target(part.start, size)
                    block = (offset + pos, -1 if counting_only and tagged else lines.at(pos),
                             tagged)
                    separator = None
                if blank_end < 0:
                    break
                if block is not None:
                    end = offset + blank_start
                    if block[1] < 0:
                        self.games += 1
                    else:
                        self._block(block, end, text, offset)
                    after_game = block[2]
                    block, separator = None, end
                pos = blank_end
                if fast:
                    counted = self._counted(text, pos, part.start + wanted - offset)
                    if counted is None:
                        fast = False
                    elif counted[2] > pos:
                        games, closed, pos = counted
                        if games:
                            self.games += games
                            after_game, separator = True, offset + closed
                        spans = _blank_spans_from(text, pos)
            offset += len(raw)
            line += text.count("\n")
        yield part

    def _counted(self, text: str, pos: int, limit: int) -> tuple[int, int, int] | None:
        """The games that start between the line start ``pos`` (after a block: at a
        semi-empty line or the next block) and the first semi-empty line from which a
        cut may fall (the part reaches its wanted size at ``limit``), in a text without
        ``{``: their number, where the last one ends, and where counting stopped.

        One search in C finds every block, with the tag pair its first line starts
        with when it is as export format writes it (the grammar's TAG_PAIRS then
        matches there too): when all are, every block is a game. None when one may not
        be, or when no semi-empty line lies ahead: the block-by-block loop then reads
        the rest of the text. Block by block is slower on a large file."""
        if limit <= pos:  # a cut may fall at the next game
            return 0, -1, pos
        stop = _last_blank(text, pos, limit)
        if stop <= pos:  # no semi-empty line to count up to (a long game ends the text)
            return None
        blocks = _BLOCK_AFTER.findall(text, pos - 1, stop)  # each one's tag pair, or ""
        if "" in blocks:
            return None
        games = len(blocks)
        if _BLANK.match(text, pos) is None:  # the line at pos starts a block
            if self.tag_pairs.match(text, pos, text.index("\n", pos)) is None:
                return None
            games += 1
        return games, _run_start(text, pos, stop), stop

    def _target(self, start: int, size: int) -> int:
        """The size of the part that starts at ``start``."""
        return unit_size(size - start, self.target, self.shares, self.least)

    def _resume(self, separator: int, start: int, line: int, size: int) -> Resume:
        """A part from ``start`` (at ``line``), after the semi-empty lines from
        ``separator``."""
        state = self.inheritance
        self.blocks.seek(separator)
        lines = self.blocks.read(start - separator)  # semi-empty: ASCII in any codec
        blank = normalized(lines, Encoding()).decode("latin-1").split("\n")[:-1]
        return Resume(start, size, line, self.games, self.encoding.bom,
                      self.encoding.declared, tuple(state.previous.items()),
                      tuple(state.persistent.items()), tuple(blank))

    def _block(self, block: tuple[int, int, bool], end: int, text: str, offset: int) -> None:
        """Follow the game count and the inheritance state over a block."""
        start, line, tagged = block
        if tagged and self.inherited is None:
            self.games += 1
            return
        if tagged and start >= offset and self.inherited is not None and \
                not self.inherited.search(text, start - offset, end - offset):
            # A game without inherited tags: only its ## values reach them.
            self.games += 1
            self.inheritance.previous.update(self.inheritance.persistent)
            return
        tags = self._parse(start, end, line)
        if tags:
            self.games += 1
            self.inheritance.resolve(tags)

    def _parse(self, start: int, end: int, line: int) -> tuple[TagPair, ...]:
        """The tag pairs of a block, read exactly as the reader reads them."""
        self.blocks.seek(start)
        block = normalized(self.blocks.read(end - start), Encoding())
        text = decoded(block, self.codec, True, line, Encoding())
        return parse_with_recovery(text[:-1] if text.endswith("\n") else text, line, [])[1]

