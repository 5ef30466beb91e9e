"""The stable record id: from the whole file's bytes and the record's index, so the same
on every run, every -j (chunks of a file too) and for a copy under another name; the
score tables join the boards on it."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pyarrow.parquet as pq

from pbnkit.pipeline.convert import convert
from pbnkit.pipeline.units import plan
from tests.conftest import SAMPLE_DATA, run_pbnkit

TEAMS = SAMPLE_DATA / "team_match.pbn"


def ids(archive: Path) -> list[tuple[str, int, str | None]]:
    table = pq.read_table(archive, columns=["path", "index", "record_id"])
    return list(zip(*(table.column(name).to_pylist() for name in table.column_names)))


def test_ids_are_the_same_at_any_jobs_and_on_every_run(tmp_path, monkeypatch):
    monkeypatch.setattr("pbnkit.pipeline.units.MIN_CHUNK", 1 << 10)
    assert len(list(plan([TEAMS], 2))) > 1  # the file is read in chunks at -j 2
    convert([TEAMS], tmp_path / "one.parquet", jobs=1)
    convert([TEAMS], tmp_path / "two.parquet", jobs=2)
    convert([TEAMS], tmp_path / "again.parquet", jobs=1)
    first = ids(tmp_path / "one.parquet")
    assert first == ids(tmp_path / "two.parquet") == ids(tmp_path / "again.parquet")
    record_ids = [record_id for _, _, record_id in first]
    assert all(len(record_id) == 32 for record_id in record_ids)
    assert len(set(record_ids)) == len(record_ids) == 8  # a record each


def test_a_copy_under_another_name_keeps_its_ids_and_another_file_has_others(tmp_path):
    copy = tmp_path / "renamed.pbn"
    shutil.copyfile(TEAMS, copy)
    other = tmp_path / "other.pbn"
    other.write_bytes(TEAMS.read_bytes() + b"\n")  # one byte more: another file
    convert([TEAMS, copy, other], tmp_path / "all.parquet")
    by_path: dict[str, list[str]] = {}
    for path, _, record_id in ids(tmp_path / "all.parquet"):
        by_path.setdefault(Path(path).name, []).append(record_id)
    assert by_path["team_match.pbn"] == by_path["renamed.pbn"]
    assert not set(by_path["team_match.pbn"]) & set(by_path["other.pbn"])


def test_a_file_without_records_has_a_null_id(tmp_path):
    empty = tmp_path / "empty.pbn"
    empty.write_text("% nothing here\n")
    convert([empty], tmp_path / "empty.parquet")
    assert [record_id for _, _, record_id in ids(tmp_path / "empty.parquet")] == [None]


def test_score_and_rescore_tables_join_the_boards_on_the_id(tmp_path):
    archive = tmp_path / "boards.parquet"
    convert([TEAMS], archive)
    assert run_pbnkit("score", TEAMS, "-o", tmp_path / "scored.parquet")[0] == 0
    assert run_pbnkit("rescore", archive, "--profile", "duplicate", "-o",
                      tmp_path / "rescored.parquet")[0] == 0
    for name in ("scored", "rescored"):
        results = tmp_path / f"{name}.boards.parquet"
        joined = duckdb.sql(
            f"SELECT r.path, r.index, b.path, b.index FROM '{results}' r "
            f"JOIN '{archive}' b USING (record_id)").fetchall()
        assert len(joined) == pq.read_metadata(results).num_rows == 8
        assert all(r_index == b_index and Path(r_path).name == Path(b_path).name
                   for r_path, r_index, b_path, b_index in joined)
