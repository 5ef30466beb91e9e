"""pbnkit: read, validate, score and archive Portable Bridge Notation hand records."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

#: the one place the version is written (the build reads it from here)
__version__ = "0.1.0"

__all__ = ["Game", "PbnReader", "TagPair", "__version__", "read", "read_text", "validate"]

if TYPE_CHECKING:
    from pbnkit.formats.sniff import read, read_text
    from pbnkit.pbn import PbnReader
    from pbnkit.records import Game, TagPair
    from pbnkit.rules.report import validate


def __getattr__(name: str) -> Any:
    # The reader (and the grammar it loads) only when asked for: `pbnkit --version`, and
    # every pbnkit module, import this package first.
    if name == "validate":
        from pbnkit.rules.report import validate

        return validate
    if name in ("read", "read_text"):
        import pbnkit.formats.sniff

        return getattr(pbnkit.formats.sniff, name)
    if name in __all__:
        import pbnkit.pbn

        return getattr(pbnkit.pbn, name)
    raise AttributeError(f"module 'pbnkit' has no attribute {name!r}")
