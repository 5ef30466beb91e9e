"""The typed identity columns of the boards table: every Date form real files write, the
time, round, table, section, stage and teams, and the high-card points of each hand."""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pbnkit.export.archive import records
from pbnkit.export.schema import BOARDS
from pbnkit.pipeline.convert import convert
from tests.conftest import CORPUS, SAMPLE_DATA

DEAL = "N:AKJ84.K7.A93.852 97.JT9.QJ65.KQJT QT63.A842.K74.97 52.Q653.T82.A643"

#: Each form of Date value the corpus holds (digits as 9, letters as A), with one value of
#: that form and the date read by hand from it. A new form in the corpus fails
#: test_every_corpus_date_form_is_listed until it is worked out here.
FORMS = {
    "9999.99.99": ("1995.06.10", datetime.date(1995, 6, 10)),
    "9999-99-99": ("2025-03-01", datetime.date(2025, 3, 1)),
    "9999-99-99 99:99": ("2021-04-03 05:02", datetime.date(2021, 4, 3)),
    "99999999": ("20160831", datetime.date(2016, 8, 31)),
    "9-A-9999": ("2-Aug-2023", datetime.date(2023, 8, 2)),
    "9/99/9999": ("3/30/2021", datetime.date(2021, 3, 30)),
    "9999.99.??": ("2012.08.??", None),  # the day is unknown
    "##9999.99.99": ("##1980.10.24", datetime.date(1980, 10, 24)),  # '##' escapes a '#'
    "9999.A9.99": ("1995.o6.10", None),  # a letter o for a zero
    "99.99.99": ("95.06.10", None),  # a two-digit year: the century is not told
    "99:99": ("14:12", None),  # a time written in the Date tag
    "?": ("?", None),
    "#": ("#", None),  # the previous record's date: resolved before it is read
    "": ("", None),
}

_DATE_TAG = re.compile(rb'^\s*\[Date\s+"([^"]*)"', re.MULTILINE)


def shape(value: str) -> str:
    return re.sub(r"[0-9]", "9", re.sub(r"[A-Za-z]+", "A", value))


def row_of(tmp_path: Path, tags: str) -> dict:
    path = tmp_path / "one.pbn"
    path.write_text(f'[Board "1"]\n[Dealer "N"]\n[Deal "{DEAL}"]\n{tags}')
    (row,) = records([path], check=False)
    return row


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus")
def test_every_corpus_date_form_is_listed():
    forms = {shape(match[1].decode("latin-1"))
             for path in CORPUS.rglob("*.pbn")
             for match in _DATE_TAG.finditer(path.read_bytes())}
    assert forms <= set(FORMS), sorted(forms - set(FORMS))
    assert len(forms) >= 10  # the regex found the tags


@pytest.mark.parametrize("text, expected",
                         [value for form, value in FORMS.items() if form != "#"])
def test_each_date_form_reads_as_worked_out_by_hand(tmp_path, text, expected):
    assert row_of(tmp_path, f'[Date "{text}"]\n')["date"] == expected


@pytest.mark.parametrize("text, expected", [
    ("1-Dec-2023", datetime.date(2023, 12, 1)),
    ("2 August 2023", datetime.date(2023, 8, 2)),
    ("7-sep-2021", datetime.date(2021, 9, 7)),
    ("30.03.2021", datetime.date(2021, 3, 30)),  # day.month.year
    ("30/3/2021", datetime.date(2021, 3, 30)),
    ("12-25-2020", datetime.date(2020, 12, 25)),
    ("4/4/2021", datetime.date(2021, 4, 4)),  # the same either way
    ("3/4/2021", None),  # 3 April or 4 March: not told, so null
    ("04.03.2021", None),
    ("2/30/2021", None),  # no calendar date
    ("31-Foo-2021", None),
    ("13/13/2021", None),
])
def test_day_and_month_are_told_by_the_numbers(tmp_path, text, expected):
    row = row_of(tmp_path, f'[Date "{text}"]\n')
    assert (row["date"], row["date_text"]) == (expected, text)


