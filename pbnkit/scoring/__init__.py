"""Scoring profiles, registered by name: ``duplicate``, ``rubber``, ``chicago`` and
``auction-1920``.

Pure computation: a profile scores a sequence of :class:`BoardResult` values (built by the
reader) into a :class:`ScoreSheet` (written by the exporters).

>>> find_profile(profile_for_scoring("IMP;Butler")).name
'duplicate'
"""

from __future__ import annotations

from pbnkit.scoring.auction1920 import Auction1920Profile
from pbnkit.scoring.base import (
    ROUNDING_NOTE,
    BoardResult,
    BoardScore,
    Entry,
    Hands,
    Line,
    Match,
    MatchBoard,
    MatchKey,
    Problem,
    Profile,
    Reason,
    Rubber,
    RubberDeal,
    ScoreSheet,
    UnknownProfileError,
)
from pbnkit.scoring.duplicate import (
    DuplicateProfile,
    MatchpointScale,
    ScoreField,
    duplicate_score,
    imps,
    matchpoints,
    score_ns,
    team_matches,
)
from pbnkit.scoring.chicago import ChicagoProfile
from pbnkit.scoring.rubber import RubberProfile

PROFILES: dict[str, Profile] = {
    profile.name: profile
    for profile in (DuplicateProfile(), RubberProfile(), ChicagoProfile(), Auction1920Profile())
}

#: The profile chosen when the Scoring tag names no system pbnkit knows.
DEFAULT_PROFILE = "duplicate"

# Scoring keywords (PBN 2.1 section 3.4.12, and pbnkit's own Auction1920 and Chicago;
# docs/scoring.md, "Choosing the profile"), compared without case.
_KEYWORDS = {
    "rubber": "rubber",
    "chicago": "chicago",
    "auction1920": "auction-1920",
    "imp": "duplicate",
    "mp": "duplicate",
    "matchpoints": "duplicate",
    "bam": "duplicate",
    "butler": "duplicate",
    "instant": "duplicate",
}


def find_profile(name: str) -> Profile:
    """The profile registered under ``name``."""
    try:
        return PROFILES[name]
    except KeyError:
        raise UnknownProfileError(name, list(PROFILES)) from None


def profile_for_scoring(value: str | None) -> str:
    """The profile name a PBN ``Scoring`` tag selects.

    The tag is a ``;``-separated list; its first field that names a known system decides.
    No tag, ``"?"``, ``""`` or only unknown keywords give ``duplicate`` (and
    :func:`unknown_scoring` says which keywords were not understood).
    """
    for keyword in (value or "").split(";"):
        system = _system(keyword)
        if system is not None:
            return system
    return DEFAULT_PROFILE


def unknown_scoring(value: str | None) -> str | None:
    """The part of a Scoring tag that was not understood, when the tag names no scoring
    system and so falls back to ``duplicate`` (docs/scoring.md); None when it names a
    system, or is empty, ``"?"`` or absent.

    >>> unknown_scoring("Auction 1920")
    'Auction 1920'
    >>> unknown_scoring("OldMP;Rubber") is None
    True
    """
    fields = [keyword.strip() for keyword in (value or "").split(";")]
    fields = [keyword for keyword in fields if keyword and keyword != "?"]
    if not fields or any(_system(keyword) is not None for keyword in fields):
        return None
    # Name the fields that are not even known modifiers (a misspelt system); a tag of
    # modifiers only is named whole.
    strange = [keyword for keyword in fields if keyword.lower() not in _MODIFIERS]
    return ";".join(strange or fields)


def _system(keyword: str) -> str | None:
    keyword = keyword.strip().lower()
    if keyword.startswith("cross"):
        return "duplicate"
    return _KEYWORDS.get(keyword)


#: PBN's Scoring modifiers (lower case): they qualify a system and name none.
_MODIFIERS = frozenset({
    "butler-2", "experts", "mean", "median", "mp1", "mp2", "oldmp", "mitchell2",
    "mitchell3", "mitchell4", "ascherman", "bastille", "emp", "imp_1948", "imp_1961",
})


__all__ = [
    "DEFAULT_PROFILE", "PROFILES", "ROUNDING_NOTE", "Auction1920Profile", "BoardResult",
    "BoardScore", "ChicagoProfile", "DuplicateProfile", "Entry", "Hands", "Line", "Match",
    "MatchBoard", "MatchKey", "MatchpointScale", "Problem", "Profile", "Reason", "Rubber",
    "RubberDeal", "RubberProfile", "ScoreField", "ScoreSheet", "UnknownProfileError", "duplicate_score",
    "find_profile", "imps", "matchpoints", "profile_for_scoring", "score_ns", "team_matches",
    "unknown_scoring",
]
