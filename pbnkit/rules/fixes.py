"""Safe fixes (``pbnkit validate --fix``): rewrite the spans of a file that a few findings
point at, when the meant text is beyond doubt, and leave every other byte as it was.

A fix is driven by a diagnostic's position: the value or the call it names is found at
that line and column of the file's bytes, checked to be what the finding is about, and
replaced. The fixes:

* ``AU009``: ``P`` (or ``PASS``, any case) becomes ``Pass``, and ``3N`` becomes ``3NT``;
* ``TG017``: a Contract such as ``3N`` or ``PASS``, or a Vulnerable such as ``NONE``, is
  written as PBN spells it;
* ``TG022`` and ``TG023``: a Contract tag's ``3D*``, ``3D**``, ``PO``, ``AP`` or ``P``
  becomes ``3DX``, ``3DXX`` or ``Pass``;
* ``TG104`` on Vulnerable: ``Love`` and ``-`` become ``None``;
* ``TG009``: a date written ``2025-03-01`` or ``2025/03/01`` becomes ``2025.03.01``;
* ``TG020``: the blanks at the end of a value go.

Other findings need a person (which call was meant, which seat dealt) and stay. A fix
can bring another into view (``"3N "``: first the blank, then the spelling), so the
file is checked again after each round, as ruff does, until nothing more is fixable.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import NamedTuple

from pbnkit.diagnostics import Diagnostic, matches
from pbnkit.model import Vulnerability
from pbnkit.model.values import parse_or_none
from pbnkit.formats.sniff import read
from pbnkit.pbn.split import codec_of, detect, line_separable
from pbnkit.replay.tags import read_contract
from pbnkit.rules import check_game
from pbnkit.pickling import by_fields

#: Codes a fix exists for; ``--select``/``--ignore`` choose among them.
FIXABLE = ("AU009", "TG009", "TG017", "TG020", "TG022", "TG023", "TG104")
_ROUNDS = 4  # a value takes at most two fixes; more rounds would mean a fix that undoes itself

_LINE = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)?")
_WORD = re.compile(r"[A-Za-z0-9]+")
_VALUE = re.compile(r'(?:[^"\\]|\\.)*')  # a quoted value as written, up to its closing quote
_SEPARATED_DATE = re.compile(r"([0-9?]{4})([-/])([0-9?]{2})\2([0-9?]{2})")
_SHORT_NT = re.compile(r"[1-7][Nn]")


@by_fields
@dataclass(frozen=True, slots=True)
class Fix:
    """Text replaced at a 1-based line and column (in characters)."""

    code: str
    line: int
    column: int
    old: str
    new: str

    def describe(self) -> str:
        return f"{self.line}:{self.column}: {self.code} {self.old!r} -> {self.new!r}"


class FixResult(NamedTuple):
    data: bytes  #: the file's bytes with the fixes made
    fixes: list[Fix]  #: in the order they were made, round after round


def _call(call: str) -> str | None:
    """The PBN spelling of a non-standard call that has only one meaning."""
    if call.upper() in ("P", "PASS"):
        return "Pass"
    if _SHORT_NT.fullmatch(call):
        return call[0] + "NT"
    return None


def _spelling(value: str) -> str | None:
    """A Contract or Vulnerable value (TG017) as PBN spells it: no Contract value is a
    Vulnerable one, nor the other way round."""
    if value != value.strip():
        return None  # blanks first (TG020); then the next round sees the spelling
    contract = read_contract(value)
    if contract is not None:
        return contract.pbn()
    vulnerability = parse_or_none(Vulnerability.from_pbn, value)
    return vulnerability.pbn() if vulnerability is not None else None


def _vulnerable(value: str) -> str | None:
    return "None" if value.lower() in ("love", "-") else None


def _date(value: str) -> str | None:
    match = _SEPARATED_DATE.fullmatch(value)
    return f"{match[1]}.{match[3]}.{match[4]}" if match else None


def _trailing(value: str) -> str | None:
    return value.rstrip(" \t")


#: For each fixable code, what its span is (a call token, or a tag value) and its new text.
_VALUE_FIXES: dict[str, Callable[[str], str | None]] = {
    "TG009": _date, "TG017": _spelling, "TG020": _trailing, "TG022": _spelling,
    "TG023": _spelling, "TG104": _vulnerable}


def fix_for(diagnostic: Diagnostic, line_text: str) -> Fix | None:
    """The fix of one finding, given the text of its line; None when it has none."""
    start = diagnostic.column - 1
    if diagnostic.code == "AU009":
        word = _WORD.match(line_text, start)
        new = _call(word[0]) if word is not None else None
        if word is None or new is None:
            return None
        return Fix("AU009", diagnostic.line, diagnostic.column, word[0], new)
    fixer = _VALUE_FIXES.get(diagnostic.code)
    if fixer is None or start < 1 or line_text[start - 1:start] != '"':
        return None  # not a quoted value: an unquoted one is left to a person
    value = _VALUE.match(line_text, start)
    assert value is not None
    written = value[0]
    if "\\" in written or line_text[value.end():value.end() + 1] != '"':
        return None  # escapes, or a value that does not end on its line
    new = fixer(written)
    if new is None or new == written:
        return None
    return Fix(diagnostic.code, diagnostic.line, diagnostic.column, written, new)


def findings(data: bytes, path: str | None = None) -> list[Diagnostic]:
    """Every finding of the games of a file's bytes (export format included: it holds
    the Vulnerable spellings), as the fixes see them."""
    reader = read(io.BytesIO(data), path, strict=True)
    found = [d for game in reader for d in check_game(game, strict=True)]
    return found + list(reader.diagnostics)


def fix_bytes(data: bytes, path: str | None = None, select: tuple[str, ...] = (),
              ignore: tuple[str, ...] = ()) -> FixResult:
    """The file's bytes with every safe fix made, among the codes ``select`` and
    ``ignore`` leave (prefixes, as for validate), and the fixes. Bytes that no fix
    touches are kept as they were, line ends and all."""
    encoding = detect(data[:1 << 20])
    codec = codec_of(encoding)
    if not line_separable(codec):
        return FixResult(data, [])  # UTF-16 and the like: lines are not found in bytes
    made: list[Fix] = []
    for _ in range(_ROUNDS):
        wanted = [d for d in findings(data, path) if d.code in FIXABLE
                  and (not select or matches(d.code, select)) and not matches(d.code, ignore)]
        data, fixes = _apply(data, wanted, codec, encoding.bom)
        if not fixes:
            break
        made += fixes
    return FixResult(data, made)


def _apply(data: bytes, wanted: Iterable[Diagnostic], codec: str,
           bom: bool) -> tuple[bytes, list[Fix]]:
    """One round: the fixes of ``wanted`` that do not overlap, made from the end of each
    line backwards so that the columns of the others stay true."""
    lines = _LINE.findall(data)
    by_line: dict[int, list[Diagnostic]] = {}
    for diagnostic in wanted:
        by_line.setdefault(diagnostic.line, []).append(diagnostic)
    made = []
    for number, found in sorted(by_line.items()):
        if not 1 <= number <= len(lines):
            continue
        raw = lines[number - 1]
        skip = len(_BOM) if bom and number == 1 and raw.startswith(_BOM) else 0
        used, text = _decoded(raw[skip:], codec)
        single_byte = len(text) == len(raw) - skip
        fixes = [fix for fix in (fix_for(d, text) for d in found) if fix is not None]
        end = len(text) + 1
        for fix in sorted(set(fixes), key=lambda fix: -fix.column):
            if fix.column + len(fix.old) > end:
                continue  # overlaps a fix to its right: the next round sees it again
            prefix = text[:fix.column - 1]
            at = skip + (len(prefix) if single_byte else len(prefix.encode(used)))
            old = fix.old.encode(used)
            if raw[at:at + len(old)] != old:
                continue  # the text is not where the finding says: touch nothing
            raw = raw[:at] + fix.new.encode(used) + raw[at + len(old):]
            end = fix.column
            made.append(fix)
        lines[number - 1] = raw
    made.sort(key=lambda fix: (fix.line, fix.column))
    return b"".join(lines), made


_BOM = b"\xef\xbb\xbf"


def _decoded(raw: bytes, codec: str) -> tuple[str, str]:
    """The codec that reads a line as the reader has it, and its text. A line that is
    not valid in the file's codec was read with a single-byte fallback; Latin-1 gives
    the same columns, and its bytes back unchanged."""
    try:
        return codec, raw.decode(codec)
    except UnicodeDecodeError:
        return "latin-1", raw.decode("latin-1")
