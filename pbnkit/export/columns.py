"""Rows of the boards table as Arrow columns: the work that turns a batch of rows into a
record batch, a large part of a conversion. The sinks that write the batches are in
:mod:`pbnkit.export.sinks`.
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from typing import Any

import pyarrow as pa

from pbnkit.export.rows import NO_ANNOTATIONS, Row, SectionItems, TagColumns
from pbnkit.export.schema import boards_schema
from pbnkit.lin.runs import laid_out
from pbnkit.pbn.records import Element, ElementKind

_ITEM_COLUMNS = ("auction", "play")
_KIND_NAMES = {kind: kind.value for kind in ElementKind}
#: the columns a row holds as columns of its own, not as Python dicts and lists
COLUMNAR = (*_ITEM_COLUMNS, "tags")


def arrow_batch(rows: list[Row], profile: str | None = None) -> pa.RecordBatch:
    """Rows as one Arrow batch of the boards schema; the auction and play columns are
    built as arrays from their :class:`SectionItems`, never as dicts."""
    schema = boards_schema(profile)
    columns = []
    for field, values in zip(schema, _by_column(rows, schema.names)):
        name = field.name
        if name in _ITEM_COLUMNS:
            columns.append(_items_array(values, field.type))
        elif name == "tags":
            columns.append(_tags_array(values, field.type))
        else:  # as RecordBatch.from_pylist takes them
            columns.append(pa.array(values, field.type))
    return pa.RecordBatch.from_arrays(columns, schema=schema)


def _by_column(rows: list[Row], names: list[str]) -> list[tuple[Any, ...]]:
    """The rows' values, column by column (None for a column a row lacks). A row made by
    ``game_row`` or ``file_row`` holds the columns in the schema's order, and its values
    are then taken as they come, all columns in one pass, rather than looked up by name
    a column at a time."""
    if all(list(row) == names for row in rows):
        return list(zip(*[row.values() for row in rows])) or [() for _ in names]
    return [tuple(row.get(name) for row in rows) for name in names]


def _tags_array(values: Sequence[TagColumns], type_: pa.ListType) -> pa.Array:
    item = type_.value_type
    offsets = [0]
    for value in values:
        offsets.append(offsets[-1] + len(value.names))

    def flat(position: int) -> list[Any]:
        return list(itertools.chain.from_iterable(value[position] for value in values))

    # the struct's fields in schema order: name, value, quoted, line, column,
    # value_column (TagColumns positions 0, 1, 5, 2, 3, 6), then body
    children = [pa.array(flat(position), item.field(number).type)
                for number, position in enumerate((0, 1, 5, 2, 3, 6))]
    children.append(_elements_array(flat(4), item.field(6).type))
    return _list_of_structs(offsets, children, type_)


def _elements_array(bodies: list[tuple[Element, ...]], type_: pa.ListType) -> pa.Array:
    """Tag bodies as the list of their elements' structs, built from the Elements' own
    fields (most bodies are empty, and a dict per element would cost more)."""
    item = type_.value_type
    offsets = [0]
    elements: list[Element] = []
    for body in bodies:
        if body:
            elements += body
        offsets.append(len(elements))
    kinds, texts, lines, columns, places = zip(*elements) if elements else ((), (), (), (), ())
    if any(places):  # a LIN board's sections: stored laid out, as read before runs were placed
        return _elements_array([laid_out(body) for body in bodies], type_)
    children = [pa.array(list(map(_KIND_NAMES.__getitem__, kinds)), item.field(0).type),
                pa.array(texts, item.field(1).type), pa.array(lines, item.field(2).type),
                pa.array(columns, item.field(3).type)]
    return _list_of_structs(offsets, children, type_)


def _items_array(values: Sequence[SectionItems], type_: pa.ListType) -> pa.Array:
    item = type_.value_type
    offsets, seats, texts = [0], [], []
    for value in values:
        seats += value.seats
        texts += value.texts
        offsets.append(len(texts))
    children = [pa.array(seats, item.field(0).type), pa.array(texts, item.field(1).type)]
    if not any(value.annotations for value in values):
        none = pa.array([0] * (len(texts) + 1), pa.int32())
        for number in range(2, 5):
            children.append(pa.nulls(len(texts), item.field(number).type))
        for number in (5, 6):
            list_type = item.field(number).type
            children.append(pa.ListArray.from_arrays(
                none, pa.array([], list_type.value_type), type=list_type))
    else:
        # each annotation's column as that of an item without any, but where one has some
        extras: list[list[Any]] = [[empty] * len(texts) for empty in NO_ANNOTATIONS]
        for value, start in zip(values, offsets):
            for position, annotations in (value.annotations or {}).items():
                for column, annotation in zip(extras, annotations):
                    column[start + position] = annotation
        for number, column in enumerate(extras, 2):
            children.append(pa.array(column, item.field(number).type))
    return _list_of_structs(offsets, children, type_)


def _list_of_structs(offsets: list[int], children: list[pa.Array],
                     type_: pa.ListType) -> pa.Array:
    """A list-of-structs column from the structs' fields and where each list starts."""
    struct = pa.StructArray.from_arrays(children, fields=list(type_.value_type))
    return pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), struct, type=type_)


class _NoPandas(MetaPathFinder):
    """Finds no pandas: see :func:`no_pandas_objects`."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        if name == "pandas" or name.startswith("pandas."):
            raise ModuleNotFoundError("pandas is not looked for here", name=name)


def no_pandas_objects() -> None:
    """Tell pyarrow that this process will give it no pandas objects to convert: for a
    process that only converts records (the command line's), called before any worker
    is forked from it.

    Of every Python list it converts, pyarrow first asks whether it is a pandas object,
    and the first time that imports pandas when installed, which costs each converting
    process more than the columns of a thousand boards. Shown no pandas once, pyarrow
    stops looking. Not done for a library caller: there ``pa.array`` of a pandas Series,
    made later, would be read as a plain list (pyarrow's other pandas functions would
    import pandas then). Nothing to do when pandas is imported already."""
    if "pandas" in sys.modules:
        return
    finder = _NoPandas()
    sys.meta_path.insert(0, finder)
    try:
        pa.array([], pa.null())
        pa.scalar(0)
    finally:
        sys.meta_path.remove(finder)
