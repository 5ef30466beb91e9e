"""``TG`` codes: tag names and tag values (PBN 2.1 sections 3.3, 3.4 and 4)."""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Iterator
from dataclasses import replace

from pbnkit.diagnostics import Diagnostic, Severity
from pbnkit.errors import InvalidTokenError
from pbnkit.model import Seat, Vulnerability, dealer_for_board
from pbnkit.pbn.reader import NOT_INHERITABLE
from pbnkit.pbn.records import Element, ElementKind, Game, TagPair
from pbnkit.pbn.tables import TABLES, read_table
from pbnkit.model.adjusted import read_artificial
from pbnkit.digits import whole_number
from pbnkit.replay.tags import read_contract

KNOWN_TAGS = frozenset("""
Event Site Date Board West North East South Dealer Vulnerable Deal Scoring Declarer
Contract Result Auction Play Note Competition DealId Description FrenchMP Generator Hidden
Room Termination Score ScoreIMP ScoreMP ScorePercentage ScoreRubber ScoreRubberHistory
OptimumScore BidSystemEW BidSystemNS PairEW PairNS WestNA NorthNA EastNA SouthNA WestType
NorthType EastType SouthType EventDate EventSponsor HomeTeam Round Section Stage Table
VisitTeam Time UTCDate UTCTime TimeControl TimeCall TimeCard Annotator AnnotatorNA
Application Mode ActionTable AuctionTimeTable InstantScoreTable OptimumPlayTable
OptimumResultTable PlayTimeTable ScoreTable TotalScoreTable
""".split())

BASIC_SCORING = frozenset(("MP", "MatchPoints", "IMP", "Cavendish", "Chicago", "Rubber", "BAM",
                           "Instant"))
SCORING_MODIFIERS = frozenset((
    "Butler", "Butler-2", "Experts", "Cross", "Cross1", "Cross2", "Mean", "Median", "MP1",
    "MP2", "OldMP", "Mitchell2", "Mitchell3", "Mitchell4", "Ascherman", "Bastille", "EMP",
    "IMP_1948", "IMP_1961",
    "Auction1920",  # pbnkit's documented extension: auction bridge, 1920 American code
))
_OPEN_LISTS = {
    "Competition": {"Cavendish", "Chicago", "Individuals", "Pairs", "Rubber", "Teams"},
    "Mode": {"EM", "IBS", "OKB", "TABLE", "TC"},
    **{f"{seat}Type": {"human", "program"} for seat in ("West", "North", "East", "South")},
}

_DATE = re.compile(r"[0-9?]{4}\.[0-9?]{2}\.[0-9?]{2}")
_TIME = re.compile(r"[0-9]{2}:[0-9]{2}:[0-9]{2}")
_TRICKS = r"(?:1[0-3]|[0-9])"
_RESULT = re.compile(rf"\^?(?:{_TRICKS}|(NS|EW) ({_TRICKS})(?: (NS|EW) ({_TRICKS}))?)")
_NUMBER = r"[+-]?[0-9]+(?:\.[0-9]*)?"
_SCORE = re.compile(rf"{_NUMBER}|(?:NS|EW) {_NUMBER}(?: (?:NS|EW) {_NUMBER})?")
_OPTIMUM = re.compile(rf"(?:NS|EW) {_NUMBER}(?: (?:NS|EW) {_NUMBER})?")
_RUBBER = re.compile(r"(?:[0-9]+/[0-9]+|(?:NS|EW) [0-9]+/[0-9]+(?: (?:NS|EW) [0-9]+/[0-9]+)?)")
_HISTORY_SIDE = r"[0-9]+ [0-9]+/[0-9]+(?: [0-9]+){0,2}"
_RUBBER_HISTORY = re.compile(rf"NS {_HISTORY_SIDE} EW {_HISTORY_SIDE}")
_ROUND = re.compile(r"[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*")
_NOTE = re.compile(r"([0-9]+):.*", re.DOTALL)


