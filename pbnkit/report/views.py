"""What a page shows of a record, worked out once: plain values the templates lay out.

A view holds text as the file gives it; the templates escape every value. Nothing here
knows HTML: the bridge facts come from the model and the replay (the calls placed under
their seats, the tricks with their leader and winner), the double-dummy grid from the
stated tags or the solver.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pbnkit.analysis.tables import (Par, TrickTable, read_hex_tricks, read_optimum_score,
                                    read_trick_cells)
from pbnkit.model.auction import Auction
from pbnkit.model.calls import Contract, Vulnerability
from pbnkit.model.cards import PBN_SUIT_ORDER, SEATS, Card, Seat, Side, Strain, Suit
from pbnkit.model.deal import Deal, Hand
from pbnkit.model.play import Play
from pbnkit.model.values import parse_or_none
from pbnkit.pbn.records import ElementKind, Game
from pbnkit.pbn.sections import Section, section
from pbnkit.replay.auction import AuctionOutcome, read_call, replay_auction
from pbnkit.replay.facts import record_facts
from pbnkit.replay.game import play_setting
from pbnkit.replay.notes import note_index
from pbnkit.replay.play import replay_play

#: Seats in the order hand records head the auction and play columns.
COLUMNS = (Seat.W, Seat.N, Seat.E, Seat.S)
SEAT_NAMES = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}
SUIT_SYMBOLS = {Suit.S: "\u2660", Suit.H: "\u2665", Suit.D: "\u2666", Suit.C: "\u2663"}
STRAIN_SYMBOLS = {**{suit.strain: symbol for suit, symbol in SUIT_SYMBOLS.items()},
                  Strain.NT: "NT"}
VULNERABLE_NAMES = {Vulnerability.NONE: "None", Vulnerability.NS: "N-S",
                    Vulnerability.EW: "E-W", Vulnerability.ALL: "All"}
_POINTS = {"A": 4, "K": 3, "Q": 2, "J": 1}
_NOTE_TEXT = re.compile(r"\s*\d+\s*:(.*)", re.DOTALL)


def rank_text(card: Card) -> str:
    """A rank as a printed diagram writes it: ``10`` for the ten."""
    return "10" if card.rank.pbn() == "T" else card.rank.pbn()


@dataclass(frozen=True, slots=True)
class Holding:
    """One suit of a hand: its letter, symbol and ranks from the highest down."""

    suit: str
    symbol: str
    ranks: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HandView:
    seat: str
    name: str
    player: str | None
    #: spades, hearts, diamonds, clubs; None for a hand the record does not give
    suits: tuple[Holding, ...] | None
    #: high-card points: ace 4, king 3, queen 2, jack 1
    hcp: int | None = None


@dataclass(frozen=True, slots=True)
class Mark:
    """A call or card as shown: its text, the suit letter that colours it (None for
    Pass, X, XX, NT and unknown cards), an alert, and the note it refers to."""

    text: str
    symbol: str = ""
    suit: str | None = None
    alert: bool = False
    note: int | None = None


@dataclass(frozen=True, slots=True)
class Note:
    number: int
    text: str


@dataclass(frozen=True, slots=True)
class AuctionView:
    """The calls in rows of four under W, N, E, S; None for an empty cell."""

    rows: tuple[tuple[Mark | None, ...], ...]
    notes: tuple[Note, ...]


@dataclass(frozen=True, slots=True)
class TrickView:
    number: int
    #: the card of each seat, W N E S; None when the seat has not played to it
    cards: tuple[Mark | None, ...]
    leader: str | None
    winner: str | None
    #: tricks won by N-S and E-W after this one
    ns: int
    ew: int


@dataclass(frozen=True, slots=True)
class PlayView:
    tricks: tuple[TrickView, ...]
    notes: tuple[Note, ...]


@dataclass(frozen=True, slots=True)
class GridView:
    """The makeable contracts: per declarer, the level made in each strain (None below
    one), NT first as hand records print it, and the par."""

    strains: tuple[tuple[str, str | None], ...]
    rows: tuple[tuple[str, tuple[int | None, ...]], ...]
    par: str | None


@dataclass(frozen=True, slots=True)
class BoardView:
    """One record as a page shows it."""

    index: int
    board: str | None
    event: str | None
    date: str | None
    room: str | None
    dealer: str | None
    vulnerable: str | None
    #: N, E, S, W
    hands: tuple[HandView, ...]
    auction: AuctionView | None
    play: PlayView | None
    contract: Mark | None
    declarer: str | None
    tricks: int | None
    result: str | None
    score: str | None
    commentary: tuple[str, ...]
    grid: GridView | None
    #: the record's own tag values shown under its play when given (Lead, Table)
    details: tuple[tuple[str, str], ...]


def _text(game: Game, name: str) -> str | None:
    value = game.value(name)
    return value.strip() if value is not None and value.strip() not in ("", "?", "-") else None


def mark_call(text: str, suffix: str | None = None, note: int | None = None) -> Mark:
    """A call token as a hand record prints it: ``1♠``, ``Pass``, ``X``."""
    alert = suffix == "!"
    if text.upper() == "AP":
        return Mark("All Pass", alert=alert, note=note)
    call, _ = read_call(text)
    if call is None:
        return Mark(text, alert=alert, note=note)
    if call.is_bid:
        assert call.strain is not None
        suit = call.strain.suit
        return Mark(str(call.level), STRAIN_SYMBOLS[call.strain],
                    None if suit is None else suit.name, alert, note)
    return Mark(call.pbn(), alert=alert, note=note)


def mark_card(card: Card | None) -> Mark:
    if card is None:
        return Mark("\u2013")
    return Mark(rank_text(card), SUIT_SYMBOLS[card.suit], card.suit.name)


def mark_contract(contract: Contract) -> Mark:
    if contract.is_passed_out:
        return Mark("Passed out")
    assert contract.strain is not None
    suit = contract.strain.suit
    return Mark(f"{contract.level}", STRAIN_SYMBOLS[contract.strain] + contract.risk.pbn(),
                None if suit is None else suit.name)


def hand_view(seat: Seat, hand: Hand | None, player: str | None) -> HandView:
    if hand is None:
        return HandView(seat.name, SEAT_NAMES[seat], player, None)
    suits = tuple(Holding(suit.name, SUIT_SYMBOLS[suit],
                          tuple(rank_text(card) for card in sorted(hand.suit(suit), reverse=True)))
                  for suit in PBN_SUIT_ORDER)
    points = sum(_POINTS.get(card.rank.pbn(), 0) for card in hand.cards)
    return HandView(seat.name, SEAT_NAMES[seat], player, suits,
                    points if len(hand.cards) == 13 else None)


def deal_hands(deal: Deal | None, players: Sequence[str | None] = (None,) * 4
               ) -> tuple[HandView, ...]:
    return tuple(hand_view(seat, None if deal is None else deal[seat], players[seat])
                 for seat in SEATS)


def _notes(sec: Section) -> tuple[Note, ...]:
    found = []
    for tag in sec.notes:
        number = note_index(tag)
        match = _NOTE_TEXT.match(tag.value)
        if number is not None and match is not None:
            found.append(Note(number, match[1].strip()))
    return tuple(found)


def _in_rows(first: Seat, marks: Sequence[Mark | None]) -> tuple[tuple[Mark | None, ...], ...]:
    """Marks in rows of four under W N E S, the first under ``first``."""
    blanks: list[Mark | None] = [None] * COLUMNS.index(first)
    cells = blanks + list(marks)
    cells += [None] * (-len(cells) % 4)
    return tuple(tuple(cells[start:start + 4]) for start in range(0, len(cells), 4))


def auction_view(game: Game, sec: Section) -> AuctionView | None:
    """The calls as written, placed from the Auction tag's seat (or the dealer's)."""
    first = parse_or_none(Seat.from_pbn, sec.tag.value) or \
        parse_or_none(Seat.from_pbn, game.value("Dealer") or "")
    if first is None or not sec.items:
        return None
    marks: list[Mark | None] = []
    for item in sec.items:
        if item.text in ("*", "+"):
            break
        if item.text == "-":
            marks.append(None)
        elif item.text == "^S":  # a player skipped: his turn passes without a call
            marks.append(Mark("\u2014"))
        else:
            marks.append(mark_call(item.text, item.suffix, item.note))
    return AuctionView(_in_rows(first, marks), _notes(sec))


def _trick_views(play: Play) -> tuple[TrickView, ...]:
    """The completed tricks and the one in progress, with the tricks won so far."""
    views = []
    ns = ew = 0
    tricks = play.tricks + ((play.current,) if play.current is not None else ())
    for number, trick in enumerate(tricks, 1):
        cards: list[Mark | None] = [None] * 4
        for played in trick.cards:
            cards[COLUMNS.index(played.seat)] = mark_card(played.card)
        if trick.winner is not None:
            ns, ew = (ns + 1, ew) if trick.winner.side is Side.NS else (ns, ew + 1)
        views.append(TrickView(number, tuple(cards),
                               None if trick.leader is None else trick.leader.name,
                               None if trick.winner is None else trick.winner.name, ns, ew))
    return tuple(views)


def play_view(game: Game, sec: Section, outcome: AuctionOutcome | None) -> PlayView | None:
    """The tricks of the replayed play, each with its leader and winner."""
    setting, _ = play_setting(game, sec, outcome)
    if setting is None:
        return None
    seat = parse_or_none(Seat.from_pbn, sec.tag.value) or setting.opening_leader
    played, _ = replay_play(game, sec, setting, seat)
    play: Play | None = played.play
    if play is None or not played.cards:
        return None
    return play_of(play, _notes(sec))


def stated_table(game: Game) -> TrickTable | None:
    """The table a record states: its OptimumResultTable when it gives all 20 entries,
    else its DoubleDummyTricks."""
    tag = game.tag("OptimumResultTable")
    if tag is not None:
        cells, problems = read_trick_cells(tag)
        if not problems and len(cells) == 20:
            return TrickTable.of(cells)
    digits = read_hex_tricks(game.value("DoubleDummyTricks"))
    return None if digits is None else TrickTable.of(digits)


def stated_grid(game: Game, solve: bool = False) -> GridView | None:
    """The grid of a record's own table, with its OptimumScore and ParContract as the
    par; ``solve``: the par worked out from the table when the record states none."""
    table = stated_table(game)
    if table is None:
        return None
    contracts = _text(game, "ParContract")
    score = read_optimum_score(game.value("OptimumScore"))
    if solve and contracts is None and score is None:
        dealer = parse_or_none(Seat.from_pbn, game.value("Dealer") or "")
        vulnerable = parse_or_none(Vulnerability.from_pbn, game.value("Vulnerable") or "")
        if dealer is not None and vulnerable is not None:
            from pbnkit.analysis.solver import par_of_table

            return grid_view(table, par_of_table(table, vulnerable, dealer))
    return grid_view(table, contracts, score)


def _par_text(contracts: str | None, score_ns: int | None) -> str | None:
    """``NS 4S= (N-S +420)``: the par contracts and the par score, either known."""
    score = None if score_ns is None else f"N-S {score_ns:+d}" if score_ns else "0"
    if contracts and score:
        return f"{contracts} ({score})"
    return contracts or score


def grid_view(table: TrickTable, par: Par | str | None, score_ns: int | None = None
              ) -> GridView:
    """The grid of a table; ``par`` as solved, or the par contracts a record states
    with its par score ``score_ns``."""
    par = _par_text(par.par_contract(), par.score_ns) if isinstance(par, Par) else \
        _par_text(par, score_ns)
    order = (Strain.NT, Strain.S, Strain.H, Strain.D, Strain.C)
    strains = tuple((STRAIN_SYMBOLS[s], None if s.suit is None else s.suit.name) for s in order)
    rows = tuple((seat.name, tuple(table.level(seat, strain) for strain in order))
                 for seat in (Seat.N, Seat.S, Seat.E, Seat.W))
    return GridView(strains, rows, par)


def _commentary(game: Game) -> tuple[str, ...]:
    """Commentary in the order the record gives it (BridgeComposer writes the
    analysis of a deal this way)."""
    texts = [e.text for e in game.preamble if e.kind is ElementKind.COMMENT]
    texts += [e.text for tag in game.tags for e in tag.comments
              if e.kind is ElementKind.COMMENT]
    return tuple(text.strip() for text in texts if text.strip())


_DETAILS = ("Lead", "Table")


def board_view(game: Game, score: str | None = None, grid: GridView | None = None,
               solve: bool = False) -> BoardView:
    """A record as a page shows it; ``score`` is what scoring gave it, ``grid`` the
    solver's makeable contracts when the record states none; ``solve``: the par of a
    stated table that comes without its par is worked out."""
    deal = None
    text = game.value("Deal")
    if text:
        deal = parse_or_none(Deal.from_pbn, text)
    players = tuple(_text(game, SEAT_NAMES[seat]) for seat in SEATS)
    auction_section = section(game, "Auction")
    outcome = auction = None
    if auction_section is not None:
        outcome, _ = replay_auction(game, auction_section)
        auction = auction_view(game, auction_section)
    play_section = section(game, "Play")
    play = None if play_section is None or deal is None else \
        play_view(game, play_section, outcome)
    facts = record_facts(game)
    contract = None if facts.contract is None else mark_contract(facts.contract)
    result = None
    if facts.contract is not None and not facts.contract.is_passed_out \
            and facts.tricks is not None:
        over = facts.tricks - facts.contract.tricks_needed
        result = "=" if over == 0 else f"{over:+d}"
    dealer = parse_or_none(Seat.from_pbn, game.value("Dealer") or "")
    vulnerable = parse_or_none(Vulnerability.from_pbn, game.value("Vulnerable") or "")
    return BoardView(
        index=game.index, board=_text(game, "Board"), event=_text(game, "Event"),
        date=_text(game, "Date"), room=_text(game, "Room"),
        dealer=None if dealer is None else dealer.name,
        vulnerable=None if vulnerable is None else VULNERABLE_NAMES[vulnerable],
        hands=deal_hands(deal, players), auction=auction, play=play,
        contract=contract, declarer=None if facts.declarer is None else facts.declarer.name,
        tricks=facts.tricks, result=result, score=score or _text(game, "Score"),
        commentary=_commentary(game), grid=stated_grid(game, solve) or grid,
        details=tuple((name, value) for name in _DETAILS
                      if (value := _text(game, name)) is not None),
    )


def auction_of(auction: Auction) -> AuctionView:
    """A model auction (for a notebook) under W N E S."""
    marks = [mark_call(entry.call.pbn()) for entry in auction.calls]
    return AuctionView(_in_rows(auction.dealer, list(marks)), ())


def play_of(play: Play, notes: tuple[Note, ...] = ()) -> PlayView:
    """A model play, trick by trick (a notebook shows one without notes)."""
    return PlayView(_trick_views(play), notes)

