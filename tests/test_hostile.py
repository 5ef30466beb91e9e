"""Hostile input: generated files that once made pbnkit fail with an internal error (exit
101) or take time out of proportion to their size. Every such input is a finding or a
documented error (status 0, 1 or 2, one line naming the file), and the rest of the run
goes on. Each input is small: the module runs in seconds."""

from __future__ import annotations

import errno
import io
import json
import os
import re

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbnkit.cli import main
from pbnkit.digits import MAX_DIGITS, whole_number
from pbnkit.model import Seat
from pbnkit.model.auction import Auction
from pbnkit.model.calls import PASS, Call
from pbnkit.pbn import split
from tests.conftest import SAMPLE_DATA

#: past the interpreter's limit of 4,300 digits for reading a number
HUGE = "9" * 5000
#: "²" passes str.isdigit() but int() refuses it; "١٢" (Arabic-Indic 12) int() reads
NOT_ASCII = ("²", "\u0661\u0662")
#: the exit statuses a command may end with on any input (docs/cli.md)
DOCUMENTED = (0, 1, 2)


def one_board() -> str:
    """The first record of the sample team match: board 1, 4S by N making 10 tricks."""
    text = (SAMPLE_DATA / "team_match.pbn").read_text(encoding="utf-8")
    return text.split("\n\n")[0] + "\n"