#: ``?`` and ``""`` mean unknown and not applicable for almost every tag (PBN 3.3).
_UNKNOWN = ("", "?")


def _diagnostic(code: str, message: str, tag: TagPair) -> Diagnostic:
    return Diagnostic(code, message, tag.line, tag.value_column or tag.column)


def _board(value: str, tag: TagPair) -> Iterator[Diagnostic]:
    if not whole_number(value):  # not a number, or 0
        yield _diagnostic("TG008", f"board {value!r} is not a positive integer", tag)


def _dealer(value: str, tag: TagPair) -> Iterator[Diagnostic]:
    if value.upper() not in ("N", "E", "S", "W"):
        yield _diagnostic("TG004", f"dealer {value!r} is not W, N, E or S", tag)


def _declarer(value: str, tag: TagPair) -> Iterator[Diagnostic]:
    if value.lstrip("^").upper() not in ("N", "E", "S", "W") or value.count("^") > 1:
        yield _diagnostic("TG004", f"declarer {value!r} is not a seat, ^seat or empty", tag)


#: Vulnerable as PBN spells it (PBN 3.4.10, 3.11): other cases are read, and reported.
_STANDARD_VULNERABLE = frozenset(("None", "none", "Love", "love", "-", "NS", "ns", "EW", "ew",
                                  "All", "all", "Both", "both"))


def _vulnerable(value: str, tag: TagPair) -> Iterator[Diagnostic]:
    if value in _STANDARD_VULNERABLE:
        return
    try:
        meant = Vulnerability.from_pbn(value)
    except InvalidTokenError:
        yield _diagnostic("TG005", f"vulnerability {value!r} is not None, NS, EW or All "
                          "(or Love, -, Both)", tag)
        return
    if value == value.strip(" \t"):  # trailing blanks are TG020's
        yield _diagnostic("TG017", f"vulnerability {value!r} is not a PBN spelling; read as "
                          f"{meant.pbn()}", tag)


#: A Contract value as PBN spells it: each word all uppercase or all lowercase (PBN 3.11).
_STANDARD_CONTRACT = re.compile(r"Pass|pass|[1-7](?:[CDHS]|NT|[cdhs]|nt)(?:X|XX|x|xx)?")


def _contract(value: str, tag: TagPair) -> Iterator[Diagnostic]:
    if value in ("C", "D", "H", "S", "NT", "c", "d", "h", "s", "nt"):
        return  # an end position's contract gives only the strain (PBN 6.2)
    found = contract_spelling(value)
    if found is not None:
        yield _diagnostic(found[0], found[1], tag)


def contract_spelling(value: str) -> tuple[str, str] | None:
    """The code and message for a Contract value (a tag's, or a ScoreTable cell's) that
    PBN does not spell so; None for a PBN spelling."""
    if _STANDARD_CONTRACT.fullmatch(value.rstrip(" \t")):
        return None  # trailing blanks are TG020's
    meant = read_contract(value)
    written = value.strip()
    if meant is None:
        award = read_artificial(written)
        if award is not None:
            return "TG024", (f"{written!r} is an artificial score, not a contract; read "
                             f"as {award.ns:g} % to N-S and {award.ew:g} % to E-W")
        return "TG006", f"contract {value!r} is not Pass or like 4S, 3NTX, 6HXX"
    if written.endswith("*"):
        return "TG022", f"contract {value!r} is not a PBN spelling; read as {meant}"
    if meant.is_passed_out and written.upper() in ("PO", "AP", "P"):
        return "TG023", f"contract {value!r} is not a PBN spelling; read as Pass"
    return "TG017", f"contract {value!r} is not a PBN spelling; read as {meant}"


