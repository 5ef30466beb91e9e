"""Export format on real files: what the export writes reads back with the same calls,
cards, annotations and tag values (normalised as PBN 2.1 export format asks), the same
commentary, skipped text and tables, and exporting the export changes nothing."""

from __future__ import annotations

import pytest

import pbnkit
from pbnkit.errors import PbnError
from pbnkit.export.canonical import export_form
from pbnkit.export.rows import _result
from pbnkit.model import Contract, Deal, Seat, Strain, Vulnerability
from pbnkit.pbn.records import ElementKind
from pbnkit.pbn.sections import section
from pbnkit.pbn.tables import TABLES, read_table
from pbnkit.pbn.writer import dumps
from tests.conftest import CORPUS, corpus_params

pytestmark = pytest.mark.usefixtures("fewer_collections")

SUFFIX_NAGS = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}


def parsed(name: str, value: str):
    """The meaning of a value, where the model can tell it; else the text."""
    value = value.replace("\t", " ")
    try:
        if name in ("Dealer", "Declarer"):
            return value.startswith("^"), Seat.from_pbn(value.lstrip("^"))
        if name == "Vulnerable":
            return Vulnerability.from_pbn(value)
        if name == "Deal":
            deal = Deal.from_pbn(value)
            return tuple(None if h is None else sorted(h.cards) for h in deal.hands)
        if name == "Contract":
            try:
                return Contract.from_pbn(value)
            except PbnError:
                return Strain.from_pbn(value)
    except PbnError:
        pass
    return value


def plays(game, name: str) -> dict:
    """(trick or call number, seat) → token and annotations, placeholders left out."""
    found = section(game, name)
    if found is None:
        return {}
    value = found.tag.value.strip().upper()
    seat = Seat.from_pbn(value) if value in ("N", "E", "S", "W") else None
    out = {}
    position = 0
    for item in found.items:
        if item.text == "*":
            out["*"] = True
            continue
        token = item.text.upper()
        token = {"P": "PASS", "PASS": "PASS"}.get(token, token)
        offset = 4 if name == "Play" else 1
        key = (position // offset, None if seat is None else seat.next(position))
        nags = set(item.nags) | ({SUFFIX_NAGS[item.suffix] + (6 if name == "Play" else 0)}
                                 if item.suffix else set())
        if not (token == "-" and not nags and item.note is None and not item.comments):
            out[key] = (token, item.irregularity, item.note, sorted(nags), item.comments)
        position += 1
    if name == "Auction":  # leading placeholders may be dropped: number calls from the first
        keys = sorted(k for k in out if k != "*")
        start = keys[0][0] if keys else 0
        out = {(k if k == "*" else (k[0] - start, k[1])): v for k, v in out.items()}
    return out


def texts(game, *kinds: ElementKind) -> list[str]:
    """Texts of the game's elements of those kinds, tabs as export writes them, sorted
    (export moves commentary to its tag or call)."""
    found = [e.text for e in game.preamble if e.kind in kinds]
    found += [e.text for tag in game.tags for e in tag.body if e.kind in kinds]
    return sorted(text.replace("\t", " ") for text in found)


def tables(game) -> dict:
    """Columns and rows of each PBN table (the first tag of each name)."""
    found = {}
    for tag in game.tags:
        if tag.name in TABLES and tag.name not in found:
            table = read_table(tag, game.value(tag.name))
            found[tag.name] = ([c.pbn() for c in table.columns], table.rows)
    return found


@pytest.mark.slow
@pytest.mark.parametrize("row", corpus_params())
def test_export_format_reads_back_with_the_same_calls_cards_and_values(row):
    original = list(pbnkit.read(CORPUS / row["path"]))
    text = dumps([export_form(g) for g in original], export_format=True)
    assert "\t" not in text and "\n" not in text.replace("\r\n", "")
    exported = pbnkit.read_text(text.replace("\r\n", "\n"))
    assert len(exported) == len(original)
    for before, after in zip(original, exported):
        for name, value in before.values.items():
            if name in ("Auction", "Play", "Note"):
                continue
            if name == "Result":
                declarer = (before.value("Declarer") or "").lstrip("^").upper() or None
                declarer = declarer if declarer in ("N", "E", "S", "W") else None
                expected = _result(value, declarer)
                got = _result(after.value(name), declarer)
                assert got == expected and (expected is not None or after.value(name) == value)
                continue
            assert parsed(name, after.value(name)) == parsed(name, value), (name, value)
        assert plays(after, "Auction") == plays(before, "Auction")
        assert plays(after, "Play") == plays(before, "Play")
        notes = [t.value for t in before.tags if t.name == "Note"]
        assert sorted(t.value for t in after.tags if t.name == "Note") == sorted(notes)
        comments = (ElementKind.COMMENT, ElementKind.LINE_COMMENT)
        assert texts(after, *comments) == texts(before, *comments)
        assert texts(after, ElementKind.SKIPPED) == texts(before, ElementKind.SKIPPED)
        assert tables(after) == tables(before)
    # Exporting the export changes nothing (checked on the first games of big files).
    head = exported[:300]
    assert dumps([export_form(g) for g in head], export_format=True) == dumps(
        [export_form(g) for g in original[:300]], export_format=True)
