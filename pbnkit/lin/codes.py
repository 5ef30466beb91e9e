"""Codes for problems only a LIN file can have, in the families of the PBN ones: the
syntax (``SY``), the values (``TG``) and the outcome (``SC``)."""

from pbnkit.diagnostics import Code, Severity, register

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

LIN = register(
    Code("SY301", "lin-unknown-key", W, "A LIN key that Bridge Base Online does not define.",
         "The pair is kept as written and carried into the archive, but it means nothing "
         "to pbnkit; a misspelt key (`mbb|1S|`) loses the call it held.",
         "xx|1|", "Correct the key, or leave it if another program wrote it on purpose."),
    Code("SY302", "lin-misplaced-key", W, "A LIN pair where it cannot apply.",
         "An explanation (`an`) belongs to the call just before it; a claim (`mc`) or a card "
         "(`pc`) to a board with a deal.", "an|strong| before any mb",
         "Move the pair after the call or into the board it belongs to."),
    Code("SY303", "unknown-format", E, "A file that is neither PBN nor LIN.",
         "PBN files start with tag pairs such as [Event \"...\"], LIN files with key|value| "
         "pairs such as pn|...|; this file has neither, so nothing in it is read.",
         "a spreadsheet saved as board1.pbn", "Export the records from the program that "
         "made them as PBN or LIN."),
    Code("TG301", "lin-bad-board", E, "A LIN board header that names no board.",
         "`qx` is the room and board (o1 = open room, board 1; c1 = closed room) and `ah` "
         "the board's title (Board 1); the board number is read from them.",
         "qx|x1|", "Write qx|o1| or qx|c1|."),
    Code("SC301", "lin-impossible-claim", E, "A LIN claim (mc) that the play makes impossible.",
         "BBO's `mc` is declarer's total of tricks, those already played included: at least "
         "what declarer has won, at most 13 less what the defence has won, exactly declarer's "
         "tricks after the 13th. A claim outside that range cannot have been agreed; it is "
         "the number written wrong, or cards left out or misplaced.",
         "West has won trick 1, then mc|13|", "Correct the claim (or the cards before it)."),
)
