"""The HTML report, read back as a browser reads it: parsed into elements, every hand,
call and trick looked for, every value from a file kept as text."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

import pbnkit
from pbnkit.cli import main
from pbnkit.pipeline.convert import convert
from pbnkit.model import Seat
from pbnkit.model.auction import Auction
from pbnkit.model.cards import DECK
from pbnkit.pbn.sections import section
from pbnkit.report import report_html
from pbnkit.scoring.report import score_games
from tests.conftest import CORPUS, SAMPLE_DATA
from tests.test_layers import imported_modules

PACKAGE = Path(__file__).resolve().parent.parent / "pbnkit"
VOID = {"meta", "br", "hr", "img", "link", "input", "col", "wbr", "source"}
SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663", "NT": "NT"}


class Element:
    def __init__(self, tag: str, attrs: dict[str, str | None]):
        self.tag, self.attrs, self.children, self.parts = tag, attrs, [], []

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def text(self) -> str:
        return "".join(part if isinstance(part, str) else part.text() for part in self.parts)

    def find(self, tag: str | None = None, cls: str | None = None) -> list[Element]:
        found = []
        for child in self.children:
            if (tag is None or child.tag == tag) and (cls is None or cls in child.classes):
                found.append(child)
            found += child.find(tag, cls)
        return found


class Tree(HTMLParser):
    """The document as elements; unclosed or stray end tags fail the test."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", {})
        self.stack = [self.root]
        self.feed(html)
        self.close()
        assert self.stack == [self.root], [e.tag for e in self.stack]

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs))
        self.stack[-1].children.append(element)
        self.stack[-1].parts.append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_endtag(self, tag):
        assert self.stack[-1].tag == tag, f"</{tag}> closes <{self.stack[-1].tag}>"
        self.stack.pop()

    def handle_data(self, data):
        self.stack[-1].parts.append(data)


def parse(html: str) -> Element:
    return Tree(html).root


def cards_of(hand: Element) -> list[str]:
    """Each card of a diagram's hand as suit symbol and rank."""
    found = []
    for holding in hand.find("div", "holding"):
        symbol = holding.find("span")[0].text()
        found += [symbol + rank for ranks in holding.find("span", "ranks")
                  for rank in ranks.text().split()]
    return found


def card_name(card) -> str:
    rank = card.rank.pbn()
    return SYMBOLS[card.suit.name] + ("10" if rank == "T" else rank)


def call_text(token: str) -> str:
    """A call as the report prints it, worked out from the PBN token."""
    token = token.upper()
    if token in ("PASS", "X", "XX"):
        return {"PASS": "Pass", "X": "X", "XX": "XX"}[token]
    return token[0] + SYMBOLS[token[1:]]


def test_the_team_match_shows_every_hand_call_and_trick():
    games = list(pbnkit.read(SAMPLE_DATA / "team_match.pbn"))
    page = parse(report_html(games))
    boards = page.find("article", "board")
    # each board was played in both rooms: one diagram for the two records
    assert len(boards) == len(games) // 2 == 4
    records = [(board, record) for board in boards for record in board.find("div", "record")]
    assert len(records) == len(games)
    for game, (board, record) in zip(games, records):
        deal = pbnkit.model.Deal.from_pbn(game.value("Deal"))
        hands = board.find("div", "hand")
        assert [h.attrs["data-seat"] for h in hands] == ["N", "E", "S", "W"]
        for seat, hand in zip(Seat, hands):
            assert sorted(cards_of(hand)) == sorted(card_name(c) for c in deal[seat].cards)
            assert len(cards_of(hand)) == 13
        assert record.find("h4")[0].text() == f"{game.value('Room')} room"
        calls = [cell.text().replace("!", "").rstrip("0123456789")
                 for cell in record.find("table", "calls")[0].find("td") if cell.text()]
        tokens = [item.text for item in section(game, "Auction").items]
        assert calls == [call_text(token) for token in tokens]
        tricks = record.find("table", "tricks")[0].find("tbody")[0].find("tr")
        assert len(tricks) == 13
        played = [cell.text() for row in tricks for cell in row.find("td")[:4]]
        assert sorted(played) == sorted(card_name(card)[1:] + card_name(card)[0]
                                        for card in DECK)
        for row in tricks:  # one lead and one winner marked in each trick
            cells = row.find("td")[:4]
            assert sum("lead" in c.classes for c in cells) == 1
            assert sum("won" in c.classes for c in cells) == 1