BOARD = one_board()


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def written(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# -- The one reader of numbers ---------------------------------------------------------------

@pytest.mark.parametrize("text, number", [
    ("0", 0), ("7", 7), ("007", 7), ("9" * MAX_DIGITS, 10 ** MAX_DIGITS - 1),
])
def test_whole_number_reads_ascii_digits(text, number):
    assert whole_number(text) == number


@pytest.mark.parametrize("text", [
    "", " 7", "7 ", "+7", "-7", "7.0", "1_000", "9" * (MAX_DIGITS + 1), HUGE, *NOT_ASCII,
])
def test_whole_number_refuses_anything_else(text):
    assert whole_number(text) is None


# -- Numbers in PBN and LIN files ------------------------------------------------------------

@pytest.mark.parametrize("value", [HUGE, *NOT_ASCII], ids=["5000-digits", "superscript", "arabic"])
def test_a_board_that_is_no_number_is_tg008_everywhere(tmp_path, value):
    path = written(tmp_path, "bad.pbn", BOARD.replace('[Board "1"]', f'[Board "{value}"]'))
    checked = run("validate", path)
    assert checked.exit_code == 1 and "TG008" in checked.output
    scored = run("score", path)
    assert scored.exit_code == 0, scored.output
    # the record is still read and written: the board number is what is not
    converted = run("convert", path, "-o", str(tmp_path / "out.jsonl"))
    assert converted.exit_code in (0, 1), converted.output
    row = json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8"))
    assert row["board"] is None
    assert run("report", path, "-o", str(tmp_path / "out.html")).exit_code == 0


@pytest.mark.parametrize("value", [HUGE, *NOT_ASCII, f"NS {HUGE}"])
def test_a_result_that_is_no_trick_count_is_tg007(tmp_path, value):
    path = written(tmp_path, "bad.pbn", BOARD.replace('[Result "10"]', f'[Result "{value}"]'))
    checked = run("validate", path)
    assert checked.exit_code == 1 and "TG007" in checked.output
    for command in (["score", path], ["convert", path, "-o", str(tmp_path / "o.jsonl")],
                    ["report", path, "-o", str(tmp_path / "o.html")]):
        assert run(*command).exit_code in DOCUMENTED


@pytest.mark.parametrize("annotation", [f"${HUGE}", f"={HUGE}="], ids=["nag", "note"])
@pytest.mark.parametrize("section", ["auction", "play"])
def test_an_annotation_of_too_many_digits_is_sy006(tmp_path, annotation, section):
    where = "1S Pass 3S Pass" if section == "auction" else "CK C7 C3 C2"
    first, rest = where.split(" ", 1)
    path = written(tmp_path, "bad.pbn", BOARD.replace(where, f"{first} {annotation} {rest}"))
    checked = run("validate", path)
    assert checked.exit_code == 1
    assert re.search(rf"SY006 .*a number of 5000 digits \(at most {MAX_DIGITS}\)",
                     checked.output)
    assert HUGE not in checked.output  # the message shows the token cut short
    for command in (["score", path], ["convert", path, "-o", str(tmp_path / "o.jsonl")],
                    ["report", path, "-o", str(tmp_path / "o.html")]):
        assert run(*command).exit_code in DOCUMENTED


def test_a_note_tag_of_too_many_digits_is_not_an_internal_error(tmp_path):
    auction = BOARD.replace("1S Pass 3S Pass", "1S =1= Pass 3S Pass")
    path = written(tmp_path, "bad.pbn", auction + f'[Note "{HUGE}:forcing"]\n')
    assert run("validate", path).exit_code == 1  # =1= refers to no note: AU016
    assert run("convert", path, "-o", str(tmp_path / "o.jsonl")).exit_code in DOCUMENTED


def every_command_answers(path: str, tmp_path) -> None:
    """validate, score, convert and report each end with a documented status."""
    for command in (["validate", path], ["score", path],
                    ["convert", path, "-o", str(tmp_path / "o.jsonl"), "--force"],
                    ["report", path, "-o", str(tmp_path / "o.html"), "--force"]):
        result = run(*command)
        assert result.exit_code in DOCUMENTED, (command, result.output)


@pytest.mark.parametrize("tag, value", [
    ("ScoreRubber", f"NS {HUGE}/{HUGE}"), ("ScoreRubberHistory", f"NS 0 0/{HUGE} EW 0 0/0"),
    ("OptimumScore", f"NS {HUGE}"), ("ScoreIMP", f"NS {HUGE}"), ("Round", HUGE),
])
def test_other_numeric_tags_of_too_many_digits(tmp_path, tag, value):
    path = written(tmp_path, "bad.pbn", BOARD.replace('[Scoring "IMP"]',
                                                      f'[Scoring "IMP"]\n[{tag} "{value}"]'))
    every_command_answers(path, tmp_path)


def score_table(cell: str) -> str:
    """A board with a ScoreTable of two rows, the second Score_NS cell replaced."""
    return BOARD.replace('[Score "NS 420"]\n', "") + (
        '[ScoreTable "PairId_NS\\2R;PairId_EW\\2R;Contract\\3L;Declarer\\1R;Result\\2R;'
        'Score_NS\\6R;Multiplicity\\2R"]\n'
        '1 2 4S N 10 420 1\n'
        f'3 4 4S N 10 {cell} {cell}\n')


@pytest.mark.parametrize("cell", [HUGE, f"-{HUGE}", f'"{HUGE}"', *NOT_ASCII])
def test_a_score_table_cell_of_no_number(tmp_path, cell):
    path = written(tmp_path, "bad.pbn", score_table(cell))
    every_command_answers(path, tmp_path)


def test_a_column_width_of_too_many_digits_is_tg016(tmp_path):
    path = written(tmp_path, "bad.pbn", score_table("420").replace("Score_NS\\6R",
                                                                   f"Score_NS\\{HUGE}R"))
    checked = run("validate", path)
    assert checked.exit_code == 1 and "TG016" in checked.output


LIN = ("pn|South,West,North,East|st||md|3S2TKH248TQD7C259T,S456H56JKD45TC7QA,"
       "S389QAH379AD29KC3,|rh||ah|Board 1|sv|o|mb|1S|mb|p|mb|p|mb|p|pg||mc|7|\n")


@pytest.mark.parametrize("old, new", [
    ("ah|Board 1|", f"ah|Board {HUGE}|"), ("mc|7|", f"mc|{HUGE}|"), ("mc|7|", "mc|²|"),
    ("pn|", f"qx|o{HUGE}|pn|"), ("pn|", f"vg|Match,1,I,{HUGE},2,A,0,B,0|\npn|"),
    ("pn|", f"vg|Match,1,I,1,2,A,0,B,0|rs|4SN+{HUGE},|\npn|"),
])
def test_lin_numbers_of_too_many_digits(tmp_path, old, new):
    path = written(tmp_path, "bad.lin", LIN.replace(old, new, 1))
    every_command_answers(path, tmp_path)


def test_one_bad_file_does_not_stop_a_directory(tmp_path):
    folder = tmp_path / "boards"
    folder.mkdir()
    (folder / "a.pbn").write_text(BOARD.replace('[Board "1"]', f'[Board "{HUGE}"]'))
    (folder / "b.pbn").write_text(BOARD.replace('[Result "10"]', f'[Result "{HUGE}"]'))
    (folder / "c.pbn").write_text(BOARD, encoding="utf-8")
    converted = run("convert", str(folder), "-o", str(tmp_path / "all.jsonl"))
    assert converted.exit_code in (0, 1), converted.output
    lines = (tmp_path / "all.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["source"] for line in lines] == ["a.pbn", "b.pbn", "c.pbn"]
    scored = run("score", str(folder))
    assert scored.exit_code == 0, scored.output


# -- Archives --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def good_line(tmp_path_factory) -> str:
    """One record of an archive pbnkit convert wrote."""
    where = tmp_path_factory.mktemp("archive")
    source = where / "one.pbn"
    source.write_text(BOARD, encoding="utf-8")
    assert run("convert", str(source), "-o", str(where / "one.jsonl")).exit_code == 0
    return (where / "one.jsonl").read_text(encoding="utf-8")


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("line, why", [
    ("[1, 2]", "a JSON array, not an object"), ("5", "a JSON number, not an object"),
    ('"board"', "a JSON string, not an object"), ("null", "a JSON null, not an object"),
    (DEEP, "JSON nested too deep to read"),
    ('{"a":' * 100_000 + "1" + "}" * 100_000, "JSON nested too deep to read"),
], ids=["array", "number", "string", "null", "deep-array", "deep-object"])
@pytest.mark.parametrize("command", [
    ["rescore", "--profile", "duplicate"], ["export", "-o", "{out}.pbn"],
    ["report", "-o", "{out}.html"], ["upgrade", "-o", "{out}.jsonl"],
])
def test_an_archive_line_that_is_no_record(tmp_path, good_line, line, why, command):
    archive = tmp_path / "bad.jsonl"
    archive.write_text(good_line + line + "\n", encoding="utf-8")
    argv = [part.format(out=tmp_path / "out") for part in command]
    result = run(argv[0], str(archive), *argv[1:])
    if argv[0] == "upgrade":  # the first record is already of the current version
        assert result.exit_code == 2 and "already schema version" in result.output
        return
    assert result.exit_code == 2, result.output
    assert f"pbnkit: {archive}:2: not a boards record ({why})" in result.output


@pytest.mark.parametrize("field, value, command, why", [
    ("path", [], ["rescore", "--profile", "duplicate"], "record 2 is not a boards record"),
    ("index", "0", ["export", "-o", "{out}.pbn"], "record 2 is not a boards record"),
    ("trailer", None, ["export", "-o", "{out}.pbn"], "is not a boards record (trailer"),
    ("tags", {"Board": 1}, ["report", "-o", "{out}.html"], "record 2 is not a boards record"),
    ("original", 1, ["export", "--original", "-o", "{out}"], "original is not base64 text"),
    ("original", "x", ["export", "--original", "-o", "{out}"], "original is not base64 text"),
])
def test_a_record_with_a_field_of_another_type(tmp_path, good_line, field, value, command, why):
    row = json.loads(good_line)
    row[field] = value
    archive = tmp_path / "bad.jsonl"
    archive.write_text(good_line + json.dumps(row) + "\n", encoding="utf-8")
    argv = [part.format(out=tmp_path / "out") for part in command]
    result = run(argv[0], str(archive), *argv[1:])
    assert result.exit_code == 2 and why in result.output, result.output


def test_a_json_archive_whose_records_are_no_objects(tmp_path):
    archive = tmp_path / "bad.json"
    archive.write_text(json.dumps({"schema": "boards", "version": 2,
                                   "records": [1, [2]]}), encoding="utf-8")
    result = run("export", str(archive), "-o", str(tmp_path / "out.pbn"))
    assert result.exit_code == 2
    assert f"{archive}: record 1 is not a boards record (not a JSON object)" in result.output


# -- report and analyze: the system's errors are status 2 -----------------------------------

def sample(tmp_path) -> str:
    return written(tmp_path, "one.pbn", BOARD)


def test_report_of_an_unreadable_file(tmp_path, monkeypatch):
    from pbnkit.pipeline.units import Unit

    def unreadable(self):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(Unit, "reader", unreadable)
    path = sample(tmp_path)
    result = run("report", path, "-o", str(tmp_path / "out.html"))
    assert result.exit_code == 2
    assert result.output == f"pbnkit: cannot read {path}: Input/output error\n"
    assert not (tmp_path / "out.html").exists()


@pytest.fixture
def full_disk(monkeypatch):
    """Every file the atomic writers write fails as on a full disk, when synced."""
    import pbnkit.export.atomic as atomic

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic.os, "fsync", full)


def test_report_onto_a_full_disk(tmp_path, full_disk):
    result = run("report", sample(tmp_path), "-o", str(tmp_path / "out.html"))
    assert result.exit_code == 2
    assert result.output.endswith("No space left on device\n")
    assert os.listdir(tmp_path) == ["one.pbn"]  # no temporary file left behind


def test_report_into_a_directory_it_may_not_write(tmp_path, monkeypatch):
    import pbnkit.export.atomic as atomic

    def refused(**options):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(atomic.tempfile, "mkstemp", refused)
    out = tmp_path / "out.html"
    result = run("report", sample(tmp_path), "-o", str(out))
    assert result.exit_code == 2
    assert result.output == f"pbnkit: cannot write {out}: Permission denied\n"


def test_report_of_a_bad_archive_among_good_files(tmp_path):
    archive = tmp_path / "bad.jsonl"
    archive.write_text("[]\n", encoding="utf-8")
    result = run("report", sample(tmp_path), str(archive), "-o", str(tmp_path / "out.html"))
    assert result.exit_code == 2
    assert "bad.jsonl:1: not a boards record (a JSON array, not an object)" in result.output


@pytest.fixture
def solver():
    from pbnkit.analysis.solver import available

    if not available():
        pytest.skip("analyze needs the dd extra")


def test_analyze_of_an_unreadable_file(tmp_path, monkeypatch, solver):
    import pbnkit.analysis.annotate as annotate

    def unreadable(path, name):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(annotate, "read", unreadable)
    path = sample(tmp_path)
    result = run("analyze", path, "-o", str(tmp_path / "out.pbn"))
    assert result.exit_code == 2
    assert f"pbnkit: cannot read {path}: Input/output error" in result.output


def test_analyze_onto_a_full_disk(tmp_path, full_disk, solver):
    result = run("analyze", sample(tmp_path), "-o", str(tmp_path / "out.pbn"))
    assert result.exit_code == 2
    assert result.output.endswith("No space left on device\n")


# -- Time linear in the input: the structures that made it quadratic -------------------------

def test_an_auction_shares_its_calls_with_the_state_before():
    """Each call appends to the list the states share: no state copies the calls made
    before it (which made an auction of n calls cost n² steps)."""
    states = [Auction(Seat.N)]
    for text in ["1C", "1D", "1H", "1S", "1NT", "2C"]:
        states.append(states[-1].with_call(Call.from_pbn(text)))
    logs = {id(state.calls._items) for state in states[1:]}
    assert len(logs) == 1  # one list under every state after the first call
    assert [len(state.calls) for state in states] == [0, 1, 2, 3, 4, 5, 6]
    assert [entry.call.pbn() for entry in states[3].calls] == ["1C", "1D", "1H"]


def test_a_branch_of_an_auction_keeps_its_own_calls():
    """A call after a state that has later calls already copies that state's calls:
    neither line of play sees the other's."""
    two = Auction.from_calls(Seat.N, "1C 1D")
    longer = two.with_call(Call.from_pbn("1H"))
    branch = two.with_call(PASS)
    assert [entry.call.pbn() for entry in longer.calls] == ["1C", "1D", "1H"]
    assert [entry.call.pbn() for entry in branch.calls] == ["1C", "1D", "Pass"]
    assert [entry.call.pbn() for entry in two.calls] == ["1C", "1D"]
    assert branch.calls._items is not longer.calls._items
    assert longer == Auction.from_calls(Seat.N, "1C 1D 1H")
    assert branch.calls == Auction.from_calls(Seat.N, "1C 1D Pass").calls


def test_a_long_line_is_joined_once(monkeypatch):
    """A line of many chunks without a line end comes out as one block, joined once:
    every chunk is read once, and no block is made before the line ends."""
    monkeypatch.setattr(split, "_CHUNK", 4)
    reads = []

    class Counted(io.BytesIO):
        def read(self, size=-1, /):
            data = super().read(size)
            reads.append(len(data))
            return data

    line = b"x" * 4000
    blocks = list(split.whole_lines(Counted(line + b"\r\n" + line)))
    assert blocks == [line + b"\r\n", line]
    assert sum(reads) == 2 * len(line) + 2 and reads[-1] == 0


@given(st.binary(max_size=60).map(lambda b: bytes(c % 4 for c in b).translate(
    bytes.maketrans(b"\x00\x01\x02\x03", b"ab\r\n"))), st.integers(1, 9))
@settings(max_examples=200, deadline=None)
def test_whole_lines_cuts_only_at_line_ends(data, chunk):
    """The blocks make up the input, each ends at a line end (but the last) and no CRLF
    is cut in two, whatever the chunk size."""
    split._CHUNK, size = chunk, split._CHUNK
    try:
        blocks = list(split.whole_lines(io.BytesIO(data)))
    finally:
        split._CHUNK = size
    assert b"".join(blocks) == data
    assert all(block for block in blocks)
    for block, after in zip(blocks, blocks[1:]):
        assert block.endswith((b"\n", b"\r"))
        assert not (block.endswith(b"\r") and after.startswith(b"\n"))


# -- Fuzz: no input is an internal error -----------------------------------------------------

_PBN_PIECES = st.sampled_from([
    "[", "]", '"', "\\", "\n", " ", "%", ";", "{", "}", "$", "=", "^", "*", "+", "-", "!", "?",
    "Board", "Result", "Deal", "Auction", "Play", "Note", "Score", "ScoreTable", "Contract",
    "Declarer", "Dealer", "Vulnerable", "Scoring", "N", "E", "S", "W", "NS", "EW", "1S", "Pass",
    "X", "XX", "AP", "SA", "HK", "N:", ".", "AKQJT98765432", "0", "7", "13", HUGE[:30],
    "\u00b2", "\u0661", "#", "IMP", "MP", "Rubber", "\\2R", "A60", "50%", "\t", "\r",
])


@given(st.lists(_PBN_PIECES, max_size=60).map("".join))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
def test_fuzz_the_pbn_reader_and_checks(tmp_path, text):
    path = tmp_path / "fuzz.pbn"
    path.write_text(BOARD + "\n" + text, encoding="utf-8")
    for command in (["validate", str(path)], ["score", str(path)]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code in DOCUMENTED, (command, result.output, result.exception)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)


@st.composite
def _archive_lines(draw, good: str):
    """A record as pbnkit writes it with some fields replaced by any JSON, or any JSON."""
    row = json.loads(good)
    if draw(st.booleans()):
        for key in draw(st.lists(st.sampled_from(sorted(row)), max_size=4)):
            row[key] = draw(_JSON)
        return json.dumps(row)
    return json.dumps(draw(_JSON))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzz_the_jsonl_archive_reader(tmp_path, good_line, data):
    line = data.draw(_archive_lines(good_line.splitlines()[0]))
    archive = tmp_path / "fuzz.jsonl"
    archive.write_text(good_line + line + "\n", encoding="utf-8")
    for command in (["rescore", str(archive), "--profile", "duplicate"],
                    ["export", str(archive), "-o", str(tmp_path / "out.pbn"), "--force"]):
        result = CliRunner().invoke(main, command)
        assert result.exit_code in DOCUMENTED, (command, line, result.output, result.exception)
