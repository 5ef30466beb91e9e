"""Pages a person reads: the HTML report of ``pbnkit report`` and the notebook views.

>>> from pbnkit import read                                  # doctest: +SKIP
>>> from pbnkit.report import report_html                    # doctest: +SKIP
>>> html = report_html(read("sample_data/team_match.pbn"))   # doctest: +SKIP

The page is one self-contained HTML file (inline CSS, no script, nothing fetched): per
board the diagram, auction, play, contract and score and commentary; per file (an event)
the travellers, rankings, team match, rubber and Chicago sheets; a print stylesheet lays
out two hand records, or one board with its play, to an A4 page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pbnkit.pbn.records import Game
from pbnkit.report.event import event_views
from pbnkit.report.render import render_report


def report_html(games: Iterable[Game], title: str = "pbnkit report", solve: bool = False,
                on_batch: Callable[[int], None] | None = None) -> str:
    """The report of ``games`` (one event per file they come from). ``solve``: the
    makeable contracts and par of deals whose record states none, from the double-dummy
    solver (the ``dd`` extra)."""
    return render_report(event_views(games, solve, on_batch), title)


__all__ = ["report_html"]
