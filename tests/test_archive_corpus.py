"""Lossless: every file of ../shared/corpus/ goes PBN → Parquet → PBN and PBN → JSON → PBN
and reads back as the same records: tags and values in order, auction and play tokens
with their annotations, notes, commentary, tables, escape lines, the file's trailer."""

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
from pbnkit.export.topbn import export_pbn
from tests.conftest import CORPUS, corpus_params

pytestmark = pytest.mark.usefixtures("fewer_collections")


def assert_same_records(got, expected):
    assert len(got) == len(expected)
    for a, b in zip(got, expected):
        assert a.same_content(b), f"record {b.index} (line {b.line}) differs"
        assert dict(a.values) == dict(b.values)


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
        assert_same_records(list(again), original)
        if original:  # a file without records leaves nothing in the archive
            assert len(again.trailer) == len(reader.trailer)
            assert all(e.same_content(f) for e, f in zip(again.trailer, reader.trailer))
