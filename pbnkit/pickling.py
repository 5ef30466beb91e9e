"""Cheap pickling for the small records that workers send to the parent by the thousand.

A slots dataclass pickles through ``dataclasses``' generic ``__getstate__`` and
``__setstate__``, which look up the class's fields on every call: most of the cost of
sending a unit's results back. :func:`by_fields` registers a reduction that rebuilds
it from its fields in one call (the getter runs in C).

Unpickling then costs what making the value costs. A frozen dataclass's ``__init__`` sets
each field by name through ``object.__setattr__``: most of what unpickling a board
result of 15 fields costs in the parent of ``pbnkit score -j``. For such a class, the call
is instead to a function made for it that stores each field through its slot, which is
much cheaper.
"""

from __future__ import annotations

import copyreg
import dataclasses
import sys
import types
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar

T = TypeVar("T")


def by_fields(cls: type[T]) -> type[T]:
    """Class decorator (put it above ``@dataclass``): pickle as ``cls(*fields)``."""
    names = [f.name for f in dataclasses.fields(cls)  # type: ignore[arg-type]
             if f.init]
    getter = attrgetter(*names)
    single = len(names) == 1
    make = _maker(cls, names)

    def reduce(self: Any) -> tuple[Any, tuple[Any, ...]]:
        values = getter(self)
        return make, (values,) if single else values

    # Registered with copyreg rather than set on the class as __reduce__: pickle finds it
    # in its dispatch table, with no call through object.__reduce_ex__ for each value.
    copyreg.pickle(cls, reduce)
    return cls


def _maker(cls: type[T], names: list[str]) -> Callable[..., T]:
    """What unpickling calls with the fields: ``cls`` itself, or for a frozen dataclass of
    plain slots whose ``__init__`` only stores its fields, a function that stores each
    through its slot's descriptor (which a frozen class's ``__setattr__`` does not guard).

    The function is made from source, as ``dataclasses`` makes ``__init__``: a loop over
    the slots would cost as much as the ``__init__`` it replaces. Pickle finds it by name
    in the class's module: importing the module, as unpickling does, makes it again.
    """
    params = getattr(cls, "__dataclass_params__", None)
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    slots = [slot for slot in map(vars(cls).get, names)
             if isinstance(slot, types.MemberDescriptorType)]
    if (params is None or not (params.init and params.frozen) or len(names) != len(fields)
            or hasattr(cls, "__post_init__") or cls.__new__ is not object.__new__
            or len(slots) != len(names)):
        return cls  # its __init__ does more than store
    name = "_unpickled_" + cls.__qualname__.replace(".", "_")
    # Names of its own for every argument and local, whatever the fields are called.
    scope: dict[str, Any] = {"new_": object.__new__, "cls_": cls,
                             **{f"set{i}": slot.__set__ for i, slot in enumerate(slots)}}
    arguments = ", ".join(f"field{i}" for i in range(len(names)))
    stores = "".join(f"    set{i}(made, field{i})\n" for i in range(len(names)))
    exec(f"def {name}({arguments}):\n    made = new_(cls_)\n{stores}    return made\n", scope)
    make: Callable[..., T] = scope[name]
    make.__module__ = cls.__module__
    setattr(sys.modules[cls.__module__], name, make)
    return make
