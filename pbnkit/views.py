"""How a notebook shows pbnkit's values: an HTML view for each kind of value (``deal``,
``auction``, ``play``, ``game``), as python-chess draws its boards in Jupyter.

The views are drawn by :mod:`pbnkit.report`, which sits above every value it draws: the
model and the reader may not import it. So the values ask this registry, which every
layer may import (like :mod:`pbnkit.errors`), and the report package offers its views
under the ``pbnkit.views`` entry point group, loaded on the first request. Without it
(pbnkit not installed, only on the path) ``_repr_html_`` answers None, and Jupyter shows
the ``repr`` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

#: The entry point group under which packages offer views.
GROUP = "pbnkit.views"

_VIEWS: dict[str, Callable[[Any], str]] = {}
_loaded = False


def register(kind: str, view: Callable[[Any], str]) -> None:
    """Offer the HTML view of one kind of value."""
    _VIEWS[kind] = view


def html(kind: str, value: object) -> str | None:
    """The HTML of ``value`` by the view registered for ``kind``; None without one."""
    global _loaded
    if not _loaded:
        _loaded = True
        for offered in entry_points(group=GROUP):
            offered.load()  # the module registers its views as it is imported
    view = _VIEWS.get(kind)
    return None if view is None else view(value)
