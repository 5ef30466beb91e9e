"""Pages a person reads: the HTML report of ``pbnkit report`` and the notebook views.

>>> from pbnkit import read                                  # doctest: +SKIP
>>> from pbnkit.report import report_html                    # doctest: +SKIP
>>> html = report_html(read("sample_data/team_match.pbn"))   # doctest: +SKIP

The page is one self-contained HTML file (inline CSS, no script, nothing fetched): per
board (every record of a board and deal drawn once) the diagram, the auction, play and
commentary of each record that has them, and the traveller; per file (an event) the
rankings, standings, team match, rubber and Chicago sheets. Two more layouts: the hand
records, four to an A4 page, and the results alone, as a club posts them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pbnkit.pbn.records import Game
from pbnkit.report.event import event_views
from pbnkit.report.render import LAYOUTS, render_report
from pbnkit.scoring.report import TeamOptions


def report_html(games: Iterable[Game], title: str = "pbnkit report", solve: bool = False,
                on_batch: Callable[[int], None] | None = None, layout: str = "full",
                vp_scale: str = "continuous") -> str:
    """The report of ``games`` (one event per file they come from). ``solve``: the
    makeable contracts and par of deals whose record states none, and the par of a
    stated table without one, from the double-dummy solver (the ``dd`` extra).
    ``layout``: ``full``, ``hand-records`` or ``results``. Team matches get victory
    points on ``vp_scale`` (``continuous`` or ``discrete``)."""
    teams = TeamOptions(victory_points=True, scale=vp_scale)
    return render_report(event_views(games, solve, on_batch, teams), title, layout)


__all__ = ["LAYOUTS", "report_html"]
