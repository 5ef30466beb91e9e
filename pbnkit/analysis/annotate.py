"""``pbnkit analyze``: every whole deal gets its double-dummy table, par score and par
contracts as PBN tags, the rest of each record left as it was written."""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path

from pbnkit.analysis.records import deal_setting
from pbnkit.analysis.solver import BATCH, solve_with_par
from pbnkit.analysis.tables import OPTIMUM_RESULT_COLUMNS, Par, TrickTable
from pbnkit.errors import ReadError
from pbnkit.export.atomic import atomic_file
from pbnkit.lin.layout import pbn_layout
from pbnkit.pbn.reader import read
from pbnkit.pbn.records import Element, ElementKind, Game, TagPair
from pbnkit.pbn.writer import PbnWriter


@dataclass
class AnalysisSummary:
    records: int = 0
    analysed: int = 0  # records with a whole deal, whose tags were written


def analysed_tags(game: Game, table: TrickTable, par: Par) -> Game:
    """``game`` with OptimumResultTable, OptimumScore and ParContract (and
    DoubleDummyTricks, when it has that tag) replaced where it has them, else added after
    its last tag. Commentary after a replaced tag stays."""
    def tag(name: str, value: str, rows: Sequence[str] = ()) -> TagPair:
        # Line 0: the writer gives the tag, and each row, a line of its own.
        return TagPair(name, value, 0, 0, tuple(Element(ElementKind.TOKENS, row, 0, 0)
                                                for row in rows))

    new = {"OptimumResultTable": tag("OptimumResultTable", OPTIMUM_RESULT_COLUMNS,
                                     table.table_rows()),
           "OptimumScore": tag("OptimumScore", par.optimum_score()),
           "ParContract": tag("ParContract", par.par_contract())}
    if game.tag("DoubleDummyTricks") is not None:
        new["DoubleDummyTricks"] = tag("DoubleDummyTricks", table.hex_digits())
    tags: list[TagPair] = []
    replaced = set()
    for old in game.tags:
        if old.name not in new:
            tags.append(old)
            continue
        if old.name not in replaced:
            replaced.add(old.name)
            comments = tuple(e for e in old.body if e.kind in (ElementKind.COMMENT,
                                                               ElementKind.LINE_COMMENT))
            tags.append(new[old.name]._replace(body=new[old.name].body + comments))
    tags += [added for name, added in new.items() if name not in replaced]
    return replace(game, tags=tuple(tags))


def analyse_games(games: Iterable[Game], summary: AnalysisSummary,
                  on_batch: Callable[[int], None] | None = None) -> Iterator[Game]:
    """Each game, with its double-dummy tags when it holds a whole deal; the deals are
    solved 40 to a batch, in order, and ``on_batch`` hears how many records each batch
    held once it is solved (solving a deal is slow, so progress is worth telling)."""
    games = iter(games)
    while batch := list(islice(games, BATCH)):
        settings = [deal_setting(game) for game in batch]
        solved = iter(solve_with_par([s for s in settings if s is not None]))
        summary.records += len(batch)
        if on_batch is not None:
            on_batch(len(batch))
        for game, setting in zip(batch, settings):
            if setting is None:
                yield game
                continue
            table, par = next(solved)
            summary.analysed += 1
            yield analysed_tags(game, table, par)


def analyse_files(paths: Sequence[Path], out: str | os.PathLike[str], force: bool = False,
                  names: dict[str, str] | None = None,
                  on_batch: Callable[[int], None] | None = None) -> AnalysisSummary:
    """Write the games of ``paths``, in order and with their double-dummy tags, to the PBN
    file ``out`` (replaced only with ``force``). The text is UTF-8, with a byte order mark
    when the first file had one or when a file was in another encoding and holds a
    character outside ASCII (so that no reader takes it for that other encoding)."""
    summary = AnalysisSummary()
    text = io.StringIO()
    writer = PbnWriter(text)
    marked = False
    foreign = False
    for number, path in enumerate(paths):
        name = (names or {}).get(str(path), str(path))
        try:
            reader = read(path, name)  # PBN or LIN
            for game in analyse_games(reader, summary, on_batch):
                writer.write(pbn_layout(game))
        except OSError as error:
            raise ReadError(f"cannot read {name}: {error.strerror or error}") from None
        writer.write_trailer(reader.trailer)
        marked = marked or (number == 0 and reader.encoding_info.bom)
        foreign = foreign or reader.encoding not in ("utf-8", "utf-8 (bom)")
    writer.close()
    content = text.getvalue()
    bom = marked or (foreign and not content.isascii())
    with atomic_file(out, force) as stream:
        stream.write(("\ufeff" if bom else "").encode("utf-8") + content.encode("utf-8"))
    return summary