def test_the_winner_marked_is_the_trick_s_winner_worked_by_hand():
    # Board 1, Open room, 4S by North, East on lead. Trick 1 (E S W N): CK C7 C3 C2,
    # East's king wins its own lead. Trick 3: East, on lead after CQ won trick 2, plays
    # CJ; South ruffs with S3 and wins; West C6, North C8.
    game = next(iter(pbnkit.read(SAMPLE_DATA / "team_match.pbn")))
    rows = parse(report_html([game])).find("table", "tricks")[0].find("tbody")[0].find("tr")
    first = rows[0].find("td")[:4]  # West North East South
    assert [c.text() for c in first] == ["3\u2663", "2\u2663", "K\u2663", "7\u2663"]
    assert first[2].classes == {"lead", "won"}
    third = rows[2].find("td")[:4]
    assert [c.text() for c in third] == ["6\u2663", "8\u2663", "J\u2663", "3\u2660"]
    assert "lead" in third[2].classes and third[3].classes == {"won"}


HOSTILE = """[Event "<script>alert('event')</script>"]
[Board "1"]
[North "Tom & Jerry"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]
{<img src=x onerror="alert(1)"> \\S lead}
[Auction "N"]
7NT =1= Pass Pass =2= Pass
[Note "1:<script>alert('note')</script>"]
[Note "2:4+ !H, no !Stayman"]
[Contract "7NT"]
[Declarer "N"]
[Result "13"]
"""


def test_values_from_the_file_stay_text():
    page = parse(report_html(pbnkit.read_text(HOSTILE)))
    assert page.find("script") == [] and page.find("img") == []
    text = page.text()
    assert "<script>alert('event')</script>" in text
    assert "<script>alert('note')</script>" in text
    assert '<img src=x onerror="alert(1)">' in text
    assert "North: Tom & Jerry" in text
    # the commentary's \S is the spade symbol, and a note's !H the heart, coloured
    assert page.find("div", "commentary")[0].find("span", "s-S")[0].text() == "\u2660"
    (second,) = [item for item in page.find("li") if item.attrs.get("value") == "2"]
    assert [span.text() for span in second.find("span")] == ["\u2665"]
    assert second.text() == "4+ \u2665, no !Stayman"


def test_the_page_needs_no_script_and_nothing_from_the_network():
    html = report_html(pbnkit.read(SAMPLE_DATA / "team_match.pbn"))
    page = parse(html)
    assert page.find("script") == [] and page.find("link") == []
    assert all(not any((value or "").startswith(("http:", "https:", "//"))
                       for value in element.attrs.values())
               for element in page.find())
    style = page.find("style")[0].text()
    assert "@media print" in style and "size: A4" in style


BCDD = CORPUS / "emkael__bcdd" / "doc" / "test-pbn" / "test1.bcdd.pbn"


@pytest.mark.skipif(not BCDD.is_file(), reason="../shared/corpus is absent")
def test_hand_records_print_two_to_a_page_with_their_grid():
    games = list(pbnkit.read(BCDD))[:5]
    boards = parse(report_html(games)).find("article", "board")
    assert ["page-end" in board.classes for board in boards] == [False, True, False, True,
                                                                 False]
    grid = boards[0].find("table", "grid")[0]
    # Board 1 states N and S 9 tricks in spades: 3 spades; OptimumScore NS 140.
    rows = {row.find("th")[0].text(): [c.text() for c in row.find("td")]
            for row in grid.find("tbody")[0].find("tr")}
    assert rows["N"][1] == "3" and rows["E"][1] == "\u2013"
    assert grid.find("caption")[0].text() == "Par: N-S +140"


def test_boards_with_their_play_take_a_page_each():
    boards = parse(report_html(pbnkit.read(SAMPLE_DATA / "team_match.pbn"))
                   ).find("article", "board")
    assert all("page-end" in board.classes for board in boards)


def test_rubber_sheet_has_we_and_they_and_the_line():
    games = list(pbnkit.read(SAMPLE_DATA / "rubber_contract.pbn"))
    rubbers = score_games(games).sheet.rubbers
    sheets = parse(report_html(games)).find("table", "wethey")
    assert len(sheets) == len(rubbers)
    for rubber, sheet in zip(rubbers, sheets):
        assert [th.text() for th in sheet.find("th")][:2] == ["We (N-S)", "They (E-W)"]
        assert len(sheet.find("tr", "the-line")) == 1
        total = sheet.find("tr", "total")[0].find("td")
        assert [total[0].text(), total[1].text()] == [str(rubber.total_ns), str(rubber.total_ew)]
        games_ruled = sum(1 for deal in rubber.deals if deal.game is not None)
        assert len(sheet.find("tr", "game")) == games_ruled


