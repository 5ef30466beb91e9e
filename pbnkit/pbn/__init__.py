"""The PBN reader: split into games, decode, parse with Lark, shape syntax records."""

from pbnkit.pbn.reader import PbnReader, iter_files, read, read_text
from pbnkit.pbn.records import Element, ElementKind, Game, TagPair

__all__ = ["Element", "ElementKind", "Game", "PbnReader", "TagPair", "iter_files", "read",
           "read_text"]
