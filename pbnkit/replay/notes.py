"""Note references (``=n=``) and Note tags of the auction (``AU``) and of the play (``PL``).

Each section numbers its notes on its own: auction notes follow the calls inside the
auction section, play notes follow the cards inside the play section (PBN 3.5.4-3.5.5,
3.6.4-3.6.5). A reference is resolved only against the Note tags of its own section.
"""

from __future__ import annotations

import re

from pbnkit.diagnostics import Code, Diagnostic, Severity, register
from pbnkit.pbn.records import Game, TagPair
from pbnkit.pbn.sections import Section

E, W = Severity.ERROR, Severity.WARNING


def _codes(family: str, section: str, things: str) -> tuple[Code, ...]:
    where = f"after the {things} of the {section} section"
    return (
        Code(f"{family}016", "missing-note", E, f"A note reference in the {section} with no "
             f"Note tag of that index in the {section} section.",
             f"A reference =n= is explained by [Note \"n:...\"] {where}; {section} notes are "
             "numbered separately from the others (PBN 3.5.5, 3.6.5).",
             "1NT =1= with no [Note \"1:...\"] after the calls", "Add the Note tag."),
        Code(f"{family}017", "unused-note", W, f"A Note tag of the {section} section that no "
             f"{things[:-1]} refers to.", "The verifier reports it as 'Unused note'.",
             '[Note "2:..."] and no =2=', "Remove the Note or add the reference."),
        Code(f"{family}018", "note-index-out-of-range", E, "A note index outside 1-32.",
             "Note references =n= and Note tags '<n>:<text>' use indices 1 to 32 "
             "(PBN 3.5.4); the verifier reports 'Bad note'.", "=40=",
             "Renumber the note from 1."),
    )


NOTES = register(*_codes("AU", "auction", "calls"), *_codes("PL", "play", "cards"))

_NOTE_VALUE = re.compile(r"\s*(\d+)\s*:(.*)", re.DOTALL)


def note_index(note: TagPair) -> int | None:
    """The index of a Note tag written ``<n>:<text>``; None for any other value."""
    match = _NOTE_VALUE.match(note.value)
    return None if match is None else int(match[1])


def check_notes(game: Game, section: Section, family: str) -> list[Diagnostic]:
    """Check the references of one section against the Note tags that follow it."""
    found: list[Diagnostic] = []

    def report(code: str, message: str, line: int, column: int) -> None:
        found.append(Diagnostic(f"{family}{code}", message, line, column, game.path, game.board))

    # A Note value that is not '<n>:<text>', or a second Note of an index, is the tag
    # checks' finding (TG013, TG001); here such a Note simply explains nothing.
    defined: dict[int, tuple[int, int]] = {}
    for note in section.notes:
        index = note_index(note)
        if index is None:
            continue
        if not 1 <= index <= 32:
            report("018", f"Note index {index} outside 1-32", note.line, note.column)
        else:
            defined.setdefault(index, (note.line, note.column))
    used = set()
    for item in section.items:
        if item.note is None:
            continue
        used.add(item.note)
        if not 1 <= item.note <= 32:
            report("018", f"note reference ={item.note}= outside 1-32", item.line, item.column)
        elif item.note not in defined:
            report("016", f"{item.text} refers to note {item.note}, which has no Note tag in "
                   f"the {section.tag.name} section", item.line, item.column)
    for index, (line, column) in defined.items():
        if index not in used:
            report("017", f"Note {index} is not referred to in the {section.tag.name} section",
                   line, column)
    return found