def test_chicago_and_team_match_sheets():
    chicago = parse(report_html(pbnkit.read(SAMPLE_DATA / "chicago_evening.pbn")))
    assert chicago.find("table", "chukker")
    games = list(pbnkit.read(SAMPLE_DATA / "team_match.pbn"))
    (match,) = score_games(games).sheet.matches
    sheet = parse(report_html(games)).find("table", "match")[0]
    rows = sheet.find("tbody")[0].find("tr")
    assert len(rows) == len(match.boards) + 2  # the boards, the IMPs, the victory points
    won_a = sum(b.imps for b in match.boards if b.imps > 0)
    won_b = -sum(b.imps for b in match.boards if b.imps < 0)
    assert [c.text() for c in rows[-2].find("td")][-2:] == [str(won_a), str(won_b)]
    # the WBF 2013 scale shares 20 VPs between the two teams, written to two decimals
    vp_a, vp_b = (c.text() for c in rows[-1].find("td")[-2:])
    assert rows[-1].find("td")[0].text() == "Victory points"
    assert re.fullmatch(r"\d+\.\d\d", vp_a) and re.fullmatch(r"\d+\.\d\d", vp_b)
    assert float(vp_a) + float(vp_b) == pytest.approx(20) and float(vp_a) > 10


def test_report_command_reads_pbn_files_and_archives(tmp_path):
    archive = tmp_path / "match.parquet"
    convert([SAMPLE_DATA / "team_match.pbn"], archive)
    for source in (SAMPLE_DATA / "team_match.pbn", archive):
        out = tmp_path / f"{source.suffix[1:]}.html"
        result = CliRunner().invoke(main, ["report", str(source), "-o", str(out)])
        assert result.exit_code == 0, result.output
        boards = parse(out.read_text(encoding="utf-8")).find("article", "board")
        assert [board.attrs["id"] for board in boards] == [f"board-{n}" for n in range(1, 5)]
    again = CliRunner().invoke(main, ["report", str(archive), "-o", str(out)])
    assert again.exit_code == 2 and "--force" in again.output


def test_notebook_views_use_the_report_templates():
    game = next(iter(pbnkit.read(SAMPLE_DATA / "team_match.pbn")))
    deal = pbnkit.model.Deal.from_pbn(game.value("Deal"))
    hands = parse(deal._repr_html_()).find("div", "hand")
    assert [len(cards_of(hand)) for hand in hands] == [13, 13, 13, 13]
    auction = Auction.from_calls(Seat.N, "1NT Pass 3NT Pass Pass Pass")
    cells = [td.text() for td in parse(auction._repr_html_()).find("td") if td.text()]
    assert cells == ["1NT", "Pass", "3NT", "Pass", "Pass", "Pass"]
    assert parse(game._repr_html_()).find("article", "board")


def test_play_view_in_a_notebook():
    from pbnkit.model.play import Play
    from pbnkit.model import Card, Strain

    deal = pbnkit.model.Deal.from_pbn(
        "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432")
    play = Play(deal, Strain.NT, Seat.E)
    for text in ("ST", "S3", "S2", "SA"):
        play = play.with_card(Card.from_pbn(text))
    rows = parse(play._repr_html_()).find("tbody")[0].find("tr")
    cells = rows[0].find("td")[:4]  # West North East South
    assert [c.text() for c in cells] == ["2\u2660", "A\u2660", "10\u2660", "3\u2660"]
    assert "won" in cells[1].classes and "lead" in cells[2].classes


@pytest.mark.parametrize("folder", ["model", "pbn"])
def test_the_values_draw_themselves_without_importing_the_report(folder):
    for path in sorted((PACKAGE / folder).glob("*.py")):
        modules = imported_modules(path)
        assert not [m for m in modules if m.startswith(("pbnkit.report", "pbnkit.analysis"))]


def test_report_modules_stay_small():
    for path in sorted((PACKAGE / "report").glob("*.py")):
        assert len(path.read_text(encoding="utf-8").splitlines()) < 600, path


PAIRS = SAMPLE_DATA / "pairs_matchpoints.pbn"


