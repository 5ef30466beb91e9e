"""pbnkit: read, validate, score and archive Portable Bridge Notation hand records.

The public calls are the ones the ``pbnkit`` commands make, so that the library and the
command line cannot disagree:

- :func:`read` (and :func:`read_text`): the records of a PBN or LIN file, one at a time;
- :func:`check_game`: the findings of one record alone (record level);
- :func:`validate`: the findings of a whole file (file level: every record's own, and
  those that need the whole file), what ``pbnkit validate`` lists;
- :func:`score`: what ``pbnkit score`` reports;
- :func:`convert`: what ``pbnkit convert`` writes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

#: the one place the version is written (the build reads it from here)
__version__ = "0.1.0"

__all__ = ["Game", "PbnReader", "TagPair", "__version__", "check_game", "convert", "read",
           "read_text", "score", "validate"]

if TYPE_CHECKING:
    from pbnkit.formats.sniff import read, read_text
    from pbnkit.pbn import PbnReader
    from pbnkit.pipeline.convert import convert
    from pbnkit.pipeline.score import score
    from pbnkit.pipeline.validate import validate
    from pbnkit.records import Game, TagPair
    from pbnkit.rules import check_game

#: the public calls beyond the reader's, by the module that holds each
_CALLS = {"validate": "pbnkit.pipeline.validate", "score": "pbnkit.pipeline.score",
          "convert": "pbnkit.pipeline.convert", "check_game": "pbnkit.rules"}


def __getattr__(name: str) -> Any:
    # The reader (and the grammar it loads) only when asked for: `pbnkit --version`, and
    # every pbnkit module, import this package first.
    if name in _CALLS:
        import importlib

        return getattr(importlib.import_module(_CALLS[name]), name)
    if name in ("read", "read_text"):
        import pbnkit.formats.sniff

        return getattr(pbnkit.formats.sniff, name)
    if name in __all__:
        import pbnkit.pbn

        return getattr(pbnkit.pbn, name)
    raise AttributeError(f"module 'pbnkit' has no attribute {name!r}")
