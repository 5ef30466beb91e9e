"""``pbnkit validate --fix`` / ``--diff``: only safe fixes, only their spans, atomically."""

from __future__ import annotations

import difflib
import re
from collections import Counter

import pytest
from click.testing import CliRunner

from pbnkit.cli import main
from pbnkit.rules.fixes import findings, fix_bytes
from tests.conftest import CORPUS

DEAL = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
SLOPPY = (f'[Date "2025-03-01"]\r\n[Board "1"]\r\n[North "Smith  "]\r\n[Dealer "N"]\r\n'
          f'[Vulnerable "Love"]\r\n[Deal "{DEAL}"]\r\n[Contract "3N "]\r\n[Declarer "N"]\r\n'
          '[Auction "N"]\r\n3n P pass PASS\r\n')
FIXED = (f'[Date "2025.03.01"]\r\n[Board "1"]\r\n[North "Smith"]\r\n[Dealer "N"]\r\n'
         f'[Vulnerable "None"]\r\n[Deal "{DEAL}"]\r\n[Contract "3NT"]\r\n[Declarer "N"]\r\n'
         '[Auction "N"]\r\n3NT Pass pass Pass\r\n')


def test_the_safe_fixes_rewrite_only_their_spans():
    data, fixes = fix_bytes(SLOPPY.encode())
    assert data == FIXED.encode()
    # "3N ": the blank goes first, then the spelling is seen and fixed in the next round
    assert Counter(fix.code for fix in fixes) == {
        "AU009": 3, "TG009": 1, "TG017": 1, "TG020": 2, "TG104": 1}


def test_vulnerable_in_another_case_is_written_as_pbn_spells_it():
    assert fix_bytes(b'[Vulnerable "BOTH"]\n').data == b'[Vulnerable "All"]\n'


def test_a_fixed_file_has_nothing_left_to_fix():
    assert fix_bytes(FIXED.encode()).fixes == []


def test_fixes_honour_select_and_ignore():
    only_calls, fixes = fix_bytes(SLOPPY.encode(), select=("AU",))
    assert {fix.code for fix in fixes} == {"AU009"}
    assert b'[Contract "3N "]' in only_calls
    _, fixes = fix_bytes(SLOPPY.encode(), ignore=("TG",))
    assert {fix.code for fix in fixes} == {"AU009"}


@pytest.mark.parametrize("calls", ["D", "1D R", "DBL", "1Z"])
def test_calls_whose_meaning_needs_a_person_are_left_alone(calls):
    text = f'[Board "1"]\n[Dealer "N"]\n[Auction "N"]\n{calls}\n'
    assert fix_bytes(text.encode()) == (text.encode(), [])


def test_values_with_escapes_or_unknown_dates_are_left_alone():
    text = '[Date "1.3.2025"]\n[Event "a\\"b "]\n'
    assert fix_bytes(text.encode()).fixes == []


def test_columns_after_multibyte_characters_are_found_in_the_bytes():
    text = '[West "Jos\u00e9"] [Date "2025/03/01"]\n'
    assert fix_bytes(text.encode("utf-8")).data == (
        '[West "Jos\u00e9"] [Date "2025.03.01"]\n'.encode("utf-8"))


def test_a_bom_and_latin_1_bytes_are_kept():
    data = b'\xef\xbb\xbf[Date "2025-03-01"]\n' + b'[West "Jos\xe9 "]\n'
    assert fix_bytes(data).data == b'\xef\xbb\xbf[Date "2025.03.01"]\n[West "Jos\xe9"]\n'


def test_validate_fix_writes_the_file_and_lists_what_remains(tmp_path):
    path = tmp_path / "sloppy.pbn"
    path.write_bytes(SLOPPY.encode() + b'[Dealer2 "x"]\r\n[Result "14"]\r\n')
    result = CliRunner().invoke(main, ["validate", "-q", "--fix", str(path)])
    assert path.read_bytes() == FIXED.encode() + b'[Dealer2 "x"]\r\n[Result "14"]\r\n'
    assert "fixed 3 AU009, 1 TG009, 1 TG017, 2 TG020, 1 TG104" in result.output
    listed = [line.split(": ")[1].split()[0] for line in result.output.splitlines()
              if line.startswith(str(path) + ":")]
    assert listed == ["TG007"]
    assert result.exit_code == 1  # the Result remains
    assert [p.name for p in tmp_path.iterdir()] == ["sloppy.pbn"]  # no temporary file left


def test_validate_fix_keeps_the_files_permissions(tmp_path):
    path = tmp_path / "private.pbn"
    path.write_bytes(b'[Date "2025/03/01"]\n')
    path.chmod(0o640)
    CliRunner().invoke(main, ["validate", "-q", "--fix", str(path)])
    assert path.read_bytes() == b'[Date "2025.03.01"]\n'
    assert path.stat().st_mode & 0o777 == 0o640


def test_validate_diff_prints_the_fixes_and_writes_nothing(tmp_path):
    path = tmp_path / "sloppy.pbn"
    path.write_bytes(SLOPPY.encode())
    result = CliRunner().invoke(main, ["validate", "-q", "--diff", str(path)])
    assert path.read_bytes() == SLOPPY.encode()
    assert result.exit_code == 1
    assert f"--- {path}\n+++ {path}\n" in result.output
    changed = [line for line in result.output.splitlines() if line[:1] in "+-"]
    assert '-[Vulnerable "Love"]' in changed and '+[Vulnerable "None"]' in changed
    assert len(changed) == 2 + 2 * 5  # the two file names, then five lines changed


def test_validate_diff_of_a_clean_file_is_empty(tmp_path):
    path = tmp_path / "clean.pbn"
    path.write_bytes(FIXED.encode())
    result = CliRunner().invoke(main, ["validate", "-q", "--diff", str(path)])
    assert (result.exit_code, result.output) == (0, "")


# --- On every real file: spans only, and the findings gone ------------------------------

def corpus_files() -> list:
    if not CORPUS.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared/corpus is absent"))]
    return [pytest.param(path, id=str(path.relative_to(CORPUS)))
            for path in sorted(CORPUS.rglob("*")) if path.suffix.lower() == ".pbn"]


_LINES = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)?")


@pytest.mark.slow
@pytest.mark.parametrize("path", corpus_files())
def test_fixing_a_real_file_changes_only_the_fixed_spans(path):
    before = path.read_bytes()
    after, fixes = fix_bytes(before, str(path))
    if not fixes:
        assert after == before
        return
    old_lines, new_lines = _LINES.findall(before), _LINES.findall(after)
    assert len(old_lines) == len(new_lines)
    on_line = {}
    for fix in fixes:
        on_line.setdefault(fix.line, []).append(fix)
    for number, (old, new) in enumerate(zip(old_lines, new_lines), start=1):
        if old == new:
            continue
        assert number in on_line, f"line {number} changed without a fix"
        olds = [fix.old.encode() for fix in on_line[number]]
        news = [fix.new.encode() for fix in on_line[number]]
        matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag != "equal":
                assert any(old[i1:i2] in text for text in olds), (number, old[i1:i2])
                assert any(new[j1:j2] in text for text in news), (number, new[j1:j2])
    # the fixed file validates without the findings that were fixed, and again fixes nothing
    counts_before = Counter(d.code for d in findings(before, str(path)))
    counts_after = Counter(d.code for d in findings(after, str(path)))
    for code, count in Counter(fix.code for fix in fixes).items():
        assert counts_after[code] <= counts_before[code] - count
    assert fix_bytes(after, str(path)).fixes == []
