"""The forms of ``pbnkit validate``'s findings besides its own text and JSON: GitHub
Actions annotations, SARIF 2.1.0 (code scanning, editors) and counts per code
(``--statistics``)."""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pbnkit.diagnostics import CODES, Diagnostic, Severity
from pbnkit.rules.report import Report

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"

_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def github(diagnostic: Diagnostic) -> str:
    """One GitHub Actions workflow command: the finding as an annotation on its line."""
    level = _GITHUB_LEVEL[diagnostic.effective_severity]
    properties = {"file": diagnostic.path or "-", "line": str(diagnostic.line),
                  "col": str(diagnostic.column),
                  "title": f"pbnkit ({diagnostic.code} {diagnostic.name})"}
    fields = ",".join(f"{key}={_escape(value, property=True)}" for key, value in properties.items())
    return f"::{level} {fields}::{_escape(diagnostic.format())}"


def _escape(text: str, property: bool = False) -> str:
    """GitHub's escapes for workflow commands: a property also may not hold ``:`` or ``,``."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property else text


def statistics(diagnostics: Iterable[Diagnostic]) -> list[tuple[str, int]]:
    """(code, count) of the findings, most frequent first, then in code order."""
    counts = Counter(d.code for d in diagnostics)
    return sorted(counts.items(), key=lambda item: (-item[1], item[0]))


def statistics_text(counts: list[tuple[str, int]]) -> list[str]:
    width = len(str(counts[0][1])) if counts else 1
    return [f"{count:>{width}}  {code}  [{CODES[code].name}] {CODES[code].summary}"
            for code, count in counts]


def sarif(report: Report, version: str) -> dict[str, Any]:
    """The report as one SARIF 2.1.0 log: a run of pbnkit, the codes found as its rules,
    and files that could not be read as tool notifications."""
    used = sorted({d.code for d in report.diagnostics})
    index = {code: number for number, code in enumerate(used)}
    rules = [_rule(code) for code in used]
    results = [{
        "ruleId": d.code,
        "ruleIndex": index[d.code],
        "level": _SARIF_LEVEL[d.effective_severity],
        "message": {"text": d.message},
        "locations": [_location(d.path, d.line, d.column)],
        **({"properties": {"board": d.board}} if d.board is not None else {}),
    } for d in report.diagnostics]
    notifications = [{"level": "error", "message": {"text": f.failure},
                      "locations": [_location(f.path, 0, 0)]}
                     for f in report.files if f.failure is not None]
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": {"driver": {"name": "pbnkit", "version": version, "rules": rules}},
            "invocations": [{"executionSuccessful": not notifications,
                             "toolExecutionNotifications": notifications}],
            "results": results,
        }],
    }


def _rule(code: str) -> dict[str, Any]:
    entry = CODES[code]
    rule: dict[str, Any] = {
        "id": code,
        "name": entry.name,
        "shortDescription": {"text": entry.summary},
        "defaultConfiguration": {"level": _SARIF_LEVEL[entry.severity]},
    }
    if entry.why:
        rule["fullDescription"] = {"text": entry.why}
    rule["help"] = {"text": f"{entry.fix} ('pbnkit codes {code}' explains it.)".lstrip()}
    return rule


def _location(path: str | None, line: int, column: int) -> dict[str, Any]:
    """A file as a URI: relative to the current directory (where CI runs) when inside it,
    else an absolute ``file:`` URI; a region only for a real position."""
    physical: dict[str, Any] = {"artifactLocation": {"uri": _uri(path or "-")}}
    if line >= 1:
        physical["region"] = {"startLine": line, **({"startColumn": column} if column >= 1 else {})}
    return {"physicalLocation": physical}


def _uri(path: str) -> str:
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute)
    if re.match(r"\.\.($|/|\\)", relative):
        return Path(absolute).as_uri()
    return quote(Path(relative).as_posix())
