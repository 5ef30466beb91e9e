"""Version 2 of the boards schema: its new columns (typed date, the contract as the
scorer reads it, the canonical source, the row of a file without records), file-level
findings stored as validate counts them, the score tables' types, and version 1 archives
still read and upgraded."""

from __future__ import annotations

import datetime
import json
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from jsonschema import Draft202012Validator

import pbnkit
from pbnkit.export import rows as row_module
from pbnkit.export.archive import read_archive, records
from pbnkit.export.original import OriginalError, original_files, original_rows
from pbnkit.pipeline.convert import convert
from pbnkit.export.schema import BOARDS, SCHEMA_VERSION
from pbnkit.export.score_tables import TABLES, write_score
from pbnkit.export.upgrade import (stored_rows, table_version, upgrade_archive, upgrade_rows,
                                   upgrade_table)
from pbnkit.pipeline import units
from pbnkit.pipeline.validate import validate_file
from pbnkit.scoring.report import score_games
from tests.conftest import CORPUS, REPO, SAMPLE_DATA, SCHEMAS

V1 = REPO / "tests" / "data" / "v1"
V1_SOURCES = [SAMPLE_DATA / "team_match.pbn", SAMPLE_DATA / "rubber_contract.pbn"]
DEAL = 'N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765'


def row_of(tmp_path: Path, tags: str, body: str = "") -> dict:
    path = tmp_path / "one.pbn"
    path.write_text(f'[Board "1"]\n[Dealer "N"]\n[Deal "{DEAL}"]\n{tags}{body}')
    (row,) = records([path], check=False)
    return row


def contract(row: dict) -> tuple:
    return tuple(row[name] for name in ("contract_level", "contract_strain", "contract_risk",
                                        "declarer", "contract_source"))


# -- Contract and declarer, as the scorer reads them ------------------------------------------

@pytest.mark.parametrize("tags, expected", [
    ('[Contract "4SX"]\n[Declarer "N"]\n', (4, "S", "X", "N", "tag")),
    ('[Contract "3N"]\n[Declarer "E"]\n', (3, "NT", "", "E", "tag")),  # null in version 1
    ('[Contract "6hxx"]\n[Declarer "^S"]\n', (6, "H", "XX", "S", "tag")),
    ('[Contract "Pass"]\n', (0, None, "", None, "tag")),
    ('[Contract "NT"]\n', (None, None, None, None, None)),  # an end position: no contract
    ("", (None, None, None, None, None)),
])
def test_contract_from_the_tags(tmp_path, tags, expected):
    assert contract(row_of(tmp_path, tags)) == expected


def test_contract_and_declarer_from_the_auction_when_the_tags_do_not_give_them(tmp_path):
    auction = '[Auction "N"]\n1S Pass 2H X\nPass Pass Pass\n'
    assert contract(row_of(tmp_path, "", auction)) == (2, "H", "X", "S", "auction")
    # the Contract tag gives the contract, the auction the declarer
    assert contract(row_of(tmp_path, '[Contract "2HX"]\n', auction)) == (2, "H", "X", "S", "tag")
    unfinished = '[Auction "N"]\n1S Pass 2H\n'
    assert contract(row_of(tmp_path, "", unfinished)) == (None, None, None, None, None)


def test_the_auction_is_replayed_only_when_the_tags_do_not_give_the_contract(tmp_path, monkeypatch):
    replayed = Counter()
    real = row_module.replay

    def counting(game):
        replayed[game.board] += 1
        return real(game)

    monkeypatch.setattr(row_module, "replay", counting)
    auction = '[Auction "N"]\n1S Pass Pass Pass\n'
    row_of(tmp_path, '[Contract "1S"]\n[Declarer "N"]\n', auction)
    row_of(tmp_path, '[Contract "Pass"]\n', auction)
    assert not replayed
    row_of(tmp_path, '[Declarer "N"]\n', auction)
    assert replayed == {"1": 1}


def test_result_by_side_uses_the_declarer_from_the_auction(tmp_path):
    row = row_of(tmp_path, '[Result "EW 4"]\n', '[Auction "N"]\n1S Pass Pass Pass\n')
    assert (row["declarer"], row["result"]) == ("N", 9)


# -- Date ------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("2024.05.18", datetime.date(2024, 5, 18)),
    ("2023-12-30", datetime.date(2023, 12, 30)),
    ("2013-08-10 17:32", datetime.date(2013, 8, 10)),
    ("20160831", datetime.date(2016, 8, 31)),
    ("2012.08.??", None), ("????.??.??", None), ("?", None), ("", None),
    ("2023.02.30", None), ("3/30/2021", datetime.date(2021, 3, 30)), ("2024.5.18", None),
])
def test_date_is_typed_beside_its_text(tmp_path, text, expected):
    row = row_of(tmp_path, f'[Date "{text}"]\n')
    assert (row["date"], row["date_text"]) == (expected, text)


