"""Datasets that survive an interrupted run (``convert --resume``) and datasets cut into
hive partitions (``--partition-by``)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from pbnkit.pipeline import convert as pipeline
from pbnkit.export.archive import read_archive
from pbnkit.export.atomic import OutputExistsError, partial_of
from pbnkit.export.dataset import DatasetError, key_value
from pbnkit.export.journal import PROGRESS
from pbnkit.pipeline.convert import convert
from pbnkit.pipeline.units import plan
from tests.conftest import SAMPLE_DATA, generate_boards


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> list[Path]:
    folder = tmp_path_factory.mktemp("resume")
    big = generate_boards(folder / "big.pbn", 1500, 11)
    return [big, *sorted(SAMPLE_DATA.glob("*.pbn"))]


def units_of(inputs: list[Path]) -> list:
    """Small chunks, so that the big file makes several units."""
    return list(plan(inputs, jobs=8))


def contents(out: Path) -> list[tuple]:
    return [(g.path, g.index, g.same_content(g), tuple(g.values.items()))
            for g in read_archive(out)]


class Interrupt:
    """convert_unit that is interrupted (as by Ctrl-C) at its ``at``-th call."""

    def __init__(self, at: int):
        self.at, self.calls = at, []

    def __call__(self, options, unit):
        self.calls.append((unit.path, unit.chunk))
        if len(self.calls) == self.at:
            raise KeyboardInterrupt
        return REAL(options, unit)


REAL = pipeline.convert_unit


def test_an_interrupted_dataset_is_finished_by_resume(inputs, tmp_path, monkeypatch):
    units = units_of(inputs)
    assert len(units) >= 5
    whole = tmp_path / "whole"
    convert(inputs, whole, units=units)

    out = tmp_path / "set"
    monkeypatch.setattr(pipeline, "convert_unit", Interrupt(4))
    with pytest.raises(KeyboardInterrupt):
        convert(inputs, out, units=units)
    assert not out.exists()
    partial = partial_of(out)
    assert not (partial / "_SUCCESS").exists()
    assert len(list((partial / PROGRESS).glob("*.json"))) == 3  # the units merged before

    again = Interrupt(0)
    monkeypatch.setattr(pipeline, "convert_unit", again)
    summary = convert(inputs, out, units=units, resume=True)
    assert len(again.calls) == len(units) - 3  # only the units not finished
    assert not partial.exists() and not (out / PROGRESS).exists()
    assert summary.records == sum(1 for _ in read_archive(whole))
    assert contents(out) == contents(whole)
    manifest = json.loads((out / "_SUCCESS").read_text())
    assert sorted(p["name"] for p in manifest["parts"]) == sorted(p.name for p in out.glob("*.parquet"))


def test_work_left_behind_is_not_overwritten_without_resume_or_force(inputs, tmp_path, monkeypatch):
    units = units_of(inputs)
    out = tmp_path / "set"
    monkeypatch.setattr(pipeline, "convert_unit", Interrupt(2))
    with pytest.raises(KeyboardInterrupt):
        convert(inputs, out, units=units)
    monkeypatch.setattr(pipeline, "convert_unit", REAL)
    with pytest.raises(OutputExistsError, match="--resume"):
        convert(inputs, out, units=units)
    convert(inputs, out, units=units, force=True)
    assert not partial_of(out).exists()
    with pytest.raises(OutputExistsError, match="nothing to resume"):
        convert(inputs, out, units=units, resume=True)


def test_a_changed_source_is_converted_again(inputs, tmp_path, monkeypatch):
    units = units_of(inputs)
    out = tmp_path / "set"
    monkeypatch.setattr(pipeline, "convert_unit", Interrupt(len(units)))  # all but the last
    with pytest.raises(KeyboardInterrupt):
        convert(inputs, out, units=units)
    sample = inputs[1]
    stat = os.stat(sample)
    os.utime(sample, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    try:
        again = Interrupt(0)
        monkeypatch.setattr(pipeline, "convert_unit", again)
        convert(inputs, out, units=units, resume=True)
    finally:
        os.utime(sample, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert sorted(again.calls) == sorted([(str(sample), 0), (units[-1].path, units[-1].chunk)])


def test_resume_refuses_other_outputs(inputs, tmp_path):
    with pytest.raises(pipeline.ArchiveError, match="dataset"):
        convert(inputs, tmp_path / "a.parquet", resume=True)


def test_a_dataset_is_cut_into_hive_partitions(inputs, tmp_path):
    out = tmp_path / "set"
    convert(inputs, out, partition_by=["year", "scoring"])
    manifest = json.loads((out / "_SUCCESS").read_text())
    assert manifest["manifest"] == 2
    assert manifest["partitioning"] == [{"name": "year", "type": "int16", "key": "year"},
                                        {"name": "scoring", "type": "string",
                                         "key": "scoring_key"}]
    names = [part["name"] for part in manifest["parts"]]
    assert all(name.startswith("year=") and "/scoring_key=" in name for name in names)
    assert sorted(names) == sorted(str(p.relative_to(out)) for p in out.rglob("*.parquet"))
    # other tools read the partitions back as columns; the column itself stays in the files
    partitioning = ds.partitioning(flavor="hive")
    table = ds.dataset(out, format="parquet", partitioning=partitioning).to_table()
    whole = pq.read_table(convert_one(inputs, tmp_path / "one.parquet"))
    assert table.num_rows == whole.num_rows
    years = {(row["path"], row["index"]): row["year"] for row in
             table.select(["path", "index", "year"]).to_pylist()}
    # a record without a date is in year=0: never a null key (see test_dataset_readers)
    expected = {(row["path"], row["index"]): row["date"].year if row["date"] else 0
                for row in whole.select(["path", "index", "date"]).to_pylist()}
    assert set(expected.values()) - {0}  # some boards have a date
    assert years == expected
    scorings = {(row["path"], row["index"]): (row["scoring"], row["scoring_key"])
                for row in table.select(["path", "index", "scoring", "scoring_key"]).to_pylist()}
    assert {key for key, _ in scorings.items()} == set(expected)
    assert all(key == key_value(scoring) for scoring, key in scorings.values())
    assert {scoring for scoring, _ in scorings.values()} == \
        set(whole.column("scoring").to_pylist())


def convert_one(inputs, out: Path) -> Path:
    convert(inputs, out)
    return out


def test_partitions_must_be_columns_of_one_value(inputs, tmp_path):
    with pytest.raises(DatasetError, match="no such column"):
        convert(inputs, tmp_path / "set", partition_by=["weather"])
    with pytest.raises(DatasetError, match="holds a list"):
        convert(inputs, tmp_path / "set", partition_by=["auction"])
    with pytest.raises(pipeline.ArchiveError, match="dataset"):
        convert(inputs, tmp_path / "a.parquet", partition_by=["year"])


def test_each_part_is_one_row_group(inputs, tmp_path):
    out = tmp_path / "set"
    convert(inputs, out, units=units_of(inputs))
    for part in out.glob("*.parquet"):
        assert pq.ParquetFile(part).metadata.num_row_groups == 1


def test_the_command_says_how_to_finish_an_interrupted_run(inputs, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from pbnkit.cli import main

    out = tmp_path / "set"
    args = ["convert", "-q", "-j", "1", *map(str, inputs), "-o", str(out)]
    monkeypatch.setattr(pipeline, "convert_unit", Interrupt(2))
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 130
    assert "interrupted" in result.stderr and "--resume" in result.stderr
    assert str(partial_of(out)) in result.stderr
    monkeypatch.setattr(pipeline, "convert_unit", REAL)
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2 and "--resume" in result.stderr
    result = CliRunner().invoke(main, [*args, "--resume", "--partition-by", "year"])
    assert result.exit_code == 0, result.stderr
    assert all(p.parent.name.startswith("year=") for p in out.rglob("*.parquet"))


@pytest.mark.slow
def test_pbnkit_reads_a_partitioned_dataset_as_the_flat_one(inputs, tmp_path):
    from tests.conftest import run_pbnkit

    flat, cut = tmp_path / "flat", tmp_path / "cut"
    convert(inputs, flat, units=units_of(inputs))
    convert(inputs, cut, units=units_of(inputs), partition_by=["scoring", "year"])
    assert contents(cut) == contents(flat)
    for jobs in ("1", "2"):
        for profile in ("duplicate", "rubber"):
            found = run_pbnkit("rescore", "-j", jobs, "--profile", profile, "--format", "json", cut)
            assert found == run_pbnkit("rescore", "-j", jobs, "--profile", profile,
                                       "--format", "json", flat)


@pytest.mark.slow
@pytest.mark.parametrize("check", [True, False])
def test_a_file_cut_in_chunks_is_taken_up_whole_when_checked(inputs, tmp_path, monkeypatch,
                                                              check):
    from pbnkit.export.archive import archive_rows

    units = units_of(inputs)
    assert units[0].resume is not None and not units[0].is_last  # the big file is cut
    whole = tmp_path / "whole"
    convert(inputs, whole, units=units, check=check)
    out = tmp_path / "set"
    monkeypatch.setattr(pipeline, "convert_unit", Interrupt(2))  # after its first chunk
    with pytest.raises(KeyboardInterrupt):
        convert(inputs, out, units=units, check=check)
    again = Interrupt(0)
    monkeypatch.setattr(pipeline, "convert_unit", again)
    convert(inputs, out, units=units, check=check, resume=True)
    # the checks across a file's records need all of them: its first chunk is redone
    assert (units[0].path, 0) in again.calls if check else (units[0].path, 0) not in again.calls
    assert [row["diagnostics"] for row in archive_rows(out)] == \
        [row["diagnostics"] for row in archive_rows(whole)]
