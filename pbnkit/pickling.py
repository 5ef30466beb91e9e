"""Cheap pickling for the small records that workers send to the parent by the thousand.

A slots dataclass pickles through ``dataclasses``' generic ``__getstate__`` and
``__setstate__``, which look up the class's fields on every call: most of the cost of
sending a unit's results back. :func:`by_fields` registers a reduction that rebuilds
it from its fields in one call (the getter runs in C).
"""

from __future__ import annotations

import copyreg
import dataclasses
from operator import attrgetter
from typing import Any, TypeVar

T = TypeVar("T")


def by_fields(cls: type[T]) -> type[T]:
    """Class decorator (put it above ``@dataclass``): pickle as ``cls(*fields)``."""
    names = [f.name for f in dataclasses.fields(cls)  # type: ignore[arg-type]
             if f.init]
    getter = attrgetter(*names)
    single = len(names) == 1

    def reduce(self: Any) -> tuple[Any, tuple[Any, ...]]:
        values = getter(self)
        return cls, (values,) if single else values

    # Registered with copyreg rather than set on the class: a class changed after it is
    # made misbehaves once compiled (mypyc then gets != between its instances wrong).
    copyreg.pickle(cls, reduce)
    return cls
