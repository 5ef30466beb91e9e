"""Writing LIN: ``export --to lin``, ``convert`` between PBN and LIN, and what each round
trip keeps."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from conftest import CORPUS, SAMPLE_DATA, run_pbnkit
from test_lin_reader import BOARD, VUGRAPH

import pbnkit
from pbnkit.export.tolin import lin_board, write_lin
from pbnkit.lin.layout import pbn_layout
from pbnkit.pbn.sections import section
from pbnkit.pbn.writer import dumps

LIN_FILES = sorted(CORPUS.rglob("*.lin")) if CORPUS.is_dir() else []
PBN_WITH_PLAY = [CORPUS / "jarekczek__pbntools/test/test_6_bbo_skyclub_20130810/"
                 "sky_club_2196_pairs_sky_club_jackpot_2000.pbn",
                 CORPUS / "jarekczek__pbntools/test/test_bbo_history_with_lins/"
                 "history_expected.pbn"]


def corpus(paths: list[Path]) -> list:
    if not CORPUS.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason="../shared/corpus is absent"))]
    return [pytest.param(p, id=p.name) for p in paths]


def lines(text: str) -> list[str]:
    """A LIN text's boards, one a line (writers differ in line ends and line breaks)."""
    return [line for line in text.replace("\r", "").split("\n") if line]


def meaning(game) -> tuple:
    """What PBN -> LIN -> PBN keeps: deal, dealer, players, calls, notes, cards and the
    claim: the Result of a play that stops short (PBN writes the tricks not played as
    ``- - - -`` or ends with ``*``; LIN's mc comes back as ``*``)."""
    auction, play = section(game, "Auction"), section(game, "Play")
    # PBN lets two calls share a note; LIN repeats the text: compare each call's text
    notes = {int(n.value.split(":", 1)[0]): n.value.split(":", 1)[1].rstrip()
             for n in auction.notes} if auction else {}
    cards = tuple(i.text for i in play.items if i.text not in ("-", "*")) if play else ()
    return (game.value("Deal"), game.value("Dealer"), game.board,
            tuple(game.value(s) for s in ("North", "East", "South", "West")),
            tuple((i.text, notes.get(i.note)) for i in auction.items) if auction else (),
            cards, game.value("Result") if len(cards) < 52 else None)


@pytest.mark.parametrize("path", corpus(LIN_FILES))
def test_lin_to_archive_to_lin_gives_the_boards_back(path, tmp_path):
    archive, out = tmp_path / "a.parquet", tmp_path / "out.lin"
    assert run_pbnkit("convert", path, "-o", archive)[0] == 0
    assert run_pbnkit("export", archive, "--to", "lin", "-o", out)[0] == 0
    # a vugraph header on several lines comes back on one
    written = lines(out.read_text())
    source = lines(path.read_text())
    assert "".join(written) == "".join(source)


@pytest.mark.parametrize("path", corpus(LIN_FILES))
def test_lin_to_pbn_to_lin_keeps_every_pair(path, tmp_path):
    pbn, back = tmp_path / "x.pbn", tmp_path / "back.lin"
    assert run_pbnkit("convert", path, "-o", pbn)[0] == 0
    assert pbn.read_text().startswith("[")
    assert run_pbnkit("convert", pbn, "-o", back)[0] == 0
    assert "".join(lines(back.read_text())) == "".join(lines(path.read_text()))


@pytest.mark.parametrize("path", corpus(PBN_WITH_PLAY))
def test_pbn_to_lin_to_pbn_keeps_deal_auction_alerts_play_claim_and_players(path, tmp_path):
    lin, back = tmp_path / "x.lin", tmp_path / "back.pbn"
    assert run_pbnkit("convert", path, "-o", lin)[0] == 0
    assert run_pbnkit("convert", lin, "-o", back)[0] == 0
    before, after = list(pbnkit.read(path)), list(pbnkit.read(back))
    assert len(before) == len(after) > 0
    for a, b in zip(before, after):
        assert meaning(a) == meaning(b)


def test_a_changed_board_is_written_from_its_pbn_meaning_keeping_the_other_keys():
    game = pbnkit.read_text(BOARD.replace("mb|3N|", "mb|3N|nt|well bid|"), "x.lin")[0]
    text = dumps([pbn_layout(game)]).replace('[North "Ned"]', '[North "Nick"]')
    changed = pbnkit.read_text(text)[0]
    line = lin_board(changed)
    assert line.startswith("pn|Sue,Wes,Nick,Eve|md|3SAKQHAKQD432C5432,")
    assert "mb|1N!|an|15-17|mb|p|mb|3N|mb|p|mb|p|mb|p|" in line
    assert "pg||pc|D8|pc|D2|pc|DA|pc|D9|mc|9|" in line
    # the keys PBN has no word for, as they were
    assert line.endswith("st||rh||nt|well bid|")


