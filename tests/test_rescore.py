"""``pbnkit rescore`` and ``pbnkit score -o``: archives re-scored without the PBN files,
score tables written with their fixed schemas."""

from __future__ import annotations

import json

import jsonschema
import pyarrow.parquet as pq
from click.testing import CliRunner

from pbnkit.cli import main
from pbnkit.export.score_tables import TABLES, arrow_schema_json
from tests.conftest import SAMPLE_DATA, SCHEMAS


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_rescore_of_an_archive_equals_scoring_the_pbn(tmp_path):
    for suffix in (".parquet", ".jsonl"):
        archive = tmp_path / f"match{suffix}"
        assert run("convert", "-q", SAMPLE_DATA / "team_match.pbn", "-o", archive).exit_code == 0
        direct = json.loads(run("score", "--format", "json", SAMPLE_DATA / "team_match.pbn").output)
        rescored = json.loads(run("rescore", archive, "--profile", "duplicate", "--format", "json").output)
        assert rescored["matches"] == direct["matches"]
        assert [b["score_ns"] for b in rescored["boards"]] == [b["score_ns"] for b in direct["boards"]]


def test_contract_rubber_archive_rescored_under_1920_rules(tmp_path):
    archive = tmp_path / "rubber.parquet"
    run("convert", "-q", SAMPLE_DATA / "rubber_contract.pbn", "-o", archive)
    document = json.loads(run("rescore", archive, "--profile", "auction-1920", "--format", "json").output)
    jsonschema.validate(document, json.loads((SCHEMAS / "score-report.v2.json").read_text()))
    assert document["profile"] == "auction-1920"
    # Deal 1 (README 2.1): 2H by N making 9. In the 1920 code all tricks over six count
    # below: (9 - 6) x 8 = 24; honours A Q of hearts with N, K with S = 3 held by NS: 2v = 16.
    entries = {(e["side"], e["line"], e["reason"], e["points"])
               for e in document["rubbers"][0]["deals"][0]["entries"]}
    assert ("NS", "below", "tricks", 24) in entries
    assert ("NS", "above", "honours", 16) in entries


def test_rescore_needs_a_profile_and_an_archive(tmp_path):
    assert run("rescore", SAMPLE_DATA / "nothing.parquet", "--profile", "rubber").exit_code == 2
    not_archive = tmp_path / "x.parquet"
    not_archive.write_text("not parquet")
    result = run("rescore", not_archive, "--profile", "rubber")
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_score_parquet_tables_follow_the_fixed_schema(tmp_path):
    out = tmp_path / "results.parquet"
    result = run("score", SAMPLE_DATA / "rubber_contract.pbn", "-o", out)
    assert result.exit_code == 0, result.output
    for name, schema in TABLES.items():
        table = pq.read_table(tmp_path / f"results.{name}.parquet")
        assert table.schema.remove_metadata().equals(schema)
        assert table.schema.metadata[b"pbnkit.profile"] == b"rubber"
    rubbers = pq.read_table(tmp_path / "results.rubbers.parquet").to_pylist()
    assert [r["margin"] for r in rubbers] == [630, 290]  # sample_data/README.md 2.2, 2.3


def test_score_output_is_not_replaced_without_force(tmp_path):
    out = tmp_path / "results.json"
    assert run("score", SAMPLE_DATA / "team_match.pbn", "-o", out).exit_code == 0
    again = run("score", SAMPLE_DATA / "team_match.pbn", "-o", out)
    assert again.exit_code == 2 and "--force" in again.output
    assert run("score", SAMPLE_DATA / "team_match.pbn", "-o", out, "--force").exit_code == 0
    jsonschema.validate(json.loads(out.read_text()),
                        json.loads((SCHEMAS / "score-report.v2.json").read_text()))


def test_score_tables_schema_file_is_current():
    assert json.loads((SCHEMAS / "score-tables.v2.arrow.json").read_text()) == arrow_schema_json()
    assert json.loads((SCHEMAS / "score-tables.v1.arrow.json").read_text())["version"] == 1
