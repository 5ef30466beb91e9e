"""Games written as BBO LIN: one board a line, in the order BBO's hand viewer writes
(``qx pn md ah sv mb an pg pc mc``), vugraph rooms as ``qx|o1|`` / ``qx|c1|``.

A game read from LIN keeps its pairs in its ``Lin`` tag (and the file's header in
``LinHeader``). When what the game means in PBN terms (deal, dealer, vulnerability,
board, room, players, calls, notes, cards, result) is still what those pairs mean, the
pairs are written back as they were, with every key PBN has no word for (``pg``,
``nt``, ``st``...). When the game has changed, the board is written from its PBN meaning,
and the pairs of the other keys follow it as they were.

The play is written in the order the cards were played, which a PBN play section gives
by seat: each trick's leader comes from the replay (:mod:`pbnkit.replay`).
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TextIO

from pbnkit.digits import whole_number
from pbnkit.errors import InvalidTokenError
from pbnkit.export.archive import iter_archive
from pbnkit.export.atomic import atomic_file, check_target
from pbnkit.export.topbn import ExportSummary
from pbnkit.lin.layout import pbn_layout
from pbnkit.lin.reader import LinReader
from pbnkit.lin.records import ALERT_NOTE, CALLS, SEATS, SUITS
from pbnkit.model.cards import Seat
from pbnkit.pbn.records import Game
from pbnkit.pbn.sections import Section, section
from pbnkit.replay.auction import replay_auction
from pbnkit.replay.game import play_setting
from pbnkit.replay.play import replay_play

_SV = {"none": "o", "love": "o", "-": "o", "ns": "n", "ew": "e", "all": "b", "both": "b"}
_DEALER_DIGIT = {seat: str(number) for number, seat in enumerate(SEATS, 1)}
_LIN_CALL = {pbn.upper(): lin for lin, pbn in CALLS.items()}
_ROOM = {"open": "o", "closed": "c"}
#: the keys a board's PBN meaning is written with (``pg`` marks the end of each trick);
#: the others are kept as they were
MEANING_KEYS = frozenset(("pn", "md", "sv", "ah", "qx", "mb", "an", "pc", "mc", "pg"))


def lin_board(game: Game, header: str = "") -> str:
    """One board as a line of LIN (without the line end). ``header``: the ``LinHeader``
    of the board's file, which the pairs of its ``Lin`` tag are read with (a vugraph
    board's players and result may come from it)."""
    lin = game.value("Lin")
    if lin is not None and _meaning(game) == _meaning_of_lin(lin, header, game.path):
        return lin
    pairs = _pairs(game)
    if lin is not None:
        pairs += [text for key, text in _split(lin) if key not in MEANING_KEYS]
    return "".join(pairs)


def _split(lin: str) -> list[tuple[str, str]]:
    """The pairs of a ``Lin`` tag value as (key, ``key|value|`` text)."""
    parts = lin.split("|")
    return [(parts[i].strip().lower(), f"{parts[i].strip()}|{parts[i + 1]}|")
            for i in range(0, len(parts) - 1, 2)]


def _meaning_of_lin(lin: str, header: str, path: str | None) -> tuple[object, ...] | None:
    text = f"{header}\n{lin}" if header else lin
    games = list(LinReader(io.BytesIO(text.encode("utf-8")), path))
    return _meaning(games[-1]) if games else None


def _meaning(game: Game) -> tuple[object, ...]:
    names = ("Deal", "Dealer", "Vulnerable", "Board", "Room", "North", "East", "South",
             "West", "Result")
    return (tuple(game.value(name) for name in names),
            tuple(_pairs(game)))


