"""How ``rescore -j`` cuts an archive into units: whole row groups where they fit, so that
no two processes decode the same row group."""

from __future__ import annotations

import pyarrow.parquet as pq
from hypothesis import given
from hypothesis import strategies as st

from pbnkit.pipeline.convert import convert
from pbnkit.export.archive_units import TAIL_ROWS, _cuts, _group_cuts, plan_archive
from tests.conftest import SAMPLE_DATA, sources_that_inherit


def test_row_groups_that_fit_stay_whole():
    # convert's row groups of a 20,000-board file, 12,500 rows a unit: two groups a unit
    assert _group_cuts([5351, 4671, 5339, 4668], 12500) == [0, 10022, 20029]


def test_a_row_group_larger_than_a_unit_is_cut_in_equal_pieces():
    # the 100 rows from 10 in four pieces of 25; the last group joins the last piece
    # until that would pass 30 rows
    assert _group_cuts([10, 100, 10], 30) == [0, 10, 35, 60, 85, 110, 120]


def test_the_last_units_shrink_for_the_jobs_to_end_together():
    # 20 groups of 5,000 rows, 12,500 rows a unit, two jobs (four shares): whole groups
    # while 50,000 rows or more remain, then a quarter of what remains a unit, down to
    # 1,250 rows, the last groups cut in equal pieces (worked out by hand)
    assert _group_cuts([5000] * 20, 12500, 4) == [
        0, 10000, 20000, 30000, 40000, 50000, 60000, 70000, 75000, 80000, 85000, 87500,
        90000, 92500, 95000, 96250, 97500, 98750, 100000]


@given(st.lists(st.integers(min_value=0, max_value=3000), max_size=30),
       st.integers(min_value=1, max_value=4000), st.integers(min_value=1, max_value=8))
def test_units_cover_the_rows_and_only_the_last_cut_a_group_that_fits(groups, target, shares):
    """Without a tail (one share) no group that fits in a unit is ever cut."""
    cuts = _group_cuts(groups, target, shares)
    total = sum(groups)
    assert cuts[0] == 0 and cuts[-1] == total
    assert cuts == sorted(set(cuts))
    assert all(high - low <= target for low, high in zip(cuts, cuts[1:]))
    offset = 0
    for rows in groups:
        if rows <= target and any(offset < cut < offset + rows for cut in cuts):
            # cut only where a unit takes less than the group: what remains over the
            # shares, and not under TAIL_ROWS
            assert rows > max(min(target, TAIL_ROWS), (total - offset) // shares)
        offset += rows


@given(st.integers(min_value=1, max_value=100_000), st.integers(min_value=1, max_value=20_000),
       st.integers(min_value=1, max_value=8))
def test_units_cut_anywhere_shrink_to_the_end(total, target, shares):
    cuts = _cuts(total, target, [], False, shares)
    sizes = [high - low for low, high in zip(cuts, cuts[1:])]
    assert cuts[0] == 0 and cuts[-1] == total and all(sizes)
    assert all(size <= target for size in sizes)
    assert sizes == sorted(sizes, reverse=True)
    if shares == 1:
        assert all(size == target for size in sizes[:-1])


def test_units_of_an_archive_read_whole_row_groups(tmp_path):
    convert(sorted(SAMPLE_DATA.glob("*.pbn")), tmp_path / "a.parquet")
    archive = tmp_path / "groups.parquet"
    pq.write_table(pq.read_table(tmp_path / "a.parquet"), archive, row_group_size=5)
    metadata = pq.ParquetFile(archive).metadata
    sizes = [metadata.row_group(n).num_rows for n in range(metadata.num_row_groups)]
    units = plan_archive(archive, 2)
    assert len(units) > 1
    for unit in units:
        assert unit.segments
        assert all((start, stop) == (0, sizes[group])
                   for _, group, start, stop in unit.segments)
    assert sum(unit.size for unit in units) == sum(sizes)


def test_units_of_an_archive_that_inherits_begin_where_a_source_begins(tmp_path):
    """A record whose tag says ``#`` takes its value from the record before: a unit
    starts at a source's first record, however small the row groups. The plan finds the
    ``#`` among the tag values as a row group's dictionary holds them."""
    sources, event = sources_that_inherit(tmp_path)
    convert(sources, tmp_path / "a.parquet")
    archive = tmp_path / "groups.parquet"
    pq.write_table(pq.read_table(tmp_path / "a.parquet"), archive, row_group_size=2)
    units = plan_archive(archive, 3)
    assert len(units) == 3
    games = [list(unit.games()) for unit in units]
    assert [unit[0].index for unit in games] == [0, 0, 0]
    assert {game.value("Event") for unit in games for game in unit} == {event}
