"""Scoring profiles, registered by name: ``duplicate``, ``rubber`` and ``auction-1920``.

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
from pbnkit.scoring.rubber import RubberProfile

PROFILES: dict[str, Profile] = {
    profile.name: profile
    for profile in (DuplicateProfile(), RubberProfile(), Auction1920Profile())
}

#: The profile chosen when the Scoring tag names no system pbnkit knows.
DEFAULT_PROFILE = "duplicate"

# Scoring keywords (RULES.md section 5), compared without case. Chicago is scored as rubber:
# its four-deal variant is not implemented.
_KEYWORDS = {
    "rubber": "rubber",
    "chicago": "rubber",
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
    No tag, ``"?"``, ``""`` or only unknown keywords give ``duplicate``.
    """
    for keyword in (value or "").split(";"):
        keyword = keyword.strip().lower()
        if keyword in _KEYWORDS:
            return _KEYWORDS[keyword]
        if keyword.startswith("cross"):
            return "duplicate"
    return DEFAULT_PROFILE


__all__ = [
    "DEFAULT_PROFILE", "PROFILES", "ROUNDING_NOTE", "Auction1920Profile", "BoardResult",
    "BoardScore", "DuplicateProfile", "Entry", "Hands", "Line", "Match", "MatchBoard",
    "MatchKey", "MatchpointScale", "Problem", "Profile", "Reason", "Rubber", "RubberDeal",
    "RubberProfile", "ScoreField", "ScoreSheet", "UnknownProfileError", "duplicate_score",
    "find_profile", "imps", "matchpoints", "profile_for_scoring", "score_ns", "team_matches",
]
