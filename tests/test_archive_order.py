"""Issue 8, order-independent: every reader of an archive (``rescore`` at any ``-j``,
``export``, ``read_archive``) gives the records in record order, whatever the order of the
rows, row groups, files or dataset parts (another engine, or a tool that rewrote the
archive, may store them in any order)."""

from __future__ import annotations

import json
import random
import shutil
import warnings
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pbnkit

from pbnkit.export import archive as archive_module
from pbnkit.export.archive import ArchiveOrderWarning, iter_archive, read_archive
from pbnkit.pipeline.convert import convert
from pbnkit.export.archive_units import plan_archive
from tests.conftest import SAMPLE_DATA, run_pbnkit, sources_that_inherit

RUBBER = SAMPLE_DATA / "rubber_contract.pbn"
#: a single file does not record the order its sources were given in: shuffled, it gives
#: them sorted by path, so the reference converts them in that order
SORTED = sorted(SAMPLE_DATA.glob("*.pbn"))
#: a dataset does record it: any order comes back
GIVEN = [SAMPLE_DATA / "team_match.pbn", RUBBER, SAMPLE_DATA / "rubber_auction1920.pbn"]
FORMATS = ["a.parquet", "a.json", "a.jsonl", "dataset"]


# -- Disordered archives, built from a normal one -----------------------------------------------

def reversed_order(count: int) -> list[int]:
    return list(range(count))[::-1]


def shuffled_order(count: int) -> list[int]:
    order = list(range(count))
    random.Random(8).shuffle(order)
    return order


def blocks_reversed(count: int) -> list[int]:
    """Blocks of three rows (row groups, in Parquet) in reverse order, each in order."""
    blocks = [list(range(start, min(start + 3, count))) for start in range(0, count, 3)]
    return [n for block in blocks[::-1] for n in block]


DISORDERS = {"reversed": reversed_order, "shuffled": shuffled_order,
             "row-groups": blocks_reversed}


def write_parquet(table: pa.Table, path: Path, order: list[int]) -> None:
    """The rows in ``order``, three to a row group, with the file's own metadata."""
    table = table.take(order)
    with pq.ParquetWriter(path, table.schema) as writer:
        for start in range(0, table.num_rows, 3):
            writer.write_table(table.slice(start, 3))


def json_records(lines: list[str]) -> tuple[str, list[str]]:
    """The header line and the record lines of a JSON archive (JsonSink's layout)."""
    assert lines[-1] == "]}"
    return lines[0], [line.removesuffix(",") for line in lines[1:-1]]


def disorder(archive: Path, out: Path, permute, parts_reversed: bool = False) -> Path:
    """A copy of ``archive`` with its rows (for a dataset: each part's rows) in the order
    ``permute(count)`` gives; a dataset's manifest may also list its parts reversed."""
    if archive.is_dir():
        shutil.copytree(archive, out)
        manifest = json.loads((out / "_SUCCESS").read_text())
        for part in manifest["parts"]:
            table = pq.read_table(archive / part["name"])
            write_parquet(table, out / part["name"], permute(table.num_rows))
        if parts_reversed:
            manifest["parts"].reverse()
            (out / "_SUCCESS").write_text(json.dumps(manifest))
    elif archive.suffix == ".parquet":
        table = pq.read_table(archive)
        write_parquet(table, out, permute(table.num_rows))
    elif archive.suffix == ".jsonl":
        lines = archive.read_text(encoding="utf-8").splitlines()
        out.write_text("".join(lines[n] + "\n" for n in permute(len(lines))), encoding="utf-8")
    else:
        header, records = json_records(archive.read_text(encoding="utf-8").splitlines())
        moved = [records[n] for n in permute(len(records))]
        out.write_text(header + "\n" + ",\n".join(moved) + "\n]}\n", encoding="utf-8")
    return out


