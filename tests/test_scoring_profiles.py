"""The profile registry and the choice of profile from the Scoring tag: docs/scoring.md."""

from __future__ import annotations

import pytest

from pbnkit.model import Contract, Seat
from pbnkit.scoring import (
    PROFILES,
    BoardResult,
    UnknownProfileError,
    find_profile,
    profile_for_scoring,
    unknown_scoring,
)


def test_four_profiles_are_registered_by_name() -> None:
    assert list(PROFILES) == ["duplicate", "rubber", "chicago", "auction-1920"]
    for name, profile in PROFILES.items():
        assert find_profile(name) is profile
        assert profile.name == name
        assert profile.description


def test_unknown_profile_is_a_value_error_listing_the_known_names() -> None:
    with pytest.raises(UnknownProfileError) as raised:
        find_profile("cavendish")
    assert isinstance(raised.value, ValueError)
    assert raised.value.known == ("duplicate", "rubber", "chicago", "auction-1920")
    assert "duplicate, rubber, chicago, auction-1920" in str(raised.value)


@pytest.mark.parametrize(("tag", "profile"), [
    ("Rubber", "rubber"),
    ("Chicago", "chicago"),  # docs/scoring.md: its own profile
    ("IMP", "duplicate"),
    ("MP", "duplicate"),
    ("MatchPoints", "duplicate"),
    ("BAM", "duplicate"),
    ("Butler", "duplicate"),
    ("IMP;Butler", "duplicate"),
    ("IMP;Cross", "duplicate"),
    ("Cross1", "duplicate"),
    ("Instant", "duplicate"),
    ("MP;MP2", "duplicate"),
    ("Auction1920", "auction-1920"),
    ("OldMP;Rubber", "rubber"),  # modifiers name no system; the system field decides
    (None, "duplicate"),
    ("?", "duplicate"),
    ("", "duplicate"),
    ("Cavendish", "duplicate"),  # no system pbnkit knows: the default
])
def test_scoring_tag_selects_the_profile(tag: str | None, profile: str) -> None:
    assert profile_for_scoring(tag) == profile


def test_scoring_keywords_ignore_case_and_blanks() -> None:
    assert profile_for_scoring(" rubber ") == "rubber"
    assert profile_for_scoring("MP1; auction1920") == "auction-1920"


def test_each_profile_fills_what_applies_to_it() -> None:
    results = [BoardResult(0, "1", Seat.N, Contract.from_pbn("4S"), 10)]
    duplicate = find_profile("duplicate").score(results)
    assert (duplicate.profile, duplicate.rubbers, duplicate.matches) == ("duplicate", None, ())
    for name in ("rubber", "chicago", "auction-1920"):
        sheet = find_profile(name).score(results)
        assert (sheet.profile, sheet.matches) == (name, None)
        assert sheet.rubbers is not None and len(sheet.rubbers) == 1
        assert [b.index for b in sheet.boards] == [0]


@pytest.mark.parametrize(("tag", "word"), [
    ("Auction 1920", "Auction 1920"),  # misspelt: docs/scoring.md, scored as duplicate
    ("Cavendish", "Cavendish"),  # a PBN system pbnkit does not score
    ("MP2;Contract", "Contract"),  # a known modifier is not the word that failed
    ("OldMP", "OldMP"),  # modifiers only: the whole value is named
])
def test_a_scoring_tag_naming_no_system_is_not_understood(tag: str, word: str) -> None:
    assert profile_for_scoring(tag) == "duplicate"
    assert unknown_scoring(tag) == word


@pytest.mark.parametrize("tag", [None, "", "?", "IMP", "OldMP;Rubber", "Chicago", "Cross2",
                                 "auction1920"])
def test_a_scoring_tag_naming_a_system_or_nothing_is_understood(tag: str | None) -> None:
    assert unknown_scoring(tag) is None
