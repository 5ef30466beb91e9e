"""``PL`` codes: replay a Play section trick by trick and report what breaks the rules.

PBN writes each trick as a row in **fixed seat columns** (the Play tag's seat first);
the card led sits in the column of whoever won the previous trick (PBN 3.6). Tricks are
counted by tokens, four to a trick, not by lines. The replay reorders each row from its
leader, honours ``^R`` (revoke not noticed in time) and ``^L`` (lead out of turn,
accepted), and reads ``-`` as an unknown card. An illegal card is reported and recorded
anyway, so the replay goes on.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbnkit.diagnostics import Diagnostic
from pbnkit.errors import InvalidTokenError
from pbnkit.model.calls import Contract
from pbnkit.model.cards import Card, Seat, Strain
from pbnkit.model.deal import Deal
from pbnkit.model.play import CardFault, Play
from pbnkit.model.values import parse_or_none
from pbnkit.pbn.records import Game, TagPair
from pbnkit.pbn.sections import Section, SectionItem
from pbnkit.replay.tags import deal_of, read_contract, read_declarer
from pbnkit.pickling import by_fields

_UNSET = ("", "?")

#: A card its column's player cannot hold: replayed as an unknown card, so that the
#: card stays available to its real holder and the trick's winner stays open.
_NOT_HELD = frozenset({CardFault.ALREADY_PLAYED, CardFault.NOT_HELD, CardFault.HELD_BY_OTHER})

_FAULT_CODES = {
    CardFault.REVOKE: "PL002",
    CardFault.NOT_A_REVOKE: "PL003",
    CardFault.RIGHTFUL_LEADER: "PL004",
}


@by_fields
@dataclass(frozen=True, slots=True)
class PlaySetting:
    """What the play depends on, from the tags (or the auction when a tag is missing)."""

    deal: Deal
    trump: Strain | None
    #: declarer as it played: for Declarer "^S" that is South (dummy and declarer swapped)
    declarer: Seat | None
    opening_leader: Seat


@by_fields
@dataclass(frozen=True, slots=True)
class PlayOutcome:
    """The replayed play (None if it could not start) and its end marker."""

    play: Play | None
    marker: str | None
    cards: int  # card tokens and '-' replayed


def setting_of(game: Game, play_tag: TagPair, auction_contract: Contract | None,
               auction_declarer: Seat | None) -> tuple[PlaySetting | None, list[Diagnostic]]:
    """Deal, trump, declarer and opening leader for a play section that holds a card,
    from the tags or else the finished auction's contract and declarer; None (with the
    reason, when it is this family's to give) if the play cannot be replayed."""
    deal_text = game.value("Deal") or ""
    if deal_text.strip() in _UNSET:
        return None, [_at_tag(game, play_tag, "PL005", "play section without a Deal tag")]
    try:
        deal = deal_of(deal_text)
    except InvalidTokenError:
        return None, []  # the deal checks (DL) report an unreadable Deal
    if deal.problems():
        return None, []
    contract_text = game.value("Contract")
    contract = read_contract(contract_text)
    trump: Strain | None
    if deal.is_end_position:
        trump = parse_or_none(Strain.from_pbn, contract_text)
        if trump is None and contract is not None:
            trump = contract.strain
        seat = parse_or_none(Seat.from_pbn, play_tag.value)
        if trump is None or seat is None:
            return None, []  # the end-position checks need both; the tag checks report them
        declarer = read_declarer(game.value("Declarer"))
        return PlaySetting(deal, trump, declarer.seat if declarer else None, seat), []
    if contract is None:
        contract = auction_contract
    if contract is None or contract.is_passed_out:
        why = "the board was passed out" if contract else "no Contract tag"
        return None, [_at_tag(game, play_tag, "PL006", f"play section but {why}")]
    declarer = read_declarer(game.value("Declarer"))
    seat = declarer.seat if declarer else auction_declarer
    if seat is None:
        return None, [_at_tag(game, play_tag, "PL006", "play section without a Declarer tag")]
    return PlaySetting(deal, contract.strain, seat, seat.lho), []


def _at_tag(game: Game, tag: TagPair, code: str, message: str) -> Diagnostic:
    return Diagnostic(code, message, tag.line, tag.column, game.path, game.board)


#: A seat's column in a row of the section; the item is None for a column missing from
#: a short last row. Plain tuples: the replay makes one per card.
_Slot = tuple[Seat, SectionItem | None]


