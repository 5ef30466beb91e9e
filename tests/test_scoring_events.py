"""Pairs and team events (Laws 78A and 78B, EBU and WBF practice): matchpoints with Neuberg,
Butler, cross-IMPs, rankings with shared places, victory points and standings. Every
expected figure is worked out by hand in the comments, or in sample_data/README.md sections
5 to 7."""

from __future__ import annotations

import json

import jsonschema
import pytest

import pbnkit
from pbnkit.model import Contract, Seat, Vulnerability
from pbnkit.scoring import BoardResult, DuplicateProfile
from pbnkit.scoring.base import MatchKey, Pairs
from pbnkit.scoring.duplicate import Method, PairsScoring
from pbnkit.scoring.pairs import butler_datum, cross_imps
from pbnkit.scoring.report import TeamOptions, score_games
from pbnkit.scoring.teams import victory_points
from tests.conftest import SAMPLE_DATA, SCHEMAS, run_pbnkit

KEY = MatchKey("club night")


def played(index: int, board: str, ns: str, ew: str, contract: str, declarer: Seat,
           tricks: int) -> BoardResult:
    return BoardResult(index, board, declarer, Contract.from_pbn(contract), tricks,
                       Vulnerability.NONE, match_key=KEY, pairs=Pairs(ns, ew))


# One board, three tables, nobody vulnerable: 4S= +420, 3S+1 +170, 4S-1 -50.
FIELD = [
    played(0, "1", "1", "4", "4S", Seat.N, 10),
    played(1, "1", "2", "5", "3S", Seat.N, 10),
    played(2, "1", "3", "6", "4S", Seat.N, 9),
]


def test_pairs_scoring_follows_the_scoring_tag() -> None:
    assert PairsScoring.of("IMP;Butler-2;Mean").method is Method.BUTLER_2
    assert PairsScoring.of("IMP;Butler").method is Method.BUTLER
    assert PairsScoring.of("IMP;Cross2") == PairsScoring(Method.CROSS, divisor="comparisons")
    assert PairsScoring.of("MP").method is Method.MATCHPOINTS
    assert PairsScoring.of("").method is Method.MATCHPOINTS
    # IMPs without a pairs method: Butler is taken, and the sheet's note says so
    assert PairsScoring.of("IMP") == PairsScoring(Method.BUTLER, divisor="assumed")
    assert "names no pairs method" in PairsScoring.of("IMP").describe()


def test_butler_datum_is_the_mean_rounded_to_ten() -> None:
    # four scores, none left out: (420 + 170 + 170 - 50) / 4 = 177.5 -> 180
    assert butler_datum([420, 170, -50], [1, 2, 1]) == 180
    # an exact 5 goes away from zero, as Ruter prints -85 as -90
    assert butler_datum([-80, -90], [1, 1]) == -90
    assert butler_datum([80, 90], [1, 1]) == 90


def test_butler_leaves_out_the_highest_and_lowest_of_five_or_more() -> None:
    # sorted 450 420 170 170 -50: keep 420 170 170 = 760 / 3 = 253.3 -> 250
    assert butler_datum([420, 450, 170, -50, 170], [1] * 5) == 250


def test_butler_2_always_leaves_out_the_two_extreme_scores() -> None:
    # Butler: +600, +300, -100 leave +300 alone: datum +300
    assert butler_datum([600, 300, -100], [1] * 3, Method.BUTLER_2) == 300
    # plain Butler keeps all three: 800 / 3 = 266.7 -> 270
    assert butler_datum([600, 300, -100], [1] * 3) == 270
    # four results, a Multiplicity of 2 on +170: 420 170 170 -50 leave 170 170 -> 170
    assert butler_datum([420, 170, -50], [1, 2, 1], Method.BUTLER_2) == 170
    # one or two results would leave nothing: every score is kept
    assert butler_datum([420], [1], Method.BUTLER_2) == 420
    # (420 - 50) / 2 = 185 -> 190 (an exact 5 away from zero)
    assert butler_datum([420, -50], [1, 1], Method.BUTLER_2) == 190