def converted(paths: list[Path], out: Path) -> Path:
    convert(paths, out, batch_size=3)  # several row groups, so several units at -j 2
    return out


# -- What each reader gives ---------------------------------------------------------------------

def rescored(archive: Path, jobs: int, output: str = "text", profile: str = "rubber") -> str:
    code, text = run_pbnkit("rescore", "-q", "-j", jobs, "--profile", profile,
                            "--format", output, archive)
    assert code == 0, text
    return text


def exported(archive: Path, out: Path, *options: str) -> bytes:
    code, text = run_pbnkit("export", "-q", archive, "-o", out, "--force", *options)
    assert code == 0, text
    return out.read_bytes()


def records(archive: Path) -> list[tuple]:
    return [(a.game.path, a.game.index, a.game.line, a.game.tags, dict(a.game.values),
             a.game.diagnostics, a.encoding, a.trailer) for a in iter_archive(archive)]


def assert_read_alike(archive: Path, reference: Path, tmp_path: Path) -> None:
    assert records(archive) == records(reference)
    for options in ((), ("--export-format",)):
        assert (exported(archive, tmp_path / "out.pbn", *options)
                == exported(reference, tmp_path / "ref.pbn", *options))
    for output in ("text", "json"):
        expected = rescored(reference, 1, output)
        assert rescored(reference, 2, output) == expected
        assert rescored(archive, 1, output) == expected
        assert rescored(archive, 2, output) == expected


# -- The contract rubber of the issue ---------------------------------------------------------

@pytest.mark.parametrize("name", FORMATS)
def test_a_reversed_contract_rubber_is_scored_as_it_was_played(tmp_path, name):
    reference = converted([RUBBER], tmp_path / name)
    archive = disorder(reference, tmp_path / f"reversed-{name}", reversed_order)
    for jobs in (1, 2):
        text = rescored(archive, jobs)
        # sample_data/README.md 2.2: rubber 1 is NS 900, EW 270, NS win
        assert "total                    900           270" in text
        assert "NS wins by 630 (6 rubber points)" in text
        assert text == rescored(reference, jobs)
    document = json.loads(rescored(archive, 2, "json"))
    assert [r["margin"] for r in document["rubbers"]] == [630, 290]
    assert [g.index for g in read_archive(archive)] == list(range(7))


# -- Every format, every disorder ---------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("disordered", sorted(DISORDERS))
@pytest.mark.parametrize("name", FORMATS)
def test_rows_in_any_order_read_as_the_ordered_archive(tmp_path, name, disordered):
    reference = converted(GIVEN if name == "dataset" else SORTED, tmp_path / name)
    archive = disorder(reference, tmp_path / f"disordered-{name}", DISORDERS[disordered],
                       parts_reversed=name == "dataset")
    assert_read_alike(archive, reference, tmp_path)


def test_dataset_parts_listed_in_another_order_read_in_the_order_given(tmp_path):
    reference = converted(GIVEN, tmp_path / "dataset")
    archive = disorder(reference, tmp_path / "listed", lambda count: list(range(count)),
                       parts_reversed=True)
    assert_read_alike(archive, reference, tmp_path)
    assert [g.path for g in read_archive(archive)][:1] == [str(GIVEN[0])]


@pytest.mark.slow
def test_dataset_parts_of_one_file_cut_in_chunks(tmp_path, monkeypatch):
    monkeypatch.setattr("pbnkit.pipeline.units.MIN_CHUNK", 1 << 10)
    reference = converted([RUBBER, SAMPLE_DATA / "team_match.pbn"], tmp_path / "dataset")
    parts = json.loads((reference / "_SUCCESS").read_text())["parts"]
    assert sum("rubber_contract" in part["name"] for part in parts) > 1
    for disordered, permute in DISORDERS.items():
        archive = disorder(reference, tmp_path / disordered, permute, parts_reversed=True)
        assert_read_alike(archive, reference, tmp_path)


