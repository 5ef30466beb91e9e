"""Archives: the fixed boards schema, its files in schemas/, derived columns, read back,
atomic and --force-respecting output, and clear errors for what is not an archive."""

from __future__ import annotations

import json
import os

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from jsonschema import Draft202012Validator

import pbnkit
from pbnkit.export import archive as archive_module
from pbnkit.pipeline import convert as pipeline
from pbnkit.export.archive import ArchiveError, iter_archive, read_archive
from pbnkit.pipeline.convert import convert
from pbnkit.export.atomic import OutputExistsError
from pbnkit.export.schema import BOARDS, SCHEMA_VERSION, render, schema_files
from tests.conftest import SCHEMAS, generate_boards

GAME = """\
% PBN 2.1
%Content-type: text/x-pbn; charset=UTF-8
{the header}
[Event "##Club Pairs"]
[Site "Utrecht"]
[Date "2024.03.05"]
[Board "07"]
[West "Jansen"]
[North "de Vries"]
[East "Bakker"]
[South "Smit"]
[Dealer "s"]
[Vulnerable "Both"]
[Deal "N:J5.QJT9.KQ32.Q72 T9876.A84.J5.A63 43.7652.T984.KT9 2QKA.K3.A76.J854"]
[Scoring "MP"]
[Declarer "N"]
[Contract "4SX"]
[Result "NS 10"]
[Auction "S"]
1C Pass 1S Pass
2NT! =1= Pass 4S $15 X {not a success}
AP
[Note "1:18-19 balanced"]
[Play "E"]
DT ^R D6 DK D5 =1=
*
[Note "1:count"]
[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Score_NS\\5R;Names_NS"]
 1  2   790 "Jansen;de Vries"
 3  4  -100 "Smit;Bakker"

[Board "8"]
[Dealer "W"]
[Vulnerable "-"]
[Deal "W:- - - -"]
[Contract "nt"]
[Result "odd"]

{the trailer}
"""


@pytest.fixture()
def pbn(tmp_path):
    path = tmp_path / "club.pbn"
    path.write_text(GAME, encoding="utf-8")
    return path


def rows_of(path) -> list[dict]:
    return pq.read_table(path).to_pylist()


def same_games(a, b) -> bool:
    return len(a) == len(b) and all(
        x.same_content(y) and dict(x.values) == dict(y.values) and x.line == y.line
        and x.index == y.index and x.diagnostics == y.diagnostics for x, y in zip(a, b))


# -- The schema -----------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(schema_files()))
def test_schema_files_are_in_step_with_the_code(name):
    written = (SCHEMAS / name).read_text(encoding="utf-8")
    assert written == render(schema_files()[name]), (
        f"schemas/{name} is stale: run python -c 'from pbnkit.export.schema import "
        "write_schema_files; write_schema_files()'")


def test_json_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(
        json.loads((SCHEMAS / f"boards.v{SCHEMA_VERSION}.json").read_text()))


def test_parquet_has_the_fixed_schema_and_file_metadata(pbn, tmp_path):
    out = tmp_path / "a.parquet"
    convert([pbn], out)
    schema = pq.read_schema(out)
    assert schema.equals(BOARDS, check_metadata=False)
    assert schema.field("event").metadata[b"description"]
    meta = schema.metadata
    assert meta[b"pbnkit.schema"] == b"boards"
    assert meta[b"pbnkit.schema_version"] == str(SCHEMA_VERSION).encode()
    assert meta[b"pbnkit.version"] == pbnkit.__version__.encode()
    assert b"pbnkit.profile" in meta


def test_columns_that_are_all_null_keep_their_types(tmp_path):
    # Nothing to infer from: every derived column is null or empty.
    path = tmp_path / "bare.pbn"
    path.write_text('[Board "x"]\n')
    convert([path], tmp_path / "a.parquet")
    assert pq.read_schema(tmp_path / "a.parquet").equals(BOARDS, check_metadata=False)


