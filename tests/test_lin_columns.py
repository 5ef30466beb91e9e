"""LIN pairs kept as columns (pbnkit.lin.columns): the same pairs, at the same places, as
Lark reads one by one, and grouped into the same boards as pair by pair."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbnkit.lin import parser as lin_parser
from pbnkit.lin import reader as lin_reader
from pbnkit.lin.columns import joined, of_pairs
from pbnkit.lin.lark_parser import parse as lark_parse
from pbnkit.lin.parser import LinSyntaxError, iter_pairs, parse_pairs, runs_of
from pbnkit.lin.records import group_records

_KEYS = st.sampled_from(["pn", "md", "qx", "mb", "an", "pc", "pg", "mc", "sv", "ah",
                         "MB", "Pc", "x1", "q"])
_VALUES = st.text(st.sampled_from("aS1 N!,\n\t-xé"), max_size=12)
_GAPS = st.sampled_from(["", "", "", " ", "\n", "\r\n", "  \t", "\n\n  "])


@st.composite
def lin_texts(draw):
    pairs = draw(st.lists(st.tuples(_GAPS, _KEYS, _VALUES), max_size=40))
    return "".join(f"{gap}{key}|{value}|" for gap, key, value in pairs) + draw(_GAPS)


@settings(deadline=None)  # the first example loads Lark
@given(lin_texts())
def test_columns_hold_the_pairs_lark_reads(text):
    runs = runs_of(text)
    assert runs is not None
    columns = list(iter_pairs(text, runs))
    fast = [run.pair(at) for run in columns for at in range(len(run))]
    assert fast == lark_parse(text)
    for run in columns:  # a run's ends, and each value's column
        assert (run.start, run.end) == (run.pair(0).start, run.pair(len(run) - 1).end)
        assert [run.value_column(at) for at in range(len(run))] == [
            run.pair(at).value_column for at in range(len(run))]
    if fast:
        whole = joined(columns)
        assert [whole.pair(at) for at in range(len(whole))] == fast == [
            of_pairs(fast).pair(at) for at in range(len(fast))]


# Any text at all: bars, keys too long or not starting with a letter, blanks and line ends
_ANY = st.text(st.sampled_from("pcmdS12|||| \n\t\ré!"), max_size=60)


@settings(deadline=None)
@given(st.one_of(lin_texts(), _ANY))
def test_the_fast_path_takes_the_texts_lark_takes(text):
    """The fast path's regular expression, its repeats possessive from Python 3.11 on,
    reads a text exactly when Lark does, into the same pairs."""
    runs = runs_of(text)
    try:
        read = lark_parse(text)
    except LinSyntaxError:
        read = None
    if runs is None:
        assert read is None
    else:
        assert [run.pair(at) for run in iter_pairs(text, runs) for at in range(len(run))] == read


# Lines as files have them: pairs only, the most; blanks or a "\r" around them; blanks
# between two pairs; a value over two lines; a bad key or a bar missing; nothing
_LINE_KEYS = st.sampled_from(["pc", "mb", "md", "pn", "MB", "q", "x1", "Q7", "1x", "abc",
                              "é", " pc", ""])
_LINES = st.lists(st.tuples(_LINE_KEYS, st.text(st.sampled_from("S1 A\t!é"), max_size=4)),
                  max_size=6).map(lambda pairs: "".join(f"{k}|{v}|" for k, v in pairs))
_LINE = st.one_of(_LINES, _LINES, _LINES, _LINES.map(lambda line: f" {line}\t\r"),
                  st.tuples(_LINES, _LINES).map(" ".join), _LINES.map(lambda line: line[:-1]),
                  st.just("pc|S\nA|"), st.just("an|two\r\nlines|"), st.just("\t \r"))


@settings(deadline=None)
@given(st.one_of(st.lists(_LINE, max_size=8).map("\n".join), lin_texts(), _ANY))
def test_read_line_by_line_the_pairs_and_errors_are_those_of_the_whole_text(text):
    """The reader reads line by line while the lines are pairs only, then goes on with
    the regular expression, or Lark when the rest holds an error: the pairs and syntax
    errors are those of the whole text read at once."""
    problems = []
    read = [run.pair(at) for run in lin_reader._runs(text, problems)
            for at in range(len(run))]
    whole_problems = []
    runs = runs_of(text)
    if runs is not None:
        whole = [run.pair(at) for run in iter_pairs(text, runs) for at in range(len(run))]
    else:
        whole = lin_reader._pairs_with_recovery(text, whole_problems)
    assert read == whole
    assert problems == whole_problems


def read_lines(text):
    """The runs :func:`lines_of_pairs` gives, and where it stops (None: at the end)."""
    read = lin_parser.lines_of_pairs(text)
    runs = []
    while True:
        try:
            runs.append(next(read))
        except StopIteration as stop:
            return runs, stop.value


def test_a_file_of_lines_of_pairs_is_read_line_by_line():
    """Lines of pairs, and blank lines between them, are read without the regular
    expression: a board a line, each line's pairs where they stand."""
    text = "pn|a,b|md|1S2|\r\n\n  pg||pc|SA|\t\nmb|p|"
    runs, stop = read_lines(text)
    assert stop is None
    assert [[run.pair(at) for at in range(len(run))] for run in runs] == [
        [run.pair(at) for at in range(len(run))] for run in iter_pairs(text, runs_of(text))]
    assert [(run.lines[0], run.columns[0]) for run in runs] == [(1, 1), (3, 3), (4, 1)]


def test_line_by_line_reading_stops_at_a_line_that_is_not_pairs_only():
    text = "pn|a|\nmd|1S2| pc|SA|\npc|HA|"
    runs, stop = read_lines(text)
    assert [run.names for run in runs] == [["pn"]]
    assert stop == (6, 2)  # the offset and number of the line with a blank


def grouped_pair_by_pair(pairs, by_qx):
    """The rule group_records follows, a pair at a time, as the reader did before columns."""
    records, record, has_deal = [[]], [], False
    for pair in pairs:
        if by_qx and pair.name == "qx":
            records.append(record)
            record = []
        elif not by_qx and pair.name in ("pn", "md") and has_deal:
            records.append(record)
            record, has_deal = [], False
        record.append(pair)
        has_deal = has_deal or pair.name == "md"
    if by_qx:
        return records[1:] + [record]
    return records + [record] if record else records


@pytest.mark.parametrize("by_qx", [False, True])
@given(text=lin_texts())
def test_boards_are_grouped_as_pair_by_pair(text, by_qx):
    runs = runs_of(text)
    pairs = parse_pairs(text)
    if by_qx and not any(pair.name == "qx" for pair in pairs):
        return  # the reader groups by qx only a file that has one
    found = [[] if record is None else [record.pair(at) for at in range(len(record))]
             for record in group_records(iter_pairs(text, runs), by_qx)]
    assert found == grouped_pair_by_pair(pairs, by_qx)