def test_butler_2_imps_against_the_datum() -> None:
    # Butler, worked by hand: datum +300; +600: 300 -> 7, +300: 0, -100: -400 -> -9
    field = [played(0, "1", "1", "4", "4H", Seat.N, 12),   # 4H+2 not vul: +480
             played(1, "1", "2", "5", "2H", Seat.N, 10),   # 2H+2: +170
             played(2, "1", "3", "6", "4H", Seat.N, 8)]    # 4H-2: -100
    # 480, 170, -100: Butler-2 keeps +170: datum 170; +480: 310 -> 7; -100: -270 -> -7
    sheet = DuplicateProfile(method=Method.BUTLER_2).score(field)
    assert [b.score_ns for b in sheet.boards] == [480, 170, -100]
    assert [b.datum for b in sheet.boards] == [170] * 3
    assert [b.imp_ns for b in sheet.boards] == [7, 0, -7]
    assert "Butler-2" in sheet.notes[0]


def test_cross_imps_sum_against_every_other_result() -> None:
    # 420: vs 170 (250: 6) + vs -50 (470: 10) = 16; 170: -6 + (220: 6) = 0; -50: -10 - 6
    assert cross_imps([420, 170, -50], [1, 1, 1]) == {420: 16, 170: 0, -50: -16}


def test_cross2_averages_per_comparison() -> None:
    boards = DuplicateProfile(method=Method.CROSS, divisor="comparisons").score(FIELD).boards
    assert [b.cross_sum for b in boards] == [16, 0, -16]
    assert [b.imp_ns for b in boards] == [8, 0, -8]  # two comparisons each
    assert [b.cross_average for b in boards] == [8, 0, -8]


def test_cross_keeps_the_sum_and_gives_the_average_beside_it() -> None:
    boards = DuplicateProfile(method=Method.CROSS).score(FIELD).boards
    assert [(b.imp_ns, b.cross_average) for b in boards] == [(16, 8), (0, 0), (-16, -8)]


def test_butler_ranking_gives_ew_the_other_side_of_each_imp() -> None:
    sheet = DuplicateProfile(method=Method.BUTLER).score(FIELD)
    # datum of 420 170 -50: 540 / 3 = 180; 420: 240 -> 6, 170: -10 -> 0, -50: -230 -> -6
    assert [b.datum for b in sheet.boards] == [180] * 3
    assert [b.imp_ns for b in sheet.boards] == [6, 0, -6]
    totals = {line.id: (line.total, line.rank, line.percentage) for line in sheet.rankings}
    assert totals == {"1": (6, 1, None), "6": (6, 1, None), "2": (0, 3, None),
                      "5": (0, 3, None), "3": (-6, 5, None), "4": (-6, 5, None)}


def test_matchpoint_ranking_splits_a_mitchell_into_its_two_directions() -> None:
    sheet = DuplicateProfile().score(FIELD)
    # top 4: 420 beats both (4), 170 beats -50 (2), -50 nothing (0); E-W the rest
    lines = [(line.direction, line.id, line.total, line.percentage, line.rank)
             for line in sheet.rankings]
    assert lines == [("NS", "1", 4, 100, 1), ("NS", "2", 2, 50, 2), ("NS", "3", 0, 0, 3),
                     ("EW", "6", 4, 100, 1), ("EW", "5", 2, 50, 2), ("EW", "4", 0, 0, 3)]


