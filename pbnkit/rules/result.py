"""``SC`` codes about the outcome of a deal: the Contract, Declarer and Result tags
checked against the replayed auction and play.

A tag value that cannot be read at all is the tag checks' business (``TG``); here such a
value is simply not compared. Values with a leading ``^`` record an irregularity (PBN
3.9, 3.4.15) and are honoured, not flagged.
"""

from __future__ import annotations

from pbnkit.diagnostics import Diagnostic
from pbnkit.model.calls import Contract
from pbnkit.model.cards import Seat
from pbnkit.digits import whole_number
from pbnkit.pbn.records import Game, TagPair
from pbnkit.replay.outcome import Tricks
from pbnkit.replay.tags import ResultTag, read_contract, read_declarer, read_result

# The readers live with the replay, below rules and scoring; the score checks find them here.
__all__ = ["ResultTag", "check_claim", "check_contract", "check_result",
           "read_contract", "read_declarer", "read_result"]


def _report(game: Game, code: str, message: str, tag_name: str) -> Diagnostic:
    tag = game.tag(tag_name)
    line, column = (tag.line, tag.column) if tag is not None else (game.line, 1)
    return Diagnostic(code, message, line, column, game.path, game.board)


def check_contract(game: Game, contract: Contract, declarer_seat: Seat | None) -> list[Diagnostic]:
    """Contract and Declarer tags against the contract and declarer of a finished
    auction (no declarer when it was passed out)."""
    found = []
    written = read_contract(game.value("Contract"))
    if written is not None and written != contract:
        found.append(_report(game, "SC001", f"Contract {game.value('Contract')!r} but the "
                             f"auction ends in {contract}", "Contract"))
    declarer = read_declarer(game.value("Declarer"))
    if contract.is_passed_out:
        if declarer is not None:
            found.append(_report(game, "SC002", f"Declarer {game.value('Declarer')!r} but the "
                                 "auction was passed out", "Declarer"))
    elif declarer is not None and declarer.auction_declarer is not declarer_seat:
        assert declarer_seat is not None
        swapped = f" (^ means its partner {declarer.auction_declarer.name} was declarer)" \
            if declarer.swapped else ""
        found.append(_report(game, "SC002", f"Declarer {game.value('Declarer')!r}{swapped} but "
                             f"the auction makes {declarer_seat.name} declarer"
                             f"{_shift_hint(declarer_seat, declarer.auction_declarer)}",
                             "Declarer"))
    return found


def _shift_hint(found: Seat, expected: Seat) -> str:
    """Some writers leave out the passes before the opening bid, which moves every call,
    and so declarer, back by as many seats: the tag's declarer would follow from the
    auction with that many passes put in front of it."""
    passes = (expected - found) % 4
    return (f"; {expected.name} would be, were the auction to start with {passes} more "
            f"pass{'es' if passes > 1 else ''} (are opening passes left out?)")


def check_result(game: Game, tricks: Tricks, declarer: Seat | None,
                 claim: TagPair | None = None) -> list[Diagnostic]:
    """Result against the tricks of a replayed play.

    Every form reduces to one test per side named: the count lies between the tricks that
    side has won and those plus every trick whose winner is not known (unplayed, claimed
    or with unknown cards). For 13 known tricks that is one number; after ``*`` it is the
    claim's range; for an unfinished play it admits both the partial and a total count.
    A Result that is a LIN board's claim (``game.lin.claim``) is :func:`check_claim`'s.
    """
    if claim is not None and game.tag("Result") == claim:
        return []
    result = read_result(game.value("Result"))
    if result is None or result.wrong_agreement:
        return []
    if result.declarer_tricks is not None:
        if declarer is None:
            return []
        claims = [(declarer.side, result.declarer_tricks)]
    else:
        claims = list(result.sides)
    for side, count in claims:
        whose = "declarer" if result.declarer_tricks is not None else side.value
        why = _against_play(count, tricks.won(side), tricks.won(side.other), tricks, whose)
        if why is not None:
            return [_report(game, "SC003", f"Result {game.value('Result')!r} but {why}",
                            "Result")]
    return []


def check_claim(game: Game, claim: TagPair, tricks: Tricks | None,
                declarer: Seat | None) -> list[Diagnostic]:
    """A LIN board's claim (``mc``, declarer's total of tricks) against
    the play before it, reported at the ``mc`` pair: SC301. Without a play or a declarer
    only its count is judged (a deal has 13 tricks)."""
    count = whole_number(claim.value)
    if count is None:
        return []  # a claim in no form: TG007 says so
    if tricks is None or declarer is None:
        why = "a deal has 13 tricks" if count > 13 else None
    else:
        won, lost = tricks.won(declarer.side), tricks.won(declarer.side.other)
        why = _against_play(count, won, lost, tricks, "declarer")
        if why is None and count > 13:
            why = "a deal has 13 tricks"
    if why is None:
        return []
    return [Diagnostic("SC301", f"claim of {count} tricks (mc) but {why}", claim.line,
                       claim.column, game.path, game.board)]


def _against_play(count: int, won: int, lost: int, tricks: Tricks, whose: str) -> str | None:
    """Why a side cannot end with ``count`` tricks, having won ``won`` and lost ``lost``
    of the play's ``tricks``; None when it can."""
    if won == tricks.total - lost and count != won:
        return f"{whose} won {won} tricks"
    if count < won:
        return f"{whose} had already won {won} tricks when the play stopped"
    if count > tricks.total - lost:
        return (f"the other side had already won {lost} tricks, so {whose} can have at most "
                f"{tricks.total - lost}")
    return None
