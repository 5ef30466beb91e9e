"""The compact form of a plain record for the file-level score checks (see
:func:`pbnkit.rules.scores.compact`): a worker sends thousands of them per unit."""

from __future__ import annotations

from dataclasses import dataclass

from pbnkit.diagnostics import Diagnostic
from pbnkit.pickling import by_fields
from pbnkit.scoring.pairs import FieldKey


@by_fields
@dataclass(frozen=True, slots=True)
class PlainRecord:
    """All that the duplicate profile's checks need of a plain record (one without a
    Room, pairs, ScoreTable results, TotalScoreTable, figures noted as unchecked or a
    stated ScoreIMP, ScoreMP or ScorePercentage): its Score tag's findings, made where
    the record was read, and its N-S score in the board's field. Rubber profiles need
    the whole record: the records are then read again (``pbnkit.rules.unit_scores``)."""

    index: int  # the record's ``BoardResult.index``, which tells its full record
    line: int  # the first line of its game
    scoring_tag: str | None
    field: FieldKey | None  # the board's field, when the record has a score
    ns: int | None
    found: tuple[Diagnostic, ...] = ()
