"""Supplemental tables (PBN 2.1 section 5): the column specs of a table tag and its rows.

Syntax only: a table is a tag pair whose value lists its columns as
``[+|-]Name[\\width[L|R]]`` separated by ``;``, followed by cells (section tokens or
strings). Rows follow from the column count, not from line breaks. Cells are kept as
written; what ``?``, ``-`` and a leading ``^`` mean is for the reader of a cell to decide
(:func:`is_unknown`, :func:`is_not_relevant`, :func:`is_artificial` help).

>>> read_columns(r"-Rank\\3R;Names\\45;+Score_NS")[2]
Column(name='Score_NS', sort='+', width=None, align=None)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from pbnkit.digits import MAX_DIGITS
from pbnkit.pbn.records import Element, ElementKind, TagPair

Sort = Literal["+", "-"]
Align = Literal["L", "R"]

# PBN 5.1: an optional sort sign, a name of any printing characters but ';', then an
# optional minimum width and alignment. The name stops at the backslash; a width of more
# digits than a number may have is no column spec (TG016).
_COLUMN = re.compile(r"(?P<sort>[+-])?(?P<name>[^;\\]*)"
                     rf"(?:\\(?P<width>[0-9]{{1,{MAX_DIGITS}}})(?P<align>[LR])?)?")

#: The tags PBN 2.1 defines as tables (sections 5.3 to 5.10): their value is a column
#: spec. Other tags whose names end in "Table" are not tables: ``Table`` (4.4.7) names
#: the table a game was played at.
TABLES = frozenset(("ActionTable", "AuctionTimeTable", "InstantScoreTable",
                    "OptimumPlayTable", "OptimumResultTable", "PlayTimeTable", "ScoreTable",
                    "TotalScoreTable"))

UNKNOWN = "?"
NOT_RELEVANT = "-"
ARTIFICIAL = "^"


@dataclass(frozen=True, slots=True)
class Column:
    """One column spec. ``sort`` ``+`` means highest first, ``-`` lowest first."""

    name: str
    sort: Sort | None = None
    width: int | None = None
    align: Align | None = None

    def pbn(self) -> str:
        """The spec as PBN writes it: ``+Score_NS\\5R``."""
        width = f"\\{self.width}{self.align or ''}" if self.width is not None else ""
        return f"{self.sort or ''}{self.name}{width}"


@dataclass(frozen=True, slots=True)
class TableProblem:
    """Something wrong with a table's syntax, at a 1-based line and column."""

    message: str
    line: int
    column: int


@dataclass(frozen=True)
class Table:
    """A table section: its columns, its rows of cell texts, and each cell's element
    (``cells[r][c]`` gives the line, column and whether it was a string).

    A last row with too few cells is left out of ``rows`` and reported in ``problems``.
    """

    name: str
    columns: list[Column]
    rows: list[list[str]] = field(default_factory=list)
    cells: list[list[Element]] = field(default_factory=list)
    problems: list[TableProblem] = field(default_factory=list)

    def index(self, name: str) -> int | None:
        """The position of the column called ``name`` (the first, if repeated)."""
        for position, column in enumerate(self.columns):
            if column.name == name:
                return position
        return None

    def has(self, *names: str) -> bool:
        return all(self.index(name) is not None for name in names)


def is_table_tag(name: str) -> bool:
    """Whether PBN defines the tag ``name`` as a table (its value lists columns)."""
    return name in TABLES


def is_column_spec(value: str) -> bool:
    """Whether a table tag value lists its columns as PBN 5.2 says: ``#`` inheritance,
    an empty value or a part that is no ``[+|-]Name[\\width[L|R]]`` does not."""
    return bool(value.strip()) and not value.startswith("#") and not column_problems(value)


def read_columns(spec: str) -> list[Column]:
    """The columns of a table tag value; a part that is not a column spec becomes a
    column named after its whole text (:func:`column_problems` says which)."""
    return [_column(part.strip()) for part in spec.split(";")]


def column_problems(spec: str) -> list[str]:
    """Why parts of a table tag value are not column specs (empty when all are)."""
    found = []
    for number, part in enumerate(spec.split(";"), start=1):
        match = _COLUMN.fullmatch(part.strip())
        if match is None:
            found.append(f"column {number} '{part.strip()}' is not [+|-]Name[\\width[L|R]]")
        elif not match["name"].strip():
            found.append(f"column {number} has no name")
    return found


def _column(part: str) -> Column:
    match = _COLUMN.fullmatch(part)
    if match is None:
        return Column(part)
    width = int(match["width"]) if match["width"] is not None else None
    sort: Sort | None = "+" if match["sort"] == "+" else "-" if match["sort"] == "-" else None
    align: Align | None = "L" if match["align"] == "L" else "R" if match["align"] == "R" else None
    return Column(match["name"].strip(), sort, width, align)


def read_table(tag: TagPair, spec: str | None = None) -> Table:
    """The table a tag pair opens. ``spec`` is the tag value after ``#`` inheritance
    (``Game.value(tag.name)``); without it the value as written is used."""
    spec = tag.value if spec is None else spec
    where = (tag.line, tag.value_column or tag.column)
    if spec.startswith("#"):
        return Table(tag.name, [], problems=[TableProblem(
            f"{tag.name} inherits its columns ({spec!r}): pass the inherited value", *where)])
    if not spec.strip():
        return Table(tag.name, [], problems=[
            TableProblem(f"{tag.name} lists no columns", *where)])
    problems = [TableProblem(message, *where) for message in column_problems(spec)]
    columns = read_columns(spec)
    elements = [e for e in tag.tokens if e.kind in (ElementKind.TOKEN, ElementKind.STRING)]
    width = len(columns)
    whole = len(elements) - len(elements) % width
    cells = [elements[start:start + width] for start in range(0, whole, width)]
    if whole < len(elements):
        first = elements[whole]
        problems.append(TableProblem(
            f"{tag.name} ends with an incomplete row: {len(elements) - whole} of {width} "
            "cells", first.line, first.column))
    return Table(tag.name, columns, [[e.text for e in row] for row in cells], cells, problems)


def is_unknown(text: str) -> bool:
    return text == UNKNOWN


def is_not_relevant(text: str) -> bool:
    return text == NOT_RELEVANT


def is_special(text: str) -> bool:
    """A cell that holds no plain value: unknown (``?``), not relevant (``-``) or
    artificial (``^60``)."""
    return is_unknown(text) or is_not_relevant(text) or is_artificial(text)


def is_artificial(text: str) -> bool:
    """An artificial score (``^60``), such as an adjusted score."""
    return text.startswith(ARTIFICIAL)