# Corpus files with the dates read by hand from their Date tags.
CORPUS_DATES = [
    ("lorserker__ben/Boards/Thorvald/LoTT 1.pbn", {"3/30/2021": datetime.date(2021, 3, 30)}),
    ("lorserker__ben/Boards/Thorvald/Random- BEN-Dual-Lead v WBridge5.pbn",
     {"1-Dec-2023": datetime.date(2023, 12, 1)}),
    ("lorserker__ben/scripts/data/TableMonitor/training.pbn",
     {"2-Aug-2023": datetime.date(2023, 8, 2)}),
    ("richardschneider__pbn/test/sample/Wed_Individual.pbn",
     {"20160831": datetime.date(2016, 8, 31)}),
    ("timheilman__bridge-pbn/spec/resource/reference_impl_tests/errors_10.pbn",
     {"1995.06.10": datetime.date(1995, 6, 10), "2009.10.02": datetime.date(2009, 10, 2),
      "2012.04.04": datetime.date(2012, 4, 4), "1995.o6.10": None, "95.06.10": None}),
    ("jarekczek__pbntools/test/test_bbo_history_with_lins/history_expected.pbn",
     {"14:12": None, "14:23": None}),
    ("lorserker__ben/Boards/Eamon/kelsey_advanced_play.pbn", {"": None}),
    ("lorserker__ben/Boards/Thorvald/Cleaned_DDS_match14- BEN99-14 v WBridge5.pbn",
     {"?": None}),
]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus")
@pytest.mark.parametrize("name, dates", CORPUS_DATES)
def test_corpus_dates(name, dates):
    rows = records([CORPUS / name], check=False)
    seen = {row["date_text"]: row["date"] for row in rows if row["date_text"] in dates}
    assert seen.keys() == dates.keys()
    assert seen == dates


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no corpus")
def test_corpus_date_and_time_of_day():
    rows = records([CORPUS / "jarekczek__pbntools/test/test_11_aba_17901/"
                    "aba_17901_aba_pairs.pbn"], check=False)
    row = next(row for row in rows if row["date_text"] == "2021-04-03 05:02")
    assert (row["date"], row["time"]) == (datetime.date(2021, 4, 3), datetime.time(5, 2))


@pytest.mark.parametrize("tags, expected", [
    ('[Time "14:05:09"]\n', datetime.time(14, 5, 9)),
    ('[Time "9:30"]\n', datetime.time(9, 30)),
    ('[Date "2013-08-10 17:32"]\n', datetime.time(17, 32)),
    ('[Date "2013-08-10 17:32"]\n[Time "18:00:00"]\n', datetime.time(18)),  # the tag wins
    ('[Time "25:00:00"]\n', None),
    ('[Time "?"]\n', None),
    ('[Date "2013.08.10"]\n', None),
])
def test_time(tmp_path, tags, expected):
    assert row_of(tmp_path, tags)["time"] == expected


def test_identity_tags_on_a_generated_file(tmp_path):
    row = row_of(tmp_path, '[Round "12"]\n[Table "3"]\n[Section "A"]\n[Stage "SemiF:2"]\n'
                           '[HomeTeam "Aurora"]\n[VisitTeam "Borealis"]\n[Time "19:30:00"]\n')
    assert {name: row[name] for name in ("round", "table", "section", "stage", "home_team",
                                         "visit_team", "time")} == {
        "round": 12, "table": 3, "section": "A", "stage": "SemiF:2", "home_team": "Aurora",
        "visit_team": "Borealis", "time": datetime.time(19, 30)}
    assert (row["hcp_n"], row["hcp_e"], row["hcp_s"], row["hcp_w"]) == (15, 10, 9, 6)


@pytest.mark.parametrize("text", ["1.A.2", "-1", "&", "+3", "", "99999999999", "٣"])
def test_round_and_table_only_as_whole_numbers(tmp_path, text):
    row = row_of(tmp_path, f'[Round "{text}"]\n[Table "{text}"]\n')
    assert (row["round"], row["table"]) == (None, None)
    assert ("Round", text) in zip(row["tags"].names, row["tags"].values)


def test_unknown_hands_have_no_points(tmp_path):
    path = tmp_path / "one.pbn"
    path.write_text('[Board "1"]\n[Deal "N:AKQJ.AKQJ.AKQJ.A - - -"]\n')
    (row,) = records([path], check=False)
    assert (row["hcp_n"], row["hcp_e"], row["hcp_s"], row["hcp_w"]) == (34, None, None, None)


def test_sample_file_columns_are_typed(tmp_path):
    out = tmp_path / "team.parquet"
    convert([SAMPLE_DATA / "team_match.pbn"], out)
    table = pq.read_table(out)
    types = {name: table.schema.field(name).type for name in (
        "date", "time", "round", "table", "section", "stage", "home_team", "visit_team",
        "hcp_n", "hcp_e", "hcp_s", "hcp_w")}
    assert types == {"date": pa.date32(), "time": pa.time32("ms"), "round": pa.int32(),
                     "table": pa.int32(), "section": pa.string(), "stage": pa.string(),
                     "home_team": pa.string(), "visit_team": pa.string(),
                     "hcp_n": pa.int8(), "hcp_e": pa.int8(), "hcp_s": pa.int8(),
                     "hcp_w": pa.int8()}
    assert table.schema.equals(BOARDS, check_metadata=False)
    first = table.slice(0, 1).to_pylist()[0]
    assert (first["date"], first["round"], first["home_team"], first["visit_team"]) == (
        datetime.date(2024, 5, 18), 1, "Aurora", "Borealis")
    assert (first["hcp_n"], first["hcp_e"], first["hcp_s"], first["hcp_w"]) == (15, 10, 9, 6)


def test_json_writes_the_time_of_day(tmp_path):
    path = tmp_path / "one.pbn"
    path.write_text('[Board "1"]\n[Date "2-Aug-2023"]\n[Time "14:05:09"]\n')
    convert([path], tmp_path / "out.jsonl")
    (record,) = [json.loads(line) for line in
                 (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()]
    assert (record["date"], record["time"]) == ("2023-08-02", "14:05:09")
