"""The LIN reader: Bridge Base Online's hand records and vugraph files, read into the
same games as PBN (grammar ``grammars/lin.lark``, pairs in :mod:`pbnkit.lin.parser`,
their PBN meaning in :mod:`pbnkit.lin.records`)."""

from pbnkit.lin.reader import LinReader

__all__ = ["LinReader"]