@pytest.mark.skipif(not PAIRS.is_file(), reason="no pairs event among the samples")
def test_travellers_and_rankings_of_a_pairs_event():
    games = list(pbnkit.read(PAIRS))
    report = score_games(games)
    page = parse(report_html(games))
    boards = {result.board for result in report.results}
    travellers = page.find("table", "traveller")
    assert len(travellers) == len(boards)
    rows = sum(len(t.find("tbody")[0].find("tr")) for t in travellers)
    assert rows == len(report.results)
    rankings = getattr(report.sheet, "rankings", ())
    if not rankings:
        pytest.skip("scoring gives no rankings")
    lines = page.find("table", "rankings")[0].find("tbody")[0].find("tr")
    assert [(row.find("td")[0].text(), row.find("td")[1].text()) for row in lines] == \
        [(str(r.rank), r.id) for r in rankings]


def test_the_team_match_sheet_names_the_teams_and_their_imps_as_the_text_sheet():
    html = report_html(pbnkit.read(SAMPLE_DATA / "team_match.pbn"))
    # sample_data/README.md 1.3: Aurora won 6 + 13 + 8 = 27 IMPs, Borealis 8; 27 - 8 = 19
    assert "<th>IMPs Aurora</th><th>IMPs Borealis</th>" in html
    assert "Aurora 27, Borealis 8: Aurora win by 19" in html
    text = CliRunner().invoke(main, ["score", str(SAMPLE_DATA / "team_match.pbn")]).output
    assert "Total IMPs: Aurora 27, Borealis 8: Aurora win by 19" in text


def test_one_board_one_diagram_with_its_traveller_under_it():
    games = list(pbnkit.read(PAIRS))
    page = parse(report_html(games))
    boards = page.find("article", "board")
    played = {}
    for game in games:
        played.setdefault(game.value("Board"), []).append(game)
    # three boards, Board 3 among them once, though it has records of its own
    assert [b.attrs["id"] for b in boards] == [f"board-{n}" for n in played] == \
        ["board-1", "board-2", "board-3"]
    for board, (number, records) in zip(boards, played.items()):
        assert len(board.find("div", "diagram")) == 1
        assert board.text().count(f"Board {number}") == 1  # the corner, not a header too
        rows = board.find("table", "traveller")[0].find("tbody")[0].find("tr")
        assert len(rows) == len(records)
        # the N-S pair of each result line, in file order
        assert [row.find("td")[0].text().split()[0] for row in rows] == \
            [game.value("PairNS") for game in records]


def test_the_full_page_says_the_event_once_and_no_file_path():
    html = report_html(pbnkit.read(PAIRS))
    page = parse(html)
    (viewport,) = [m for m in page.find("meta") if m.attrs.get("name") == "viewport"]
    assert "width=device-width" in viewport.attrs["content"]
    (heading,) = page.find("h2", "event-title")
    assert heading.text() == "pbnkit sample pairs"
    assert page.text().count("Bergen NOR") == 1 and page.text().count("2024.06.01") == 1
    assert str(PAIRS) not in html and "sample_data" not in page.text()


def test_hand_records_print_four_boards_a_page_with_hcp_dealer_and_vulnerability():
    from tests.session24 import session

    games = pbnkit.read_text(session(boards=24, tables=4))
    page = parse(report_html(games, layout="hand-records"))
    pages = page.find("div", "hand-page")
    assert [len(p.find("article", "hand-slip")) for p in pages] == [4] * 6
    slips = page.find("article", "hand-slip")
    assert page.find("table", "traveller") == [] and page.find("table", "calls") == []
    first = {game.value("Board"): game for game in reversed(games)}
    for number, slip in enumerate(slips, 1):
        game = first[str(number)]
        corner = slip.find("div", "corner")[0].text()
        vulnerable = {"NS": "N-S", "EW": "E-W"}.get(game.value("Vulnerable"),
                                                     game.value("Vulnerable"))
        assert f"Dealer {game.value('Dealer')}" in corner and f"Vul {vulnerable}" in corner
        points = [int(span.text()) for span in slip.find("div", "hcp")[0].find("span")]
        assert sum(points) == 40  # the four aces, kings, queens and jacks: 4 x 10 points


def test_hcp_worked_by_hand():
    # Board 1 of the pairs sample: North AKJ84 K7 A93 852 = 4+3+1 + 3 + 4 = 15; East
    # 97 J109 QJ65 KQJT = 1 + 2+1 + 3+2+1 = 10; South Q1063 A842 K74 97 = 2+4+3 = 9;
    # West 52 Q653 1082 A643 = 2 + 4 = 6.
    board = parse(report_html(pbnkit.read(PAIRS))).find("article", "board")[0]
    hcp = {span.attrs["class"]: span.text() for span in board.find("div", "hcp")[0].find("span")}
    assert hcp == {"N": "15", "E": "10", "S": "9", "W": "6"}


