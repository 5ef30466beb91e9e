"""``pbnkit analyze``: every whole deal gets its double-dummy table, par score and par
contracts as PBN tags, the rest of each record left as it was written."""

from __future__ import annotations

import io
import os
from codecs import BOM_UTF8 as BOM
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path

from pbnkit.analysis.records import deal_setting
from pbnkit.analysis.solver import BATCH, solve_with_par
from pbnkit.analysis.splice import spliced
from pbnkit.analysis.tables import OPTIMUM_RESULT_COLUMNS, Par, TrickTable
from pbnkit.errors import ReadError
from pbnkit.export.atomic import atomic_file
from pbnkit.lin.layout import pbn_layout
from pbnkit.formats.reader import Reader
from pbnkit.formats.sniff import read, sniff
from pbnkit.pbn.split import codec_of, detect, line_separable
from pbnkit.pbn.records import Element, ElementKind, Game, TagPair
from pbnkit.pbn.writer import PbnWriter


#: a record with its table and par, or None when it holds no whole deal
Solved = tuple[Game, tuple[TrickTable, Par] | None]


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


def solved_games(games: Iterable[Game], summary: AnalysisSummary,
                 on_batch: Callable[[int], None] | None = None) -> Iterator[Solved]:
    """Each game with its double-dummy table and par, None for a record without a whole
    deal; the deals are solved 40 to a batch, in order, and ``on_batch`` hears how many
    records each batch held once it is solved (solving a deal is slow, so progress is
    worth telling)."""
    games = iter(games)
    while batch := list(islice(games, BATCH)):
        settings = [deal_setting(game) for game in batch]
        solved = iter(solve_with_par([s for s in settings if s is not None]))
        summary.records += len(batch)
        if on_batch is not None:
            on_batch(len(batch))
        for game, setting in zip(batch, settings):
            if setting is None:
                yield game, None
                continue
            summary.analysed += 1
            yield game, next(solved)


def analyse_games(games: Iterable[Game], summary: AnalysisSummary,
                  on_batch: Callable[[int], None] | None = None) -> Iterator[Game]:
    """Each game, with its double-dummy tags when it holds a whole deal."""
    for game, found in solved_games(games, summary, on_batch):
        yield game if found is None else analysed_tags(game, *found)


def _byte_form(path: Path, name: str) -> str | None:
    """The codec of a PBN file whose bytes can take the tags as they are (an ASCII-based
    one); None for a LIN file, or a PBN file in UTF-16."""
    try:
        with open(path, "rb") as stream:
            head = stream.read(1 << 16)
    except OSError as error:
        raise ReadError(f"cannot read {name}: {error.strerror or error}") from None
    if sniff(head, str(path)) == "lin":
        return None
    codec = codec_of(detect(head))
    return codec if line_separable(codec) else None


def _file_bytes(path: Path, name: str, first: bool, summary: AnalysisSummary,
                on_batch: Callable[[int], None] | None) -> bytes | None:
    """The file with the tags written into its records' bytes; None when a record's
    bytes do not take them (the file is then written by the PBN writer)."""
    try:
        return _spliced_file(read(path, name), first, summary, on_batch)
    except OSError as error:
        raise ReadError(f"cannot read {name}: {error.strerror or error}") from None


def _spliced_file(reader: Reader, first: bool, summary: AnalysisSummary,
                  on_batch: Callable[[int], None] | None) -> bytes | None:
    pieces: list[bytes] = []
    for game, found in solved_games(reader, summary, on_batch):
        if game.original_head is not None:
            head = game.original_head
            pieces.append(head if first or not head.startswith(BOM) else head[len(BOM):])
        piece = game.original if found is None else spliced(game, *found)
        if piece is None or not game.original:
            return None
        pieces.append(piece)
        pieces.append(game.original_tail or b"")
    if not pieces:
        pieces.append(reader.original_head or b"")
    return b"".join(pieces)


def analyse_files(paths: Sequence[Path], out: str | os.PathLike[str], force: bool = False,
                  names: dict[str, str] | None = None,
                  on_batch: Callable[[int], None] | None = None) -> AnalysisSummary:
    """Write the games of ``paths``, in order and with their double-dummy tags, to the PBN
    file ``out`` (replaced only with ``force``).

    PBN files in one ASCII-based encoding keep every byte: the tags are written into each
    record's bytes as read (:mod:`pbnkit.analysis.splice`). Otherwise (a LIN file, UTF-16,
    files in different encodings) the records are written by the PBN writer, in UTF-8."""
    forms = {_byte_form(path, (names or {}).get(str(path), str(path))) for path in paths}
    if len(forms) == 1 and None not in forms:
        summary = AnalysisSummary()
        pieces: list[bytes] = []
        for number, path in enumerate(paths):
            data = _file_bytes(path, (names or {}).get(str(path), str(path)), number == 0,
                               summary, on_batch)
            if data is None:
                break
            pieces.append(data)
        else:
            with atomic_file(out, force) as stream:
                stream.write(b"".join(pieces))
            return summary
    return _written(paths, out, force, names, on_batch)


def _written(paths: Sequence[Path], out: str | os.PathLike[str], force: bool,
             names: dict[str, str] | None,
             on_batch: Callable[[int], None] | None) -> AnalysisSummary:
    """The records written by the PBN writer. The text is UTF-8, with a byte order mark
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
