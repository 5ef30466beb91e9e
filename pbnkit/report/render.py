"""The HTML: Jinja2 templates (package data) with autoescaping, so every value taken from
a file is text in the page, never markup."""

from __future__ import annotations

import functools
import re

from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup, escape

from pbnkit import __version__
from pbnkit.report.event import EventView
from pbnkit.report.views import SUIT_SYMBOLS
from pbnkit.model.cards import Suit

#: ``\S`` ``\H`` ``\D`` ``\C`` in commentary stand for the suit symbols (PBN 3.8); BBO's
#: explanations, which become notes, write ``!S`` (not before a letter: ``!Stayman``).
_SUIT_ESCAPE = re.compile(r"\\([SHDC])")
_NOTE_SUIT_ESCAPE = re.compile(r"[\\!]([SHDC])(?![A-Za-z])")


def _with_suits(text: str, pattern: re.Pattern[str]) -> Markup:
    """``text`` escaped, then its suit escapes as coloured symbols: the only markup is
    what this adds."""
    escaped = str(escape(text))
    return Markup(pattern.sub(
        lambda m: f'<span class="s-{m[1]}">{SUIT_SYMBOLS[Suit[m[1]]]}</span>', escaped))


def commentary(text: str) -> Markup:
    return _with_suits(text, _SUIT_ESCAPE)


def note(text: str) -> Markup:
    return _with_suits(text, _NOTE_SUIT_ESCAPE)


@functools.cache
def environment() -> Environment:
    """The templates, loaded once."""
    env = Environment(loader=PackageLoader("pbnkit.report", "templates"), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["commentary"] = commentary
    env.filters["note"] = note
    return env


#: The layouts of ``pbnkit report --layout``.
LAYOUTS = ("full", "hand-records", "results")


def render_report(events: list[EventView], title: str, layout: str = "full") -> str:
    """The whole report: one self-contained HTML document, laid out as ``layout`` says:
    ``full`` (each board with its auction, play and traveller, then the results),
    ``hand-records`` (four diagrams to a printed page) or ``results`` (the rankings,
    then the travellers)."""
    if layout not in LAYOUTS:
        raise ValueError(f"no layout {layout!r}: choose one of {', '.join(LAYOUTS)}")
    return environment().get_template("report.html").render(
        events=events, title=title, version=__version__, layout=layout)


def render_fragment(kind: str, view: object) -> str:
    """A notebook view of one ``board``, ``deal`` (a list of hands), ``auction`` or
    ``play``."""
    return environment().get_template("fragment.html").render(kind=kind, view=view)