# -- Derived columns ------------------------------------------------------------------------

def test_identity_and_bridge_columns(pbn, tmp_path):
    convert([pbn], tmp_path / "a.parquet")
    first, second = rows_of(tmp_path / "a.parquet")
    assert (first["path"], first["index"], first["line"]) == (str(pbn), 0, 1)
    assert (first["event"], first["board"], first["west"]) == ("Club Pairs", 7, "Jansen")
    assert (first["dealer"], first["vulnerable"], first["declarer"]) == ("S", "All", "N")
    assert (first["deal_n"], first["deal_w"]) == ("J5.QJT9.KQ32.Q72", "AKQ2.K3.A76.J854")
    assert (first["contract_level"], first["contract_strain"], first["contract_risk"]) == (
        4, "S", "X")
    assert first["result"] == 10
    assert first["encoding"] == "utf-8 (declared)"
    assert second["event"] == "Club Pairs"  # ## inheritance resolved


def test_auction_and_play_with_annotations(pbn, tmp_path):
    convert([pbn], tmp_path / "a.parquet")
    row = rows_of(tmp_path / "a.parquet")[0]
    calls = row["auction"]
    assert [(c["seat"], c["call"]) for c in calls[:4]] == [
        ("S", "1C"), ("W", "Pass"), ("N", "1S"), ("E", "Pass")]
    assert calls[4] == {"seat": "S", "call": "2NT", "irregularity": None, "suffix": "!",
                        "note": 1, "nags": [], "comments": []}
    assert calls[6]["nags"] == [15]
    assert calls[7]["comments"] == ["not a success"]
    cards = row["play"]
    assert [(c["seat"], c["card"], c["irregularity"]) for c in cards[:2]] == [
        ("E", "DT", None), ("S", "D6", "R")]
    assert cards[-1]["card"] == "*" and cards[-1]["seat"] is None
    assert row["notes"] == [{"section": "Auction", "index": 1, "text": "18-19 balanced"},
                            {"section": "Play", "index": 1, "text": "count"}]


def test_commentary_tables_tags_and_preamble(pbn, tmp_path):
    convert([pbn], tmp_path / "a.parquet")
    row = rows_of(tmp_path / "a.parquet")[0]
    assert row["commentary"][0] == {"tag": None, "kind": "comment", "text": "the header"}
    assert {"tag": "Auction", "kind": "comment", "text": "not a success"} in row["commentary"]
    (table,) = row["tables"]
    assert table["columns"] == ["PairId_NS", "PairId_EW", "Score_NS", "Names_NS"]
    assert table["rows"] == [["1", "2", "790", "Jansen;de Vries"],
                             ["3", "4", "-100", "Smit;Bakker"]]
    assert [t["name"] for t in row["tags"]][:3] == ["Event", "Site", "Date"]
    assert row["tags"][0]["value"] == "##Club Pairs"
    assert [e["kind"] for e in row["preamble"]] == ["escape", "escape", "comment"]


def test_values_that_do_not_parse_give_null_not_failure(pbn, tmp_path):
    convert([pbn], tmp_path / "a.parquet")
    row = rows_of(tmp_path / "a.parquet")[1]
    assert row["vulnerable"] == "None"
    assert [row[f"deal_{s}"] for s in "nesw"] == [None] * 4
    # an end position states no contract, and there is no auction (as the scorer reads it)
    assert (row["contract_level"], row["contract_strain"], row["contract_source"]) == (
        None, None, None)
    assert row["result"] is None


def test_trailer_and_diagnostics_are_kept(pbn, tmp_path):
    convert([pbn], tmp_path / "a.parquet")
    first, last = rows_of(tmp_path / "a.parquet")
    assert first["trailer"] == []
    assert [e["text"] for e in last["trailer"]] == ["the trailer"]
    for row in (first, last):
        assert row["errors"] == sum(d["severity"] == "error" for d in row["diagnostics"])
        assert row["warnings"] == sum(d["severity"] == "warning" for d in row["diagnostics"])
    assert any(d["stage"] == "check" for d in last["diagnostics"])


