"""Formats side by side: what a reader of hand records is, which format a file is, and
which files are hand records.

- :mod:`pbnkit.formats.reader`: the reader interface every format implements (PBN in
  :mod:`pbnkit.pbn`, LIN in :mod:`pbnkit.lin`), and the machinery they share. The
  readers import it and never each other.
- :mod:`pbnkit.formats.sniff`: which format a file or stream is, and its reader
  (:func:`~pbnkit.formats.sniff.open_reader`, behind ``pbnkit.read``).
- :mod:`pbnkit.formats.files`: the files a command reads, directories searched.

Nothing is imported here: the readers import :mod:`pbnkit.formats.reader`, which would
otherwise load the sniffing, and so the readers, while they load.
"""