def _result(value: str, tag: TagPair) -> Iterator[Diagnostic]:
    match = _RESULT.fullmatch(value)
    if match is None and (award := read_artificial(value)) is not None:
        yield _diagnostic("TG024", f"result {value.strip()!r} is an artificial score, not "
                          f"tricks; read as {award.ns:g} % to N-S and {award.ew:g} % to E-W",
                          tag)
    elif match is None:
        yield _diagnostic("TG007", f"result {value!r} is not a trick count or an NS/EW form", tag)
    elif match[3] is not None:
        if match[1] == match[3]:
            yield _diagnostic("TG007", f"result {value!r} names {match[1]} twice", tag)
        elif int(match[2]) + int(match[4]) > 13:
            yield _diagnostic("TG007", f"result {value!r} gives more than 13 tricks", tag)


def _date(value: str, tag: TagPair) -> Iterator[Diagnostic]:
    if not _DATE.fullmatch(value):
        yield _diagnostic("TG009", f"{tag.name} {value!r} is not YYYY.MM.DD "
                          "('?' for unknown digits)", tag)
    elif value[:4].isdigit() and int(value[:4]) < 1900:
        yield _diagnostic("TG009", f"{tag.name} {value!r} is before 1900", tag)
    elif (problem := _no_such_day(value)) is not None:
        yield _diagnostic("TG009", f"{tag.name} {value!r}: {problem}", tag)


def _no_such_day(value: str) -> str | None:
    """What makes a well-formed YYYY.MM.DD no calendar day; unknown parts are not judged."""
    year, month, day = value.split(".")
    if month.isdigit() and not 1 <= int(month) <= 12:
        return f"there is no month {month}"
    if day.isdigit():
        # February has 29 days when the year is unknown: it may be a leap year.
        days = calendar.monthrange(int(year) if year.isdigit() else 2000,
                                   int(month))[1] if month.isdigit() else 31
        if not 1 <= int(day) <= days:
            return f"there is no day {day}" + (f" in month {month}" if month.isdigit() else "")
    return None


def _time(value: str, tag: TagPair) -> Iterator[Diagnostic]:
    if not _TIME.fullmatch(value):
        yield _diagnostic("TG010", f"{tag.name} {value!r} is not HH:MM:SS", tag)
        return
    hours, minutes, seconds = (int(part) for part in value.split(":"))
    if hours > 23 or minutes > 59 or seconds > 59:
        yield _diagnostic("TG010", f"{tag.name} {value!r} is no time of day (00:00:00 to "
                          "23:59:59)", tag)


def _scoring(value: str, tag: TagPair) -> Iterator[Diagnostic]:
    fields = value.split(";")
    basics = [field for field in fields if field in BASIC_SCORING]
    if len(basics) > 1:
        yield _diagnostic("TG011", f"scoring {value!r} names {len(basics)} basic systems "
                          f"({', '.join(basics)})", tag)
    # One finding per keyword, however often it is repeated (";" has two empty ones).
    for field in dict.fromkeys(fields):
        if field not in BASIC_SCORING and field not in SCORING_MODIFIERS:
            what = f"scoring keyword {field!r}" if field else "an empty scoring keyword"
            yield _diagnostic("TG012", f"{what} is not one PBN defines", tag)


_SLASH = re.compile(r"\s*/\s*")


def normalize_score(value: str) -> str:
    """Score tags as the reference verifier reads them: blanks around '/' and repeated
    blanks do not matter (``"NS 50 / 70  "`` is ``"NS 50/70"``)."""
    return _SLASH.sub("/", " ".join(value.split()))


def _matching(pattern: re.Pattern[str], form: str) -> Callable[[str, TagPair], Iterator[Diagnostic]]:
    def check(value: str, tag: TagPair) -> Iterator[Diagnostic]:
        if not pattern.fullmatch(normalize_score(value)):
            yield _diagnostic("TG013", f"{tag.name} {value!r} is not {form}", tag)
    return check


def _one_of(*allowed: str) -> Callable[[str, TagPair], Iterator[Diagnostic]]:
    def check(value: str, tag: TagPair) -> Iterator[Diagnostic]:
        if value not in allowed:
            yield _diagnostic("TG013", f"{tag.name} {value!r} is not {' or '.join(allowed)}", tag)
    return check