def test_whole_json_document_in_another_order(tmp_path):
    reference = converted(SORTED, tmp_path / "a.json")
    header, records = json_records(reference.read_text(encoding="utf-8").splitlines())
    document = json.loads(header[:-len('"records": [')].rstrip(", ") + "}")
    document["records"] = [json.loads(line) for line in records][::-1]
    archive = tmp_path / "whole.json"
    archive.write_text(json.dumps(document, indent=1), encoding="utf-8")
    assert_read_alike(archive, reference, tmp_path)


def test_json_lines_whose_keys_come_later_are_still_sorted(tmp_path):
    reference = converted([RUBBER], tmp_path / "a.jsonl")
    rows = [json.loads(line) for line in reference.read_text(encoding="utf-8").splitlines()]
    archive = tmp_path / "keys-last.jsonl"
    archive.write_text("".join(json.dumps(dict(reversed(row.items()))) + "\n"
                               for row in rows[::-1]), encoding="utf-8")
    assert records(archive) == records(reference)


# -- What the order can and cannot recover -----------------------------------------------------

def test_a_single_file_gives_shuffled_sources_sorted_by_path(tmp_path):
    reference = converted(GIVEN, tmp_path / "a.parquet")
    archive = disorder(reference, tmp_path / "b.parquet", shuffled_order)
    paths = [g.path for g in read_archive(archive)]
    assert paths == sorted(paths) and paths != [g.path for g in read_archive(reference)]
    indexes = {path: [g.index for g in read_archive(archive) if g.path == path]
               for path in paths}
    assert all(value == sorted(value) for value in indexes.values())


@pytest.mark.parametrize("name", ["a.parquet", "a.jsonl"])
def test_a_file_given_twice_comes_back_as_two_copies_with_a_warning(tmp_path, name):
    reference = converted([RUBBER, RUBBER], tmp_path / name)
    archive = disorder(reference, tmp_path / f"b-{name}", shuffled_order)
    with pytest.warns(ArchiveOrderWarning, match="repeat the .path, index."):
        games = records(archive)
    assert [game[1] for game in games] == list(range(7)) * 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an ordered archive has nothing to warn about
        assert games == records(reference)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ArchiveOrderWarning)
        assert rescored(archive, 2) == rescored(reference, 1)


def test_an_ordered_archive_is_not_sorted(tmp_path, monkeypatch):
    archives = [converted(SORTED, tmp_path / name) for name in FORMATS]

    def refused(*args, **kwargs):
        raise AssertionError("an ordered archive was sorted")

    monkeypatch.setattr(archive_module, "record_order", refused)
    monkeypatch.setattr("pbnkit.export.archive_units.record_order", refused)
    games = sum(1 for path in SORTED for _ in pbnkit.read(path))
    for archive in archives:
        assert len(list(read_archive(archive))) == games
    units = plan_archive(tmp_path / "a.parquet", 2)
    assert len(units) > 1 and all(unit.segments and not unit.picks for unit in units)  # cut inside its row group


@pytest.mark.parametrize("name", ["a.parquet", "dataset"])
def test_units_of_a_disordered_archive_begin_where_a_source_begins(tmp_path, name):
    """With ``#`` inheritance a unit must begin at a source's first record, as with an
    ordered archive; the units, one after another, read as the whole archive."""
    sources, event = sources_that_inherit(tmp_path)
    reference = converted(sources, tmp_path / name)
    archive = disorder(reference, tmp_path / f"b-{name}", shuffled_order, parts_reversed=True)
    units = plan_archive(archive, 3)
    assert len(units) > 1 and all(unit.picks for unit in units)
    games = [game for unit in units for game in unit.games()]
    expected = [(g.path, g.index) for g in read_archive(reference)]
    assert [(g.path, g.index) for g in games] == expected
    assert {g.value("Event") for g in games} == {event}
    assert sum(unit.size for unit in units) == 21
