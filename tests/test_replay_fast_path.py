"""The fast path for clean records (pbnkit.replay.clean) never changes an answer: every
game it decides, it answers as the full replay does (so the checks and facts built on
that answer are the same too), on the real files, on generated files, on corrupted copies
and on random mutations."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pbnkit
from pbnkit.pbn.records import Game
from pbnkit.replay.clean import replay_clean
from pbnkit.replay.game import full_replay
from tests.conftest import CORPUS, REPO, corpus_params


def assert_same_both_ways(games: list[Game]) -> int:
    """The fast path answers every game it decides as the full replay does; returns how
    many it decided. The checks, the strict checks and the facts read nothing of the
    replay but this answer, so they cannot differ either."""
    decided = 0
    for game in games:
        clean = replay_clean(game)
        if clean is not None:
            full = full_replay(game)
            assert (clean, clean.declarer_tricks) == (full, full.declarer_tricks), (
                game.path, game.line)
            decided += 1
    return decided


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("generated")
    for seed in (1, 2, 3):
        subprocess.run([sys.executable, str(REPO / "benchmarks" / "generate.py"), "150", "-o",
                        str(directory / f"boards{seed}.pbn"), "--seed", str(seed)], check=True,
                       capture_output=True)
    return directory


@pytest.mark.slow
@pytest.mark.parametrize("row", corpus_params())
def test_fast_path_changes_nothing_on_real_files(row):
    assert_same_both_ways(list(pbnkit.read(CORPUS / row["path"])))


def test_fast_path_changes_nothing_on_generated_files_and_decides_them_all(generated):
    for path in sorted(generated.glob("*.pbn")):
        games = list(pbnkit.read(path))
        assert assert_same_both_ways(games) == len(games) == 150


def _play_rows(text: str) -> tuple[str, list[list[str]]]:
    """The text before the card rows of a game, and the rows' words."""
    start = text.index("\n", text.index("[Play ")) + 1
    return text[:start], [row.split(" ") for row in text[start:].split("\n")]


def swap_two_cards(text: str, rng: random.Random) -> str:
    head, rows = _play_rows(text)
    places = [(r, c) for r, row in enumerate(rows) for c, word in enumerate(row) if word]
    (r1, c1), (r2, c2) = rng.sample(places, 2)
    rows[r1][c1], rows[r2][c2] = rows[r2][c2], rows[r1][c1]
    return head + "\n".join(" ".join(row) for row in rows)


def change_result(text: str, rng: random.Random) -> str:
    return re.sub(r'\[Result "(\d+)"\]',
                  lambda m: f'[Result "{(int(m[1]) + rng.randint(1, 12)) % 14}"]', text)


def drop_declarer(text: str, rng: random.Random) -> str:
    return re.sub(r'\[Declarer "[NESW]"\]\n', "", text)


def add_note_reference(text: str, rng: random.Random) -> str:
    head, rows = _play_rows(text)
    rows[0][0] += f" ={rng.randint(1, 3)}="
    return head + "\n".join(" ".join(row) for row in rows)


def drop_note_tags(text: str, rng: random.Random) -> str:
    return re.sub(r'\[Note "[^"]*"\]\n', "", text)


def unknown_card(text: str, rng: random.Random) -> str:
    head, rows = _play_rows(text)
    places = [(r, c) for r, row in enumerate(rows) for c, word in enumerate(row) if word]
    row, column = rng.choice(places)
    rows[row][column] = "-"
    return head + "\n".join(" ".join(row) for row in rows)


def claim(text: str, rng: random.Random) -> str:
    head, rows = _play_rows(text)
    return head + "\n".join([" ".join(row) for row in rows[:rng.randint(0, 12)]] + ["*", ""])


def rotate_play_seat(text: str, rng: random.Random) -> str:
    return re.sub(r'\[Play "([NESW])"\]', lambda m: f'[Play "{"NESW"["NESW".index(m[1]) - 1]}"]',
                  text)


def short_pass(text: str, rng: random.Random) -> str:
    return re.sub(r"\bPass\b", rng.choice(["P", "pass", "AP", "-"]), text, count=1)


def change_contract(text: str, rng: random.Random) -> str:
    return re.sub(r'\[Contract "([1-7])', lambda m: f'[Contract "{int(m[1]) % 7 + 1}', text)


