"""What a LIN record's keys alone decide (pbnkit.lin.records.shape_of), found in one pass,
against the rules written out one by one, as the reader applied them before."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pbnkit.lin.records import FILE_KEYS, KNOWN_KEYS, shape_of

# Keys in lower case, as Pairs.names holds them: the common ones, each that makes a tag or
# holds for the file, one BBO uses that makes nothing (st, rh, nt), and unknown ones.
_NAMES = st.sampled_from(["pc", "pc", "mb", "mb", "an", "pg", "mc", "md", "pn", "qx", "ah",
                          "sv", "vg", "rs", "st", "rh", "nt", "zz", "x1", "q"])


@given(st.lists(_NAMES, max_size=60))
def test_shape_is_what_the_keys_say(names):
    shape = shape_of(names)
    cards_from = names.index("pc") if "pc" in names else len(names)
    odd = not KNOWN_KEYS.issuperset(names) or "an" in names[cards_from:]
    assert shape.odd is odd
    assert shape.bidding == ([] if odd else
                             [at for at, name in enumerate(names) if name in ("mb", "an")])
    assert shape.cards == [at for at, name in enumerate(names) if name == "pc"]
    assert shape.claim == (names.index("mc") if "mc" in names else None)
    assert shape.file_pairs == [at for at, name in enumerate(names) if name in FILE_KEYS]
    assert shape.named == {name: names.index(name) for name in names
                           if name in ("qx", "ah", "pn", "md", "sv", "mc")}


def test_a_board_as_bbo_writes_it():
    names = ["pn", "st", "md", "rh", "ah", "sv", "mb", "mb", "an", "mb", "mb", "mb", "pg",
             "pc", "pc", "pc", "pc", "pg", "pc", "mc"]
    shape = shape_of(names)
    assert (shape.odd, shape.bidding, shape.cards, shape.claim) == (
        False, [6, 7, 8, 9, 10, 11], [13, 14, 15, 16, 18], 19)
    assert shape.named == {"pn": 0, "md": 2, "ah": 4, "sv": 5, "mc": 19}
    assert shape.file_pairs == []


def test_an_explanation_after_the_first_card_makes_the_record_odd():
    shape = shape_of(["md", "mb", "pc", "an", "pc"])
    assert shape.odd and shape.bidding == [] and shape.cards == [2, 4]
