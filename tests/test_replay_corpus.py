"""The replay over the real files of the corpus (``CORPUS``): it never raises, files written by
careful programs replay cleanly, and findings checked by hand stay found."""

from __future__ import annotations

from collections import Counter

import pytest

import pbnkit
from pbnkit.rules.replay import check, check_strict
from tests.conftest import CORPUS, corpus_params

# Files with auctions and plays in which the replay finds nothing but nonstandard call
# spellings (AU009: 2N for 2NT) or unknown call tokens (AU010: 'AC' and 'XS').
CLEAN = {
    "richardschneider__pbn/test/sample/Schiphol.pbn",
    "timheilman__bridge-pbn/spec/resource/reference_impl_tests/correct_10.pbn",
    "timheilman__bridge-pbn/spec/resource/reference_impl_tests/correct_20.pbn",
    "jarekczek__pbntools/test/test_bbo_history_with_lins/history_expected.pbn",
    "jarekczek__pbntools/test/test_8_bbo_wronie_20130824/wronie_9533_pairs_2720_przyjaciele_wronia.pbn",
    "lorserker__ben/scripts/data/TableMonitor/training.pbn",
    "lorserker__ben/Boards/BBA/1S-2D.pbn",
    "lorserker__ben/Boards/Eamon/nov22_match_bad.pbn",
    "richardschneider__bridge/test/sample/AlsReg6-Final.pbn",
}
TOLERATED = {"AU009", "AU010"}

ERRORS_10 = "timheilman__bridge-pbn/spec/resource/reference_impl_tests/errors_10.pbn"
EXAMPLE_3 = "dominicprice__endplay/tests/pbn/example3.pbn"

# Findings checked by hand against the file (see the issue notes): (file, line, code).
HAND_CHECKED = [
    (ERRORS_10, 168, "AU007"),  # "- - 1D" from West: East calls first, North deals
    (ERRORS_10, 195, "AU001"),  # "- 1D 1C"
    (ERRORS_10, 204, "AU002"),  # "- 1D Pass X": South doubles partner
    (ERRORS_10, 214, "AU004"),  # "- 1D X Pass XX": West redoubles its own side's double
    (ERRORS_10, 258, "SC002"),  # Dealer S, "1C AP", Declarer N
    (ERRORS_10, 314, "SC001"),  # "1C X AP", Contract 1C
    (ERRORS_10, 328, "PL002"),  # South discards CA holding S2
    (ERRORS_10, 423, "PL003"),  # ^R D7 by North, void in spades
    (ERRORS_10, 450, "PL004"),  # ^L by West, the opening leader
    (ERRORS_10, 601, "AU012"),  # "1D ^I 1S"
    (ERRORS_10, 690, "SC003"),  # Result 4, declarer won the first 6 tricks
    (ERRORS_10, 934, "SC003"),  # Result 9, the 13 tricks give declarer 10
    (EXAMPLE_3, 15, "SC002"),   # rpbridge leaves out the passes before the opening bid
    (EXAMPLE_3, 199, "SC001"),  # "1NT Pass Pass X AP", Contract 1N
    (EXAMPLE_3, 377, "PL001"),  # a trick in W N E S columns under [Play "E"]
    (EXAMPLE_3, 22956, "SC003"),  # EW won 6 of 8 tricks, Result 8 for declarer
]


@pytest.mark.slow
@pytest.mark.parametrize("row", corpus_params())
def test_replay_never_raises_on_real_files(row):
    codes: Counter[str] = Counter()
    for game in pbnkit.read(CORPUS / row["path"]):
        codes.update(d.code for d in check(game) + check_strict(game))
    if row["path"] in CLEAN:
        assert set(codes) - TOLERATED - {c for c in codes if c[2] == "1"} == set(), codes


def _findings(path: str) -> set[tuple[int, str]]:
    return {(d.line, d.code) for game in pbnkit.read(CORPUS / path) for d in check(game)}


@pytest.mark.parametrize("path", sorted({path for path, _, _ in HAND_CHECKED}))
def test_hand_checked_findings_are_found(path):
    if not (CORPUS / path).is_file():
        pytest.skip("../shared/corpus is absent")
    found = _findings(path)
    for expected_path, line, code in HAND_CHECKED:
        if expected_path == path:
            assert (line, code) in found