def test_the_results_page_ranks_by_name_then_gives_the_travellers():
    games = list(pbnkit.read(PAIRS))
    page = parse(report_html(games, layout="results"))
    assert page.find("div", "diagram") == []
    headings = [h.text() for h in page.find("h2")]
    assert headings.index("Rankings") < headings.index("Travellers")
    names = [row.find("td")[2].text() for row in
             page.find("table", "rankings")[0].find("tbody")[0].find("tr")]
    assert "Dahl, Per - Dahl, Eva" in names
    assert [h.attrs["id"] for h in page.find("h3")] == ["board-1", "board-2", "board-3"]


def test_team_standings_share_twenty_victory_points_a_match():
    page = parse(report_html(pbnkit.read(SAMPLE_DATA / "teams_round_robin.pbn"),
                             layout="results"))
    rows = page.find("table", "standings")[0].find("tbody")[0].find("tr")
    assert [row.find("td")[1].text() for row in rows][0] == "Aurora"
    vps = [row.find("td")[-1].text() for row in rows]
    assert all(re.fullmatch(r"\d+\.\d\d", vp) for vp in vps)
    # three teams, each pair of them one match: three matches of 20 VPs each
    assert sum(map(float, vps)) == pytest.approx(3 * 20)


#: A figure printed as Python writes a float: more than two decimals.
FLOAT_REPR = re.compile(r"\d\.\d{3,}")


@pytest.mark.parametrize("layout", ["full", "hand-records", "results"])
def test_every_number_on_the_page_is_formatted(layout):
    from tests.session24 import session

    sources = [list(pbnkit.read(path)) for path in sorted(SAMPLE_DATA.glob("*.pbn"))]
    for games in sources + [pbnkit.read_text(session(boards=8, tables=3))]:
        page = parse(report_html(games, layout=layout))
        body = page.find("body")[0]
        for element in [body] + body.find():  # each piece of text as the page holds it
            for part in element.parts:
                assert not (isinstance(part, str) and FLOAT_REPR.search(part)), part
        for table in body.find("table", "traveller") + body.find("table", "rankings"):
            heads = [th.text() for th in table.find("thead")[0].find("th")]
            for row in table.find("tbody")[0].find("tr"):
                cells = dict(zip(heads, (td.text() for td in row.find("td"))))
                for head, value in cells.items():
                    if head.startswith("%") and value:
                        assert re.fullmatch(r"\d+\.\d\d", value), (head, value)
                    if head.startswith("MP") or head == "Matchpoints":
                        assert re.fullmatch(r"\d+\.\d\d?", value), (head, value)


def test_a_problem_line_names_its_board():
    text = ('[Event "Club"]\n[Board "5"]\n[Dealer "N"]\n[Vulnerable "NS"]\n'
            '[Contract "4S"]\n[Declarer "N"]\n[Result "10"]\n\n'
            '[Event "Club"]\n[Board "5"]\n[Dealer "N"]\n[Vulnerable "NS"]\n'
            '[Contract "4S"]\n[Declarer "N"]\n\n')
    page = parse(report_html(pbnkit.read_text(text)))
    problems = [li.text() for li in page.find("ul", "problems")[0].find("li")]
    assert problems and all("board 5" in line.lower() for line in problems)


def test_dd_works_out_the_par_of_a_stated_table_that_has_none():
    pytest.importorskip("endplay.dds", reason="the solver comes with the dd extra")
    # N spades, E hearts, S diamonds, W clubs, each suit whole: N-S take 13 tricks in
    # spades and diamonds, E-W in hearts and clubs. N-S bid 7S, 1510 not vulnerable
    # (210 + 500 + 1000); E-W's 7NT would go down 13 on South's diamonds.
    # At no trumps the opening leader runs the suit he holds: 0 tricks for any declarer.
    rows = "".join(f"{seat} {strain} {13 if strain != 'NT' and ours else 0}\n"
                   for seat in "NESW" for strain in ("NT", "S", "H", "D", "C")
                   for ours in [(seat in "NS") == (strain in "SD")])
    text = ('[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
            '[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. '
            '...AKQJT98765432"]\n'
            '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\n' + rows)
    games = pbnkit.read_text(text)
    assert parse(report_html(games)).find("caption") == []  # stated, no par
    caption = parse(report_html(games, solve=True)).find("table", "grid")[0].find("caption")
    assert caption[0].text() == "Par: NS 7S= (N-S +1510)"