def test_neuberg_scales_a_board_with_a_missing_result() -> None:
    # board 2 has two results where board 1 has three: (MP + 1) x 3 / 2 - 1
    second = [played(3, "2", "1", "4", "1NT", Seat.S, 7),   # +90: raw 2 -> 3.5
              played(4, "2", "2", "5", "1NT", Seat.S, 6)]   # -50: raw 0 -> 0.5
    boards = DuplicateProfile().score(FIELD + second).boards
    assert [(b.mp_ns, b.mp_ew) for b in boards[3:]] == [(3.5, 0.5), (0.5, 3.5)]
    assert [b.pct_ns for b in boards[3:]] == [87.5, 12.5]


def test_a_board_played_once_outside_a_pairs_event_still_gets_no_matchpoints() -> None:
    lone = BoardResult(0, "1", Seat.N, Contract.from_pbn("4S"), 10, Vulnerability.NONE)
    assert DuplicateProfile().score([lone]).boards[0].mp_ns is None


@pytest.mark.parametrize(("margin", "boards", "expected"), [
    (12, 16, (13.28, 6.72)),   # the WBF table's row
    (-12, 16, (6.72, 13.28)),
    (0, 16, (10.0, 10.0)),
    (200, 16, (20.0, 0.0)),    # capped at 20
])
def test_victory_points_on_the_wbf_2013_scale(margin, boards, expected) -> None:
    assert victory_points(margin, boards) == expected


# -- the sample events (sample_data/README.md 5-7) -------------------------------------------


def test_sample_pairs_session_ranks_as_worked_by_hand() -> None:
    report = score_games(pbnkit.read(SAMPLE_DATA / "pairs_matchpoints.pbn"))
    assert report.sheet.all_problems == ()
    lines = [(line.direction, line.id, line.boards, line.total, line.top, line.rank)
             for line in report.sheet.rankings]
    assert lines == [("NS", "2", 2, 7.0, 8.0, 1), ("NS", "1", 3, 4.5, 12.0, 2),
                     ("NS", "3", 3, 4.5, 12.0, 2), ("EW", "3", 2, 7.0, 8.0, 1),
                     ("EW", "2", 3, 7.5, 12.0, 2), ("EW", "1", 3, 1.5, 12.0, 3)]
    assert [line.percentage for line in report.sheet.rankings] == [87.5, 37.5, 37.5, 87.5,
                                                                   62.5, 12.5]
    assert report.sheet.rankings[0].names == "Dahl, Per - Dahl, Eva"


def test_sample_butler_session_reproduces_its_tables() -> None:
    report = score_games(pbnkit.read(SAMPLE_DATA / "pairs_butler.pbn"))
    assert report.sheet.all_problems == ()
    datums = {(result.board, row.datum) for result, row in zip(report.results,
                                                               report.sheet.boards)}
    assert datums == {("1", 250), ("2", 360), ("3", -670)}
    assert [row.imp_ns for row in report.sheet.boards] == [5, 5, -2, -7, -2, 6, -10, -2, -5,
                                                           6, 0, -13, 1, 2, 0]
    assert [(line.id, line.total, line.rank) for line in report.sheet.rankings] == [
        ("9", 22, 1), ("8", 12, 2), ("1", 11, 3), ("10", 6, 4), ("5", 4, 5), ("3", -3, 6),
        ("4", -10, 7), ("7", -11, 8), ("6", -13, 9), ("2", -18, 10)]


def test_sample_round_robin_standings_in_victory_points() -> None:
    report = score_games(pbnkit.read(SAMPLE_DATA / "teams_round_robin.pbn"),
                         teams=TeamOptions(victory_points=True))
    matches = [(m.key.home_team, m.key.visit_team, m.imps_a, m.vp_a, m.vp_b)
               for m in report.sheet.matches or ()]
    assert matches == [("Aurora", "Borealis", 6, 14.39, 5.61),
                       ("Aurora", "Cirrus", 21, 19.95, 0.05),
                       ("Borealis", "Cirrus", 6, 14.39, 5.61)]
    assert [(s.team, s.matches, s.imps_for, s.imps_against, s.vp, s.rank)
            for s in report.sheet.standings] == [("Aurora", 2, 27, 0, 34.34, 1),
                                                 ("Borealis", 2, 7, 7, 20.0, 2),
                                                 ("Cirrus", 2, 1, 28, 5.66, 3)]


