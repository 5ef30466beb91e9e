"""``pbnkit score -o``: the score report as JSON, or as one Parquet file per table.

The Parquet tables mirror the JSON document section by section (boards, matches,
rubbers, rankings, standings, problems) with an explicit Arrow schema, never an inferred one; the schema is
written out in ``schemas/score-tables.v2.arrow.json``. A column has one type in every
table, the boards archive's included: ``board`` is the board number as an int32 (null when
the Board tag is not an integer), where the JSON report keeps the tag's text. Files are
compressed with zstd, as the boards archive is.

Version 1 (``schemas/score-tables.v1.arrow.json``) had ``board`` as text and Snappy
compression.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pbnkit.digits import signed_number
from pbnkit.export.archive import ArchiveError, archive_rows
from pbnkit.export.atomic import atomic_file, check_target
from pbnkit.export.rows import record_id
from pbnkit.export.schema import arrow_fields_json
from pbnkit.formats.files import file_digest
from pbnkit.scoring.report import REPORT_VERSION, ScoreReport

SCHEMA_NAME = "score-tables"
#: Bumped when a column changes type or meaning (version 2: ``board`` as int32). New
#: columns and tables leave it: version 2 grew the pairs event's board columns, the
#: matches' victory points and the rankings and standings tables.
SCHEMA_VERSION = 2
_STR, _INT, _FLOAT = pa.string(), pa.int32(), pa.float64()
_BOARD = _INT  # as the boards archive's board column


def _struct(**fields: pa.DataType) -> pa.StructType:
    return pa.struct([pa.field(name, type_) for name, type_ in fields.items()])


_SIDES = _struct(NS=_INT, EW=_INT)
_ENTRY = _struct(side=_STR, line=_STR, points=_INT, reason=_STR)

TABLES: dict[str, pa.Schema] = {
    "boards": pa.schema([
        ("path", _STR), ("index", _INT), ("record_id", _STR), ("board", _BOARD), ("room", _STR),
        ("declarer", _STR),
        ("contract", _STR), ("tricks", pa.int8()), ("vulnerable", _STR), ("score_ns", _INT),
        ("mp_ns", _FLOAT), ("pct_ns", _FLOAT), ("mp_ew", _FLOAT), ("pct_ew", _FLOAT),
        ("row", _INT), ("weight", _INT), ("pair_ns", _STR), ("pair_ew", _STR),
        ("imp_ns", _FLOAT), ("datum", _INT), ("cross_sum", _INT), ("cross_average", _FLOAT),
        ("adjusted", _STR),
    ]),
    "matches": pa.schema([
        ("key", _struct(event=_STR, section=_STR, stage=_STR, round=_STR, home_team=_STR,
                        visit_team=_STR)),
        ("boards", pa.list_(_struct(board=_BOARD, open_ns=_INT, closed_ns=_INT, diff=_INT,
                                    imps=_INT, adjusted=_STR))),
        ("imps_a", _INT), ("imps_b", _INT), ("team_a", _STR), ("team_b", _STR),
        ("imps_won_a", _INT), ("imps_won_b", _INT), ("winner", _STR), ("vp_a", _FLOAT),
        ("vp_b", _FLOAT),
    ]),
    "rubbers": pa.schema([
        ("unit", _STR), ("number", _INT), ("path", _STR), ("complete", pa.bool_()),
        ("deals", pa.list_(_struct(index=_INT, board=_BOARD, declarer=_STR, contract=_STR,
                                   tricks=pa.int8(), vulnerable=_STR,
                                   entries=pa.list_(_ENTRY), scored=pa.bool_(),
                                   place=pa.int8(), dealer=_STR))),
        ("settlement", pa.list_(_ENTRY)), ("games", _SIDES), ("finished", pa.bool_()),
        ("above", _SIDES), ("below", _SIDES), ("total", _SIDES), ("winner", _STR),
        ("margin", _INT), ("rubber_points", _INT),
    ]),
    "rankings": pa.schema([
        ("event", _STR), ("section", _STR), ("direction", _STR), ("id", _STR), ("names", _STR),
        ("board_count", _INT), ("total_points", _FLOAT), ("top", _FLOAT),
        ("percentage", _FLOAT), ("rank", _INT), ("credited", _FLOAT),
    ]),
    "standings": pa.schema([
        ("event", _STR), ("section", _STR), ("team", _STR), ("matches", _INT),
        ("imps_for", _INT), ("imps_against", _INT), ("vp", _FLOAT), ("rank", _INT),
    ]),
    "unscored_matches": pa.schema([
        ("event", _STR), ("section", _STR), ("stage", _STR), ("round", _STR),
        ("home_team", _STR), ("visit_team", _STR), ("room", _STR), ("board_count", _INT),
        ("board_range", _STR), ("path", _STR), ("index", _INT), ("record_id", _STR),
    ]),
    "problems": pa.schema([("kind", _STR), ("message", _STR), ("path", _STR),
                           ("index", _INT), ("board", _BOARD), ("record_id", _STR)]),
}


def arrow_schema_json() -> dict[str, Any]:
    """The tables' Arrow schemas as JSON (``schemas/score-tables.v2.arrow.json``)."""
    return {
        "name": SCHEMA_NAME,
        "version": SCHEMA_VERSION,
        "description": "pbnkit score -o FILE.parquet writes FILE.<table>.parquet for each "
                       "table (zstd); the rows are the sections of schemas/score-report.v"
                       f"{REPORT_VERSION}.json, with board as an int32 (null when the Board "
                       "tag is not an integer) in every table, and the rankings' boards and "
                       "total as board_count and total_points (a column has one type in "
                       "every table). File metadata: pbnkit.schema, "
                       "pbnkit.schema_version, pbnkit.version, pbnkit.profile.",
        "tables": {name: arrow_fields_json(schema) for name, schema in TABLES.items()},
    }