def _percentage(value: str, tag: TagPair) -> Iterator[Diagnostic]:
    yield from _matching(_SCORE, "a percentage in an NS/EW score form")(value, tag)
    numbers = re.findall(_NUMBER, value)
    if any(not 0 <= float(number) <= 100 for number in numbers):
        yield _diagnostic("TG013", f"{tag.name} {value!r} is outside 0-100", tag)


def _hidden(value: str, tag: TagPair) -> Iterator[Diagnostic]:
    if any(char not in "WNES" for char in value):
        yield _diagnostic("TG013", f"Hidden {value!r} holds characters other than W N E S", tag)


def _note(value: str, tag: TagPair) -> Iterator[Diagnostic]:
    if not _NOTE.fullmatch(value):
        yield _diagnostic("TG013", f"Note {value!r} is not 'n:text'", tag)


def _open_list(value: str, tag: TagPair) -> Iterator[Diagnostic]:
    if value not in _OPEN_LISTS[tag.name]:
        yield _diagnostic("TG012", f"{tag.name} {value!r} is not one of the values PBN lists", tag)


VALUE_CHECKS: dict[str, Callable[[str, TagPair], Iterator[Diagnostic]]] = {
    "Board": _board,
    "Dealer": _dealer,
    "Declarer": _declarer,
    "Vulnerable": _vulnerable,
    "Contract": _contract,
    "Result": _result,
    "Date": _date, "EventDate": _date, "UTCDate": _date,
    "Time": _time, "UTCTime": _time,
    "Scoring": _scoring,
    "Room": _one_of("Open", "Closed"),
    "FrenchMP": _one_of("Yes", "No"),
    "Round": _matching(_ROUND, "letters, digits and _ in parts joined by '.'"),
    "Hidden": _hidden,
    "Note": _note,
    "Score": _matching(_SCORE, "a score, or NS/EW score forms"),
    "ScoreIMP": _matching(_SCORE, "IMPs, or NS/EW forms"),
    "ScoreMP": _matching(_SCORE, "matchpoints, or NS/EW forms"),
    "ScorePercentage": _percentage,
    "ScoreRubber": _matching(_RUBBER, "above/below, or NS/EW above/below forms"),
    "ScoreRubberHistory": _matching(_RUBBER_HISTORY, "'NS <history> EW <history>'"),
    "OptimumScore": _matching(_OPTIMUM, "'NS <score>' or 'EW <score>' forms"),
    **{name: _open_list for name in _OPEN_LISTS},
}

#: (tag name, value) pairs that a value check has passed: whether a value is fine depends
#: on nothing else, and a file repeats most of its values (Event, Date, Scoring, Dealer...),
#: so each is checked once. Bounded, as a long run of files could hold many values.
_FINE_VALUES: set[tuple[str, str]] = set()
_FINE_VALUES_LIMIT = 20_000


