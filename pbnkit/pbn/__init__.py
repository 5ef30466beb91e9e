"""The PBN reader: split into games, decode, parse with Lark, shape syntax records."""

from pbnkit.pbn.reader import PbnReader
from pbnkit.records import Element, ElementKind, Game, TagPair

__all__ = ["Element", "ElementKind", "Game", "PbnReader", "TagPair"]