def _pairs(game: Game) -> list[str]:
    """The board's PBN meaning as LIN pairs."""
    pairs: list[str] = []
    room = _ROOM.get((game.value("Room") or "").strip().lower())
    board = (game.value("Board") or "").strip()
    if room is not None and board:
        pairs.append(f"qx|{room}{board}|")
    players = [game.value(name) for name in ("South", "West", "North", "East")]
    if any(players):
        # a comma separates the names: "Berg, Oskar" is written "Berg Oskar"
        pairs.append("pn|" + ",".join((p or "").replace("|", "").replace(", ", " ")
                                      .replace(",", " ") for p in players) + "|")
    md = _md(game)
    if md is not None:
        pairs.append(f"md|{md}|")
    if room is None and board:
        pairs.append(f"ah|Board {board}|")
    vulnerable = (game.value("Vulnerable") or "").strip().lower()
    if vulnerable in _SV:
        pairs.append(f"sv|{_SV[vulnerable]}|")
    auction = section(game, "Auction")
    if auction is not None:
        pairs += _calls(auction)
    cards = cards_in_order(game)
    for number, card in enumerate(cards):
        if number % 4 == 0:
            pairs.append("pg||")
        pairs.append(f"pc|{card}|")
    result = (game.value("Result") or "").strip()
    if whole_number(result) is not None and (len(cards) < 52 or _claimed(game)):
        pairs.append(f"mc|{result}|")
    return pairs


def _md(game: Game) -> str | None:
    """``md``: the dealer's digit and the hands from South, in LIN's suit letters."""
    text = (game.value("Deal") or "").strip()
    if len(text) < 2 or text[1] != ":" or text[0].upper() not in "NESW":
        return None
    hands = text[2:].split()
    if len(hands) != 4:
        return None
    clockwise = "NESW"
    first = clockwise.index(text[0].upper())
    by_seat = {clockwise[(first + i) % 4]: hand for i, hand in enumerate(hands)}
    dealer = (game.value("Dealer") or "").strip().upper()
    lin_hands = []
    for seat in SEATS:
        hand = by_seat[seat]
        suits = hand.split(".") if hand != "-" else []
        lin_hands.append("" if len(suits) != 4 else "".join(
            suit + ranks.upper() for suit, ranks in zip(SUITS, suits)))
    return _DEALER_DIGIT.get(dealer, "") + ",".join(lin_hands)


def _calls(auction: Section) -> list[str]:
    notes: dict[int, str] = {}
    for tag in auction.notes:
        number, _, text = tag.value.partition(":")
        index = whole_number(number.strip())
        if index is not None:
            notes[index] = text
    pairs: list[str] = []
    for item in auction.items:
        text = item.text.upper()
        if text in ("*", "+", "-") or text.startswith("^"):
            continue
        if text == "AP":  # the passes that end the auction: four if nobody has bid
            passes = len(pairs) - len(_before_passes(pairs))
            pairs += ["mb|p|"] * ((4 if len(pairs) == passes else 3) - passes)
            continue
        call = _LIN_CALL.get(text, text.replace("NT", "N"))
        note = notes.get(item.note) if item.note is not None else None
        if note is None:
            pairs.append(f"mb|{call}|")
        elif note == ALERT_NOTE:
            pairs.append(f"mb|{call}!|")
        else:
            pairs.append(f"mb|{call}!|an|{note.replace('|', '/')}|")
    return pairs


def _before_passes(pairs: list[str]) -> list[str]:
    """The calls written before the passes that end the list."""
    end = len(pairs)
    while end and pairs[end - 1] == "mb|p|":
        end -= 1
    return pairs[:end]


def _claimed(game: Game) -> bool:
    play = section(game, "Play")
    return play is not None and any(item.text == "*" for item in play.items)


def cards_in_order(game: Game) -> list[str]:
    """The cards of the play section in the order they were played."""
    play = section(game, "Play")
    if play is None:
        return []
    auction = section(game, "Auction")
    outcome = replay_auction(game, auction)[0] if auction is not None else None
    setting, _ = play_setting(game, play, outcome)
    if setting is None:
        return []
    try:
        seat = Seat.from_pbn(play.tag.value.strip())
    except InvalidTokenError:
        seat = setting.opening_leader
    played, _ = replay_play(game, play, setting, seat)
    if played.play is None:
        return []
    tricks = list(played.play.tricks)
    if played.play.current is not None:
        tricks.append(played.play.current)
    return [card.card.pbn() for trick in tricks for card in trick.cards
            if card.card is not None]


