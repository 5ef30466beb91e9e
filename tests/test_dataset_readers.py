"""Datasets that any reader opens: partition directories of safe names (a 255-character
Event, characters a filesystem or URL cannot keep), no null key (pandas cannot unify one
with the others), read alike by pandas, polars, DuckDB and ``pyarrow.dataset``; and
``pbnkit compact``, which merges small parts and keeps record order and the manifest."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from pbnkit.export import compact as compacting
from pbnkit.export import dataset
from pbnkit.export.archive import read_archive
from pbnkit.export.dataset import key_value
from pbnkit.pipeline.convert import convert
from pbnkit.pipeline.units import plan
from tests.conftest import CORPUS, SAMPLE_DATA, SCHEMAS, generate_boards, run_pbnkit

#: an Event of 255 characters, as a real file had, with characters no directory name keeps
LONG_EVENT = ("Championnat d'été / Coupe: 100% «open» — " * 8)[:255]
#: a real file whose Event holds a path (``./dlr/1N.dlr``)
DEALER_FILE = CORPUS / "lorserker__ben" / "Boards" / "Practice Bidding Scenarios" / "1N.pbn"
#: a real file with Events on lines of 255 and 256 characters
LONG_FILE = (CORPUS / "timheilman__bridge-pbn" / "spec" / "resource" / "reference_impl_tests"
             / "correct_10.pbn")


def with_tags(source: Path, out: Path, events: dict[int, str], undated: range) -> Path:
    """``source`` with the Event of the records ``events`` names replaced, and the Date
    of the records ``undated`` unknown."""
    text = source.read_text(encoding="latin-1").replace("charset=ISO-8859-1", "charset=UTF-8")
    records = re.split(r"(?=^\[Event )", text, flags=re.MULTILINE)
    for number, record in enumerate(records[1:]):
        if number in events:
            record = re.sub(r'^\[Event "[^"]*"\]', f'[Event "{events[number]}"]', record,
                            flags=re.MULTILINE)
        if number in undated:
            record = re.sub(r'^\[Date "[^"]*"\]', '[Date "?"]', record, flags=re.MULTILINE)
        records[number + 1] = record
    out.write_text("".join(records), encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> list[Path]:
    folder = tmp_path_factory.mktemp("readers")
    generated = generate_boards(folder / "generated.pbn", 40, 5)
    edited = with_tags(generated, folder / "long-event.pbn",
                       {n: LONG_EVENT for n in range(0, 12)}, range(8, 20))
    files = [edited, *sorted(SAMPLE_DATA.glob("*.pbn"))]
    return files + [real for real in (DEALER_FILE, LONG_FILE) if real.is_file()]


@pytest.fixture(scope="module")
def by_year_event(inputs, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("by-year-event") / "set"
    convert(inputs, out, partition_by=["year", "event"])
    return out


@pytest.fixture(scope="module")
def whole(inputs, tmp_path_factory) -> dict[tuple[str, int], dict]:
    """Each record's event and date as a single Parquet file holds them."""
    out = tmp_path_factory.mktemp("whole") / "one.parquet"
    convert(inputs, out)
    return {(row["path"], row["index"]): row for row in
            pq.read_table(out, columns=["path", "index", "event", "date"]).to_pylist()}


def contents(out: Path) -> list[tuple]:
    return [(g.path, g.index, g.same_content(g), tuple(g.values.items()))
            for g in read_archive(out)]


# -- partition keys -------------------------------------------------------------------------------

@pytest.mark.parametrize("value", [LONG_EVENT, "a/b", "../up", "100%", "x" * 70, " lead",
                                   "end.", "日本", "Été", "none", "None", 'say "hi"', ""])
def test_a_key_is_a_short_plain_name_whatever_the_value(value):
    key = key_value(value)
    assert re.fullmatch(r"[A-Za-z0-9](?:[A-Za-z0-9 _.-]*[A-Za-z0-9_-])?", key), key
    assert len(key.encode()) <= 64 and key != dataset.NO_VALUE
    assert key_value(value) == key  # the same value, the same directory


def test_a_plain_value_is_its_own_key_and_others_never_share_one():
    assert key_value("Daylong Teams") == "Daylong Teams"
    assert key_value("IMP") == "IMP" and key_value(7) == "7"
    assert key_value(None) == dataset.NO_VALUE
    # values that differ only where the plain form cannot say so get other digests
    assert len({key_value(v) for v in ("a/b", "a:b", "a b", "a_b", "none", None)}) == 6
    assert key_value(LONG_EVENT).startswith("Championnat d ete Coupe 100 open")