class _Replay:
    def __init__(self, game: Game, section: Section, setting: PlaySetting, play_seat: Seat):
        self.game, self.section, self.setting = game, section, setting
        self.play_seat = play_seat
        self.found: list[Diagnostic] = []
        self.play = Play(setting.deal, setting.trump, setting.opening_leader)
        self.star = self.plus = self.stopped = False
        #: cards of the current row their column's player cannot hold, with the reason
        self.not_held: list[tuple[Seat, SectionItem, Card, str]] = []
        self.cards = 0

    def report(self, code: str, message: str, item: SectionItem) -> None:
        self.found.append(Diagnostic(code, message, item.line, item.column, self.game.path,
                                     self.game.board))

    def rows(self) -> list[list[_Slot]]:
        """Tokens grouped four to a trick, in column order; ``*`` ends the section."""
        slots: list[SectionItem | None] = []
        items = self.section.items
        for position, item in enumerate(items):
            if item.irregularity == "I" or item.text == "^S":
                mark = "^I" if item.irregularity == "I" else "^S"
                self.report("PL013", f"{mark} belongs to the auction, not the play", item)
                if item.text == "^S":
                    continue
            if item.text == "*":
                self.star = True
                if position + 1 < len(items):
                    after = items[position + 1]
                    self.report("PL010", f"{after.text} after * in the play", after)
                break
            slots.append(item)
        columns = [self.play_seat.next(column) for column in range(4)]
        slots += [None] * (-len(slots) % 4)
        return [list(zip(columns, slots[start:start + 4])) for start in range(0, len(slots), 4)]

    def run(self) -> PlayOutcome:
        for row in self.rows():
            if self.stopped:
                break
            self.trick(row)
        marker = "+" if self.plus else "*" if self.star else None
        return PlayOutcome(self.play, marker, self.cards)

    def trick(self, row: list[_Slot]) -> None:
        """Play one row from its leader: the ^L card's seat, else the previous winner
        (column order when that is unknown). Missing columns of a short last row before
        a card that is present count as unknown cards."""
        marked = [slot for slot in row if slot[1] is not None and slot[1].irregularity == "L"]
        for _, extra in marked[1:]:
            assert extra is not None
            self.report("PL004", "a second lead out of turn (^L) in one trick", extra)
        lead_out = marked[0] if marked else None
        leader = lead_out[0] if lead_out else self.play.leader
        if leader is None:
            leader = _leader_before_plus(row)
        if leader is not None:
            shift = (leader - self.play_seat) % 4
            row = row[shift:] + row[:shift]
        present = [index for index, (_, item) in enumerate(row) if item is not None]
        self.not_held = []
        number = len(self.play.tricks) + 1
        for slot in row[:present[-1] + 1] if present else ():
            if self.stopped:
                break
            self.place(slot[0], slot[1], lead_out_of_turn=slot is lead_out)
        self.report_not_held(number)

    def report_not_held(self, number: int) -> None:
        """One PL001 per trick: a whole row in the wrong columns is one mistake."""
        if not self.not_held:
            return
        in_columns = sorted(self.not_held, key=lambda entry: (entry[0] - self.play_seat) % 4)
        first = in_columns[0][1]
        if len(in_columns) == 1:
            self.report("PL001", in_columns[0][3], first)
            return
        holders = [self.setting.deal.holder(card) for _, _, card, _ in in_columns]
        if len(in_columns) == 4 and None not in holders:
            cards = " ".join(card.pbn() for _, _, card, _ in in_columns)
            columns = " ".join(seat.name for seat, _, _, _ in in_columns)
            owners = " ".join(seat.name for seat in holders if seat is not None)
            message = (f"trick {number}: {cards} are held by {owners}, not by the players of "
                       f"the columns {columns}")
        else:
            cards = ", ".join(f"{card} ({seat.name})" for seat, _, card, _ in in_columns)
            message = f"trick {number}: {cards} are not in those players' hands"
        self.report("PL001", message, first)

    def place(self, seat: Seat, item: SectionItem | None, lead_out_of_turn: bool) -> None:
        if self.plus:
            if item is not None and item.text == "+":
                self.report("PL010", "a second + in the play: + stands for the one next "
                            "card, so a play has one at most", item)
                self.stopped = True
            elif item is not None and item.text != "-":
                self.report("PL010", f"{item.text} after + in the play", item)
                self.stopped = True
            return
        if item is not None and item.text == "+":
            self.plus = True
            return
        where = item or self.section.items[-1]
        card = None
        if item is not None and item.text != "-":
            try:
                card = Card.from_pbn(item.text)
            except InvalidTokenError:
                self.report("PL008", f"invalid card {item.text!r}; read as an unknown card", item)
        play = self.play
        if play.is_complete:
            self.report("PL007", f"{item.text if item else '-'} after all "
                        f"{play.total_tricks} tricks were played", where)
            self.stopped = True
            return
        self.cards += 1
        if card is None:
            self.play = play.with_unknown_card(seat, lead_out_of_turn=lead_out_of_turn)
            return
        if lead_out_of_turn and seat is play.leader:
            self.report("PL004", f"^L on {card} by {seat.name}, who was on lead", where)
            lead_out_of_turn = False
        revoke = item is not None and item.irregularity == "R"
        fault = play.fault(card, revoke, seat=seat, lead_out_of_turn=lead_out_of_turn)
        if fault in _NOT_HELD:
            self.not_held.append((seat, where, card, play.explain(card, fault, seat)))
            self.play = play.with_unknown_card(seat, lead_out_of_turn=lead_out_of_turn)
            return
        if fault is not None:
            self.report(_FAULT_CODES[fault], play.explain(card, fault, seat), where)
        # Recorded even when illegal, so that one error does not hide the rest.
        self.play = play.with_judged_card(card, fault, seat, lead_out_of_turn)


def _leader_before_plus(row: list[_Slot]) -> Seat | None:
    """The leader of a trick whose leader the play does not tell, from its ``+``: it
    stands for the next card (PBN 3.6), so the trick's cards are those played before it,
    the first of them in the first column after it (cyclically) that holds one. Without
    ``+``, None: the trick is played in column order."""
    plus = [index for index, (_, item) in enumerate(row) if item is not None and item.text == "+"]
    if not plus:
        return None
    for step in range(1, 4):
        seat, item = row[(plus[0] + step) % 4]
        if item is not None and item.text != "-":
            return seat
    return row[plus[0]][0]


def replay_play(game: Game, section: Section, setting: PlaySetting,
                play_seat: Seat) -> tuple[PlayOutcome, list[Diagnostic]]:
    """Replay the Play section of ``game`` from ``setting``; never raises."""
    replay = _Replay(game, section, setting, play_seat)
    outcome = replay.run()
    return outcome, replay.found