def test_date_column_is_date32_in_parquet_and_iso_in_json(tmp_path):
    source = tmp_path / "d.pbn"
    source.write_text('[Date "2024.05.18"]\n[Board "1"]\n')
    convert([source], tmp_path / "a.parquet")
    convert([source], tmp_path / "a.jsonl")
    table = pq.read_table(tmp_path / "a.parquet", columns=["date", "date_text"])
    assert table.schema.field("date").type == pa.date32()
    assert table.to_pylist() == [{"date": datetime.date(2024, 5, 18), "date_text": "2024.05.18"}]
    (record,) = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert (record["date"], record["date_text"]) == ("2024-05-18", "2024.05.18")


# -- A file without records ------------------------------------------------------------------------

def test_a_file_without_records_has_a_row_of_its_own(tmp_path):
    empty, full = tmp_path / "empty.pbn", tmp_path / "full.pbn"
    empty.write_bytes(b"% PBN 2.1\r\n{no game [Board }\r\n")
    full.write_text('[Board "1"]\n')
    summary = convert([empty, full], tmp_path / "a.jsonl")
    assert (summary.records, summary.files, summary.empty) == (1, 2, [str(empty)])
    stored = [json.loads(line) for line in (tmp_path / "a.jsonl").read_text().splitlines()]
    assert [(r["source"], r["index"], r["line"]) for r in stored] == [
        ("empty.pbn", None, None), ("full.pbn", 0, 1)]
    assert stored[0]["tags"] == [] and stored[0]["trailer"]  # the commentary
    assert [g.board for g in read_archive(tmp_path / "a.jsonl")] == ["1"]


# -- File-level findings: convert stores what validate counts --------------------------------

def counts(rows) -> dict[str, tuple[int, int]]:
    found: dict[str, tuple[int, int]] = {}
    for row in rows:
        errors, warnings = found.get(row["path"], (0, 0))
        found[row["path"]] = (errors + row["errors"], warnings + row["warnings"])
    return found


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is absent")
def test_convert_and_validate_count_the_same_findings(tmp_path, monkeypatch):
    files = sorted(CORPUS.rglob("*.pbn"))
    expected = {}
    for path in files:
        report, _ = validate_file(path)
        expected[str(path)] = (report.errors, report.warnings)
    assert counts(records(files)) == expected
    # in small chunks, the checks across a file's records are made by the parent
    monkeypatch.setattr(units, "MIN_CHUNK", 2000)
    monkeypatch.setattr(units, "MAX_CHUNK", 4000)
    convert(files, tmp_path / "a.parquet", units=units.plan(files, 4))
    assert counts(pq.read_table(tmp_path / "a.parquet", columns=["path", "errors", "warnings"])
                  .to_pylist()) == expected


def test_file_level_score_findings_go_on_the_last_row(tmp_path):
    path = tmp_path / "mp.pbn"
    games = "".join(f'[Event "e"]\n[Board "1"]\n[Scoring "MP"]\n[Contract "4S"]\n'
                    f'[Declarer "N"]\n[Vulnerable "None"]\n[Result "10"]\n'
                    f'[ScoreMP "NS {mp}"]\n\n' for mp in (9, 9))
    path.write_text(games)
    report, found = validate_file(path)
    stored = list(records([path]))
    file_level = [d["code"] for d in stored[-1]["diagnostics"] if d["stage"] == "file"]
    assert sorted(file_level) == sorted(d.code for d in found if d.code.startswith("SC0"))
    assert counts(stored)[str(path)] == (report.errors, report.warnings)


# -- Score tables ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["team_match.pbn", "rubber_contract.pbn"])
def test_score_tables_are_zstd_with_board_as_int32(tmp_path, name):
    report = score_games(pbnkit.read(SAMPLE_DATA / name))
    written = write_score(report, tmp_path / "s.parquet")
    for path in written:
        meta = pq.ParquetFile(path).metadata
        if meta.num_row_groups:
            assert meta.row_group(0).column(0).compression == "ZSTD"
    boards = pq.read_table(tmp_path / "s.boards.parquet")
    assert boards.schema.field("board").type == pa.int32()
    assert boards.column("board").to_pylist() == [int(r.board) for r in report.results]
    if name == "team_match.pbn":
        (match,) = pq.read_table(tmp_path / "s.matches.parquet").to_pylist()
        assert [b["board"] for b in match["boards"]] == [1, 2, 3, 4]
    else:
        rubber = pq.read_table(tmp_path / "s.rubbers.parquet").to_pylist()[0]
        assert [d["board"] for d in rubber["deals"]] == [1, 2, 3, 4, 5]


