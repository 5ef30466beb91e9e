"""Every real file of the corpus (``CORPUS``) is read and validated without a traceback.

Game counts are checked against two independent sources: the corpus's manifest counts the games
that carry a Board tag, and a naive count of blank-line-separated blocks holding a tag
gives the total wherever no {comment} contains a blank line (those files were checked by
eye and are listed below with the reason).
"""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

import pbnkit
from pbnkit.cli import main
from tests.conftest import CORPUS, corpus_params

# Files whose {commentary} holds blank lines, so the naive block count is too high.
# Checked by eye: each game has one "{Score Table:\n\n...}" comment (or, in the
# BridgeComposer test, one comment with an empty line), which PBN 3 says does not end
# the game.
COMMENT_BLANK_LINES = {
    "timheilman__bridge-pbn/spec/resource/test_record_with_empty_line_in_comment.pbn": 1,
    "lorserker__ben/Challenges/Results/CTC_mayjun20-GIB-BBO-8734.pbn": 1,
    "lorserker__ben/Challenges/Results/oct13_feb23_nov23_jun24-BBA8663.pbn": 40,
}


def naive_game_count(path) -> int:
    text = path.read_bytes().decode("latin-1").replace("\r\n", "\n").replace("\r", "\n")
    return sum(1 for block in re.split(r"\n[ \t]*\n", text)
               if re.search(r"(?m)^[ \t]*\[", block))


@pytest.mark.parametrize("row", corpus_params())
def test_corpus_file_reads_with_the_expected_game_count(row):
    path = CORPUS / row["path"]
    reader = pbnkit.read(path)
    games = list(reader)
    with_board = sum(1 for game in games if game.tag("Board") is not None)
    assert with_board == int(row["n_boards"])
    expected = COMMENT_BLANK_LINES.get(row["path"]) or naive_game_count(path)
    assert len(games) == expected
    assert reader.encoding


@pytest.mark.parametrize("row", corpus_params())
def test_corpus_file_validates_without_traceback(row):
    result = CliRunner().invoke(main, ["validate", "--format", "json", "-q",
                                       str(CORPUS / row["path"])])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert result.exit_code in (0, 1)


@pytest.mark.parametrize("name", ["errors_10.pbn", "errors_21.pbn"])
def test_reference_negative_tests_give_errors(name):
    path = CORPUS / "timheilman__bridge-pbn/spec/resource/reference_impl_tests" / name
    if not path.is_file():
        pytest.skip("../shared/corpus is absent")
    result = CliRunner().invoke(main, ["validate", "-q", "--min-severity", "error", str(path)])
    assert result.exit_code == 1
    assert " errors," in result.output and not result.output.strip().endswith(": 0 errors, 0 warnings")


def test_errors_10_findings_cover_the_verifier_families():
    path = CORPUS / "timheilman__bridge-pbn/spec/resource/reference_impl_tests/errors_10.pbn"
    if not path.is_file():
        pytest.skip("../shared/corpus is absent")
    from pbnkit.rules import check_game

    codes = {d.code for game in pbnkit.read(path) for d in check_game(game)}
    # The file's own comments announce: bad characters, unknown tag names, bad values,
    # bad inheritance, bad deals.
    assert {"SY003", "TG003", "TG004", "TG002", "DL003", "DL004"} <= codes


@pytest.mark.parametrize("relative", [
    "lorserker__ben/Boards/Practice Bidding Scenarios/Transfer_Advances.pbn",  # zero bytes
    "zdenecek__pbn/pbn_files/empty.pbn",  # % PBN 2.1 / % EXPORT only
])
def test_empty_and_header_only_files_have_no_games_and_no_errors(relative):
    path = CORPUS / relative
    if not path.is_file():
        pytest.skip("../shared/corpus is absent")
    reader = pbnkit.read(path)
    assert list(reader) == [] and reader.diagnostics == []
    result = CliRunner().invoke(main, ["validate", "-q", str(path)])
    assert result.exit_code == 0


@pytest.mark.parametrize("row", corpus_params())
def test_pbnkits_export_format_of_every_file_passes_the_tag_order_check(row):
    """Export format puts the tables last, sorted by name (PBN 3.1); what pbnkit writes as
    export format must pass its own --strict tag checks (the first 40 games of each file)."""
    import io
    import itertools

    from pbnkit.export.canonical import export_form
    from pbnkit.pbn.writer import PbnWriter
    from pbnkit.rules import check_game

    path = CORPUS / row["path"]
    if path.suffix.lower() != ".pbn":
        pytest.skip("not a PBN file")
    out = io.StringIO()
    writer = PbnWriter(out, export_format=True)
    for game in itertools.islice(pbnkit.read(path), 40):
        writer.write(export_form(game))
    found = [d.format() for game in pbnkit.read_text(out.getvalue())
             for d in check_game(game, strict=True) if d.code in ("TG101", "TG102")]
    assert found == []