def test_without_checks_only_the_readers_diagnostics(tmp_path):
    path = tmp_path / "bad.pbn"
    path.write_text('[Event "x"]\n[Board "1"] }\n')
    convert([path], tmp_path / "a.jsonl", check=False)
    (row,) = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert {d["stage"] for d in row["diagnostics"]} == {"read"}
    assert row["errors"] == 1


# -- Read back --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["a.parquet", "a.json", "a.jsonl", "dataset"])
def test_read_archive_gives_the_games_back(pbn, tmp_path, name):
    out = tmp_path / name
    convert([pbn, pbn], out)
    original = list(pbnkit.read(pbn))
    games = list(read_archive(out))
    assert same_games(games, original + original)
    trailers = [a.trailer for a in iter_archive(out)]
    assert [len(t) for t in trailers] == [0, 1, 0, 1]


def test_a_dataset_has_a_part_per_unit_and_a_manifest_in_order(pbn, tmp_path):
    out = tmp_path / "dataset"
    convert([pbn, pbn, pbn], out, batch_size=1)
    manifest = json.loads((out / "_SUCCESS").read_text())
    names = [part["name"] for part in manifest["parts"]]
    assert [part["rows"] for part in manifest["parts"]] == [2, 2, 2]
    assert [name[:6] for name in names] == ["00000-", "00001-", "00002-"]
    assert all(name.endswith("-0000-0.parquet") and "-club-" in name for name in names)
    assert sorted(p.name for p in out.iterdir()) == sorted(["_SUCCESS", *names])
    assert [g.index for g in read_archive(out)] == [0, 1] * 3


def test_pyarrow_reads_the_dataset_directory(pbn, tmp_path):
    import pyarrow.dataset as ds

    out = tmp_path / "dataset"
    convert([pbn, pbn], out, batch_size=1)
    table = ds.dataset(out, format="parquet").to_table(columns=["board", "event"])
    assert sorted(table.column("board").to_pylist(), key=str) == [7, 7, 8, 8]


@pytest.mark.parametrize("name", ["a.json", "a.jsonl"])
def test_json_output_validates_against_the_schema(pbn, tmp_path, name):
    schema = json.loads((SCHEMAS / f"boards.v{SCHEMA_VERSION}.json").read_text())
    out = tmp_path / name
    convert([pbn], out)
    validator = Draft202012Validator(schema)
    if name.endswith(".json"):
        validator.validate(json.loads(out.read_text()))
    else:
        record = Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/record"})
        lines = out.read_text().splitlines()
        assert len(lines) == 2
        for line in lines:
            record.validate(json.loads(line))


def test_a_json_document_written_by_another_tool_is_read_whole(pbn, tmp_path):
    convert([pbn], tmp_path / "a.json")
    document = json.loads((tmp_path / "a.json").read_text())
    (tmp_path / "b.json").write_text(json.dumps(document, indent=1))
    assert same_games(list(read_archive(tmp_path / "b.json")), list(pbnkit.read(pbn)))


# -- Clear errors for what is not an archive ---------------------------------------------------

def test_not_an_archive(tmp_path, pbn):
    with pytest.raises(ArchiveError, match="not an archive"):
        list(read_archive(pbn))
    (tmp_path / "x.parquet").write_bytes(b"not parquet at all")
    with pytest.raises(ArchiveError, match="not a readable Parquet file"):
        list(read_archive(tmp_path / "x.parquet"))
    (tmp_path / "x.jsonl").write_text('{"path": "a"}\n')
    with pytest.raises(ArchiveError, match="record 1 is not a boards record"):
        list(read_archive(tmp_path / "x.jsonl"))
    (tmp_path / "y.jsonl").write_text("{oops\n")
    with pytest.raises(ArchiveError, match="y.jsonl:1: not JSON"):
        list(read_archive(tmp_path / "y.jsonl"))
    with pytest.raises(ArchiveError, match="cannot read"):
        list(read_archive(tmp_path / "missing.parquet"))


