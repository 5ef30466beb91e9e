"""Lenient reading of tag values, for code that must carry on past bad data."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from pbnkit.errors import InvalidTokenError

T = TypeVar("T")


def parse_or_none(parse: Callable[[str], T], text: str | None) -> T | None:
    """``parse(text)``, or None when the text is absent, empty, unknown (``?``) or not
    valid. The validator reports what is wrong with a value; scoring, replay and export
    only need to know that it cannot be used."""
    if text is None or text.strip() in ("", "?"):
        return None
    try:
        return parse(text)
    except InvalidTokenError:
        return None
