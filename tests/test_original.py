"""The original is kept: every record stores its bytes as read, the file its bytes before
the first record and after the last, so an archive gives every source file back byte for
byte (``pbnkit.export.original``), whatever the encoding and line ends, read whole or in
chunks by several readers."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

import pbnkit
from pbnkit.export.archive import JsonSink, ParquetSink, records, write_rows
from pbnkit.export.original import (OriginalError, original_files, original_rows, safe_path,
                                    write_originals)
from pbnkit.pipeline.convert import convert
from pbnkit.pipeline import units
from pbnkit.pbn.chunks import plan_chunks
from tests.conftest import CORPUS, corpus_params

pytestmark = pytest.mark.usefixtures("fewer_collections")

GAME = '[Event "e"]\n[Board "{board}"]\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ ' \
       '765.432.AKQJ.T98 432.AKQJ.T98.765"]\n[Auction "N"]\n1S Pass 2S Pass\nPass Pass\n'


def whole(reader: pbnkit.PbnReader) -> bytes:
    games = list(reader)
    return (reader.original_head or b"") + b"".join(g.original for g in games) + (
        reader.original_tail or b"")


def tricky_files() -> dict[str, bytes]:
    """Heads, line ends, encodings and layouts real files have."""
    games = "\n".join(GAME.format(board=n) for n in range(1, 30)).encode()
    return {
        "lf": games,
        "crlf": games.replace(b"\n", b"\r\n"),
        "cr": games.replace(b"\n", b"\r"),
        "mixed": b"".join(line + (b"\r\n", b"\n", b"\r")[n % 3]
                          for n, line in enumerate(games.split(b"\n"))),
        "bom": b"\xef\xbb\xbf% PBN 2.1\r\n" + games.replace(b"\n", b"\r\n"),
        "utf8": games.replace(b'"e"', '"Café Ørsted — 東京"'.encode()),
        "latin1-fallback": games.replace(b'"e"', b'"Caf\xe9"'),
        "declared": b"% charset=ISO-8859-1\n\n" + games.replace(b'"e"', b'"Caf\xe9"'),
        "no-final-line-end": games.rstrip(b"\n"),
        "commentary": b"{intro}\n\n%escape\n\n" + games.replace(
            b'[Board "7"]', b'[Board "7"]\n{a comment\n\nwith a blank line}').replace(
            b'[Event "e"]\n[Board "9"]', b'{before board 9}\n[Event "e"]\n[Board "9"]')
        + b"\n\n\n{the end}\n\n",
        "blank-lines": b"\n \n\t\n" + games.replace(b"Pass Pass\n", b"Pass Pass\n \n\n")
        + b"\n\n",
        "empty": b"",
        "header-only": b"% PBN 2.1\r\n% EXPORT\r\n",
        "commentary-only": b"{nothing}\n\n{but words}\n",
    }


@pytest.mark.parametrize("name", sorted(tricky_files()))
def test_head_records_and_tail_are_the_file(tmp_path, name):
    path = tmp_path / f"{name}.pbn"
    path.write_bytes(tricky_files()[name])
    assert whole(pbnkit.read(path)) == path.read_bytes()


@pytest.mark.parametrize("name", sorted(tricky_files()))
def test_read_in_parts_gives_the_same_bytes(tmp_path, name):
    path = tmp_path / f"{name}.pbn"
    path.write_bytes(tricky_files()[name])
    parts = plan_chunks(path, 100)
    data = b""
    for part in parts:
        data += whole(pbnkit.read(path, resume=part))
    assert data == path.read_bytes()
    expected = [g.original for g in pbnkit.read(path)]
    assert [g.original for part in parts for g in pbnkit.read(path, resume=part)] == expected


def test_a_record_runs_from_its_first_tag_line_to_the_next_record():
    text = ('% PBN 2.1\n{about the first}\n[Event "a"]\n[Board "1"]\n\n{between}\n\n'
            '{right before}\n[Event "b"]\n\n[Event "c"]\n\n{the end}\n')
    reader = pbnkit.read(_stream(text))
    first, second, third = list(reader)
    assert first.original_head == reader.original_head == b"% PBN 2.1\n{about the first}\n"
    assert first.original == b'[Event "a"]\n[Board "1"]\n\n{between}\n\n{right before}\n'
    assert second.original == b'[Event "b"]\n\n'
    assert second.original_head is None and second.original_tail is None
    assert third.original == b'[Event "c"]\n'  # the last record ends with its own last line
    assert third.original_tail == reader.original_tail == b"\n{the end}\n"


def test_a_file_without_records_is_all_head():
    reader = pbnkit.read(_stream("% PBN 2.1\n\n{only words}\n"))
    assert list(reader) == []
    assert (reader.original_head, reader.original_tail) == (b"% PBN 2.1\n\n{only words}\n", b"")


def _stream(text: str):
    import io

    return io.BytesIO(text.encode())


# -- Through an archive ---------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("row", corpus_params())
def test_corpus_file_survives_parquet_and_json_byte_for_byte(row, tmp_path):
    path = CORPUS / row["path"]
    rows = list(records([path], check=False))
    assert rows, "even a file without records has a row"
    for name, sink in (("a.parquet", ParquetSink), ("a.json", JsonSink)):
        out = tmp_path / name
        with open(out, "wb") as stream:
            write_rows(iter(rows), sink(stream))
        written = write_originals(original_rows(out), tmp_path / f"{name}.files")
        assert written == [path.name]
        assert (tmp_path / f"{name}.files" / path.name).read_bytes() == path.read_bytes()


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")
@pytest.mark.parametrize("out", ["a.parquet", "a.jsonl", "dataset"])
def test_corpus_in_small_chunks_survives_byte_for_byte(tmp_path, monkeypatch, out):
    # Chunks of a few kilobytes: every file of more than one game is read by several units.
    monkeypatch.setattr(units, "MIN_CHUNK", 2000)
    monkeypatch.setattr(units, "MAX_CHUNK", 4000)
    files = sorted(CORPUS.rglob("*.pbn"))
    plan = list(units.plan(files, 4))
    assert sum(unit.resume is not None for unit in plan) > len(files)
    convert(files, tmp_path / out, check=False, units=iter(plan))
    written = write_originals(original_rows(tmp_path / out), tmp_path / "files")
    assert written == [str(f.relative_to(CORPUS)) for f in files]  # relative to the common root
    for name, source in zip(written, files):
        assert (tmp_path / "files" / name).read_bytes() == source.read_bytes(), name


def test_sources_are_relative_to_the_common_root(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "c").mkdir()
    names = [tmp_path / "a" / "b" / "x.pbn", tmp_path / "c" / "y.pbn", tmp_path / "a" / "z.pbn"]
    for path in names:
        path.write_text(GAME.format(board=1))
    convert(names, tmp_path / "out.jsonl", check=False)
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [r["source"] for r in rows] == ["a/b/x.pbn", "c/y.pbn", "a/z.pbn"]
    assert [r["path"] for r in rows] == [str(p) for p in names]
    assert base64.b64decode(rows[0]["original"]) == names[0].read_bytes()


# -- Refusals ----------------------------------------------------------------------------------

@pytest.mark.parametrize("source", ["../x.pbn", "a/../../x.pbn", "/etc/x.pbn", "C:/x.pbn",
                                    "C:x.pbn", "\\\\server\\x.pbn", "..\\x.pbn", "", ".",
                                    "s3://bucket/x.pbn"])
def test_a_source_that_leaves_the_directory_is_refused(tmp_path, source):
    with pytest.raises(OriginalError, match="not a relative path"):
        safe_path(tmp_path, source)


def test_nothing_is_written_when_a_source_is_refused(tmp_path):
    rows = [{"source": "ok.pbn", "index": None, "original": None, "original_head": b"x",
             "original_tail": b""},
            {"source": "../evil.pbn", "index": None, "original": None, "original_head": b"y",
             "original_tail": b""}]
    with pytest.raises(OriginalError):
        write_originals(rows, tmp_path / "out")
    assert not (tmp_path / "out").exists() and not (tmp_path / "evil.pbn").exists()


def test_rows_without_the_original_bytes_are_refused():
    rows = [{"source": "a.pbn", "path": "a.pbn", "index": 0, "original": None,
             "original_head": b"", "original_tail": b""}]
    with pytest.raises(OriginalError, match="does not keep"):
        list(original_files(rows))


def test_rows_out_of_record_order_are_refused():
    row = {"source": "a.pbn", "original_head": None, "original_tail": None}
    rows = [{**row, "index": 0, "original": b"0", "original_head": b""},
            {**row, "index": 2, "original": b"2"},
            {**row, "index": 1, "original": b"1", "original_tail": b""}]
    with pytest.raises(OriginalError, match="record order"):
        list(original_files(rows))
    with pytest.raises(OriginalError, match="end"):
        list(original_files(rows[:2]))


def test_a_file_named_twice_is_written_once(tmp_path):
    path = tmp_path / "a.pbn"
    path.write_text(GAME.format(board=3))
    rows = list(records([path, path], check=False))
    assert write_originals(rows, tmp_path / "out") == ["a.pbn"]
    assert (tmp_path / "out" / "a.pbn").read_bytes() == path.read_bytes()
    assert Path(tmp_path / "out").is_dir()
