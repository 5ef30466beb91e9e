"""Solve deals double dummy with Bo Haglund's DDS, through endplay's binding.

endplay (the optional ``dd`` extra) ships DDS built for each platform inside its wheel,
and is maintained. DDS's batch call, ``CalcAllTables``, takes up to 40 deals at a time
(all five strains of each) and spreads them over its own threads, one per core; so deals
are handed over 40 at a time and no process pool is needed on top.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from types import ModuleType
from typing import Any

from pbnkit.analysis.tables import Par, ParContract, TrickTable
from pbnkit.errors import PbnError
from pbnkit.model.calls import Contract, Risk, Vulnerability
from pbnkit.model.cards import SEATS, STRAINS, Seat, Strain
from pbnkit.model.deal import Deal

INSTALL_HINT = "pip install 'pbnkit[dd]'"
#: Deals per CalcAllTables call: DDS's limit for tables of all five strains
#: (MAXNOOFTABLES in its headers).
BATCH = 40

#: endplay numbers strains spades first: our strain by its denomination number.
_STRAIN_OF_DENOM = (Strain.S, Strain.H, Strain.D, Strain.C, Strain.NT)
_DENOM_OF_STRAIN = {strain: denom for denom, strain in enumerate(_STRAIN_OF_DENOM)}
#: endplay's (and DDS's) vulnerability numbers: none, both, N-S, E-W.
_VULNERABLE = {Vulnerability.NONE: 0, Vulnerability.ALL: 1, Vulnerability.NS: 2,
               Vulnerability.EW: 3}
#: endplay's penalty flags: undoubled 1, doubled 2, redoubled 4.
_RISK = {1: Risk.UNDOUBLED, 2: Risk.DOUBLED, 4: Risk.REDOUBLED}


class SolverMissingError(PbnError):
    """The double-dummy solver is not installed."""

    def __init__(self) -> None:
        super().__init__("double-dummy analysis needs the solver of the dd extra: "
                         f"{INSTALL_HINT}")


def _endplay(module: str) -> ModuleType:
    """An endplay module, or the error that says how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise SolverMissingError() from None


def available() -> bool:
    """Whether the solver can be loaded."""
    try:
        _endplay("endplay.dds")
    except SolverMissingError:
        return False
    return True


def _solved(deals: Iterable[Deal]) -> Iterator[Any]:
    """endplay's table of each complete deal, in order, 40 deals to a batch call."""
    dds = _endplay("endplay.dds")
    types = _endplay("endplay.types")
    deals = iter(deals)
    while batch := list(islice(deals, BATCH)):
        for deal in batch:
            if not deal.is_complete or deal.problems():
                raise ValueError(f"only a whole deal can be solved, not {deal.pbn()!r}")
        results = dds.calc_all_tables([types.Deal(deal.pbn()) for deal in batch])
        yield from (results[number] for number in range(len(batch)))


def solve(deals: Iterable[Deal]) -> Iterator[TrickTable]:
    """The double-dummy table of each complete deal, in order. Raises
    :class:`SolverMissingError` without the solver, and ValueError for a deal that is not
    four hands of 13 cards."""
    return map(_table, _solved(deals))


def solve_with_par(deals: Sequence[tuple[Deal, Vulnerability, Seat]]
                   ) -> Iterator[tuple[TrickTable, Par]]:
    """Each deal's table and par. The par is DDS's with the dealer's side to bid first:
    the one an auction reaches when both sides bid their best."""
    dds = _endplay("endplay.dds")
    types = _endplay("endplay.types")
    for (_, vulnerability, dealer), solved in zip(deals, _solved(deal for deal, _, _ in deals)):
        table = _table(solved)
        found = dds.par(solved, types.Vul(_VULNERABLE[vulnerability]),
                        types.Player(int(dealer)))
        yield table, Par(int(found.score), _par_contracts(found, table))


def par_of_table(table: TrickTable, vulnerability: Vulnerability, dealer: Seat) -> Par:
    """The par of a deal known only by its table (a record states the table but not the
    par): DDS's par, as :func:`solve_with_par` finds it, from the stated tricks."""
    dds = _endplay("endplay.dds")
    types = _endplay("endplay.types")
    results = _endplay("endplay._dds").ddTableResults()
    for strain in STRAINS:
        for seat in SEATS:
            results.resTable[_DENOM_OF_STRAIN[strain]][seat] = table[seat, strain]
    found = dds.par(_endplay("endplay.dds.ddtable").DDTable(results),
                    types.Vul(_VULNERABLE[vulnerability]), types.Player(int(dealer)))
    return Par(int(found.score), _par_contracts(found, table))


def _table(result: Any) -> TrickTable:
    by_denom = result.to_list()  # [denomination][player], in endplay's numbering
    return TrickTable.of({(seat, strain): int(by_denom[_DENOM_OF_STRAIN[strain]][seat])
                          for seat in SEATS for strain in STRAINS})


def _par_contracts(found: Any, table: TrickTable) -> tuple[ParContract, ...]:
    """endplay lists a contract both partners make as two; they are one par contract
    declared by the side."""
    by_contract: dict[tuple[Contract, int], list[Seat]] = {}
    for item in found:
        strain = _STRAIN_OF_DENOM[int(item.denom)]
        contract = Contract(int(item.level), strain, _RISK[int(item.penalty)])
        seat = SEATS[int(item.declarer)]
        tricks = table[seat, strain]
        by_contract.setdefault((contract, tricks), []).append(seat)
    return tuple(ParContract(tuple(sorted(seats)), contract, tricks)
                 for (contract, tricks), seats in by_contract.items())
