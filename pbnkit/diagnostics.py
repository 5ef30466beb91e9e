"""Diagnostics: coded findings with a position, shared by every layer.

Codes follow ruff: a family prefix plus digits (``SY`` syntax, ``TG`` tags, ``DL`` deal,
``AU`` auction, ``PL`` play, ``SC`` score and result), a kebab-case name, a severity, and
a documentation entry. Each family registers its codes in the module that emits them;
``pbnkit codes`` prints the registry.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from pbnkit.pickling import by_fields


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Code:
    """A diagnostic code and its documentation."""

    code: str
    name: str
    severity: Severity
    summary: str
    why: str = ""
    example: str = ""
    fix: str = ""


by_fields(Code)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding: a code at a 1-based line and column of a file."""

    code: str
    message: str
    line: int
    column: int
    path: str | None = None
    board: str | None = None
    severity: Severity | None = None  # None: the code's registered severity

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


by_fields(Diagnostic)


CODES: dict[str, Code] = {}


def register(*codes: Code) -> dict[str, Code]:
    """Add codes to the registry; a code may be registered once only."""
    for code in codes:
        if code.code in CODES and CODES[code.code] != code:
            raise RuntimeError(f"diagnostic code {code.code} registered twice")
        CODES[code.code] = code
    return {code.code: code for code in codes}


def matches(code: str, prefixes: tuple[str, ...]) -> bool:
    """Whether a code starts with one of the prefixes (``--select``/``--ignore``)."""
    return any(code.startswith(prefix.upper()) for prefix in prefixes)
