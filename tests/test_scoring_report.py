"""The score report at scale: compact per-record results, and a JSON document written
row by row that is byte for byte what one ``json.dumps`` of the whole report gives."""

from __future__ import annotations

import json
import pickle
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import pbnkit
from pbnkit.export.score_tables import write_score
from pbnkit.model import DECK, Card, Deal, Hand, Seat, Strain
from pbnkit.scoring import Hands
from pbnkit.scoring.report import ScoreReport, score_games
from pbnkit.scoring.text import render
from tests.conftest import CORPUS, SAMPLE_DATA, generate_boards


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_boards(tmp_path_factory.mktemp("generated") / "boards.pbn", 300, 1)


def reports(path: Path) -> list[ScoreReport]:
    games = list(pbnkit.read(path))
    return [score_games(games, profile) for profile in (None, "rubber", "auction-1920")]


def one_dump(report: ScoreReport) -> str:
    return json.dumps(report.to_json(), indent=2, ensure_ascii=False)


SAMPLES = sorted(SAMPLE_DATA.glob("*.pbn"))
# a pairs event with matchpoints, and a file with a ScoreTable
CORPUS_FILES = [
    CORPUS / "lorserker__ben" / "Boards" / "BBO" / "Ben & Friends Daily - 2024-06-03 Daylong.pbn",
    CORPUS / "richardschneider__pbn" / "test" / "sample" / "ruter71.pbn",
]


@pytest.mark.parametrize("path", SAMPLES + [p for p in CORPUS_FILES if p.is_file()],
                         ids=lambda path: path.name)
def test_streamed_json_is_the_one_dump(path: Path) -> None:
    for report in reports(path):
        assert "".join(report.json_pieces(rows=3)) == one_dump(report)


def test_streamed_json_of_a_generated_file_is_the_one_dump(generated: Path) -> None:
    for report in reports(generated):
        assert "".join(report.json_pieces()) == one_dump(report)


def test_json_file_is_the_one_dump(generated: Path, tmp_path: Path) -> None:
    report = score_games(pbnkit.read(generated))
    (written,) = write_score(report, tmp_path / "scores.json")
    assert written.read_text(encoding="utf-8") == one_dump(report)


def test_board_results_keep_a_few_small_values_and_pickle(generated: Path) -> None:
    report = score_games(pbnkit.read(generated))
    result = report.results[0]
    assert not any(isinstance(getattr(result, name), Deal) for name in result.__slots__)
    assert pickle.loads(pickle.dumps(result)) == result
    # the 52 cards were about 6 KB a record
    assert len(pickle.dumps(result)) < 1000


@given(st.permutations(DECK), st.sampled_from(list(Strain)))
def test_hands_count_the_honours_the_deal_holds(cards: list[Card], strain: Strain) -> None:
    north, east, south, west = (Hand(tuple(cards[i::4])) for i in range(4))
    deal = Deal((north, east, south, west))
    hands = Hands.of(deal)
    assert hands is not None and hands.why_no_honours is None
    suit = strain.suit
    honours = [card for card in DECK if (card.suit is suit and card.rank.is_honour)
               or (suit is None and card.rank.pbn() == "A")]
    assert hands.honours(strain) == {
        seat: sum(deal.holder(card) is seat for card in honours) for seat in Seat}


def test_hands_say_why_honours_cannot_be_counted() -> None:
    assert Hands.of(None) is None
    partial = Hands.of(Deal.from_pbn("N:AKQJ.AKQ.AKQ.AKQ - - -"))
    assert partial is not None and partial.why_no_honours == "the deal is incomplete"
    twice = Hands.of(Deal.from_pbn(
        "N:AKQJ.AKQ.AKQ.AKQ AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876"))
    assert twice is not None and twice.why_no_honours == "the deal is invalid"


PLAIN = st.one_of(st.none(), st.booleans(), st.integers(), st.text(),
                  st.floats(allow_nan=False, allow_infinity=False))


@given(st.lists(st.dictionaries(st.text(), PLAIN, max_size=4), max_size=7),
       st.integers(min_value=1, max_value=4))
def test_rows_of_plain_values_encoded_together_are_each_as_one_dump_writes_it(
        rows: list[dict[str, object]], count: int) -> None:
    """Rows encoded a few at a time and cut apart at their bounds, whatever their strings
    hold (braces, quotes, line ends) and empty rows among them."""
    from pbnkit.scoring.report import _dumps, _flat

    assert list(_flat(rows, count)) == [_dumps(row, 2) for row in rows]


@pytest.mark.parametrize("path", SAMPLES + [p for p in CORPUS_FILES if p.is_file()],
                         ids=lambda path: path.name)
def test_sheet_of_results_sent_back_by_workers_is_the_same(path: Path) -> None:
    """The sheet looks contract names up by the contract's identity: results unpickled as
    the parent of ``-j`` gets them, each contract a new object, give the same sheet."""
    for report in reports(path):
        copy = replace(report, results=pickle.loads(pickle.dumps(report.results)))
        assert all(a.contract is not b.contract for a, b in zip(copy.results, report.results)
                   if a.contract is not None)
        assert render(copy) == render(report)


def sheet_head(path: Path) -> str:
    (head,) = (line for line in render(score_games(pbnkit.read(path))).splitlines()
               if line.lstrip().startswith("board"))
    return head


MATCHPOINTS = (CORPUS / "jarekczek__pbntools" / "test" / "test_5_pary_www_20130808"
               / "wb130808.pbn")


def test_sheet_columns_are_those_some_row_fills(generated: Path) -> None:
    """Pairs, matchpoints and Butler IMPs get their columns when a row has them, and
    only then."""
    assert sheet_head(generated).split() == ["board", "room", "contract", "by", "tricks",
                                             "vul", "NS", "score"]
    butler = CORPUS_FILES[1]  # results name their pairs
    if not (MATCHPOINTS.is_file() and butler.is_file()):
        pytest.skip("the corpus is not here (it is outside the repository)")
    assert sheet_head(MATCHPOINTS).split()[-6:] == ["NS", "score", "MP", "NS", "%", "NS"]
    assert sheet_head(butler).split()[-6:] == ["NS", "score", "pairs", "datum", "IMP", "NS"]
