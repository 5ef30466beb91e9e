"""Lossless: every file of the corpus (``CORPUS``) goes PBN → Parquet → PBN and PBN → JSON →
PBN and reads back as the same records: tags and values in order, auction and play tokens
with their annotations, notes, commentary, tables, escape lines, text the reader skipped,
the file's trailer, and the same syntax findings. In export format the PBN read back is the
export form of the original records (pbnkit.export.canonical), element for element."""

from __future__ import annotations

import pytest

import pbnkit
from pbnkit.export.archive import (
    JsonSink,
    ParquetSink,
    read_archive,
    records,
    write_rows,
)
from pbnkit.export.canonical import export_form
from pbnkit.export.topbn import export_pbn
from pbnkit.pbn.records import Element, Game
from tests.conftest import CORPUS, corpus_params

pytestmark = pytest.mark.usefixtures("fewer_collections")


def assert_same_records(got, expected):
    assert len(got) == len(expected)
    for a, b in zip(got, expected):
        assert a.same_content(b), f"record {b.index} (line {b.line}) differs"
        assert dict(a.values) == dict(b.values)


def findings(game: Game) -> list[tuple[str, str]]:
    """The reader's findings, without positions; line lengths (SY004) depend on layout, and
    how the source's bytes were decoded (SY005) on its encoding, which a writer does not
    copy: it writes the characters read in a charset that holds them."""
    return sorted((d.code, d.message) for d in game.diagnostics
                  if d.code not in ("SY004", "SY005"))


def without_tabs(game: Game, header: int = 0) -> Game:
    """The game as export format writes it (tabs as spaces), without the first ``header``
    escape lines of its preamble (the export header the writer adds)."""
    def element(e: Element) -> Element:
        return e._replace(text=e.text.replace("\t", " "))

    tags = tuple(t._replace(value=t.value.replace("\t", " "),
                            body=tuple(map(element, t.body))) for t in game.tags)
    return Game(tags, tuple(map(element, game.preamble[header:])))


def assert_export_form(got: list[Game], original: list[Game], header: int) -> None:
    expected = [export_form(g) for g in original]
    assert len(got) == len(expected)
    for number, (a, b) in enumerate(zip(got, expected)):
        a = without_tabs(a, header if number == 0 else 0)
        assert a.same_content(without_tabs(b)), f"record {b.index} (line {b.line}) differs"


@pytest.mark.slow
@pytest.mark.parametrize("row", corpus_params())
def test_corpus_file_survives_parquet_and_json_and_back(row, tmp_path):
    path = CORPUS / row["path"]
    reader = pbnkit.read(path)
    original = list(reader)
    rows = list(records([path], check=False))  # built once, written twice
    for name, sink in (("a.parquet", ParquetSink), ("a.json", JsonSink)):
        out = tmp_path / name
        with open(out, "wb") as stream:
            write_rows(iter(rows), sink(stream))

        restored = list(read_archive(out))
        assert_same_records(restored, original)
        for a, b in zip(restored, original):
            assert (a.line, a.index, a.path, a.diagnostics) == (
                b.line, b.index, b.path, b.diagnostics)

        written = tmp_path / f"{name}.pbn"
        export_pbn(out, written)
        again = pbnkit.read(written)
        games = list(again)
        assert_same_records(games, original)
        assert [findings(g) for g in games] == [findings(g) for g in original]
        if original:  # a file without records leaves nothing in the archive
            assert len(again.trailer) == len(reader.trailer)
            assert all(e.same_content(f) for e, f in zip(again.trailer, reader.trailer))

        written = tmp_path / f"{name}.export.pbn"
        summary = export_pbn(out, written, export_format=True)
        exported = list(pbnkit.read(written))
        assert_export_form(exported, original, header=3 if summary.records else 0)
