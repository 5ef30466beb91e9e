"""``pbnkit score -o``: the score report as JSON, or as one Parquet file per table.

The Parquet tables mirror the JSON document section by section (boards, matches,
rubbers, problems) with an explicit Arrow schema, never an inferred one; the schema is
written out in ``schemas/score-tables.v1.arrow.json``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pbnkit.export.atomic import atomic_file, check_target
from pbnkit.export.schema import arrow_fields_json
from pbnkit.scoring.report import REPORT_VERSION, ScoreReport

SCHEMA_NAME = "score-tables"
_STR, _INT, _FLOAT = pa.string(), pa.int32(), pa.float64()


def _struct(**fields: pa.DataType) -> pa.StructType:
    return pa.struct([pa.field(name, type_) for name, type_ in fields.items()])


_SIDES = _struct(NS=_INT, EW=_INT)
_ENTRY = _struct(side=_STR, line=_STR, points=_INT, reason=_STR)

TABLES: dict[str, pa.Schema] = {
    "boards": pa.schema([
        ("path", _STR), ("index", _INT), ("board", _STR), ("room", _STR), ("declarer", _STR),
        ("contract", _STR), ("tricks", pa.int8()), ("vulnerable", _STR), ("score_ns", _INT),
        ("mp_ns", _FLOAT), ("pct_ns", _FLOAT),
    ]),
    "matches": pa.schema([
        ("key", _struct(event=_STR, section=_STR, stage=_STR, round=_STR, home_team=_STR,
                        visit_team=_STR)),
        ("boards", pa.list_(_struct(board=_STR, open_ns=_INT, closed_ns=_INT, diff=_INT,
                                    imps=_INT))),
        ("imps_a", _INT), ("imps_b", _INT), ("winner", _STR),
    ]),
    "rubbers": pa.schema([
        ("deals", pa.list_(_struct(index=_INT, board=_STR, declarer=_STR, contract=_STR,
                                   tricks=pa.int8(), vulnerable=_STR,
                                   entries=pa.list_(_ENTRY)))),
        ("settlement", pa.list_(_ENTRY)), ("games", _SIDES), ("finished", pa.bool_()),
        ("above", _SIDES), ("below", _SIDES), ("total", _SIDES), ("winner", _STR),
        ("margin", _INT), ("rubber_points", _INT),
    ]),
    "problems": pa.schema([("kind", _STR), ("message", _STR), ("index", _INT), ("board", _STR)]),
}


def arrow_schema_json() -> dict[str, Any]:
    """The tables' Arrow schemas as JSON (``schemas/score-tables.v1.arrow.json``)."""
    return {
        "name": SCHEMA_NAME,
        "version": REPORT_VERSION,
        "description": "pbnkit score -o FILE.parquet writes FILE.<table>.parquet for each "
                       "table; the rows are the sections of schemas/score-report.v1.json. "
                       "File metadata: pbnkit.schema, pbnkit.schema_version, pbnkit.version, "
                       "pbnkit.profile.",
        "tables": {name: arrow_fields_json(schema) for name, schema in TABLES.items()},
    }


def _metadata(profile: str) -> dict[bytes, bytes]:
    from pbnkit import __version__

    return {b"pbnkit.schema": SCHEMA_NAME.encode(),
            b"pbnkit.schema_version": str(REPORT_VERSION).encode(),
            b"pbnkit.version": __version__.encode(), b"pbnkit.profile": profile.encode()}


def parquet_paths(output: Path) -> dict[str, Path]:
    """``results.parquet`` → ``results.boards.parquet``, ``results.matches.parquet``..."""
    return {name: output.with_name(f"{output.stem}.{name}.parquet") for name in TABLES}


def write_score(report: ScoreReport, output: Path, force: bool = False) -> list[Path]:
    """Write the report to ``output`` (.json, or .parquet as one file per table)."""
    if output.suffix == ".json":
        with atomic_file(output, force) as stream:
            for piece in report.json_pieces():
                stream.write(piece.encode("utf-8"))
        return [output]
    if output.suffix != ".parquet":
        raise ValueError(f"cannot write {output}: the name must end in .json or .parquet")
    paths = parquet_paths(output)
    for path in paths.values():  # refuse before writing any of them
        check_target(path, force)
    for name, rows in report.sections():
        schema = TABLES[name].with_metadata(_metadata(report.profile))
        table = pa.Table.from_pylist(list(rows), schema=schema)
        with atomic_file(paths[name], force) as stream:
            pq.write_table(table, stream)
    return list(paths.values())
