"""Double-dummy tables and the par, as values, and the PBN tags that state them.

``OptimumResultTable`` (PBN 2.1) gives the tricks of each declarer in each denomination,
20 rows; ``OptimumScore`` (PBN 2.1) the par score, ``NS <score>`` or ``EW <score>``;
``ParContract`` is BridgeComposer's tag for the par contracts, ``NS 4S=`` or
``NS 5CX-1; NS 5HX-1``, a side or a seat before each contract; ``DoubleDummyTricks``
is BridgeComposer's packing of the table into 20 hexadecimal digits, declarers N, S, E, W
each in NT, S, H, D, C (the order its files show beside their OptimumResultTable).
Reading is lenient (any row order, ``N`` or ``NT``); writing follows what the real files
write.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from pbnkit.model.calls import Contract, Risk
from pbnkit.model.cards import SEATS, STRAINS, Seat, Side, Strain
from pbnkit.pbn.records import TagPair
from pbnkit.pbn.tables import read_table

#: The column specification real files give the OptimumResultTable tag.
OPTIMUM_RESULT_COLUMNS = "Declarer;Denomination\\2R;Result\\2R"
#: Declarers in the order real files list the rows (each in C, D, H, S, NT).
DECLARER_ROWS = (Seat.N, Seat.E, Seat.S, Seat.W)

_SIDE_SEATS = {"NS": (Seat.N, Seat.S), "EW": (Seat.E, Seat.W),
               **{seat.name: (seat,) for seat in SEATS}}
_PAR_ITEM = re.compile(r"(NS|EW|N|E|S|W)\s+([1-7])(NT|N|C|D|H|S)(XX|X)?(=|[+-]\d{1,2})",
                       re.IGNORECASE)
_HEX_TRICKS = re.compile(r"[0-9a-dA-D]{20}")
#: The cells of DoubleDummyTricks, digit by digit.
_HEX_CELLS = tuple((seat, strain) for seat in (Seat.N, Seat.S, Seat.E, Seat.W)
                   for strain in (Strain.NT, Strain.S, Strain.H, Strain.D, Strain.C))
_COLUMN_ALIASES = {"suit": "denomination", "strain": "denomination", "tricks": "result"}
_SCORE = re.compile(r"(NS|EW)\s+([+-]?\d+)", re.IGNORECASE)


def strain_name(strain: Strain) -> str:
    """``NT`` as the tables write it, else the suit letter."""
    return strain.pbn()


@dataclass(frozen=True, slots=True)
class TrickTable:
    """Double-dummy tricks by declarer and strain: ``table[Seat.S, Strain.NT]``."""

    #: 20 trick counts, ``tricks[seat * 5 + strain]``
    tricks: tuple[int, ...]

    @classmethod
    def of(cls, by_cell: Mapping[tuple[Seat, Strain], int]) -> TrickTable:
        """A table from all 20 cells."""
        return cls(tuple(by_cell[seat, strain] for seat in SEATS for strain in STRAINS))

    def __getitem__(self, cell: tuple[Seat, Strain]) -> int:
        seat, strain = cell
        return self.tricks[seat * 5 + strain]

    def rows(self) -> Iterator[tuple[Seat, Strain, int]]:
        """Declarer, strain and tricks, in the order real files write the rows."""
        for seat in DECLARER_ROWS:
            for strain in STRAINS:
                yield seat, strain, self[seat, strain]

    def table_rows(self) -> list[str]:
        """The body of an OptimumResultTable tag: ``N  C  9`` (columns right-aligned to
        two characters, as the column specification says)."""
        return [f"{seat.name} {strain_name(strain):>2} {tricks:>2}"
                for seat, strain, tricks in self.rows()]

    def hex_digits(self) -> str:
        """The DoubleDummyTricks value."""
        return "".join(f"{self[seat, strain]:x}" for seat, strain in _HEX_CELLS)

    def level(self, seat: Seat, strain: Strain) -> int | None:
        """The highest level ``seat`` makes in ``strain``, None below one."""
        tricks = self[seat, strain]
        return tricks - 6 if tricks >= 7 else None


@dataclass(frozen=True, slots=True)
class ParContract:
    """One par contract: who declares it (a seat, or both of a side), and its result."""

    declarers: tuple[Seat, ...]
    contract: Contract
    tricks: int

    @property
    def side(self) -> Side:
        return self.declarers[0].side

    def pbn(self) -> str:
        """``NS 4S=``, ``E 3N+1``, ``NS 5HX-2``, as BridgeComposer writes it."""
        who = self.side.value if len(self.declarers) == 2 else self.declarers[0].name
        contract = self.contract
        assert contract.strain is not None
        strain = "N" if contract.strain is Strain.NT else contract.strain.name
        over = self.tricks - contract.level - 6
        result = "=" if over == 0 else f"{over:+d}"
        return f"{who} {contract.level}{strain}{contract.risk.pbn()}{result}"


@dataclass(frozen=True, slots=True)
class Par:
    """The par of a deal: its score for North-South, and the contracts that reach it
    (none when the deal is passed out at par)."""

    score_ns: int
    contracts: tuple[ParContract, ...]

    def optimum_score(self) -> str:
        """The OptimumScore tag value, ``NS <score>`` (the E-W score is its negative)."""
        return f"NS {self.score_ns}"

    def par_contract(self) -> str:
        """The ParContract tag value: each contract, joined by ``; ``; ``Pass`` when no
        contract beats passing the deal out."""
        return "; ".join(c.pbn() for c in self.contracts) or "Pass"


def read_trick_cells(tag: TagPair) -> tuple[dict[tuple[Seat, Strain], int], list[str]]:
    """The cells an OptimumResultTable tag states, with what could not be read. Its
    column names may be separated by blanks instead of ``;``, as one program writes."""
    spec = tag.value if ";" in tag.value else ";".join(tag.value.split())
    table = read_table(tag, spec)
    columns, rows = [column.name for column in table.columns], table.rows
    # Bridge Bidding Analyser heads its table "Declarer Suit Tricks".
    names = [_COLUMN_ALIASES.get(name.lower(), name.lower()) for name in columns]
    problems: list[str] = []
    try:
        where = names.index("declarer"), names.index("denomination"), names.index("result")
    except ValueError:
        return {}, ["the table needs the columns Declarer, Denomination and Result"]
    cells: dict[tuple[Seat, Strain], int] = {}
    for number, row in enumerate(rows, 1):
        try:
            declarer, strain, result = (row[index] for index in where)
            seat = Seat.from_pbn(declarer)
            named = "NT" if strain.strip().upper() == "N" else strain
            cells[seat, Strain.from_pbn(named)] = int(result)
        except (IndexError, ValueError):
            problems.append(f"row {number} ({' '.join(row)}) is not declarer, "
                            "denomination and tricks")
    return cells, problems


def read_hex_tricks(text: str | None) -> dict[tuple[Seat, Strain], int] | None:
    """The cells a DoubleDummyTricks value states; None when it is not 20 digits 0-d."""
    text = (text or "").strip()
    if not _HEX_TRICKS.fullmatch(text):
        return None
    return {cell: int(digit, 16) for cell, digit in zip(_HEX_CELLS, text)}


def read_optimum_score(text: str | None) -> int | None:
    """The N-S par score an OptimumScore value states; None if it states none."""
    match = _SCORE.match((text or "").strip())
    if match is None:
        return None
    score = int(match[2])
    return score if match[1].upper() == "NS" else -score


def read_par_contracts(text: str | None) -> list[tuple[tuple[Seat, ...], Contract, int]] | None:
    """The contracts a ParContract value states, each with its declarers and tricks;
    ``[]`` for ``Pass``, None when the value cannot be read."""
    text = (text or "").strip()
    if text.upper() == "PASS":
        return []
    found = []
    for item in filter(None, (part.strip() for part in text.split(";"))):
        match = _PAR_ITEM.fullmatch(item)
        if match is None:
            return None
        level = int(match[2])
        strain = Strain.NT if match[3].upper() in ("N", "NT") else Strain.from_pbn(match[3])
        risk = Risk(len(match[4] or ""))
        over = 0 if match[5] == "=" else int(match[5])
        found.append((_SIDE_SEATS[match[1].upper()], Contract(level, strain, risk),
                      level + 6 + over))
    return found or None