def test_other_parquet_files_are_refused(tmp_path):
    pq.write_table(pa.table({"x": [1]}), tmp_path / "other.parquet")
    with pytest.raises(ArchiveError, match="no column"):
        list(read_archive(tmp_path / "other.parquet"))


def test_a_newer_schema_version_is_refused(pbn, tmp_path):
    convert([pbn], tmp_path / "a.json")
    text = (tmp_path / "a.json").read_text().replace(f'"version": {SCHEMA_VERSION}',
                                                     '"version": 99', 1)
    (tmp_path / "a.json").write_text(text)
    with pytest.raises(ArchiveError, match="schema version 99 is newer"):
        list(read_archive(tmp_path / "a.json"))


def test_unknown_output_name_is_refused(pbn, tmp_path):
    with pytest.raises(ArchiveError, match="cannot tell the archive format"):
        convert([pbn], tmp_path / "a.csv")


# -- Atomic output and --force ------------------------------------------------------------------

def leftovers(directory) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith("."))


@pytest.mark.parametrize("name", ["a.parquet", "a.json", "a.jsonl", "dataset"])
def test_a_failure_after_the_first_batch_leaves_nothing(pbn, tmp_path, monkeypatch, name):
    real = pipeline.batches

    def failing(rows, size):
        for number, batch in enumerate(real(rows, size)):
            if number == 1:
                raise RuntimeError("disk on fire")
            yield batch

    monkeypatch.setattr(pipeline, "batches", failing)
    with pytest.raises(RuntimeError, match="disk on fire"):
        convert([pbn, pbn], tmp_path / name, batch_size=1)
    assert not (tmp_path / name).exists()
    # a dataset keeps its work in progress, hidden, for convert --resume
    assert leftovers(tmp_path) == ([".dataset.partial"] if name == "dataset" else [])


def test_an_interrupt_leaves_the_previous_output_untouched(pbn, tmp_path, monkeypatch):
    out = tmp_path / "a.parquet"
    convert([pbn], out)
    before = out.read_bytes()

    def interrupted(self, rows):
        raise KeyboardInterrupt

    monkeypatch.setattr(archive_module.ParquetSink, "write", interrupted)
    with pytest.raises(KeyboardInterrupt):
        convert([pbn, pbn], out, force=True)
    assert out.read_bytes() == before
    assert leftovers(tmp_path) == []


def test_an_unreadable_input_leaves_nothing(pbn, tmp_path, monkeypatch):
    secret = tmp_path / "secret.pbn"
    secret.write_text(GAME)
    real_open = open

    def refusing(path, *args, **kwargs):
        if os.fspath(path) == os.fspath(secret):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("builtins.open", refusing)
    with pytest.raises(ArchiveError, match="cannot read .*secret.pbn: Permission denied"):
        convert([pbn, secret], tmp_path / "a.parquet")
    monkeypatch.undo()
    assert not (tmp_path / "a.parquet").exists()
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("name", ["a.parquet", "dataset"])
def test_existing_output_is_replaced_only_with_force(pbn, tmp_path, name):
    out = tmp_path / name
    convert([pbn], out)
    with pytest.raises(OutputExistsError, match="use --force"):
        convert([pbn, pbn], out)
    assert len(list(read_archive(out))) == 2
    convert([pbn, pbn], out, force=True)
    assert len(list(read_archive(out))) == 4
    assert leftovers(tmp_path) == []


def test_output_has_the_usual_permissions(pbn, tmp_path):
    convert([pbn], tmp_path / "a.parquet")
    mask = os.umask(0)
    os.umask(mask)
    assert (tmp_path / "a.parquet").stat().st_mode & 0o777 == 0o666 & ~mask


