"""Note references (``=n=``) and Note tags of the auction (``AU``) and of the play (``PL``).

Each section numbers its notes on its own: auction notes follow the calls inside the
auction section, play notes follow the cards inside the play section (PBN 3.5.4-3.5.5,
3.6.4-3.6.5). A reference is resolved only against the Note tags of its own section.
"""

from __future__ import annotations

import re

from pbnkit.diagnostics import Diagnostic
from pbnkit.digits import whole_number
from pbnkit.pbn.records import Game, TagPair
from pbnkit.pbn.sections import Section

#: each section's codes: a reference to no note, a note of no reference, an index out of range
_CODES = {"AU": ("AU016", "AU017", "AU018"), "PL": ("PL016", "PL017", "PL018")}

_NOTE_VALUE = re.compile(r"\s*(\d+)\s*:(.*)", re.DOTALL)


def note_index(note: TagPair) -> int | None:
    """The index of a Note tag written ``<n>:<text>``; None for any other value."""
    match = _NOTE_VALUE.match(note.value)
    return None if match is None else whole_number(match[1])


def check_notes(game: Game, section: Section, family: str) -> list[Diagnostic]:
    """Check the references of one section against the Note tags that follow it."""
    found: list[Diagnostic] = []
    missing, unused, out_of_range = _CODES[family]

    def report(code: str, message: str, line: int, column: int) -> None:
        found.append(Diagnostic(code, message, line, column, game.path, game.board))

    # A Note value that is not '<n>:<text>', or a second Note of an index, is the tag
    # checks' finding (TG013, TG001); here such a Note simply explains nothing.
    defined: dict[int, tuple[int, int]] = {}
    for note in section.notes:
        index = note_index(note)
        if index is None:
            continue
        if not 1 <= index <= 32:
            report(out_of_range, f"Note index {index} outside 1-32", note.line, note.column)
        else:
            defined.setdefault(index, (note.line, note.column))
    used = set()
    for item in section.items:
        if item.note is None:
            continue
        used.add(item.note)
        if not 1 <= item.note <= 32:
            report(out_of_range, f"note reference ={item.note}= outside 1-32", item.line,
                   item.column)
        elif item.note not in defined:
            report(missing, f"{item.text} refers to note {item.note}, which has no Note tag in "
                   f"the {section.tag.name} section", item.line, item.column)
    for index, (line, column) in defined.items():
        if index not in used:
            report(unused, f"Note {index} is not referred to in the {section.tag.name} section",
                   line, column)
    return found