CORRUPTIONS: list[Callable[[str, random.Random], str]] = [
    swap_two_cards, change_result, drop_declarer, add_note_reference, drop_note_tags,
    unknown_card, claim, rotate_play_seat, short_pass, change_contract,
]


def board_texts(path: Path) -> list[str]:
    text = path.read_text(encoding="ascii").replace("\r\n", "\n")
    return [board + "\n" for board in text.split("\n\n") if "[Play " in board]


@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=lambda f: f.__name__)
def test_fast_path_changes_nothing_on_corrupted_copies(generated, corrupt):
    rng = random.Random(corrupt.__name__)
    texts = board_texts(generated / "boards1.pbn")[:80]
    games = pbnkit.read_text("\n".join(corrupt(text, rng) for text in texts))
    assert len(games) == len(texts)
    assert_same_both_ways(games)


# Random mutations: any token of a section replaced, removed or added, and tag values
# changed, from a vocabulary of the forms the fast path must refuse or get right.
TOKENS = ["SA", "s2", "HT", "D9", "CK", "-", "*", "+", "=1=", "=2=", "=33=", "^R", "^L",
          "^I", "^S", "AP", "Pass", "P", "X", "XX", "1N", "1NT", "2C", "7NT", "$3", "!",
          "{c}", "S10", "1S=1="]
TAGS = {
    "Contract": ["", "?", "Pass", "3NT", "4S", "4SX", "1N", "S"],
    "Declarer": ["", "N", "E", "S", "W", "^S", "X"],
    "Result": ["", "0", "9", "13", "14", "^9", "NS 9", "EW 4 NS 9"],
    "Dealer": ["", "N", "E", "s", "W", "?"],
    "Auction": ["", "N", "E", "S", "W", "?"],
    "Play": ["", "N", "E", "S", "W", "x"],
    "Deal": ["", "?", "N:- - - -", "N:AKQJT98765432... - - -"],
    "Note": ["1:alert", "2:x", "40:x", "text"],
}


def mutate(text: str, data: st.DataObject) -> str:
    lines = text.split("\n")
    for _ in range(data.draw(st.integers(1, 3))):
        index = data.draw(st.integers(0, len(lines) - 1))
        line = lines[index]
        tag = re.fullmatch(r'\[(\w+) "(.*)"\]', line)
        if tag is not None and tag[1] in TAGS:
            choice = data.draw(st.sampled_from(TAGS[tag[1]] + [None]))
            lines[index] = "" if choice is None else f'[{tag[1]} "{choice}"]'
        elif tag is None and line:
            words = line.split(" ")
            at = data.draw(st.integers(0, len(words) - 1))
            action = data.draw(st.sampled_from(["replace", "remove", "insert", "swap"]))
            token = data.draw(st.sampled_from(TOKENS))
            if action == "replace":
                words[at] = token
            elif action == "remove":
                del words[at]
            elif action == "insert":
                words.insert(at, token)
            else:
                other = data.draw(st.integers(0, len(words) - 1))
                words[at], words[other] = words[other], words[at]
            lines[index] = " ".join(words)
    return "\n".join(line for line in lines if line)


_GENERATED: dict[str, list[str]] = {}


def generated_texts() -> list[str]:
    if not _GENERATED:
        from benchmarks.generate import generate  # noqa: PLC0415  (only this test needs it)
        text = "\n".join(generate(60, 11))
        _GENERATED["texts"] = [board + "\n" for board in text.split("\n\n")]
    return _GENERATED["texts"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fast_path_changes_nothing_on_mutated_records(data):
    texts = generated_texts()
    text = texts[data.draw(st.integers(0, len(texts) - 1))]
    assert_same_both_ways(pbnkit.read_text(mutate(text, data)))


@pytest.mark.parametrize(("written", "unusual"), [
    (" Pass", " P"),            # AU009: read as meant, but a warning
    (" Pass", " Pass !"),       # a suffix
    (" Pass", " Pass $1"),      # a NAG
    (" Pass", " Pass {why}"),   # commentary
    ('[Play "', '[Play "\n'),   # no change: the control case, decided
])
def test_annotations_and_odd_spellings_are_left_to_the_full_replay(generated, written, unusual):
    text = board_texts(generated / "boards2.pbn")[0]
    auction = text.index("[Auction ")
    (game,) = pbnkit.read_text(text[:auction] + text[auction:].replace(written, unusual, 1))
    decided = replay_clean(game) is not None
    assert decided == (written.startswith("[Play"))
    assert_same_both_ways([game])