def leaves(type_: pa.DataType, name: str = "") -> list[tuple[str, pa.DataType]]:
    if pa.types.is_list(type_):
        return leaves(type_.value_type, name)
    if pa.types.is_struct(type_):
        found = [(name, type_)] if name else []
        for field in type_:
            found += leaves(field.type, field.name)
        return found
    return [(name, type_)]


def test_a_column_has_one_type_in_every_score_table():
    types: dict[str, set[pa.DataType]] = {}
    for schema in TABLES.values():
        for field in schema:
            for name, type_ in leaves(field.type, field.name):
                types.setdefault(name, set()).add(type_)
    assert {name: found for name, found in types.items() if len(found) > 1} == {}
    assert types["board"] == {BOARDS.field("board").type}
    assert types["index"] == {BOARDS.field("index").type}


# -- Version 1 --------------------------------------------------------------------------------

def test_the_kept_version_1_archives_are_version_1():
    assert table_version(pq.read_schema(V1 / "boards.parquet")) == 1
    schema = json.loads((SCHEMAS / "boards.v1.json").read_text())
    record = Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/record"})
    for line in (V1 / "boards.jsonl").read_text().splitlines():
        record.validate(json.loads(line))


@pytest.mark.parametrize("name", ["boards.parquet", "boards.jsonl"])
def test_version_1_archives_are_still_read(name):
    restored = list(read_archive(V1 / name))
    expected = [g for path in V1_SOURCES for g in pbnkit.read(path)]
    assert len(restored) == len(expected)
    assert all(a.same_content(b) and dict(a.values) == dict(b.values)
               for a, b in zip(restored, expected))


def fresh_rows(tmp_path: Path) -> list[dict]:
    """The rows convert gives now for the files of the version 1 archives, which were
    converted from the repository as sample_data/NAME."""
    convert([path.relative_to(REPO) for path in V1_SOURCES], tmp_path / "fresh.parquet")
    return pq.read_table(tmp_path / "fresh.parquet").to_pylist()


def without_originals(row: dict) -> dict:
    """Without the columns of the file's bytes (the record id is made from them)."""
    return {k: v for k, v in row.items() if not k.startswith("original") and k != "record_id"}


@pytest.mark.parametrize("name", ["boards.parquet", "boards.jsonl"])
@pytest.mark.parametrize("out", ["new.parquet", "new.jsonl", "new.json", "new"])
def test_upgrade_gives_what_convert_gives_but_the_bytes(tmp_path, monkeypatch, name, out):
    monkeypatch.chdir(REPO)
    summary = upgrade_archive(V1 / name, tmp_path / out)
    assert (summary.records, summary.version) == (15, 1)
    upgraded = list(stored_rows(tmp_path / out))
    expected = fresh_rows(tmp_path)
    if not out.endswith(".parquet") and out != "new":  # JSON: dates and bytes as text
        expected = [json.loads(json.dumps(r, default=str)) for r in expected]
    assert [without_originals(r) for r in upgraded] == [without_originals(r) for r in expected]
    assert all(r["original"] is None and r["original_head"] is None for r in upgraded)
    with pytest.raises(OriginalError, match="original bytes"):
        list(original_files(original_rows(tmp_path / out)))


def test_upgrade_table_for_archive_readers(tmp_path):
    table = pq.read_table(V1 / "boards.parquet")
    upgraded = upgrade_table(table, root=str(SAMPLE_DATA))
    assert upgraded.schema.equals(BOARDS, check_metadata=False)
    assert table_version(upgraded) == SCHEMA_VERSION
    assert upgraded.column("source").to_pylist()[0] == "team_match.pbn"
    restore = pq.read_table(V1 / "boards.parquet", columns=["path", "index", "tags"])
    assert upgrade_table(restore) is restore  # the restore columns need no upgrade
    assert upgrade_table(upgraded) is upgraded


def test_upgrade_refuses_a_current_archive(tmp_path):
    convert(V1_SOURCES[:1], tmp_path / "a.parquet")
    with pytest.raises(Exception, match="nothing to upgrade"):
        upgrade_archive(tmp_path / "a.parquet", tmp_path / "b.parquet")


def test_version_2_rows_pass_upgrade_unchanged(tmp_path, monkeypatch):
    monkeypatch.chdir(REPO)
    rows = fresh_rows(tmp_path)
    assert list(upgrade_rows(rows)) == rows


def test_docs_describe_every_column():
    text = (REPO / "docs" / "archive.md").read_text(encoding="utf-8")
    missing = [field.name for field in BOARDS if f"`{field.name}`" not in text]
    assert missing == []