def test_a_long_event_and_an_unknown_year_make_a_dataset(by_year_event, whole):
    names = [part["name"] for part in manifest_is_true(by_year_event)["parts"]]
    for name in names:
        assert all(len(piece.encode()) <= 100 for piece in name.split("/"))
        assert "%" not in name and "__HIVE_DEFAULT_PARTITION__" not in name
    directories = {name.rsplit("/", 1)[0] for name in names}
    assert f"year=0/event_key={key_value(LONG_EVENT)}" in directories
    # pbnkit reads it in record order
    assert [(game.path, game.index) for game in read_archive(by_year_event)] == list(whole)


def read_by_each(out: Path) -> dict[str, list[tuple]]:
    """(path, index, event, event_key, year) of every row, as each reader gives them."""
    pd = pytest.importorskip("pandas")
    pl = pytest.importorskip("polars")
    duckdb = pytest.importorskip("duckdb")
    columns = ["path", "index", "event", "event_key", "year"]
    found: dict[str, list[tuple]] = {}
    frame = pd.read_parquet(out, columns=columns)
    frame = frame.astype(object).where(frame.notna(), None)  # pandas says NaN for null
    found["pandas"] = [tuple(row) for row in frame.itertuples(index=False)]
    frame = pl.read_parquet(f"{out}/**/*.parquet", hive_partitioning=True).select(columns)
    found["polars"] = frame.rows()
    found["duckdb"] = duckdb.sql(
        'SELECT path, "index", event, event_key, year '
        f"FROM read_parquet('{out}/**/*.parquet', hive_partitioning = true)").fetchall()
    table = ds.dataset(out, format="parquet", partitioning="hive").to_table(columns=columns)
    found["pyarrow"] = [tuple(row.values()) for row in table.to_pylist()]
    return {reader: sorted(rows, key=lambda row: (row[0], row[1]))
            for reader, rows in found.items()}


def test_pandas_polars_duckdb_and_pyarrow_read_the_same_rows(by_year_event, whole):
    found = read_by_each(by_year_event)
    expected = sorted(((path, index, row["event"], key_value(row["event"]),
                        row["date"].year if row["date"] else dataset.UNKNOWN_YEAR)
                       for (path, index), row in whole.items()), key=lambda row: row[:2])
    assert any(row[4] == dataset.UNKNOWN_YEAR for row in expected)  # some have no date
    assert any(row[2] == LONG_EVENT for row in expected)
    for reader, rows in found.items():
        assert rows == expected, reader


@pytest.mark.skipif(not DEALER_FILE.is_file(), reason="needs the corpus")
@pytest.mark.parametrize(("real", "found"), [(DEALER_FILE, lambda event: "./dlr/" in event),
                                             (LONG_FILE, lambda event: len(event) > 240)])
def test_real_events_keep_their_values(by_year_event, real, found):
    table = ds.dataset(by_year_event, format="parquet", partitioning="hive").to_table(
        filter=ds.field("path") == str(real), columns=["event", "event_key"])
    events = set(table.column("event").to_pylist())
    assert any(event and found(event) for event in events)
    assert set(table.column("event_key").to_pylist()) == {key_value(e) for e in events}


def test_a_key_given_twice_is_refused(inputs, tmp_path):
    with pytest.raises(dataset.DatasetError, match="twice"):
        convert(inputs, tmp_path / "set", partition_by=["event", "event"])


# -- compact -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def many(tmp_path_factory) -> list[Path]:
    """A large generated file (cut in several units) among the small sample files."""
    folder = tmp_path_factory.mktemp("many")
    return [generate_boards(folder / "big.pbn", 900, 17), *sorted(SAMPLE_DATA.glob("*.pbn"))]


def converted(inputs: list[Path], out: Path, **options) -> Path:
    convert(inputs, out, units=list(plan(inputs, jobs=8)), **options)
    return out


def manifest_is_true(out: Path) -> dict:
    manifest = json.loads((out / "_SUCCESS").read_text())
    if manifest["manifest"] == dataset.MANIFEST_VERSION:
        jsonschema.validate(manifest, json.loads(
            (SCHEMAS / f"dataset-manifest.v{dataset.MANIFEST_VERSION}.json").read_text()))
    names = [part["name"] for part in manifest["parts"]]
    assert sorted(names) == sorted(str(p.relative_to(out)) for p in out.rglob("*.parquet"))
    for part in manifest["parts"]:
        assert pq.ParquetFile(out / part["name"]).metadata.num_rows == part["rows"]
    assert not list(out.rglob(f"*{compacting.WRITING}"))
    return manifest


