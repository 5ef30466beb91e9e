"""Archives of PBN records: the boards schema, Parquet/JSON writers and readers, and PBN
export (import or export format).

>>> import pbnkit                                         # doctest: +SKIP
>>> from pbnkit.export import read_archive                # doctest: +SKIP
>>> pbnkit.convert(["event.pbn"], "event.parquet")        # doctest: +SKIP
>>> games = list(read_archive("event.parquet"))           # doctest: +SKIP
"""

from pbnkit.export.archive import (
    ArchivedGame,
    ArchiveError,
    ConvertSummary,
    iter_archive,
    output_format,
    read_archive,
    records,
)
from pbnkit.export.atomic import OutputError, OutputExistsError
from pbnkit.export.schema import BOARDS, SCHEMA_VERSION, boards_schema

__all__ = [
    "BOARDS", "SCHEMA_VERSION", "ArchiveError", "ArchivedGame", "ConvertSummary", "OutputError",
    "OutputExistsError", "boards_schema", "iter_archive", "output_format",
    "read_archive", "records",
]
