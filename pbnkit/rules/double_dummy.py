"""``pbnkit validate --dd``: the double-dummy tags a record states, against the solver.

Only tags a record states are checked, and only on a whole deal (four hands of 13
cards). The par is DDS's with the dealer's side to bid first; a stated par contract is
right when the solver gives its declarer the stated tricks and it scores the par.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import islice
from pathlib import Path

from pbnkit.analysis.records import deal_setting
from pbnkit.analysis.solver import BATCH, solve_with_par
from pbnkit.analysis.tables import (Par, TrickTable, read_hex_tricks, read_optimum_score,
                                    read_par_contracts, read_trick_cells)
from pbnkit.diagnostics import Diagnostic
from pbnkit.formats.sniff import open_reader
from pbnkit.model.calls import Contract, Vulnerability
from pbnkit.model.cards import Seat, Strain
from pbnkit.pbn.records import Game, TagPair
from pbnkit.rules import select
from pbnkit.rules.report import Options, Report, _tally
from pbnkit.scoring.duplicate import score_ns

_TAGS = ("OptimumResultTable", "DoubleDummyTricks", "OptimumScore", "ParContract")


def check_games(games: Iterable[Game]) -> Iterator[Diagnostic]:
    """The findings on the double-dummy tags of ``games``, record by record; the deals
    that state one are solved 40 to a batch."""
    claims = ((game, setting) for game in games
              if any(game.tag(name) is not None for name in _TAGS)
              and (setting := deal_setting(game)) is not None)
    while batch := list(islice(claims, BATCH)):
        solved = solve_with_par([setting for _, setting in batch])
        for (game, setting), (table, par) in zip(batch, solved):
            yield from check_game(game, table, par, setting.vulnerability)


def check_game(game: Game, table: TrickTable, par: Par,
               vulnerability: Vulnerability) -> list[Diagnostic]:
    """The findings on one record's double-dummy tags, given its solved table and par."""
    found: list[Diagnostic] = []

    def report(tag: TagPair, code: str, message: str) -> None:
        found.append(Diagnostic(code, message, tag.line, tag.column, game.path, game.board))

    tag = game.tag("OptimumResultTable")
    if tag is not None:
        cells, problems = read_trick_cells(tag)
        for problem in problems:
            report(tag, "SC044", f"OptimumResultTable: {problem}")
        found += _wrong_cells(game, tag, cells, table)
    tag = game.tag("DoubleDummyTricks")
    if tag is not None:
        digits = read_hex_tricks(tag.value)
        if digits is None:
            report(tag, "SC044", f"DoubleDummyTricks {tag.value!r} is not 20 digits 0-9, a-d")
        else:
            found += _wrong_cells(game, tag, digits, table)
    tag = game.tag("OptimumScore")
    if tag is not None:
        stated = read_optimum_score(tag.value)
        if stated is None:
            report(tag, "SC044", f"OptimumScore {tag.value!r} is not 'NS <score>' or "
                   "'EW <score>'")
        elif stated != par.score_ns:
            report(tag, "SC042", f"OptimumScore {tag.value!r} but the par is "
                   f"{par.optimum_score()} ({par.par_contract()})")
    tag = game.tag("ParContract")
    if tag is not None:
        found += _par_contract(game, tag, table, par, vulnerability)
    return sorted(found, key=lambda d: (d.line, d.column))


def _wrong_cells(game: Game, tag: TagPair, cells: Mapping[tuple[Seat, Strain], int],
                 table: TrickTable) -> list[Diagnostic]:
    wrong = [f"{seat.name} {strain.pbn()} {stated} (double dummy {table[seat, strain]})"
             for (seat, strain), stated in cells.items() if table[seat, strain] != stated]
    if not wrong:
        return []
    return [Diagnostic("SC041", f"{tag.name} is wrong in {len(wrong)} of {len(cells)} "
                       "entries: " + ", ".join(wrong), tag.line, tag.column, game.path,
                       game.board)]


def _par_contract(game: Game, tag: TagPair, table: TrickTable, par: Par,
                  vulnerability: Vulnerability) -> list[Diagnostic]:
    def at_tag(code: str, message: str) -> Diagnostic:
        return Diagnostic(code, message, tag.line, tag.column, game.path, game.board)

    stated = read_par_contracts(tag.value)
    if stated is None:
        return [at_tag("SC044", f"ParContract {tag.value!r} is not contracts such as "
                       "'NS 4S=' or 'E 5CX-2' joined by ';'")]
    if not stated:
        if par.contracts:
            return [at_tag("SC043", f"ParContract 'Pass' but the par is "
                           f"{par.par_contract()} ({par.optimum_score()})")]
        return []
    wrong = []
    for declarers, contract, tricks in stated:
        assert contract.strain is not None  # the reading gives a strain to every contract
        best = max(table[seat, contract.strain] for seat in declarers)
        scored = score_ns(contract, declarers[0], best, vulnerability)
        if best != tricks:
            wrong.append(f"{_named(declarers, contract, tricks)}: {best} tricks double dummy")
        elif scored != par.score_ns:
            wrong.append(f"{_named(declarers, contract, tricks)} scores NS {scored}, not "
                         f"the par NS {par.score_ns}")
    if not wrong:
        return []
    return [at_tag("SC043", f"ParContract {tag.value!r}: " + "; ".join(wrong)
                   + f" (par {par.par_contract()})")]


def _named(declarers: tuple[Seat, ...], contract: Contract, tricks: int) -> str:
    who = "".join(seat.name for seat in declarers)
    return f"{contract.pbn()} by {who} taking {tricks}"


def add_to_report(report: Report, files: Sequence[Path], names: Mapping[str, str],
                  options: Options, keep: bool = True) -> list[Diagnostic]:
    """``validate --dd``: check the files again for their double-dummy tags, and add the
    findings, with their counts, to each file's part of ``report``. The listed findings
    are returned, and kept in ``report`` only with ``keep`` (without it, the caller
    prints them, as it printed the other findings when each file was done)."""
    listed_all: list[Diagnostic] = []
    for path in files:
        name = names.get(str(path), str(path))
        file_report = next((f for f in report.files if f.path == name), None)
        if file_report is None or file_report.failure is not None:
            continue
        games = open_reader(str(path), name)  # the reader validate read the file with
        found = select(check_games(games), options.select, options.ignored_in(name))
        # Counted and listed as the file's other findings were.
        listed = _tally(file_report, found, options.min_severity)
        listed_all += listed
        if not keep:
            continue
        # After the file's other findings, so each file's findings stay together.
        last = max((n for n, d in enumerate(report.diagnostics) if d.path == name), default=None)
        at = len(report.diagnostics) if last is None else last + 1
        report.diagnostics[at:at] = listed
    return listed_all
