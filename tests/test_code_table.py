"""The code table (pbnkit.code_table): read without loading a check, in code order, and in
step with the codes the readers and the checks emit."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from pbnkit.code_table import CODES, TABLE
from tests.conftest import REPO

PACKAGE = REPO / "pbnkit"
#: a whole code: a family and three digits
CODE = re.compile(r"(SY|TG|DL|AU|PL|SC)[0-9]{3}")


def code_literals(path: Path) -> set[str]:
    """The string constants of a source file that are a whole code (``"DL003"``); a code
    named inside a longer string (a message, a docstring) is not one."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
            and CODE.fullmatch(node.value)}


def emitted() -> dict[str, set[str]]:
    """The codes each module of the package names, the table itself left out."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name != "code_table.py" and (codes := code_literals(path)):
            found[str(path.relative_to(REPO))] = codes
    return found


def loaded_after(script: str) -> list[str]:
    """The pbnkit modules a fresh interpreter holds after running ``script`` (which prints
    nothing)."""
    script += "\nimport sys\nprint(*sorted(m for m in sys.modules if m.split('.')[0] == 'pbnkit'))"
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, cwd=REPO).stdout.split()


def test_the_table_is_read_without_a_reader_or_a_check():
    # The table module imports nothing of pbnkit: the package, then the table.
    assert loaded_after("from pbnkit.code_table import TABLE\nassert len(TABLE) > 100") == [
        "pbnkit", "pbnkit.code_table"]
    # Nor does its documentation (pbnkit codes, docs/codes.md) load a rules module.
    loaded = loaded_after("from pbnkit.codes import find, markdown\n"
                          "assert find('sc301').name == 'lin-impossible-claim'\n"
                          "assert '## TG301 lin-bad-board' in markdown()")
    assert "pbnkit.code_table" in loaded
    assert [m for m in loaded if m.startswith(("pbnkit.rules", "pbnkit.replay", "pbnkit.pbn",
                                               "pbnkit.lin"))] == []


def test_a_diagnostic_knows_its_code_before_the_code_is_emitted():
    # SC301 is emitted by a rules module and described by the LIN reader's documentation;
    # neither is loaded, and the finding still has its name and severity.
    script = ("from pbnkit.diagnostics import Diagnostic\n"
              "d = Diagnostic('SC301', 'mc|13| after West won trick 1', 3, 7, 'a.lin', '1')\n"
              "assert d.format() == 'a.lin:3:7: SC301 [lin-impossible-claim] "
              "mc|13| after West won trick 1', d.format()\n"
              "assert d.effective_severity.value == 'error'")
    loaded = loaded_after(script)
    assert [m for m in loaded if m.startswith(("pbnkit.rules", "pbnkit.lin"))] == []


def test_the_table_is_in_code_order_each_code_once():
    codes = [entry.code for entry in TABLE]
    assert codes == sorted(codes)
    assert len(set(codes)) == len(codes) == len(CODES)
    assert all(CODE.fullmatch(code) for code in codes)
    assert all(entry.name and entry.summary for entry in TABLE)


def test_every_code_emitted_is_in_the_table():
    unknown = {path: codes - set(CODES) for path, codes in emitted().items() if codes - set(CODES)}
    assert unknown == {}


def test_every_code_in_the_table_is_emitted_somewhere():
    named = set().union(*emitted().values())
    assert set(CODES) - named == set()


def test_the_readers_and_the_checks_name_their_codes():
    # The scan sees the modules that emit each family (a scan that found nothing would
    # pass the two tests above only in part).
    found = emitted()
    assert {"SY001", "SY009"} <= found["pbnkit/pbn/reader.py"]
    assert {"SY301", "TG301"} <= found["pbnkit/lin/records.py"]
    assert {"AU016", "PL018"} <= found["pbnkit/replay/notes.py"]
    assert {"AU102", "PL105"} <= found["pbnkit/rules/section_export.py"]
    assert "SC301" in found["pbnkit/rules/result.py"]


def test_a_code_in_a_message_is_not_a_code_literal(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('"""DL003 is a duplicate card."""\n'
                      'x = Diagnostic("DL003", "TG001 comes first", 1, 1)\n'
                      'y = ("AU1", "SC0301", "sc001")\n')
    assert code_literals(sample) == {"DL003"}
