"""``SY`` codes: problems the reader finds in the text itself."""

from pbnkit.diagnostics import Code, Severity, register

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

SYNTAX = register(
    Code("SY001", "syntax-error", E, "The text of a game cannot be read as PBN.",
         "A malformed tag pair, an unterminated string or comment, or data before the "
         "first tag makes the rest of the line unreadable.",
         '[Board "1]', "Close the string and the bracket: [Board \"1\"]."),
    Code("SY002", "unquoted-tag-value", W, "A tag value is not in double quotes.",
         "PBN 3.3 requires a string; some programs write [Event Random Deal #].",
         "[Event Random Deal]", '[Event "Random Deal"]'),
    Code("SY003", "bad-character", E, "A control character or a character outside the "
         "allowed set.", "PBN 2.2 forbids control characters (other than tabs and line ends) "
         "and the codes 127-159 everywhere.", "a 0x85 byte in a name", "Remove the byte."),
    Code("SY004", "line-too-long", W, "A line longer than 255 characters.",
         "PBN 2.3 limits lines to 255 characters, line end included.", "", "Break the line."),
    Code("SY005", "encoding-fallback", W, "A line is not in the file's encoding and was "
         "read as Latin-1, or as Windows-1252.", "Files labelled one charset sometimes hold "
         "another. A file that declares none is read as UTF-8, else as PBN's own Latin-1; "
         "bytes 0x80-0x9F, which Latin-1 leaves to control characters, are read as "
         "Windows-1252 (curly quotes, dashes) and reported here.",
         "charset=UTF-8 but a 0xE9 byte; O\\x92Brien in a file without a charset",
         "Re-save the file in one encoding (UTF-8, or Latin-1 declared with %charset)."),
    Code("SY006", "bad-annotation", E, "A malformed or misplaced annotation in an "
         "auction or play section.", "Suffixes, =n= note references, $n NAGs and ^x "
         "irregularities follow rules of their own (PBN 3.5-3.7).", "1S !! ?", "One suffix per call."),
    Code("SY007", "bad-section-token", E, "A token in an auction or play section that is "
         "neither a call nor a card nor an annotation.", "", "1S 2Z", "Use PBN call and card tokens."),
    Code("SY101", "export-tab", E, "A tab character (export format).",
         "Export format uses single spaces and no tabs (PBN 2.3, 9).", "[Auction \"N\"]\\t1S",
         "Replace tabs with spaces."),
    Code("SY102", "export-line-end", E, "Line ends other than CRLF (export format).",
         "Export format ends every line with CR LF (PBN 2.3).", "LF line ends",
         "Write CRLF line ends."),
    Code("SY103", "export-game-separation", E, "Games not separated by exactly one empty "
         "line (export format).", "Export format puts one truly empty line between games "
         "and none before the first (PBN 3, 9).", "two blank lines between games",
         "Leave one empty line."),
    Code("SY009", "not-a-pbn-file", E, "The file is not PBN text; nothing is read.",
         "A PBN file is text in an ASCII-based charset; a file holding NUL bytes is a "
         "program, an archive, an image, or text in UTF-16, and gets this one finding "
         "instead of one per byte.", "pbnkit validate /bin/ls",
         "Name only PBN files, or re-save a UTF-16 file as UTF-8."),
    Code("SY008", "game-too-many-errors", W, "Reading of a game stopped after many syntax errors.",
         "", "", ""),
)
