"""``help()`` shows every public docstring: each public class and function of the
library's public modules has one, and ``pydoc`` renders it."""

from __future__ import annotations

import importlib
import inspect
import pydoc

import pytest

#: the modules a user imports (the README's and docs/' examples import from these), and
#: those whose names they re-export
MODULES = ("pbnkit", "pbnkit.pbn", "pbnkit.model", "pbnkit.model.auction", "pbnkit.model.play",
           "pbnkit.scoring", "pbnkit.scoring.report", "pbnkit.rules", "pbnkit.export",
           "pbnkit.export.original", "pbnkit.errors")


def _public(module_name: str) -> list[tuple[str, object]]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None) or [name for name in vars(module)
                                                  if not name.startswith("_")]
    found = [(f"{module_name}.{name}", getattr(module, name)) for name in names]
    return [(name, value) for name, value in found
            if (inspect.isclass(value) or inspect.isfunction(value))
            and value.__module__.startswith("pbnkit")]  # not what it imports from elsewhere


#: each class and function once, by the first name it has in MODULES
PUBLIC = sorted({id(value): (name, value) for module in reversed(MODULES)
                 for name, value in _public(module)}.values(), key=lambda item: item[0])


def _own_doc(value: object) -> str | None:
    """The docstring written for ``value``: not one a dataclass, a named tuple or an enum
    makes up from the signature, nor one inherited."""
    doc = vars(value).get("__doc__") if inspect.isclass(value) else getattr(value, "__doc__")
    name = getattr(value, "__name__", "")
    if not doc or doc.startswith(f"{name}(") or doc == "An enumeration.":
        return None
    return inspect.cleandoc(doc)


def test_the_public_modules_name_something():
    assert len(PUBLIC) > 40


@pytest.mark.parametrize(("name", "value"), PUBLIC, ids=[name for name, _ in PUBLIC])
def test_help_shows_the_docstring(name, value):
    doc = _own_doc(value)
    assert doc, f"{name} has no docstring"
    shown = pydoc.render_doc(value, renderer=pydoc.plaintext)
    first = doc.splitlines()[0]
    assert first in shown, f"help({name}) does not show its docstring"