@pytest.mark.parametrize("partition_by", [(), ("year",)])
def test_compact_merges_small_parts_in_record_order(many, tmp_path, partition_by):
    before = converted(many, tmp_path / "before", partition_by=list(partition_by))
    out = converted(many, tmp_path / "set", partition_by=list(partition_by))
    parts = len(manifest_is_true(out)["parts"])
    done = compacting.compact(out)
    manifest = manifest_is_true(out)
    assert done.parts_before == parts and done.parts_after == len(manifest["parts"]) < parts
    assert contents(out) == contents(before)
    assert manifest["partitioning"] == json.loads((before / "_SUCCESS").read_text())["partitioning"]
    for jobs in ("1", "3"):
        assert run_pbnkit("rescore", "-j", jobs, "--format", "json", out) == \
            run_pbnkit("rescore", "-j", jobs, "--format", "json", before)
    assert run_pbnkit("export", out, "-o", "-") == run_pbnkit("export", before, "-o", "-")
    again = compacting.compact(out)  # nothing left to merge
    assert again.parts_before == again.parts_after == done.parts_after


def test_compact_keeps_to_the_targets(many, tmp_path):
    out = converted(many, tmp_path / "set")
    before = contents(out)
    compacting.compact(out, target_rows=300)
    manifest = manifest_is_true(out)
    merged = [part for part in manifest["parts"] if "compacted" in part["name"]]
    assert merged and all(part["rows"] <= 300 for part in merged)
    assert contents(out) == before
    compacting.compact(out, target_bytes=1)  # each part larger alone: nothing changes
    assert manifest_is_true(out) == manifest


def test_a_compaction_cut_short_is_finished_by_the_next(many, tmp_path, monkeypatch):
    out = converted(many, tmp_path / "set")
    before = contents(out)

    def cut(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(dataset, "write_manifest", cut)  # after the merged files are named
    with pytest.raises(KeyboardInterrupt):
        compacting.compact(out)
    assert contents(out) == before  # the old manifest, its parts all there
    monkeypatch.undo()
    compacting.compact(out)
    manifest_is_true(out)
    assert contents(out) == before


def test_the_compact_command(many, tmp_path):
    from click.testing import CliRunner

    from pbnkit.cli import main

    out = converted(many, tmp_path / "set")
    result = CliRunner().invoke(main, ["compact", str(out), "--target-bytes", "64M"])
    assert result.exit_code == 0, result.stderr
    assert re.search(r"\d+ parts \(.*\) became \d+ \(", result.stderr)
    manifest_is_true(out)
    for missing in (tmp_path / "nothing", tmp_path / "set" / "_SUCCESS"):
        result = CliRunner().invoke(main, ["compact", str(missing)])
        assert result.exit_code == 2 and "dataset" in result.stderr
    result = CliRunner().invoke(main, ["compact", str(out), "--target-bytes", "lots"])
    assert result.exit_code == 2 and "not a size" in result.stderr


def test_a_dataset_of_manifest_version_1_keeps_its_layout(many, tmp_path):
    """Before version 2 a column's key was the column itself (``scoring=IMP/``), not in
    the files: compact merges within those directories and says the same of them."""
    out = converted(many, tmp_path / "set", partition_by=["scoring"])
    for part in list(out.rglob("*.parquet")):
        old = part.parent.parent / part.parent.name.replace("scoring_key=", "scoring=")
        old.mkdir(exist_ok=True)
        pq.write_table(pq.read_table(part).drop_columns(["scoring"]), old / part.name)
        part.unlink()
    manifest = json.loads((out / "_SUCCESS").read_text())
    manifest["manifest"] = 1
    manifest["partitioning"] = [{"name": "scoring", "type": "string"}]
    for part in manifest["parts"]:
        part["name"] = part["name"].replace("scoring_key=", "scoring=")
    (out / "_SUCCESS").write_text(json.dumps(manifest))
    for entry in out.iterdir():
        if entry.is_dir() and not any(entry.iterdir()):
            entry.rmdir()
    before = contents(out)
    compacting.compact(out)
    after = manifest_is_true(out)
    assert after["manifest"] == 1 and after["partitioning"] == manifest["partitioning"]
    assert len(after["parts"]) < len(manifest["parts"])
    assert all(part["name"].startswith("scoring=") for part in after["parts"])
    assert contents(out) == before


def test_the_manifest_schema_is_a_valid_draft_2020_12_schema():
    jsonschema.Draft202012Validator.check_schema(json.loads(
        (SCHEMAS / f"dataset-manifest.v{dataset.MANIFEST_VERSION}.json").read_text()))