def test_sample_round_robin_on_the_discrete_scale() -> None:
    # 2-board matches: X = 15 x sqrt(2) = 21.2132; band tops floor(X x ln(1 - (1 - R) x
    # (V - 9.5) / 10) / ln R), R = tau^3: t_12 = floor(21.2132 x 0.146807) = floor(3.1142) = 3,
    # t_13 = floor(21.2132 x 0.215514) = floor(4.5717) = 4, t_14 = floor(21.2132 x 0.291793)
    # = floor(6.1899) = 6, t_19 = floor(21.2132 x 0.896114) = floor(19.0094) = 19; below them
    # t_10 = floor(0.5723) = 0, t_11 = floor(1.7884) = 1, between them t_15..t_18 =
    # floor(8.0085, 10.0844, 12.5027, 15.3988) = 8, 10, 12, 15. The 13 VP band (4 only) is
    # narrower than the 12 VP one (2-3), so t_12 is lowered to 2; the widths are then 1
    # (draw: 0 either way), 1, 1, 2, 2, 2, 2, 2, 3, 4, never narrowing. 6 IMPs (band 14:
    # 5-6) are worth 14 to 6, 21 IMPs (past 19) 20 to 0.
    report = score_games(pbnkit.read(SAMPLE_DATA / "teams_round_robin.pbn"),
                         teams=TeamOptions(victory_points=True, scale="discrete"))
    assert [(m.imps_a, m.vp_a, m.vp_b) for m in report.sheet.matches or ()] == [
        (6, 14.0, 6.0), (21, 20.0, 0.0), (6, 14.0, 6.0)]
    assert [(s.team, s.vp, s.rank) for s in report.sheet.standings] == [
        ("Aurora", 34.0, 1), ("Borealis", 20.0, 2), ("Cirrus", 6.0, 3)]


def test_the_discrete_scale_from_the_command_line_and_from_an_archive(tmp_path) -> None:
    path = SAMPLE_DATA / "teams_round_robin.pbn"
    status, output = run_pbnkit("score", "--vp", "--vp-scale", "discrete", "--format",
                                "json", path)
    assert status == 0
    document = json.loads(output)
    jsonschema.validate(document, json.loads((SCHEMAS / "score-report.v2.json").read_text()))
    # as the test above works it out: 14-6, 20-0, 14-6
    assert [(m["vp_a"], m["vp_b"]) for m in document["matches"]] == [(14.0, 6.0), (20.0, 0.0),
                                                                     (14.0, 6.0)]
    archive = tmp_path / "round_robin.parquet"
    assert run_pbnkit("convert", "-q", path, "-o", archive)[0] == 0
    again = json.loads(run_pbnkit("rescore", archive, "--profile", "duplicate", "--vp",
                                  "--vp-scale", "discrete", "--format", "json")[1])
    assert again["matches"] == document["matches"]
    assert again["standings"] == document["standings"]
    status, output = run_pbnkit("score", "--vp", "--vp-scale", "discrete", path)
    assert "Victory points: Aurora 20.00, Cirrus 0.00" in output
    assert "   1 Aurora                     2     27      0  34.00" in output


def test_without_vp_the_standings_follow_the_imp_difference() -> None:
    report = score_games(pbnkit.read(SAMPLE_DATA / "teams_round_robin.pbn"))
    assert [(s.team, s.vp, s.rank) for s in report.sheet.standings] == [
        ("Aurora", None, 1), ("Borealis", None, 2), ("Cirrus", None, 3)]


@pytest.mark.parametrize("name", ["pairs_matchpoints.pbn", "pairs_butler.pbn",
                                  "teams_round_robin.pbn", "chicago_evening.pbn"])
