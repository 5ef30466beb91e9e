"""The boards table: one explicit, versioned Arrow schema, defined here and only here.

Every archive pbnkit writes (Parquet, a Parquet dataset, JSON, JSONL) holds rows of this
schema. The two files in ``schemas/`` are generated from it: ``boards.v2.arrow.json`` (the
Arrow schema written out) and ``boards.v2.json`` (the JSON Schema of the JSON and JSONL
records); a test keeps both in step. Regenerate them with
``python -c "from pbnkit.export.schema import write_schema_files; write_schema_files()"``.

Column descriptions live in the field metadata, so pyarrow, DuckDB and Spark users see
them too. The ``tags`` and ``preamble`` columns are the lossless source of each record;
every other column is derived from them for analysis and is null when a value does not
parse. The ``original`` columns keep the bytes of the file as read: with them the source
files can be written back byte for byte (``pbnkit.export.original``).

Version 1 (``schemas/boards.v1.*``, frozen) had no ``source``, ``contract_source`` and
``original*`` columns, a text ``date`` column (now ``date_text``, beside a typed ``date``),
contract and declarer columns from the tags only, and no row for a file without records.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pyarrow as pa

#: Bumped when a column changes meaning or type; adding a nullable column is not a bump.
#: Version 1 is still read (``pbnkit.export.upgrade`` turns its rows into this version's).
SCHEMA_NAME = "boards"
SCHEMA_VERSION = 2

SEATS = ["N", "E", "S", "W"]
KINDS = ["tokens", "token", "string", "comment", "line_comment", "escape", "skipped"]


def _field(name: str, type_: pa.DataType, description: str, nullable: bool = True,
           enum: list[str] | None = None) -> pa.Field:
    metadata = {"description": description}
    if enum is not None:
        metadata["enum"] = json.dumps(enum)
    return pa.field(name, type_, nullable=nullable, metadata=metadata)


def _list(item: pa.DataType) -> pa.DataType:
    return pa.list_(pa.field("item", item, nullable=False))


_STR = pa.string()

ELEMENT = pa.struct([
    _field("kind", _STR, "tokens: section tokens as written, white space and line ends "
           "kept; string: a quoted table cell, unescaped; comment: {...} content; "
           "line_comment: ;... content; escape: a % line after the %; skipped: text the "
           "reader skipped after a syntax error (e.g. a malformed tag pair), as written.",
           False, KINDS),
    _field("text", _STR, "The element's text.", False),
    _field("line", pa.int32(), "1-based line in the source file.", False),
    _field("column", pa.int32(), "1-based column in the source file.", False),
])

TAG = pa.struct([
    _field("name", _STR, "Tag name.", False),
    _field("value", _STR, "Value as written (unescaped; '#' and '##' kept).", False),
    _field("quoted", pa.bool_(), "False for a value written without quotes.", False),
    _field("line", pa.int32(), "Line of the '['.", False),
    _field("column", pa.int32(), "Column of the '['.", False),
    _field("value_column", pa.int32(), "Column of the value (0 when not on the tag's line).",
           False),
    _field("body", _list(ELEMENT), "What follows the tag up to the next tag: section "
           "tokens, strings, commentary and escape lines, in order.", False),
])


def _section_item(token: str, what: str) -> pa.DataType:
    return pa.struct([
        _field("seat", _STR, f"Seat of the {what}: from the section tag's seat, one per "
               "position (null for '*').", True, SEATS),
        _field(token, _STR, f"The {what} token as written: also '-', 'AP', '^S', '*', '+'.",
               False),
        _field("irregularity", _STR, "I, R or L when '^I', '^R' or '^L' came before it.",
               True, ["I", "R", "L"]),
        _field("suffix", _STR, "Suffix as written.", True, ["!", "?", "!!", "??", "!?", "?!"]),
        _field("note", pa.int16(), "Note reference =n=.", True),
        _field("nags", _list(pa.int16()), "NAGs $n in the order written.", False),
        _field("comments", _list(_STR), "Commentary after it.", False),
    ])


CALL = _section_item("call", "call")
CARD = _section_item("card", "card")

NOTE = pa.struct([
    _field("section", _STR, "Auction or Play: the section the Note tag follows (null when "
           "it follows neither).", True, ["Auction", "Play"]),
    _field("index", pa.int16(), "n of 'n:text' (null when the value has no number).", True),
    _field("text", _STR, "The note's text (the whole value when it has no 'n:').", False),
])

COMMENT = pa.struct([
    _field("tag", _STR, "Name of the tag the comment follows; null before the first tag.",
           True),
    _field("kind", _STR, "comment ({...}) or line_comment (;...).", False,
           ["comment", "line_comment"]),
    _field("text", _STR, "Content without the delimiters.", False),
])

TABLE = pa.struct([
    _field("name", _STR, "Tag name, e.g. ScoreTable.", False),
    _field("columns", _list(_STR), "Column names from the tag value, without sort sign "
           "and width.", False),
    _field("rows", _list(_list(_STR)), "Cells grouped into rows by the column count (the "
           "last row may be short).", False),
])

DIAGNOSTIC = pa.struct([
    _field("code", _STR, "Diagnostic code, e.g. SY001 (pbnkit codes CODE explains it).",
           False),
    _field("severity", _STR, "Severity when the archive was written.", False,
           ["error", "warning", "info"]),
    _field("message", _STR, "Message.", False),
    _field("line", pa.int32(), "1-based line in the source file.", False),
    _field("column", pa.int32(), "1-based column.", False),
    _field("stage", _STR, "read: found by the reader; check: by the rules; file: belongs "
           "to no game of the file, or found by the checks across its records (kept on its "
           "last row).", False, ["read", "check", "file"]),
])


def _text(name: str, tag: str) -> pa.Field:
    return _field(name, _STR, f"{tag} tag value, with #/## inheritance resolved.")


def _hand(seat: str, name: str) -> pa.Field:
    return _field(f"deal_{seat.lower()}", _STR, f"{name}'s hand, spades.hearts.diamonds.clubs, "
                  "ranks descending; null when unknown ('-') or when Deal does not parse.")


def _points(seat: str, name: str) -> pa.Field:
    return _field(f"hcp_{seat.lower()}", pa.int8(), f"High-card points of {name}'s hand "
                  "(A 4, K 3, Q 2, J 1); null when the hand is unknown.")


_BYTES = pa.binary()

BOARDS = pa.schema([
    _field("path", _STR, "Source file as given to pbnkit convert."),
    _field("source", _STR, "Source file relative to the common root of the run's inputs (the "
           "deepest directory holding them all), '/' between its parts; a URI as given. The "
           "name pbnkit.export.original writes the file back under."),
    _field("index", pa.int32(), "0-based position of the record in its file; null on the row "
           "of a file without records."),
    _field("record_id", _STR, "Stable record id: 32 hex digits of the SHA-256 of (the "
           "SHA-256 of the whole source file's bytes, index): the same on every run and "
           "every -j, and for a copy of the file under another name; the key the score "
           "tables join on. Null on the row of a file without records, and when not known "
           "(an archive upgraded from version 1)."),
    _field("line", pa.int32(), "1-based line where the record starts; null on the row of a "
           "file without records."),
    _field("encoding", _STR, "How the file's bytes were decoded, e.g. 'utf-8', "
           "'utf-8 (bom)', 'iso-8859-1 (declared)', 'latin-1 (fallback)'.", False),
    _text("event", "Event"),
    _text("site", "Site"),
    _field("date", pa.date32(), "Date tag as a date: from YYYY.MM.DD (PBN), YYYY-MM-DD, "
           "YYYY/MM/DD or YYYYMMDD, maybe followed by a time; D-Mon-YYYY (2-Aug-2023); day "
           "and month in either order before the year (3/30/2021, 30.03.2021), the day "
           "being the part above 12; null when absent, when day and month cannot be told "
           "apart (both 12 or less and different), when a part is unknown ('?') or when "
           "it is no calendar date."),
    _text("date_text", "Date"),
    _field("time", pa.time32("ms"), "Time tag (HH:MM:SS or HH:MM) as a time of day; without "
           "a Time tag, the time written after the date in the Date tag; null otherwise. "
           "Milliseconds, as Parquet stores a time of day, though the tag has seconds."),
    _field("board", pa.int32(), "Board number (null when the Board tag is not an integer)."),
    _field("round", pa.int32(), "Round tag as a number (null when it is not a whole number; "
           "the text is in tags)."),
    _field("table", pa.int32(), "Table tag as a number (null when it is not a whole number; "
           "the text is in tags)."),
    _text("section", "Section"),
    _text("stage", "Stage"),
    _text("home_team", "HomeTeam"),
    _text("visit_team", "VisitTeam"),
    _text("room", "Room"),
    _text("west", "West"),
    _text("north", "North"),
    _text("east", "East"),
    _text("south", "South"),
    _field("dealer", _STR, "Dealer seat.", True, SEATS),
    _field("vulnerable", _STR, "Vulnerability (Love, '-' and Both normalised).", True,
           ["None", "NS", "EW", "All"]),
    _hand("N", "North"),
    _hand("E", "East"),
    _hand("S", "South"),
    _hand("W", "West"),
    _points("N", "North"),
    _points("E", "East"),
    _points("S", "South"),
    _points("W", "West"),
    _text("scoring", "Scoring"),
    _field("declarer", _STR, "Declarer seat, as the scorer reads it: the Declarer tag ('^' "
           "of a swapped declarer dropped), else the auction.", True, SEATS),
    _field("contract_level", pa.int8(), "1-7; 0 when passed out; null when neither the "
           "Contract tag nor the auction gives the contract (see contract_source)."),
    _field("contract_strain", _STR, "C, D, H, S or NT; null when passed out.", True,
           ["C", "D", "H", "S", "NT"]),
    _field("contract_risk", _STR, "'' undoubled (and passed out), X doubled, XX redoubled.",
           True, ["", "X", "XX"]),
    _field("contract_source", _STR, "Where the contract comes from, as the scorer reads it: "
           "tag (the Contract tag, leniently: 3N, 4Sx, 3NR, Pass), else auction (the "
           "replayed Auction section, when it ends); null when neither gives it.", True,
           ["tag", "auction"]),
    _field("result", pa.int8(), "Tricks won by declarer, from the Result tag (null when "
           "that cannot be told from it)."),
    _field("auction", _list(CALL), "Calls of the first Auction section with annotations.",
           False),
    _field("play", _list(CARD), "Cards of the first Play section, in the file's fixed seat "
           "order, with annotations.", False),
    _field("notes", _list(NOTE), "Note tags.", False),
    _field("commentary", _list(COMMENT), "Every {} and ; comment of the record, in order.",
           False),
    _field("tables", _list(TABLE), "Supplemental tables: the PBN table tags (ScoreTable, "
           "ActionTable...) whose value is a column spec.", False),
    _field("tags", _list(TAG), "Every tag pair in file order, with its body: the lossless "
           "source of the record.", False),
    _field("preamble", _list(ELEMENT), "Commentary and escape lines before the first tag "
           "(the file header belongs to the first record).", False),
    _field("trailer", _list(ELEMENT), "Commentary and escape lines after the file's last "
           "record (on the last record only).", False),
    _field("diagnostics", _list(DIAGNOSTIC), "Problems found in the record.", False),
    _field("errors", pa.int32(), "Diagnostics of error severity.", False),
    _field("warnings", pa.int32(), "Diagnostics of warning severity.", False),
    _field("original", _BYTES, "The record's bytes as read (encoding and line ends as in "
           "the file): from the start of the line of its first tag pair to that of the next "
           "record, so the semi-empty lines and commentary after it are its own; the file's "
           "last record ends with its own last line. Null on the row of a file without "
           "records, and when not known (an archive upgraded from version 1)."),
    _field("original_head", _BYTES, "On the first row of each file only: the file's bytes "
           "before its first record (a BOM, escape lines, commentary; the whole file when it "
           "has no record). original_head, original of each record in order, original_tail: "
           "the file, byte for byte."),
    _field("original_tail", _BYTES, "On the last row of each file only: the file's bytes "
           "after its last record."),
])

#: Columns needed to restore Game records (and their file trailers) from an archive.
RESTORE_COLUMNS = ["path", "index", "line", "encoding", "tags", "preamble", "trailer",
                   "diagnostics"]
#: Columns needed to write the source files back (``pbnkit.export.original``).
ORIGINAL_COLUMNS = ["path", "source", "index", "original", "original_head", "original_tail"]


def file_metadata(profile: str | None = None) -> dict[bytes, bytes]:
    """Key-value metadata of every Parquet file: what it holds and who wrote it."""
    from pbnkit import __version__

    return {
        b"pbnkit.schema": SCHEMA_NAME.encode(),
        b"pbnkit.schema_version": str(SCHEMA_VERSION).encode(),
        b"pbnkit.version": __version__.encode(),
        b"pbnkit.profile": (profile or "").encode(),
    }


def boards_schema(profile: str | None = None) -> pa.Schema:
    """The boards schema with the file metadata attached."""
    return BOARDS.with_metadata(file_metadata(profile))


# -- The schema written out -------------------------------------------------------------------

def _type_json(type_: pa.DataType) -> Any:
    if pa.types.is_list(type_):
        return {"type": "list", "item": _field_json(type_.value_field)}
    if pa.types.is_struct(type_):
        return {"type": "struct", "fields": [_field_json(type_.field(i))
                                             for i in range(type_.num_fields)]}
    return str(type_)


def _field_json(field: pa.Field) -> dict[str, Any]:
    out: dict[str, Any] = {"name": field.name, "type": _type_json(field.type),
                           "nullable": field.nullable}
    meta = field.metadata or {}
    if b"description" in meta:
        out["description"] = meta[b"description"].decode()
    if b"enum" in meta:
        out["enum"] = json.loads(meta[b"enum"])
    return out


def arrow_fields_json(schema: pa.Schema) -> list[dict[str, Any]]:
    """The fields of any Arrow schema as JSON: name, type (nested for lists and
    structs), nullable, and the description and enum from the field metadata."""
    return [_field_json(field) for field in schema]


def arrow_schema_json() -> dict[str, Any]:
    """The Arrow schema as JSON (``schemas/boards.v2.arrow.json``)."""
    return {
        "name": SCHEMA_NAME,
        "version": SCHEMA_VERSION,
        "description": "pbnkit boards table: one row per PBN record. Parquet files carry "
                       "key-value metadata pbnkit.schema, pbnkit.schema_version, "
                       "pbnkit.version and pbnkit.profile.",
        "fields": arrow_fields_json(BOARDS),
    }


_INTEGER_RANGE = {
    pa.int8(): (-(2 ** 7), 2 ** 7 - 1),
    pa.int16(): (-(2 ** 15), 2 ** 15 - 1),
    pa.int32(): (-(2 ** 31), 2 ** 31 - 1),
}


def _json_schema(type_: pa.DataType, nullable: bool,
                 field: pa.Field | None = None) -> dict[str, Any]:
    if pa.types.is_list(type_):
        item = type_.value_field
        schema: dict[str, Any] = {"type": "array",
                                  "items": _json_schema(item.type, item.nullable, item)}
    elif pa.types.is_struct(type_):
        fields = [type_.field(i) for i in range(type_.num_fields)]
        schema = {
            "type": "object",
            "required": [f.name for f in fields],
            "additionalProperties": False,
            "properties": {f.name: _json_schema(f.type, f.nullable, f) for f in fields},
        }
    elif type_ in _INTEGER_RANGE:
        low, high = _INTEGER_RANGE[type_]
        schema = {"type": "integer", "minimum": low, "maximum": high}
    elif pa.types.is_boolean(type_):
        schema = {"type": "boolean"}
    elif pa.types.is_string(type_):
        schema = {"type": "string"}
    elif pa.types.is_binary(type_):
        schema = {"type": "string", "contentEncoding": "base64"}
    elif pa.types.is_date32(type_):
        schema = {"type": "string", "format": "date"}
    elif pa.types.is_time32(type_):
        schema = {"type": "string", "pattern": "^[0-9]{2}:[0-9]{2}:[0-9]{2}$"}
    else:  # pragma: no cover -- the schema above uses no other type
        raise TypeError(f"no JSON Schema for {type_}")
    meta = (field.metadata or {}) if field is not None else {}
    if b"enum" in meta:
        schema["enum"] = json.loads(meta[b"enum"]) + ([None] if nullable else [])
    if nullable:
        schema["type"] = [schema["type"], "null"]
    if b"description" in meta:
        schema = {"description": meta[b"description"].decode(), **schema}
    return schema


def json_schema() -> dict[str, Any]:
    """The JSON Schema (Draft 2020-12) of JSON and JSONL archives
    (``schemas/boards.v2.json``): a JSON file is one document, a JSONL line one record
    (``#/$defs/record``). Binary columns are base64 strings, dates ``YYYY-MM-DD``, times
    ``HH:MM:SS``."""
    record = _json_schema(pa.struct(list(BOARDS)), False)
    record["description"] = ("One PBN record (a row of the boards table), or the row of a "
                             "file without records (index null).")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://pbnkit.invalid/schemas/{SCHEMA_NAME}.v{SCHEMA_VERSION}.json",
        "title": f"pbnkit boards archive, version {SCHEMA_VERSION}",
        "description": "The document `pbnkit convert -o OUT.json` writes. Each line of "
                       "`-o OUT.jsonl` is one record, valid against #/$defs/record.",
        "type": "object",
        "required": ["schema", "version", "pbnkit", "profile", "records"],
        "additionalProperties": False,
        "properties": {
            "schema": {"const": SCHEMA_NAME},
            "version": {"const": SCHEMA_VERSION},
            "pbnkit": {"type": "string", "description": "Version of pbnkit that wrote it."},
            "profile": {"type": "string", "description": "Scoring profile, '' when none."},
            "records": {"type": "array", "items": {"$ref": "#/$defs/record"}},
        },
        "$defs": {"record": record},
    }


# -- Where the schema files live -------------------------------------------------------------

def schema_dir() -> Path:
    """``schemas/`` inside the installed wheel, else the repository's."""
    packaged = resources.files("pbnkit") / "schemas"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "schemas"


def schema_files() -> dict[str, dict[str, Any]]:
    """File name → content of the generated schema files."""
    stem = f"{SCHEMA_NAME}.v{SCHEMA_VERSION}"
    return {f"{stem}.json": json_schema(), f"{stem}.arrow.json": arrow_schema_json()}


def render(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def write_schema_files(directory: Path | None = None) -> list[Path]:
    """Regenerate the schema files (after changing the schema above)."""
    directory = directory or schema_dir()
    written = []
    for name, document in schema_files().items():
        (directory / name).write_text(render(document), encoding="utf-8")
        written.append(directory / name)
    return written
