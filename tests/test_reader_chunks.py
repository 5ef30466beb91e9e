"""Reading a file in parts (``plan_chunks`` + ``read(resume=...)`` + ``merge``) yields
exactly what one whole read yields: games with their index, positions, values and
diagnostics, and the file's encoding, diagnostics and trailer."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pbnkit
from pbnkit.pbn import chunks
from pbnkit.pbn.chunks import iter_chunks, may_hold, merge, plan_chunks, summary
from pbnkit.pbn.split import _CHUNK
from tests.conftest import CORPUS, corpus_params, generate_boards

GAME = ('[Event "{event}"]\n[Site "{site}"]\n[Board "{board}"]\n[Dealer "N"]\n'
        '[Vulnerable "None"]\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 '
        '432.AKQJ.T98.765"]\n[Auction "N"]\n1S Pass 2S Pass\nPass Pass\n')


def tricky_file() -> bytes:
    """Inheritance with # and ##, CRLF and lone CR line ends, a {comment} holding blank
    lines, a tagless commentary block, Latin-1 bytes, bad separation and a syntax error."""
    games = []
    for board in range(1, 41):
        event = ("##Caf\xe9 Cup" if board == 1 else "#" if board % 3 else f"Club {board}")
        site = "#" if board % 2 else "Bergen"
        text = GAME.format(event=event, site=site, board=board)
        if board % 7 == 0:
            text = text.replace("[Board", "{a note\n\n\nwith empty lines [Board \"0\"]}\n[Board")
        if board % 11 == 0:
            text = "{commentary for the next game}\n\n" + text
        if board == 20:
            text = "\n" + text  # two empty lines before it: export format wants one
        if board % 13 == 0:
            text += "1S junk \"unterminated\n"
        games.append(text)
    body = "% PBN 2.1\n" + "\n".join(games) + "\n\n{the end}\n"
    lines = body.encode("latin-1").split(b"\n")
    ends = [b"\r\n", b"\n", b"\r\n", b"\r"]
    return b"".join(line + ends[number % 4] for number, line in enumerate(lines[:-1]))


def everything(path: Path, strict: bool) -> tuple:
    reader = pbnkit.read(path, strict=strict)
    games = [key(game) for game in reader]
    return games, reader.encoding, tuple(reader.diagnostics), reader.trailer


def key(game: pbnkit.Game) -> tuple:
    return (game.tags, dict(game.values), game.diagnostics, game.preamble, game.line,
            game.index, game.path, game.original, game.original_head, game.original_tail)


def in_parts(path: Path, strict: bool, target: int,
             tail: tuple[int, int] | None = None) -> tuple:
    plan = list(iter_chunks(path, target, tail))
    plan = pickle.loads(pickle.dumps(plan))  # parts go to other processes
    games, parts = [], []
    for part in plan:
        reader = pbnkit.read(path, strict=strict, resume=part)
        games += [key(game) for game in reader]
        parts.append(pickle.loads(pickle.dumps(summary(reader))))
    whole = merge(parts, str(path), strict)
    return (games, whole.encoding.name, whole.diagnostics, whole.trailer), len(plan)


def assert_parts_equal_whole(path: Path, target: int, strict: bool,
                             tail: tuple[int, int] | None = None) -> int:
    parts, count = in_parts(path, strict, target, tail)
    assert parts == everything(path, strict)
    return count


@pytest.mark.slow
@pytest.mark.parametrize("row", corpus_params())
def test_corpus_file_read_in_parts_equals_whole_read(row):
    path = CORPUS / row["path"]
    for strict in (False, True):
        assert_parts_equal_whole(path, 300, strict)


@pytest.mark.parametrize("head", [b"", b"\xef\xbb\xbf", b"% charset=ISO-8859-1\r\n",
                                  b"% charset=UTF-8\n"], ids=["plain", "bom", "latin1", "utf8"])
@pytest.mark.parametrize("strict", [False, True])
def test_tricky_file_read_in_parts_equals_whole_read(tmp_path, head, strict):
    path = tmp_path / "tricky.pbn"
    path.write_bytes(head + tricky_file())
    assert assert_parts_equal_whole(path, 200, strict) > 10


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return generate_boards(tmp_path_factory.mktemp("generated") / "boards.pbn", 400, 5)


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("target", [1, 5000, 100_000])
def test_generated_file_read_in_parts_equals_whole_read(generated, target, strict):
    count = assert_parts_equal_whole(generated, target, strict)
    assert count > 1


def test_parts_cover_the_file_without_gaps(generated):
    plan = plan_chunks(generated, 10_000)
    assert plan[0].start == 0 and plan[-1].end == generated.stat().st_size
    assert all(a.end == b.start for a, b in zip(plan, plan[1:]))
    assert [p.games_before for p in plan] == sorted(p.games_before for p in plan)


def test_the_last_parts_shrink_for_the_jobs_to_end_together(generated):
    size = generated.stat().st_size
    parts = list(iter_chunks(generated, 20_000, (4, 5_000)))
    assert parts[0].start == 0 and parts[-1].end == size
    for part in parts[:-1]:  # each is cut at the first game after its target
        target = max(5_000, min(20_000, (size - part.start) // 4))
        assert target <= part.end - part.start < target + 2_000
    assert len(parts) > len(plan_chunks(generated, 20_000)) + 2
    assert_parts_equal_whole(generated, 20_000, False, (4, 5_000))


def test_a_small_file_is_one_part(generated):
    size = generated.stat().st_size
    [part] = plan_chunks(generated, size)
    assert (part.start, part.end, part.line, part.games_before) == (0, size, 1, 0)


def test_a_file_in_a_charset_not_based_on_ascii_is_one_part(tmp_path):
    path = tmp_path / "utf16.pbn"
    path.write_bytes(b"% charset=utf-16\n" + b'[Event "x"]\n\n' * 100)
    assert len(plan_chunks(path, 10)) == 1
    assert_parts_equal_whole(path, 10, strict=True)


def test_no_cut_separates_commentary_from_its_game(tmp_path):
    path = tmp_path / "commentary.pbn"
    path.write_bytes(b'[Event "a"]\n\n{about the next game}\n\n[Event "b"]\n\n[Event "c"]\n')
    plan = plan_chunks(path, 1)
    assert len(plan) == 2 and plan[1].games_before == 2
    assert_parts_equal_whole(path, 1, strict=True)


def block_by_block(path: Path, target: int, tail: tuple[int, int] | None) -> list:
    """The plan as the planner makes it when it looks at every block of the file: when
    it never counts games in bulk."""
    counted = chunks._Planner._counted
    chunks._Planner._counted = lambda self, text, pos, limit: None  # type: ignore[method-assign]
    try:
        return list(iter_chunks(path, target, tail))
    finally:
        chunks._Planner._counted = counted  # type: ignore[method-assign]


#: blocks the planner must tell apart: games whose first line is a tag pair as export
#: format writes it (most blocks), or another form of tag pair TAG_PAIRS reads, and
#: blocks that are not games (commentary, an escape line, a tag pair over two lines)
GAMES = st.sampled_from(['[Event "e"]\n[Board "1"]\n1S Pass\n', '[Board "2"]\n',
                         '[Event "x"]  \n'])
OTHERS = st.sampled_from(['[Event "a\\"b"]\n', '[ Event "x"]\n', '[Event  "x" ] [Site "s"]\n',
                          "commentary\n", "% escape\n[Event \"e\"]\n", '[Event\n"x"]\n',
                          "   [Site \"s\"]\n"])
BLOCKS = st.one_of(GAMES, GAMES, GAMES, GAMES, OTHERS)
#: semi-empty lines between them, one or several, blanks and form feeds included
SEPARATORS = st.lists(st.sampled_from(["", " ", "\t", "\x0c", " \x0b "]), min_size=1,
                      max_size=3).map(lambda blanks: "".join(blank + "\n" for blank in blanks))


@pytest.mark.slow
@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(BLOCKS, SEPARATORS), min_size=20, max_size=60),
       st.sampled_from(["\n", "\r\n"]), st.integers(20, 300),
       st.sampled_from([None, (3, 20)]))
def test_games_counted_in_bulk_are_planned_as_block_by_block(tmp_path, blocks, line_end,
                                                             target, tail):
    """Where no cut can fall, the planner counts the games with regular expressions
    (``_Planner._counted``): the plan is the one it makes looking at each block."""
    text = "".join(block + separator for block, separator in blocks)
    path = tmp_path / "blocks.pbn"
    path.write_bytes(text.replace("\n", line_end).encode("ascii"))
    assert list(iter_chunks(path, target, tail)) == block_by_block(path, target, tail)


def test_a_large_file_is_planned_in_bulk_as_block_by_block(generated, tmp_path):
    """Over texts of a megabyte (the planner's reads), with semi-empty lines of blanks
    and games that are not all in export format."""
    games = generated.read_bytes().split(b"\r\n\r\n")
    path = tmp_path / "large.pbn"
    variants = [b"\r\n\r\n", b"\r\n \r\n", b"\r\n\r\n\t\r\n", b"\r\n\r\n"]
    body = b"".join(game + variants[number % 4] for number, game in enumerate(games * 10))
    path.write_bytes(body.replace(b'[Event "', b'[ Event "', 50))
    assert path.stat().st_size > 2 * _CHUNK
    for target, tail in ((100_000, None), (300_000, (4, 20_000)), (3 * _CHUNK, None)):
        plan = list(iter_chunks(path, target, tail))
        assert plan == block_by_block(path, target, tail)
        assert len(plan) > 1 or target > _CHUNK


@pytest.mark.parametrize("padding", [0, _CHUNK], ids=["read whole", "mapped"])
def test_may_hold_finds_any_of_its_texts_anywhere_in_the_file(tmp_path, padding):
    """A file small enough is searched in the bytes read for its charset, a larger one
    mapped: both find a text at the very end, and say no only when no text is there."""
    path = tmp_path / "a.lin"
    path.write_bytes(b"pn|a,b,c,d|" + b" " * padding + b"VG|x,y|")
    assert may_hold(path, b"vg|", b"VG|")
    assert may_hold(path, b"pn|")
    assert not may_hold(path, b"vg|", b"Vg|", b"vG|")
    assert not may_hold(path)


def test_may_hold_an_empty_file_holds_nothing_and_a_file_not_in_ascii_anything(tmp_path):
    empty = tmp_path / "empty.pbn"
    empty.write_bytes(b"")
    assert not may_hold(empty, b"Scoring")
    utf16 = tmp_path / "utf16.pbn"
    utf16.write_bytes(b"% charset=utf-16\n" + b'[Event "x"]\n')
    assert may_hold(utf16, b"Scoring")


def test_a_files_encoding_is_named_before_reading_as_a_whole_read_names_it(tmp_path):
    """What the chunks of a file carry as its encoding, found before they are read: a
    block of ASCII is not decoded, a file in Latin-1 not read at all."""
    from pbnkit.pipeline.units import MIN_CHUNK, file_encoding

    ascii_game = GAME.format(event="Club", site="Bergen", board=1).encode("ascii") + b"\n"
    filler = ascii_game * (2 * MIN_CHUNK // len(ascii_game) + 1)  # past the first blocks
    cafe = GAME.format(event="Caf\xe9", site="Bergen", board=2)
    files = {
        "ascii": filler,
        "utf8": filler + cafe.encode("utf-8"),
        "latin1-late": filler + cafe.encode("latin-1"),  # UTF-8 until a line is not
        "latin1-declared": b"% charset=ISO-8859-1\n" + filler + cafe.encode("latin-1"),
        "bom-latin1-late": b"\xef\xbb\xbf" + filler + cafe.encode("latin-1"),
        # a fallback line without a byte 0x80-0x9F, then far after it one with: Windows-1252
        "cp1252-later": cafe.encode("latin-1") + filler + cafe.replace("Caf\xe9", "O\u2019Brien")
        .encode("cp1252"),
        "utf8-declared-latin1": b"% charset=UTF-8\n" + filler + cafe.encode("latin-1"),
        "tricky": tricky_file(),
    }
    paths = [tmp_path / f"{name}.pbn" for name in files]
    for path, data in zip(paths, files.values()):
        path.write_bytes(data)
    if CORPUS.is_dir():
        paths += sorted(p for p in CORPUS.rglob("*") if p.suffix.lower() == ".pbn")
    names = set()
    for path in paths:
        reader = pbnkit.read(path)
        for _ in reader:
            pass
        assert file_encoding(str(path)) == reader.encoding, path
        names.add(reader.encoding)
    assert {"utf-8", "latin-1 (fallback)", "windows-1252 (fallback)"} <= names
