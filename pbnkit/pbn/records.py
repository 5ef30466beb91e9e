"""The record types under the name the PBN modules and the layers above import them by:
they are every format's records, and live in :mod:`pbnkit.records`."""

from pbnkit.records import PLACE_TYPE, Element, ElementKind, Game, TagPair, TagValues

__all__ = ["PLACE_TYPE", "Element", "ElementKind", "Game", "TagPair", "TagValues"]
