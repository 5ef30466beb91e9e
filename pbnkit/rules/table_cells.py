"""The spellings of a ScoreTable's cells that PBN does not define but scoring programs
write (``3D*``, ``PO``, ``A+`` ...): the same warnings as in the Contract tag (TG022-TG024),
at the cell, for the cells pbnkit reads as meant."""

from __future__ import annotations

from pbnkit.diagnostics import Diagnostic
from pbnkit.model.adjusted import read_artificial
from pbnkit.pbn.tables import Table, is_special
from pbnkit.rules.tags import contract_spelling

_SCORES = ("Score_NS", "Score_EW")
#: the spellings that programs' own conventions, not abbreviations, give a Contract cell
_PROGRAMS_OWN = ("TG022", "TG023", "TG024")


def cell_spellings(table: Table) -> list[Diagnostic]:
    """A finding for each Contract cell not spelt as PBN spells a contract, and each score
    cell holding an artificial score in a program's spelling rather than PBN's ``^``."""
    found = []
    contract = table.index("Contract")
    scores = [index for name in _SCORES if (index := table.index(name)) is not None]
    for row, cells in enumerate(table.rows):
        if contract is not None and not is_special(cells[contract]):
            spelling = contract_spelling(cells[contract])
            # 3N and 4SR are how most tables abbreviate (Ruter's all do): only what a
            # reader of PBN could not read is worth a word here; an unreadable contract is
            # SC036's when it costs the row its result
            if spelling is not None and spelling[0] in _PROGRAMS_OWN:
                found.append(_at(table, row, contract, *spelling))
        for column in scores:
            text = cells[column]
            if is_special(text) or read_artificial(text) is None:
                continue
            found.append(_at(table, row, column, "TG024", f"{text!r} is an artificial score "
                             "in a program's spelling; PBN writes it ^ and a percentage"))
    return found



def _at(table: Table, row: int, column: int, code: str, message: str) -> Diagnostic:
    cell = table.cells[row][column]
    return Diagnostic(code, f"{table.name} row {row + 1}: {message}", cell.line, cell.column)
