"""pbnkit: read, validate, score and archive Portable Bridge Notation hand records."""

from pbnkit.pbn import Game, PbnReader, TagPair, read, read_text

__version__ = "0.1.0"

__all__ = ["Game", "PbnReader", "TagPair", "__version__", "read", "read_text"]