def check(game: Game) -> Iterator[Diagnostic]:
    """Names, repetition, inheritance and values of every tag of a game."""
    values = game.values
    seen: dict[str, TagPair] = {}
    notes_seen: set[tuple[str, str]] = set()
    section = "identification"  # a Note belongs to the Auction or Play tag before it
    if game.preamble:
        yield from _escaped_tags(game.preamble)
    for tag in game.tags:
        name = tag.name
        if tag.body:
            yield from _escaped_tags(tag.body)
        if name == "Note":
            index = tag.value.split(":", 1)[0]
            if (section, index) in notes_seen:
                yield _diagnostic("TG001", f"Note {index} given twice in the {section} notes", tag)
            notes_seen.add((section, index))
        else:
            section = name.lower() if name in ("Auction", "Play") else "identification"
            if name in seen:
                first = seen[name]
                yield Diagnostic("TG001", f"tag {name} repeated (first at line {first.line}); "
                                 f"{tag.value!r} is ignored", tag.line, tag.column)
                continue
            seen[name] = tag
        if tag.value.endswith((" ", "\t")) and tag.quoted:
            yield _diagnostic("TG020", f"{name} {tag.value!r} ends in blanks", tag)
        if name not in KNOWN_TAGS:
            yield Diagnostic("TG003", f"tag {name} is not a PBN 2.1 tag", tag.line, tag.column)
            continue
        if tag.value.startswith("#") and name in NOT_INHERITABLE:
            yield _diagnostic("TG002", f"{name} may not inherit a value ({tag.value!r})", tag)
            continue
        value = values.get(name) if name != "Note" else tag.value
        checker = VALUE_CHECKS.get(name)
        # An unknown value ("?", "") is fine for every tag, Board included; a value
        # passed once is fine again.
        if checker is None or value is None or value in _UNKNOWN or (name, value) in _FINE_VALUES:
            continue
        if name == "Result" and (whole_number(value) or 0) > 13 and game.lin is not None \
                and tag == game.lin.claim:
            continue  # a LIN claim of too many tricks: SC301 says so, at its mc pair
        found = list(checker(value, tag))
        if found:
            yield from found
        else:
            if len(_FINE_VALUES) >= _FINE_VALUES_LIMIT:
                _FINE_VALUES.clear()
            _FINE_VALUES.add((name, value))
    yield from _tables(game, seen)
    yield from _board_cycle(game, seen)
    if "ScoreRubberHistory" in values:
        yield from _rubber_vulnerability(game, seen)


def _tables(game: Game, seen: dict[str, TagPair]) -> Iterator[Diagnostic]:
    """Column lists and row lengths of the PBN tables (the first of each name counts)."""
    for name, tag in seen.items():  # in file order
        if name not in TABLES:
            continue
        spec = game.values.get(name)
        if spec is None or spec.startswith("#"):
            continue  # '#' with nothing earlier to copy: TG checks of inheritance say so
        for problem in read_table(tag, spec).problems:
            yield Diagnostic("TG016", problem.message, problem.line, problem.column)
        yield from _comment_in_table(tag)


_ELEMENTS = (ElementKind.TOKENS, ElementKind.TOKEN, ElementKind.STRING)
_COMMENTS = (ElementKind.COMMENT, ElementKind.LINE_COMMENT)


def _comment_in_table(tag: TagPair) -> Iterator[Diagnostic]:
    """The first comment after an element of a table (PBN 5.1 allows one only after the
    tag pair): one finding per table."""
    elements_seen = False
    for element in tag.body:
        if element.kind in _ELEMENTS:
            elements_seen = True
        elif elements_seen and element.kind in _COMMENTS:
            yield Diagnostic("TG021", f"commentary after an element of the {tag.name}",
                             element.line, element.column)
            return


#: Scoring words of the methods that deal boards out of the duplicate cycle. One search
#: instead of a generator over the words: this runs for every record.
_NOT_DUPLICATE = re.compile("Rubber|Chicago|Auction1920")
#: Scoring words that make the boards duplicate boards: every basic system but the
#: rubber-like ones, and the modifiers, which all qualify duplicate methods.
_DUPLICATE_SCORING = (BASIC_SCORING | SCORING_MODIFIERS) - {"Rubber", "Chicago", "Auction1920"}
#: Tags that only a duplicate event states: rooms of a team match, and duplicate scores.
_DUPLICATE_TAGS = ("Room", "ScoreIMP", "ScoreMP", "ScorePercentage", "ScoreTable",
                   "TotalScoreTable")


def is_duplicate(game: Game) -> bool:
    """Whether the record's board is a duplicate board, dealt by its number: a duplicate
    Scoring, a Room, or duplicate score tags or tables say so. Practice, robot and
    challenge files number their deals freely and say none of these."""
    values = game.values
    scoring = values.get("Scoring") or ""
    if any(field in _DUPLICATE_SCORING for field in scoring.split(";")):
        return True
    return any(values.get(name) not in (None, "", "?") for name in _DUPLICATE_TAGS)


