"""An archive written back as one PBN file, in import format (each record's own content)
or export format (PBN 2.1 section 3).

Encoding: import format uses what the reader would decode -- UTF-8 with a BOM when the
source had one, else the charset the file header declares, else UTF-8. Export format
uses ISO-8859-1, the only charset PBN 2.1 knows, and declares it. When a record holds a
character the chosen charset cannot write, the file is written again as UTF-8 (with a
BOM in import format, which the reader trusts over a declaration; with a ``charset=UTF-8``
line in export format) rather than losing the character; ``ExportSummary.fallback`` says
so.
"""

from __future__ import annotations

import codecs
import io
import itertools
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from pbnkit.export.archive import ArchivedGame, iter_archive
from pbnkit.export.atomic import atomic_file, check_target
from pbnkit.export.canonical import export_form
from pbnkit.lin.layout import pbn_layout
from pbnkit.pbn.records import ElementKind, Game
from pbnkit.pbn.writer import PbnWriter

_CHARSET = re.compile(r"charset\s*=\s*\"?([A-Za-z0-9_.:-]+)", re.IGNORECASE)
EXPORT_CHARSET = "ISO-8859-1"


@dataclass
class ExportSummary:
    records: int = 0
    encoding: str = ""
    fallback: bool = False  # the preferred charset could not hold every character
    sources: set[str | None] = field(default_factory=set)
    persistent: bool = False  # a ## value was written (it carries over into later sources)


@dataclass(frozen=True)
class _Plan:
    codec: str
    bom: bool = False
    charset: str | None = None  # declared in the export header


def _declared(game: Game) -> str | None:
    """The charset a header escape line declares, as the reader finds it."""
    for element in game.preamble:
        if element.kind is ElementKind.ESCAPE:
            match = _CHARSET.search(element.text)
            if match:
                try:
                    return codecs.lookup(match[1]).name
                except LookupError:
                    return None
    return None


def _plan(first: ArchivedGame | None, export_format: bool) -> _Plan:
    if export_format:
        return _Plan("latin-1", charset=EXPORT_CHARSET)
    if first is None:
        return _Plan("utf-8")
    if first.encoding.startswith("utf-8 (bom)"):
        return _Plan("utf-8", bom=True)
    return _Plan(_declared(first.game) or "utf-8")


def _fallback(export_format: bool) -> _Plan:
    return _Plan("utf-8", charset="UTF-8") if export_format else _Plan("utf-8", bom=True)


def write_games(archived: Iterable[ArchivedGame], stream: BinaryIO, export_format: bool,
                plan: _Plan, summary: ExportSummary,
                on_game: Callable[[], None] | None = None) -> None:
    """Write the games (and each file's trailer after its last game) to a binary stream.
    Raises UnicodeEncodeError when the plan's codec cannot write a character."""
    text = io.TextIOWrapper(stream, encoding=plan.codec, errors="strict", newline="")
    try:
        if plan.bom:
            text.write("\ufeff")
        writer = PbnWriter(text, export_format, plan.charset)
        for record in archived:
            game = export_form(record.game) if export_format else pbn_layout(record.game)
            writer.write(game)
            if not export_format and not summary.persistent:
                summary.persistent = any(t.value.startswith("##") for t in game.tags)
            if record.trailer:
                writer.write_trailer(record.trailer)
            summary.records += 1
            summary.sources.add(record.game.path)
            if on_game is not None:
                on_game()
        writer.close()
        text.flush()
    finally:
        text.detach()


def export_pbn(archive: str | os.PathLike[str], out: str | os.PathLike[str], *,
               export_format: bool = False, force: bool = False,
               on_game: Callable[[], None] | None = None) -> ExportSummary:
    """Write the records of an archive to ``out`` as PBN, atomically."""
    check_target(Path(out), force)
    records = iter_archive(archive)
    first = next(records, None)
    plan = _plan(first, export_format)
    with atomic_file(out, force) as stream:
        summary = ExportSummary(encoding=plan.codec)
        try:
            write_games(_chain(first, records), stream, export_format, plan, summary, on_game)
        except UnicodeEncodeError:
            stream.seek(0)
            stream.truncate()
            plan = _fallback(export_format)
            summary = ExportSummary(encoding=plan.codec, fallback=True)
            write_games(iter_archive(archive), stream, export_format, plan, summary, on_game)
    return summary


def _chain(first: ArchivedGame | None, rest: Iterator[ArchivedGame]) -> Iterator[ArchivedGame]:
    return rest if first is None else itertools.chain((first,), rest)