def test_event_reports_conform_to_the_v2_schema(name) -> None:
    status, output = run_pbnkit("score", "--vp", "--format", "json", SAMPLE_DATA / name)
    assert status == 0
    document = json.loads(output)
    jsonschema.validate(document, json.loads((SCHEMAS / "score-report.v2.json").read_text()))
    assert document["version"] == 2
    assert document["rankings"] or document["standings"] or document["rubbers"]


def test_text_sheet_shows_the_ranking_and_the_standings() -> None:
    status, output = run_pbnkit("score", SAMPLE_DATA / "pairs_matchpoints.pbn")
    assert status == 0
    assert "Ranking: pbnkit sample pairs, N-S" in output
    assert "   2      1      3     4.5  37.50  Berg, Ola - Berg, Kari" in output
    status, output = run_pbnkit("score", "--vp", SAMPLE_DATA / "teams_round_robin.pbn")
    assert "Victory points: Aurora 19.95, Cirrus 0.05" in output
    assert "   1 Aurora                     2     27      0  34.34" in output


def test_rankings_and_standings_as_parquet_tables(tmp_path) -> None:
    import pyarrow.parquet as pq

    from pbnkit.export.score_tables import TABLES

    out = tmp_path / "events.parquet"
    status, _ = run_pbnkit("score", "--vp", SAMPLE_DATA / "pairs_matchpoints.pbn",
                           SAMPLE_DATA / "teams_round_robin.pbn", "-o", out)
    assert status == 0
    rankings = pq.read_table(tmp_path / "events.rankings.parquet")
    assert rankings.schema.remove_metadata().equals(TABLES["rankings"])
    assert [(r["direction"], r["id"], r["board_count"], r["total_points"], r["rank"])
            for r in rankings.to_pylist()][:3] == [("NS", "2", 2, 7.0, 1), ("NS", "1", 3, 4.5, 2),
                                                   ("NS", "3", 3, 4.5, 2)]
    standings = pq.read_table(tmp_path / "events.standings.parquet").to_pylist()
    assert [(s["team"], s["vp"], s["rank"]) for s in standings] == [
        ("Aurora", 34.34, 1), ("Borealis", 20.0, 2), ("Cirrus", 5.66, 3)]


def test_rescore_gives_the_same_events_from_an_archive(tmp_path) -> None:
    files = [SAMPLE_DATA / name for name in ("pairs_butler.pbn", "pairs_matchpoints.pbn",
                                             "teams_round_robin.pbn")]
    archive = tmp_path / "events.parquet"
    assert run_pbnkit("convert", "-q", *files, "-o", archive)[0] == 0
    direct = json.loads(run_pbnkit("score", "--vp", "--format", "json", *files)[1])
    again = json.loads(run_pbnkit("rescore", archive, "--profile", "duplicate", "--vp",
                                  "--format", "json")[1])
    assert again == direct
    assert direct["rankings"] and direct["standings"]


def test_each_file_is_scored_by_its_own_scoring_tag() -> None:
    games = [*pbnkit.read(SAMPLE_DATA / "pairs_butler.pbn"),
             *pbnkit.read(SAMPLE_DATA / "pairs_matchpoints.pbn")]
    report = score_games(games)
    by_event = {}
    for line in report.sheet.rankings:
        by_event.setdefault(line.event, []).append(line)
    assert all(line.percentage is None for line in by_event["pbnkit sample Butler pairs"])
    assert [line.percentage for line in by_event["pbnkit sample pairs"]][:3] == [87.5, 37.5,
                                                                                 37.5]
    assert report.sheet.notes == ("pairs ranked on Butler IMPs against the datum",
                                  "pairs ranked on matchpoints (MP1)")


INDIVIDUAL = """[Event "individual"]
[Board "{board}"]
[Vulnerable "None"]
[Scoring "MP"]
[Contract ""]
[ScoreTable "PlayerId_North;PlayerId_East;PlayerId_South;PlayerId_West;Score_NS"]
{rows}
"""


