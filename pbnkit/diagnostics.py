"""Diagnostics: coded findings with a position, shared by every layer.

A finding names its code by the string (``"DL003"``); the code's name, severity and
documentation are an entry of :mod:`pbnkit.code_table`, which holds every code.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbnkit.code_table import CODES, Code, Severity
from pbnkit.pickling import by_fields

__all__ = ["CODES", "Code", "Diagnostic", "Severity", "matches"]


@by_fields
@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding: a code at a 1-based line and column of a file."""

    code: str
    message: str
    line: int
    column: int
    path: str | None = None
    board: str | None = None
    severity: Severity | None = None  # None: the code's severity in the table

    @property
    def info(self) -> Code:
        return CODES[self.code]

    @property
    def name(self) -> str:
        return CODES[self.code].name

    @property
    def effective_severity(self) -> Severity:
        return self.severity or CODES[self.code].severity

    def format(self) -> str:
        """``path:line:col: CODE [name] message``, the form editors and CI understand."""
        return f"{self.path or '-'}:{self.line}:{self.column}: {self.code} [{self.name}] {self.message}"


def matches(code: str, prefixes: tuple[str, ...]) -> bool:
    """Whether a code starts with one of the prefixes (``--select``/``--ignore``)."""
    return any(code.startswith(prefix.upper()) for prefix in prefixes)
