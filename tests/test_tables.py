"""The syntax-level table reader: column specs and rows of a table section (PBN 2.1 section 5)."""

from __future__ import annotations

import pytest

import pbnkit
from pbnkit.pbn.records import ElementKind
from pbnkit.pbn.tables import (
    Column,
    column_problems,
    is_artificial,
    is_not_relevant,
    is_unknown,
    read_columns,
    read_table,
)
from tests.conftest import CORPUS


def table_of(text: str, name: str = "ScoreTable"):
    (game,) = pbnkit.read_text(text)
    tag = game.tag(name)
    assert tag is not None
    return read_table(tag, game.value(name))


def test_column_spec_has_sort_sign_name_width_and_alignment() -> None:
    assert read_columns(r"-Rank\3R;+Score_NS\5R;Names\45;Multiplicity\2L;Contract") == [
        Column("Rank", "-", 3, "R"),
        Column("Score_NS", "+", 5, "R"),
        Column("Names", None, 45, None),
        Column("Multiplicity", None, 2, "L"),
        Column("Contract"),
    ]


def test_column_spec_writes_back_as_read() -> None:
    spec = r"-Rank\3R;+Score_NS\5R;Names\45;Contract"
    assert ";".join(c.pbn() for c in read_columns(spec)) == spec


def test_bad_column_specs_are_problems() -> None:
    assert column_problems(r"Rank\3R;Score\x;;Contract") == [
        "column 2 'Score\\x' is not [+|-]Name[\\width[L|R]]",
        "column 3 has no name",
    ]
    assert column_problems(r"Rank\3R;Contract") == []


def test_rows_follow_the_column_count_not_the_lines() -> None:
    table = table_of('[ScoreTable "Contract;Declarer;Result;Score_NS"]\n'
                     "4S N 10 420 3NT\n"
                     "S 9 400\n"
                     "2H\nE\n8\n-110\n")
    assert table.rows == [["4S", "N", "10", "420"], ["3NT", "S", "9", "400"],
                          ["2H", "E", "8", "-110"]]
    assert table.problems == []


def test_cells_keep_their_positions_and_kinds() -> None:
    table = table_of('[ScoreTable "PairId_NS;Names_NS\\20L;Score_NS"]\n'
                     ' 3 "Smith;Jones" 420\n')
    assert table.rows == [["3", "Smith;Jones", "420"]]
    names, score = table.cells[0][1], table.cells[0][2]
    assert (names.kind, names.line, names.column) == (ElementKind.STRING, 2, 4)
    assert (score.kind, score.line, score.column) == (ElementKind.TOKEN, 2, 18)


def test_commentary_inside_a_table_is_not_a_cell() -> None:
    table = table_of('[ScoreTable "Contract;Score_NS"]\n'
                     "{ only the top }\n4S 420\n; rest of line\n3NT 400\n")
    assert table.rows == [["4S", "420"], ["3NT", "400"]]


def test_an_incomplete_last_row_is_left_out_and_reported() -> None:
    table = table_of('[ScoreTable "Contract;Declarer;Score_NS"]\n4S N 420\n3NT S\n')
    assert table.rows == [["4S", "N", "420"]]
    (problem,) = table.problems
    assert "incomplete row: 2 of 3 cells" in problem.message
    assert (problem.line, problem.column) == (3, 1)


def test_special_cells() -> None:
    assert is_unknown("?") and not is_unknown("-")
    assert is_not_relevant("-") and not is_not_relevant("-50")
    assert is_artificial("^60") and not is_artificial("60")


def test_table_without_columns_is_a_problem() -> None:
    table = table_of('[ScoreTable ""]\n')
    assert table.columns == [] and table.rows == []
    assert [p.message for p in table.problems] == ["ScoreTable lists no columns"]


def test_inherited_columns_need_the_inherited_value() -> None:
    text = ('[Board "1"]\n[ScoreTable "Contract;Score_NS"]\n4S 420\n\n'
            '[Board "2"]\n[ScoreTable "#"]\n3NT 400\n')
    second = pbnkit.read_text(text)[1]
    tag = second.tag("ScoreTable")
    assert tag is not None
    assert "inherits its columns" in read_table(tag).problems[0].message
    table = read_table(tag, second.value("ScoreTable"))
    assert [c.name for c in table.columns] == ["Contract", "Score_NS"]
    assert table.rows == [["3NT", "400"]]


def test_column_lookup_by_name() -> None:
    table = table_of('[ScoreTable "Contract;Score_NS"]\n4S 420\n')
    assert table.index("Score_NS") == 1 and table.index("Score_EW") is None
    assert table.has("Contract", "Score_NS") and not table.has("Contract", "Result")


PBN_TESTS = CORPUS / "timheilman__bridge-pbn" / "spec" / "resource" / "reference_impl_tests"
RUTER = CORPUS / "richardschneider__pbn" / "test" / "sample" / "ruter71.pbn"


@pytest.mark.skipif(not PBN_TESTS.is_dir(), reason="../shared/corpus is absent")
def test_reference_sample_score_table_with_sort_signs() -> None:
    games = list(pbnkit.read(PBN_TESTS / "correct_20.pbn"))
    game = next(g for g in games if g.tag("ScoreTable") is not None)
    table = read_table(game.tag("ScoreTable"), game.value("ScoreTable"))  # type: ignore[arg-type]
    assert [(c.sort, c.name) for c in table.columns] == [
        ("-", "Rank"), ("+", "Percentage_NS"), ("-", "Percentage_EW"), ("+", "Score_NS"),
        (None, "Multiplicity"),
    ]
    assert len(table.rows) == 26 and table.problems == []
    assert table.rows[0] == ["1", "99.4", "0.6", "500", "2"]
    assert table.rows[-1] == ["155", "0.3", "99.7", "-470", "1"]
    names = read_table(game.tag("TotalScoreTable"))  # type: ignore[arg-type]
    assert names.rows[0][2] == "Sergey OSTRIKOV      ;Oleg ODINTSEV        "


@pytest.mark.skipif(not RUTER.is_file(), reason="../shared/corpus is absent")
def test_ruter_score_tables_with_string_cells() -> None:
    for game in pbnkit.read(RUTER):
        table = read_table(game.tag("ScoreTable"))  # type: ignore[arg-type]
        assert table.problems == [] and len(table.rows) == 8
        assert len(table.columns) == 13
    first = read_table(next(iter(pbnkit.read(RUTER))).tag("ScoreTable"))  # type: ignore[arg-type]
    assert first.rows[0] == ["2", "1", "3", "4", "1N", "N", "8", "ST", "120", "-", "5", "-5",
                             "-90"]
    assert first.cells[0][8].kind is ElementKind.STRING
