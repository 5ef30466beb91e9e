"""LIN pairs kept as columns (pbnkit.lin.columns): the same pairs, at the same places, as
Lark reads one by one, and grouped into the same boards as pair by pair."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbnkit.lin import parser as lin_parser
from pbnkit.lin.columns import joined, of_pairs
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


@given(lin_texts())
def test_columns_hold_the_pairs_lark_reads(text):
    runs = runs_of(text)
    assert runs is not None
    columns = list(iter_pairs(text, runs))
    fast = [run.pair(at) for run in columns for at in range(len(run))]
    lin_parser._force_lark = True
    try:
        assert fast == parse_pairs(text)
    finally:
        lin_parser._force_lark = False
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


@given(st.one_of(lin_texts(), _ANY))
def test_the_fast_path_takes_the_texts_lark_takes(text):
    """The fast path's regular expression, its repeats possessive from Python 3.11 on,
    reads a text exactly when Lark does, into the same pairs."""
    runs = runs_of(text)
    lin_parser._force_lark = True
    try:
        read = parse_pairs(text)
    except LinSyntaxError:
        read = None
    finally:
        lin_parser._force_lark = False
    if runs is None:
        assert read is None
    else:
        assert [run.pair(at) for run in iter_pairs(text, runs) for at in range(len(run))] == read


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
