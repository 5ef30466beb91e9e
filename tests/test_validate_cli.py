"""``pbnkit validate``: output formats, code selection, exit codes, the JSON schema."""

from __future__ import annotations

import json
import re

import jsonschema
import pytest
from click.testing import CliRunner

from pbnkit.cli import main
from tests.conftest import CORPUS, SAMPLE_DATA, SCHEMAS

BAD = '[Event "x"]\n[Board "1"]\n[Dealer "Q"]\n[Deal "N:AKQ.... - - -"]\n[Wrong "tag"]\n'


@pytest.fixture
def bad_file(tmp_path):
    path = tmp_path / "bad.pbn"
    path.write_text(BAD)
    return path


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_text_format_is_path_line_col_code_name_message(bad_file):
    result = run("validate", bad_file)
    assert result.exit_code == 1
    assert f"{bad_file}:3:10: TG004 [invalid-seat] dealer 'Q' is not W, N, E or S" in result.output


def test_info_findings_are_hidden_unless_asked(bad_file):
    assert "TG003" not in run("validate", bad_file).output
    assert "TG003" in run("validate", "--min-severity", "info", bad_file).output


def test_select_and_ignore_take_code_prefixes(bad_file):
    selected = run("validate", "--select", "DL", bad_file).output
    assert "DL001" in selected and "TG004" not in selected
    ignored = run("validate", "--ignore", "TG,DL", bad_file)
    assert "TG004" not in ignored.output and "DL001" not in ignored.output
    assert ignored.exit_code == 0


def test_json_document_validates_against_the_schema(bad_file):
    result = run("validate", "--format", "json", bad_file)
    document = json.loads(result.output)
    schema = json.loads((SCHEMAS / "validate-report.v1.json").read_text())
    jsonschema.validate(document, schema)
    # Dealer 'Q' (TG004) and a hand of five suits (DL001); the unknown tag is only info.
    assert document["summary"] == {"files": 1, "games": 1, "errors": 2, "warnings": 0}
    assert [d["code"] for d in document["diagnostics"]] == ["TG004", "DL001"]


@pytest.mark.slow
def test_json_of_the_whole_corpus_validates_against_the_schema():
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is absent")
    result = run("validate", "--format", "json", "--min-severity", "info", "-q", CORPUS)
    document = json.loads(result.output)
    jsonschema.validate(document, json.loads((SCHEMAS / "validate-report.v1.json").read_text()))
    # Every PBN and LIN file, found in any case of the suffix.
    assert document["summary"]["files"] == sum(
        1 for p in CORPUS.rglob("*") if p.suffix.lower() in (".pbn", ".lin"))
    assert document["summary"]["games"] == sum(f["games"] for f in document["files"])


def test_clean_file_exits_zero(tmp_path):
    path = tmp_path / "ok.pbn"
    path.write_text('[Event "x"]\n[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n')
    assert run("validate", path).exit_code == 0


def test_missing_path_is_a_usage_error():
    result = run("validate", "no/such/file.pbn")
    assert result.exit_code == 2 and "no such file" in result.output


def test_unreadable_file_exits_two_and_the_others_are_still_checked(tmp_path, monkeypatch):
    import pbnkit.pipeline.units as units

    good, locked = tmp_path / "a.pbn", tmp_path / "b.pbn"
    good.write_text('[Board "1"]\n[Dealer "Q"]\n')
    locked.write_text('[Board "1"]\n')
    real_reader = units.Unit.reader

    def reader(unit, *args, **kwargs):
        if unit.path == str(locked):
            raise PermissionError(13, "Permission denied", str(locked))
        return real_reader(unit, *args, **kwargs)

    monkeypatch.setattr(units.Unit, "reader", reader)
    result = run("validate", "-j", "1", good, locked)
    assert result.exit_code == 2
    assert f"pbnkit: {locked}: cannot read: Permission denied" in result.output
    assert "TG004" in result.output


