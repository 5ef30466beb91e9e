"""The file-level score checks of a file read in units by workers, which send most of
their records compacted (:class:`~pbnkit.rules.plain_records.PlainRecord`).

A worker cannot know the profile a file is checked under when its first Scoring tag is
in another unit: it compacts unless its own first Scoring tag names a rubber profile, and
the parent, which sees the units in file order, reads again the few units it needs whole
(a file whose first Scoring tag names a rubber profile while a later unit has none, or a
duplicate one). The findings are the same either way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from pbnkit.pbn.records import Game
from pbnkit.rules.plain_records import PlainRecord
from pbnkit.rules.scores import AnyRecord, ScoreChecks, ScoreRecord, compact, score_record
from pbnkit.scoring import DEFAULT_PROFILE, profile_for_scoring

#: reads a unit's games again, for its full records
Reread = Callable[[], Iterable[Game]]


def first_scoring(records: Iterable[ScoreRecord | None]) -> str | None:
    """The first Scoring tag among a unit's records: the one that decides the file's
    profile, when no unit before holds one."""
    return next((r.scoring_tag for r in records if r is not None and r.scoring_tag), None)


def compacted(records: Sequence[ScoreRecord | None]) -> list[AnyRecord | None]:
    """A unit's records as a worker sends them: the plain ones compacted, unless the
    unit's own first Scoring tag names a rubber profile."""
    scoring = first_scoring(records)
    if scoring is not None and profile_for_scoring(scoring) != DEFAULT_PROFILE:
        return list(records)
    return [None if r is None else compact(r) for r in records]


class UnitScores:
    """A file's :class:`ScoreChecks`, fed unit by unit in file order."""

    def __init__(self, checks: ScoreChecks | None = None) -> None:
        self.checks = checks or ScoreChecks()
        #: the units whose plain records wait, with the profile not decided yet
        self._waiting: list[Reread] = []

    def take(self, records: list[AnyRecord | None], scoring: str | None,
             reread: Reread) -> list[AnyRecord | None]:
        """The records of the file's next unit (with its first Scoring tag) as
        :meth:`ScoreChecks.add_record` must take them: plain ones only where the file's
        profile is duplicate or still open."""
        after = self.checks.profile_after(scoring)
        plain = any(isinstance(r, PlainRecord) for r in records)
        if after is None:  # not decided yet: the plain records wait in the checks
            if plain:
                self._waiting.append(reread)
            return records
        if after == DEFAULT_PROFILE:
            self._waiting.clear()
            return records
        if self._waiting:
            self.checks.restore_pending(_full_records(self._waiting))
            self._waiting.clear()
        if not plain:
            return records
        full = _full_records([reread])
        return [full[r.index] if isinstance(r, PlainRecord) else r for r in records]


def _full_records(units: Iterable[Reread]) -> dict[int, ScoreRecord]:
    full: dict[int, ScoreRecord] = {}
    for reread in units:
        for game in reread():
            try:
                record, _ = score_record(game)
            except Exception:  # noqa: BLE001 -- reported as the game's failure already
                continue
            full[record.result.index] = record
    return full