def _board_cycle(game: Game, seen: dict[str, TagPair]) -> Iterator[Diagnostic]:
    """Dealer and Vulnerable against the board number: a warning for duplicate boards,
    info for deals that may be numbered freely; rubber-like scoring deals out of the cycle."""
    values = game.values
    board = values.get("Board") or ""
    scoring = values.get("Scoring") or ""
    number = whole_number(board)
    if not number or _NOT_DUPLICATE.search(scoring):
        return
    dealer, vulnerable = values.get("Dealer"), values.get("Vulnerable")
    found = []
    if dealer and "Dealer" in seen:
        try:
            expected = dealer_for_board(number)
            if Seat.from_pbn(dealer) is not expected:
                found.append(_diagnostic("TG014", f"board {number} is dealt by {expected.name}, "
                                         f"not {dealer}", seen["Dealer"]))
        except InvalidTokenError:
            pass
    if vulnerable and "Vulnerable" in seen:
        try:
            expected_vul = Vulnerability.for_board(number)
            if Vulnerability.from_pbn(vulnerable) is not expected_vul:
                found.append(_diagnostic("TG015", f"board {number} is vulnerable "
                                         f"{expected_vul.pbn()}, not {vulnerable}",
                                         seen["Vulnerable"]))
        except InvalidTokenError:
            pass
    if found and not is_duplicate(game):
        found = [replace(diagnostic, severity=Severity.INFO) for diagnostic in found]
    yield from found


_HISTORY_NUMBERS = re.compile(r"NS ([0-9 /]+) EW ([0-9 /]+)")


def rubber_games_won(history: str) -> tuple[int, int] | None:
    """Games won by NS and by EW before the deal, from a ScoreRubberHistory value: each
    finished game (every game listed but the current, last one) went to the side with
    100 or more below the line. None when the value cannot be read so."""
    match = _HISTORY_NUMBERS.fullmatch(normalize_score(history))
    if match is None:
        return None
    sides = []
    for side in (match[1], match[2]):
        below = side.split("/", 1)[1].split() if "/" in side else []
        if not below:
            return None
        points = [whole_number(figure) for figure in below]
        if None in points:
            return None
        sides.append([figure for figure in points if figure is not None])
    ns, ew = sides
    if len(ns) != len(ew):
        return None
    won = [0, 0]
    for ns_points, ew_points in zip(ns[:-1], ew[:-1]):
        if (ns_points >= 100) != (ew_points >= 100):
            won[ns_points < 100] += 1
    return won[0], won[1]


def _rubber_vulnerability(game: Game, seen: dict[str, TagPair]) -> Iterator[Diagnostic]:
    history, vulnerable = game.values["ScoreRubberHistory"], game.values.get("Vulnerable")
    if not history or not vulnerable or "Vulnerable" not in seen:
        return
    won = rubber_games_won(history)
    if won is None:
        return  # TG013 says the value is malformed
    try:
        written = Vulnerability.from_pbn(vulnerable)
    except InvalidTokenError:
        return  # TG005
    expected = Vulnerability.of_sides(won[0] > 0, won[1] > 0)
    if written is not expected:
        yield _diagnostic("TG018", f"Vulnerable {vulnerable!r} but ScoreRubberHistory gives "
                          f"NS {won[0]} and EW {won[1]} games won, so vulnerable "
                          f"{expected.pbn()}", seen["Vulnerable"])


#: A tag pair at the start of an escape line's text (after the %).
_ESCAPED_TAG = re.compile(r'\s*\[\s*[A-Za-z0-9_]+\s*"')


def _escaped_tags(elements: tuple[Element, ...]) -> Iterator[Diagnostic]:
    for element in elements:
        if element.kind is ElementKind.ESCAPE and _ESCAPED_TAG.match(element.text):
            yield Diagnostic("TG019", f"tag pair in an escape line, ignored: "
                             f"%{element.text.strip()[:60]}", element.line, element.column)