def test_an_individual_event_ranks_each_player() -> None:
    # board 1: N1 S3 +420 beat N5 S7 +170: 2 of 2 to players 1 and 3, and to 6 and 8 (E-W
    # of the +170); board 2 (players changed partners): N1 S2 +100 and N3 S4 +100 tie: 1 each
    text = (INDIVIDUAL.format(board="1", rows="1 2 3 4 420\n5 6 7 8 170") + "\n"
            + INDIVIDUAL.format(board="2", rows="1 5 2 6 100\n3 7 4 8 100"))
    report = score_games(pbnkit.read_text(text, "individual.pbn"))
    totals = {line.id: (line.total, line.boards) for line in report.sheet.rankings}
    assert totals == {"1": (3, 2), "2": (1, 2), "3": (3, 2), "4": (1, 2), "5": (1, 2),
                      "6": (3, 2), "7": (1, 2), "8": (3, 2)}
    # players 2, 4, 5 and 7 sat both ways: one list for everyone
    assert {line.direction for line in report.sheet.rankings} >= {None}
    assert [line.rank for line in report.sheet.rankings] == [1, 1, 1, 1, 5, 5, 5, 5]


def round_robin_without_the_closed_room_of_round_3(tmp_path):
    """The sample round robin with round 3's Closed records taken out: Borealis v Cirrus
    is then all in the Open room."""
    text = (SAMPLE_DATA / "teams_round_robin.pbn").read_text(encoding="utf-8")
    games = text.split("\n\n[")
    kept = [game for game in games
            if not ('[Round "3"]' in f"[{game}" and '[Room "Closed"]' in f"[{game}")]
    assert len(kept) == len(games) - 2  # boards 5 and 6 of round 3
    path = tmp_path / "round_robin.pbn"
    path.write_text("\n\n[".join(kept), encoding="utf-8")
    return path


def test_standings_say_which_match_was_not_scored(tmp_path) -> None:
    path = round_robin_without_the_closed_room_of_round_3(tmp_path)
    status, output = run_pbnkit("score", "--vp", path)
    assert status == 0
    # without round 3, Aurora has its two wins (14.39 + 19.95 = 34.34, README 7.2),
    # Borealis its loss by 6 (5.61) and Cirrus its loss by 21 (0.05)
    assert "   2 Borealis                   1      0      6   5.61" in output
    assert ("Not scored, so not in these standings: pbnkit sample round robin / 3 "
            "(Borealis v Cirrus), boards 5-6: Open room only") in output
    assert output.count("(Borealis v Cirrus) is not scored") == 1  # listed once, not per board
    status, output = run_pbnkit("score", "--vp", "--format", "json", path)
    document = json.loads(output)
    jsonschema.validate(document, json.loads((SCHEMAS / "score-report.v2.json").read_text()))
    (unscored,) = document["unscored_matches"]
    assert (unscored["round"], unscored["home_team"], unscored["visit_team"], unscored["room"],
            unscored["board_count"], unscored["board_range"]) == ("3", "Borealis", "Cirrus",
                                                                  "Open", 2, "5-6")
    assert [p["kind"] for p in document["problems"]] == ["one-room-match"]
    assert document["problems"][0]["path"] == str(path)


def test_unscored_matches_as_a_parquet_table(tmp_path) -> None:
    import pyarrow.parquet as pq

    from pbnkit.export.score_tables import TABLES

    path = round_robin_without_the_closed_room_of_round_3(tmp_path)
    assert run_pbnkit("score", path, "-o", tmp_path / "rr.parquet")[0] == 0
    table = pq.read_table(tmp_path / "rr.unscored_matches.parquet")
    assert table.schema.remove_metadata().equals(TABLES["unscored_matches"])
    assert [(r["round"], r["board_range"]) for r in table.to_pylist()] == [("3", "5-6")]