def _metadata(profile: str) -> dict[bytes, bytes]:
    from pbnkit import __version__

    return {b"pbnkit.schema": SCHEMA_NAME.encode(),
            b"pbnkit.schema_version": str(SCHEMA_VERSION).encode(),
            b"pbnkit.version": __version__.encode(), b"pbnkit.profile": profile.encode()}


def parquet_paths(output: Path) -> dict[str, Path]:
    """``results.parquet`` → ``results.boards.parquet``, ``results.matches.parquet``..."""
    return {name: output.with_name(f"{output.stem}.{name}.parquet") for name in TABLES}


#: a record's id (the boards archive's ``record_id``) by its path and index
RecordIds = Callable[[str | None, int | None], str | None]


def write_score(report: ScoreReport, output: Path, force: bool = False,
                record_ids: RecordIds | None = None) -> list[Path]:
    """Write the report to ``output`` (.json, or .parquet as one file per table, whose
    rows of a record carry its ``record_id`` from ``record_ids``: null without it)."""
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
        if record_ids is not None and "record_id" in schema.names:
            rows = ({**row, "record_id": record_ids(row["path"], row["index"])} for row in rows)
        table = pa.Table.from_pylist([_numbered(name, row) for row in rows], schema=schema)
        with atomic_file(paths[name], force) as stream:
            pq.write_table(table, stream, compression="zstd")
    return list(paths.values())


def _numbered(table: str, row: dict[str, Any]) -> dict[str, Any]:
    """A report row with its board numbers as the tables hold them."""
    if table in ("boards", "problems"):
        return {**row, "board": board_number(row["board"])}
    if table == "matches":
        return {**row, "boards": [{**b, "board": board_number(b["board"])} for b in row["boards"]]}
    if table == "rubbers":
        return {**row, "deals": [{**d, "board": board_number(d["board"])} for d in row["deals"]]}
    if table == "rankings":
        # boards and total name other types in the matches and rubbers tables
        ranking = dict(row)
        return {**ranking, "board_count": ranking.pop("boards"),
                "total_points": ranking.pop("total")}
    return row


def file_record_ids() -> RecordIds:
    """Record ids of the PBN and LIN files scored, each file's digest made once (a file
    that is no longer there, such as standard input's, gives null ids)."""
    digests: dict[str, bytes | None] = {}

    def record_ids(path: str | None, index: int | None) -> str | None:
        if path is None:
            return None
        if path not in digests:
            try:
                digests[path] = file_digest(path)
            except OSError:
                digests[path] = None
        return record_id(digests[path], index)

    return record_ids


def archive_record_ids(archive: str) -> RecordIds:
    """Record ids as an archive stores them, so that rescore keeps the archive's ids (an
    archive written before the column gives null ids)."""
    try:
        stored = {(row["path"], row["index"]): row.get("record_id")
                  for row in archive_rows(archive, ["path", "index", "record_id"])}
    except (ArchiveError, KeyError, pa.ArrowInvalid):
        stored = {}
    return lambda path, index: stored.get((path, index))


def board_number(text: str | None) -> int | None:
    """A Board tag value as the int32 ``board`` column: null when not an integer."""
    number = signed_number(text.strip()) if text is not None else None
    return number if number is not None and -2 ** 31 <= number < 2 ** 31 else None
