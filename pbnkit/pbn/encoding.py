"""A file's encoding as a whole reading of it names it, found without reading its
games: what a chunk of the file, read alone, cannot know."""

from __future__ import annotations

import codecs

from pbnkit.pbn.split import Encoding, codec_of, decoded, detect, line_separable, normalized

#: the bytes looked at in one step
BLOCK = 512 << 10


def file_encoding(path: str) -> str:
    """The file's encoding as a whole reading names it, found before reading it: one pass
    of the codec over the bytes, at C speed, tells whether any line needs the Latin-1
    fallback (line ends are ASCII, so a block decodes exactly when all its lines do).
    A block that does not decode is decoded as the reader decodes it, line by line: in
    a file that declares no charset, a fallback line holding a byte 0x80-0x9F names the
    fallback Windows-1252, so the pass goes on to the first such line.

    It runs before the first unit of a cut file can start: a block of ASCII is not
    decoded (testing the bytes is much cheaper), and a file in Latin-1, which has no byte
    it cannot decode, is not read."""
    with open(path, "rb") as stream:
        pending = stream.read(BLOCK)
        encoding = detect(pending)
        codec = codec_of(encoding)
        # nor one the reader stops at its head (a NUL byte: not a PBN file, SY009)
        if codecs.lookup(codec).name == "iso8859-1" or b"\0" in pending:
            return encoding.name
        pending = pending[3:] if encoding.bom else pending
        separable = line_separable(codec)  # and its ASCII bytes are ASCII characters
        undeclared = not (encoding.declared or encoding.bom)
        while True:
            block = stream.read(BLOCK)
            data = pending + block
            cut = len(data) if not block else max(data.rfind(b"\n"), data.rfind(b"\r")) + 1
            if not (separable and data.isascii()):
                decoded(normalized(data[:cut], Encoding()), codec, separable, 1, encoding)
                if encoding.windows_1252_lines or (encoding.fallback_lines and not undeclared):
                    break  # the name is settled
            pending = data[cut:]
            if not block:
                break
    return encoding.name