# -- Files ------------------------------------------------------------------------------------

class LinWriter:
    """Write games as LIN to a text stream, a board a line; each source file's header
    (``LinHeader``, kept from a LIN file) before its first board."""

    def __init__(self, stream: TextIO):
        self._stream = stream
        self._path: str | None = None
        self._header = ""  # the header of the file the boards come from
        self.games = 0

    def write(self, game: Game) -> None:
        header = game.value("LinHeader")
        if header is None and game.path != self._path and game.value("Room"):
            header = vugraph_header(game)  # a team match from PBN: its event and teams
        if header:
            self._stream.write(header + "\n")
            self._header = header
        elif game.path != self._path:
            self._header = ""
        self._path = game.path
        self._stream.write(lin_board(game, self._header) + "\n")
        self.games += 1


def vugraph_header(game: Game) -> str:
    """``vg``: event, segment (Stage), scoring, first board (the last is not known while
    writing), and the teams, for the boards of a team match from PBN."""
    scoring = (game.value("Scoring") or "").upper()
    kind = "P" if scoring.startswith("MP") else "B" if scoring.startswith("BAM") else "I"
    fields = [game.value("Event") or "", game.value("Stage") or "", kind,
              game.value("Board") or "1", "", game.value("HomeTeam") or "", "0",
              game.value("VisitTeam") or "", "0"]
    return "vg|" + ",".join(f.replace(",", " ").replace("|", "/") for f in fields) + "|"


def write_lin(games: Iterable[Game], stream: TextIO,
              on_game: Callable[[], None] | None = None) -> int:
    """Write games as LIN (see :class:`LinWriter`); the number of boards written."""
    writer = LinWriter(stream)
    for game in games:
        writer.write(game)
        if on_game is not None:
            on_game()
    return writer.games


def export_lin(archive: str | os.PathLike[str], out: str | os.PathLike[str], *,
               force: bool = False, on_game: Callable[[], None] | None = None) -> ExportSummary:
    """Write the records of an archive to ``out`` as LIN (UTF-8), atomically."""
    check_target(Path(out), force)
    summary = ExportSummary(encoding="utf-8")
    with atomic_file(out, force) as stream:
        text = io.TextIOWrapper(stream, encoding="utf-8", newline="")
        try:
            writer = LinWriter(text)
            for archived in iter_archive(archive):
                writer.write(archived.game)
                if on_game is not None:
                    on_game()
                summary.records += 1
                summary.sources.add(archived.game.path)
            text.flush()
        finally:
            text.detach()
    return summary



def convert_files(paths: Iterable[str | os.PathLike[str]], out: str | os.PathLike[str],
                  to: str, *, force: bool = False,
                  on_game: Callable[[], None] | None = None) -> ExportSummary:
    """Read PBN and LIN files and write their games as one PBN (import format) or LIN
    file, atomically, without an archive between."""
    from pbnkit.formats.sniff import open_reader
    from pbnkit.pbn.writer import PbnWriter

    check_target(Path(out), force)
    summary = ExportSummary(encoding="utf-8")
    with atomic_file(out, force) as stream:
        text = io.TextIOWrapper(stream, encoding="utf-8", newline="")
        try:
            pbn = PbnWriter(text) if to == "pbn" else None
            lin = LinWriter(text)
            for path in paths:
                for game in open_reader(path):
                    if pbn is not None:
                        pbn.write(pbn_layout(game))
                    else:
                        lin.write(game)
                    if on_game is not None:
                        on_game()
                    summary.records += 1
                    summary.sources.add(game.path)
            if pbn is not None:
                pbn.close()
            text.flush()
        finally:
            text.detach()
    return summary