def test_an_unchanged_board_is_written_as_it_was():
    game = pbnkit.read_text(BOARD, "x.lin")[0]
    again = pbnkit.read_text(dumps([pbn_layout(game)]))[0]
    assert lin_board(again) == BOARD.strip()


def test_a_vugraph_file_keeps_its_header_and_rooms():
    games = pbnkit.read_text(VUGRAPH, "match.lin")
    out = io.StringIO()
    assert write_lin(games, out) == 4
    written = lines(out.getvalue())
    assert written[0] == "vg|Final,Segment 1,I,1,2,LIONS,0,TIGERS,0|rs|3NN=,3NN-1,4SE+1,4HS-2|" \
        "pn|Ann,Bob,Cid,Dan,Eve,Fay,Gus,Hal|pg||"
    # the boards take their players and results from the header: they are unchanged
    assert written[1:] == lines(VUGRAPH)[3:]


def test_pbn_rooms_become_qx():
    text = ('[Board "3"]\n[Room "Closed"]\n[Dealer "S"]\n[Vulnerable "EW"]\n'
            '[Deal "N:JT9.JT9.JT9.JT98 876.876.8765.Q76 AKQ.AKQ.432.5432 5432.5432.AKQ.AK"]\n')
    line = lin_board(pbnkit.read_text(text)[0])
    assert line == ("qx|c3|md|1SAKQHAKQD432C5432,S5432H5432DAKQCAK,SJT9HJT9DJT9CJT98,"
                    "S876H876D8765CQ76|sv|e|")
    assert pbnkit.read_text(line, "x.lin")[0].value("Deal") == (
        "S:AKQ.AKQ.432.5432 5432.5432.AKQ.AK JT9.JT9.JT9.JT98 876.876.8765.Q76")


def test_export_format_is_not_for_lin(tmp_path):
    archive = tmp_path / "a.jsonl"
    source = tmp_path / "x.lin"
    source.write_text(BOARD)
    assert run_pbnkit("convert", source, "-o", archive)[0] == 0
    status, _ = run_pbnkit("export", archive, "-o", tmp_path / "y.lin", "--export-format")
    assert status == 2


@pytest.mark.parametrize("path", corpus(LIN_FILES[:3]))
def test_export_original_gives_the_lin_file_back_byte_for_byte(path, tmp_path):
    archive, out = tmp_path / "a.parquet", tmp_path / "originals"
    assert run_pbnkit("convert", path, "-o", archive)[0] == 0
    assert run_pbnkit("export", archive, "--original", "-o", out)[0] == 0
    assert (out / path.name).read_bytes() == path.read_bytes()


def test_a_pbn_team_match_written_as_lin_scores_the_same(tmp_path):
    source = SAMPLE_DATA / "team_match.pbn"
    out = tmp_path / "match.lin"
    assert run_pbnkit("convert", source, "-o", out)[0] == 0
    assert out.read_text().startswith("vg|pbnkit sample team match,,I,1,,Aurora,0,Borealis,0|")

    def imps(path):
        status, text = run_pbnkit("score", path)
        assert status == 0
        return [line for line in text.splitlines() if line.startswith(("Total:", "     "))]

    assert imps(out) == imps(source)


def test_a_lin_archive_exported_as_pbn_has_a_tag_a_line(tmp_path):
    source, archive, out = tmp_path / "match.lin", tmp_path / "a.parquet", tmp_path / "m.pbn"
    source.write_text(VUGRAPH + BOARD.replace("pn|Sue,Wes,Ned,Eve|", "qx|o3|pn|Sue,Wes,Ned,Eve|"))
    assert run_pbnkit("convert", source, "-o", archive)[0] == 0
    assert run_pbnkit("export", archive, "-o", out)[0] == 0
    text = out.read_text()
    assert all(line.count("[") <= 1 for line in text.splitlines())
    assert [meaning(g) for g in pbnkit.read(out)] == [meaning(g) for g in pbnkit.read(source)]


@pytest.mark.parametrize(("auction", "calls"), [
    ("AP", "mb|p|mb|p|mb|p|mb|p|"),
    ("1S AP", "mb|1S|mb|p|mb|p|mb|p|"),
    ("1S Pass AP", "mb|1S|mb|p|mb|p|mb|p|"),
    ("Pass 1NT X AP", "mb|p|mb|1N|mb|d|mb|p|mb|p|mb|p|"),
])
def test_all_pass_becomes_the_passes_that_end_the_auction(auction, calls):
    game = pbnkit.read_text(f'[Dealer "N"]\n[Auction "N"]\n{auction}\n')[0]
    assert lin_board(game) == calls
