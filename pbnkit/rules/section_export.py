"""Export-format layout of the auction and play sections (PBN 9, items 10-11).

Import format allows any layout, case, suffixes and annotation order; export format is
canonical: four calls or cards to a line (fewer only when annotations make a line long),
uppercase tokens, suffixes converted to NAGs, and after each call or card the note
reference first, then the NAGs in ascending order.
"""

from __future__ import annotations

import re
from itertools import groupby

from pbnkit.diagnostics import Diagnostic
from pbnkit.pbn.records import ElementKind, Game
from pbnkit.pbn.sections import Section, SectionItem
from pbnkit.replay.auction import read_call

#: each section's codes: four to a line, a suffix, the case, the order of the annotations
_CODES = {"AU": ("AU102", "AU103", "AU104", "AU105"), "PL": ("PL102", "PL103", "PL104", "PL105")}

_PART = re.compile(r"=[0-9]+=|\$[0-9]+|[!?]{1,2}|\^.?|[*+]|[A-Za-z0-9]+|-|.")
_SPECIAL_CALLS = ("AP", "-", "^S", "*", "+")


def check_layout(game: Game, section: Section, family: str) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    per_line, suffix, case, order = _CODES[family]

    def report(code: str, message: str, item: SectionItem | tuple[int, int]) -> None:
        line, column = (item.line, item.column) if isinstance(item, SectionItem) else item
        found.append(Diagnostic(code, message, line, column, game.path, game.board))

    things = "calls" if family == "AU" else "cards"
    lines = [list(group) for _, group in groupby(
        (item for item in section.items if item.text != "*"), key=lambda item: item.line)]
    for number, line in enumerate(lines):
        annotated = any(item.note is not None or item.nags or item.suffix or item.comments
                        for item in line)
        last = number == len(lines) - 1
        if len(line) > 4 or (len(line) < 4 and not last and not annotated):
            report(per_line, f"{len(line)} {things} on a line; export format writes 4", line[0])
    # Case is a property of the whole section's writer: one finding, not one per token.
    lowercase = [item for item in section.items if _lowercase(item.text, family)]
    if lowercase:
        more = f" and {len(lowercase) - 1} more" if len(lowercase) > 1 else ""
        report(case, f"{lowercase[0].text!r}{more} not in export form (uppercase)", lowercase[0])
    for item in section.items:
        if item.suffix is not None:
            report(suffix, f"suffix {item.suffix} after {item.text}; export format writes a NAG",
                   item)
        if list(item.nags) != sorted(item.nags):
            report(order, f"NAGs after {item.text} not in ascending order", item)
    for position in _notes_after_nags(section):
        report(order, "note reference after a NAG; export format writes the note first",
               position)
    return found


def _lowercase(text: str, family: str) -> bool:
    if family == "PL":
        return text != text.upper()
    if text.upper() in _SPECIAL_CALLS:
        return text != text.upper()
    call, standard = read_call(text)
    return call is not None and standard and call.pbn() != text


def _notes_after_nags(section: Section) -> list[tuple[int, int]]:
    """Positions of note references that follow a NAG of the same call or card."""
    found = []
    nag_seen = False
    tokens = (token for element in section.tag.body
              if element.kind in (ElementKind.TOKENS, ElementKind.TOKEN)
              for token in element.split())
    for token in tokens:
        for part in _PART.finditer(token.text):
            text = part[0]
            if text.startswith("$"):
                nag_seen = True
            elif text.startswith("=") and len(text) > 1:
                if nag_seen:
                    found.append((token.line, token.column + part.start()))
            elif text[0].isalnum() or text in ("-", "*", "+"):
                nag_seen = False
    return found
