"""How ``rescore -j`` cuts an archive into units: whole row groups where they fit, so that
no two processes decode the same row group."""

from __future__ import annotations

import pyarrow.parquet as pq
from hypothesis import given
from hypothesis import strategies as st

from pbnkit.export.archive import convert
from pbnkit.export.archive_units import _group_cuts, plan_archive
from tests.conftest import SAMPLE_DATA, sources_that_inherit


def test_row_groups_that_fit_stay_whole():
    # convert's row groups of a 20,000-board file, 12,500 rows a unit: two groups a unit
    assert _group_cuts([5351, 4671, 5339, 4668], 12500) == [0, 10022, 20029]


def test_a_row_group_larger_than_a_unit_is_cut_in_equal_pieces():
    # the 100 rows from 10 in four pieces of 25; the last group joins the last piece
    # until that would pass 30 rows
    assert _group_cuts([10, 100, 10], 30) == [0, 10, 35, 60, 85, 110, 120]


@given(st.lists(st.integers(min_value=0, max_value=60), max_size=30),
       st.integers(min_value=1, max_value=40))
def test_units_cover_the_rows_and_cut_only_the_groups_too_large(groups, target):
    cuts = _group_cuts(groups, target)
    total = sum(groups)
    assert cuts[0] == 0 and cuts[-1] == total
    assert cuts == sorted(set(cuts))
    assert all(high - low <= target for low, high in zip(cuts, cuts[1:]))
    offset = 0
    for rows in groups:
        if rows <= target:  # never cut inside
            assert not any(offset < cut < offset + rows for cut in cuts)
        offset += rows


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