@pytest.mark.parametrize("name", ["a.parquet", "a.json", "a.jsonl", "dataset"])
def test_an_archive_without_records_is_still_an_archive(tmp_path, name):
    empty = tmp_path / "empty.pbn"
    empty.write_text("% PBN 2.1\n")
    summary = convert([empty], tmp_path / name)
    assert (summary.records, summary.empty) == (0, [str(empty)])
    assert list(read_archive(tmp_path / name)) == []


def test_a_parquet_file_has_large_row_groups(pbn, tmp_path, monkeypatch):
    from pbnkit.export import sinks

    convert([pbn] * 5, tmp_path / "a.parquet", batch_size=1)
    assert pq.ParquetFile(tmp_path / "a.parquet").metadata.num_row_groups == 1  # the whole file
    monkeypatch.setattr(sinks, "ROW_GROUP_ROWS", 4)  # a group closes once it has 4 rows
    convert([pbn] * 5, tmp_path / "b.parquet", batch_size=2)  # 5 batches of 2 rows each
    metadata = pq.ParquetFile(tmp_path / "b.parquet").metadata
    assert [metadata.row_group(n).num_rows for n in range(metadata.num_row_groups)] == [4, 4, 2]
    monkeypatch.setattr(sinks, "ROW_GROUP_BYTES", 1)  # or once its data reaches the cap
    convert([pbn] * 5, tmp_path / "c.parquet", batch_size=2)
    metadata = pq.ParquetFile(tmp_path / "c.parquet").metadata
    assert [metadata.row_group(n).num_rows for n in range(metadata.num_row_groups)] == [2] * 5


def test_the_rows_of_small_files_are_encoded_together(pbn, tmp_path, monkeypatch):
    """An Arrow batch costs as much whatever its rows: the rows of files of a board or a
    few are encoded in batches of many files, not a batch a file, and the archive holds
    the same rows in the same order."""
    from pbnkit.export import sinks

    big = generate_boards(tmp_path / "big.pbn", sinks.FEW_ROWS, seed=3)
    files = [pbn, pbn, big, pbn, pbn, pbn]
    written: list[int] = []
    real_write = sinks.ParquetSink.write
    monkeypatch.setattr(sinks.ParquetSink, "write", lambda sink, batch: (
        written.append(batch.num_rows), real_write(sink, batch))[1])
    convert(files, tmp_path / "all.parquet", batch_size=4)
    # 2 + 2 rows, the large file's batches (encoded where it was read), 2 + 2 + 2 rows
    assert written == [4, *[4] * (sinks.FEW_ROWS // 4), 4, 2]
    one_by_one = []
    for number, path in enumerate(files):
        convert([path], tmp_path / f"{number}.parquet")
        one_by_one += rows_of(tmp_path / f"{number}.parquet")
    together = rows_of(tmp_path / "all.parquet")
    assert [row.pop("source") for row in together] == [
        row.pop("source") for row in one_by_one]
    assert together == one_by_one


def test_a_small_file_gives_its_rows_unencoded_only_for_a_parquet_file(pbn, tmp_path):
    from pbnkit.pipeline.units import Unit

    unit = Unit(str(pbn), pbn.stat().st_size)
    [rows] = pipeline.convert_unit(pipeline.ConvertOptions("parquet"), unit).payloads
    assert isinstance(rows, pipeline.Unencoded) and len(rows.rows) == 2
    [batch] = pipeline.convert_unit(pipeline.ConvertOptions("parquet", unencoded=2),
                                    unit).payloads
    assert isinstance(batch, pa.RecordBatch) and batch.num_rows == 2
    [lines] = pipeline.convert_unit(pipeline.ConvertOptions("jsonl"), unit).payloads
    assert len(lines) == 2 and all(isinstance(line, bytes) for line in lines)
    done = pipeline.convert_unit(pipeline.ConvertOptions("parquet", parts=str(tmp_path)), unit)
    assert done.payloads == [] and done.files  # a dataset's part, written by the unit