def test_directories_are_searched_for_pbn_files(tmp_path):
    (tmp_path / "a.pbn").write_text('[Board "1"]\n')
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.pbn").write_text('[Board "2"]\n')
    (tmp_path / "notes.txt").write_text("not pbn")
    result = run("validate", "--format", "json", tmp_path)
    assert json.loads(result.output)["summary"]["files"] == 2


def test_every_code_is_documented_and_the_docs_page_is_current():
    from pbnkit.codes import all_codes, markdown

    for code in all_codes():
        assert code.summary and code.name == code.name.lower()
    page = (SAMPLE_DATA.parent / "docs" / "codes.md").read_text()
    assert page == markdown(), "run: pbnkit codes --format markdown > docs/codes.md"


def test_codes_command_explains_one_code():
    result = run("codes", "dl003")
    assert result.exit_code == 0 and "duplicate-card" in result.output
    assert "docs/pbn.md#the-deal-dl" in result.output


def test_codes_command_explains_every_listed_code():
    listed = [line.split()[0] for line in run("codes").output.splitlines()]
    assert "SC020" in listed and "SC030" in listed
    for code in listed:
        result = run("codes", code)
        assert result.exit_code == 0 and result.output.startswith(code), code


def test_codes_command_lists_a_family_and_suggests_for_a_typo():
    family = run("codes", "SC02").output.splitlines()
    assert family and all(line.startswith("SC02") for line in family)
    typo = run("codes", "DLOO5")
    assert typo.exit_code == 2 and "did you mean DL005?" in typo.output


def test_every_code_links_to_the_rules_page_and_its_section_exists():
    from pbnkit.codes import all_codes, rules_link

    page = (SAMPLE_DATA.parent / "docs" / "pbn.md").read_text()
    headings = {"pbn.md#" + re.sub(r"[^a-z0-9 -]", "", line[3:].lower()).replace(" ", "-")
                for line in page.splitlines() if line.startswith("## ")}
    assert {rules_link(code.code) for code in all_codes()} <= headings


def test_sample_data_validates_without_errors():
    result = run("validate", "-q", SAMPLE_DATA)
    assert result.exit_code == 0, result.output


def test_table_with_a_short_last_row_is_reported(tmp_path):
    path = tmp_path / "table.pbn"
    path.write_text('[Board "1"]\n[OptimumResultTable "Declarer;Denomination;Result"]\n'
                    "N S 9\nN H\n")
    result = run("validate", path)
    assert f"{path}:4:1: TG016 [bad-table] OptimumResultTable ends with an incomplete row" in result.output


def test_a_bug_in_a_check_is_reported_and_the_other_games_are_checked(tmp_path, monkeypatch):
    import pbnkit.rules.report as report

    path = tmp_path / "two.pbn"
    path.write_text('[Board "1"]\n[Dealer "Q"]\n\n[Board "2"]\n[Dealer "X"]\n')
    real_check = report.check_game

    def check_game(game, strict=False):
        if game.board == "1":
            raise ZeroDivisionError("boom")
        return real_check(game, strict)

    monkeypatch.setattr(report, "check_game", check_game)
    result = run("validate", "-j", "1", path)
    assert result.exit_code == 101  # a pbnkit bug, told apart from bad input
    assert "internal error in the game at line 1: ZeroDivisionError: boom" in result.output
    assert ":5:10: TG004" in result.output  # the second game was still checked


def test_an_unexpected_error_is_one_line_and_exit_101(monkeypatch):
    import pbnkit.scoring.report as report

    def broken(*args, **kwargs):
        raise RuntimeError("kaput")

    monkeypatch.setattr(report, "score_collected", broken)
    result = run("score", SAMPLE_DATA / "team_match.pbn")
    assert result.exit_code == 101
    assert "pbnkit: internal error: RuntimeError: kaput" in result.output
    assert "Traceback" not in result.output
