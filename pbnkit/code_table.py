"""Every diagnostic code pbnkit has, as one table: the code, its kebab-case name, its
severity, a one-line summary, why it matters, an example and the fix.

Codes follow ruff: a family prefix plus digits (``SY`` syntax, ``TG`` tags, ``DL`` deal,
``AU`` auction, ``PL`` play, ``SC`` score and result); 101 and up in a family are the
export-format checks (PBN 9), 301 and up the problems only a LIN file can have. The
checks and the readers name a code by its string (``Diagnostic("DL003", ...)``) and look
nothing up here; :class:`pbnkit.diagnostics.Diagnostic` finds its name and severity in
:data:`CODES`. ``pbnkit codes`` and ``docs/codes.md`` print this table.

A new code is one entry here, in code order, and the check that emits it;
``tests/test_code_table.py`` keeps the two in step. This module imports nothing of
pbnkit, so the table is read without loading a check.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Severity(enum.Enum):
    """How serious a diagnostic is: an error, a warning, or information."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Code:
    """A diagnostic code and its documentation."""

    code: str
    name: str
    severity: Severity
    summary: str
    why: str = ""
    example: str = ""
    fix: str = ""


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

#: every code, in code order
TABLE: tuple[Code, ...] = (
    # The auction (AU)
    Code("AU001", "insufficient-bid", E,
         "A bid that does not outrank the previous bid.",
         why="Bids rank by level, then C < D < H < S < NT. An insufficient bid that the opponents "
             "accepted is written with ^I before it (PBN 3.9).",
         example="1D 1C",
         fix="Correct the bid, or write ^I 1C if the insufficient bid was accepted."),
    Code("AU002", "double-of-own-side", E,
         "A double of one's own side's bid.",
         why="Only an opponent's bid may be doubled.",
         example="1S Pass X",
         fix="Correct the call; an irregular double cannot be recorded (PBN 3.9)."),
    Code("AU003", "nothing-to-double", E,
         "A double with no undoubled bid to double.",
         why="A double needs a last bid that has not been doubled yet.",
         example="Pass X, or 1S X Pass X",
         fix="Correct the call."),
    Code("AU004", "redouble-without-double", E,
         "A redouble without an opposing double of one's own side's bid.",
         why="A redouble answers the opponents' double of your side's bid while that double is "
             "the last call other than Pass.",
         example="1S Pass Pass XX",
         fix="Correct the call."),
    Code("AU005", "call-after-auction-end", E,
         "A call after three passes ended the auction.",
         why="Three passes after a bid, double or redouble (four at the start) end the auction.",
         example="1S Pass Pass Pass 2H",
         fix="Remove the extra calls, or correct the passes."),
    Code("AU006", "auction-not-finished", W,
         "The auction stops before it has ended.",
         why="An auction ends with the passes that close it, or with * when no more calls will be "
             "given; + marks one that is to be continued (PBN 3.5).",
         example="1S Pass",
         fix="Add the missing calls, or end the section with * (or +)."),
    Code("AU007", "first-call-not-by-dealer", E,
         "The first call is not the dealer's.",
         why="The dealer calls first. In import format '-' fills the places before the dealer and "
             "^S stands for a player skipped by a call out of rotation (PBN 3.5, 3.9).",
         example='[Dealer "N"] [Auction "N"] - 1S',
         fix="Fix the Dealer tag, the Auction seat or the '-'s."),
    Code("AU008", "bad-auction-seat", E,
         "The Auction tag value is not a seat.",
         why="The Auction tag names the seat of the first call: W, N, E or S.",
         example='[Auction "X"]',
         fix='Write [Auction "N"] (the dealer, in export format).'),
    Code("AU009", "nonstandard-call", W,
         "A call written in a spelling PBN does not define.",
         why="PBN calls are Pass, X, XX, AP and bids such as 1NT; some programs write P or 1N. "
             "The call is read as meant.",
         example="P 1N",
         fix="Write Pass and 1NT."),
    Code("AU010", "invalid-call", E,
         "A token in the auction that is not a call.",
         why="Only calls, '-' before the first call, ^S, AP, * and + belong in the auction.",
         example="1S 1Z",
         fix="Correct the token. The rest of the auction cannot be checked."),
    Code("AU011", "call-after-end-marker", E,
         "A call after * or + in the auction.",
         why="* ends the auction section and + stands in place of the next call (PBN 3.5).",
         example="1S + Pass",
         fix="Remove what follows the marker, or replace + with the call made."),
    Code("AU012", "bad-insufficient-mark", E,
         "^I on a call that is not an insufficient bid.",
         why="^I marks an insufficient bid that was accepted; doubles and redoubles cannot be "
             "irregular (PBN 3.9).",
         example="1D ^I 2C",
         fix="Remove the ^I."),
    Code("AU013", "misplaced-irregularity", E,
         "A play irregularity (^R or ^L) in the auction.",
         why="^R (revoke) and ^L (lead out of turn) belong to the play section.",
         example="1S ^R Pass",
         fix="Remove it."),
    Code("AU014", "auction-without-dealer", E,
         "An auction section without a Dealer tag.",
         why="The auction section depends on the Dealer tag, which must come before it (PBN 3.1).",
         example='[Auction "N"] with no [Dealer]',
         fix='Add [Dealer "N"].'),
    Code("AU016", "missing-note", E,
         "A note reference in the auction with no Note tag of that index in the auction section.",
         why='A reference =n= is explained by [Note "n:..."] after the calls of the auction '
             "section; auction notes are numbered separately from the others (PBN 3.5.5, 3.6.5).",
         example='1NT =1= with no [Note "1:..."] after the calls',
         fix="Add the Note tag."),
    Code("AU017", "unused-note", W,
         "A Note tag of the auction section that no call refers to.",
         why="The verifier reports it as 'Unused note'.",
         example='[Note "2:..."] and no =2=',
         fix="Remove the Note or add the reference."),
    Code("AU018", "note-index-out-of-range", E,
         "A note index outside 1-32.",
         why="Note references =n= and Note tags '<n>:<text>' use indices 1 to 32 (PBN 3.5.4); the "
             "verifier reports 'Bad note'.",
         example="=40=",
         fix="Renumber the note from 1."),
    Code("AU101", "export-auction-seat", E,
         "The Auction tag value is not the dealer (export format).",
         why="In export format the auction starts with the dealer's call, with no '-' "
             "placeholders (PBN 3.5).",
         example='[Dealer "N"] [Auction "W"] - 1S',
         fix='Write [Auction "N"] and drop the placeholders.'),
    Code("AU102", "export-calls-per-line", E,
         "A line of the auction that does not hold four calls (export format).",
         why="Export format writes four calls to a line; fewer only when annotations make the "
             "line long, and the last line may be short (PBN 3.5, 3.6).",
         example="1S Pass 2S Pass 4S / Pass Pass Pass",
         fix="Put four calls on each line."),
    Code("AU103", "export-call-suffix", E,
         "A suffix after a call (export format).",
         why="Export format converts suffixes such as ! and ?? to NAGs (PBN 3.5.2, 3.6.2).",
         example="!!",
         fix="Write the NAG instead: $3 after a call, $9 after a card."),
    Code("AU104", "export-call-case", E,
         "A call not written in its uppercase export form.",
         why="Export format allows only uppercase for suits, ranks, NT, X/XX, Pass and AP (PBN "
             "3.11).",
         example="pass, 1nt, sa",
         fix="Write Pass, 1NT, SA."),
    Code("AU105", "export-call-annotation-order", E,
         "The annotations of a call are not in export order.",
         why="Export order is the note reference, then the NAGs in ascending order (PBN 3.5.2, "
             "3.6.2).",
         example="1S $25 =1= $3",
         fix="Write 1S =1= $3 $25."),
    # The deal (DL)
    Code("DL001", "malformed-deal", E,
         "The Deal value is not '<seat>:' and four hands.",
         why="Each hand is spades.hearts.diamonds.clubs, or '-' when unknown, separated by spaces "
             "(PBN 3.4.11).",
         example='[Deal "N:AKQ.JT9.876"]',
         fix='[Deal "N:AKQ.JT9.876.5432 - - -"]'),
    Code("DL002", "bad-rank", E,
         "A character in a hand that is not a rank.",
         why="Ranks are A K Q J T 9 8 7 6 5 4 3 2; ten is T, never 10.",
         example='[Deal "N:A10.. ..."]',
         fix="Write T for the ten."),
    Code("DL003", "duplicate-card", E,
         "A card is dealt more than once.",
         why="Each of the 52 cards is in exactly one hand.",
         example="SA in North and in South"),
    Code("DL004", "too-many-cards", E,
         "A hand holds more than 13 cards."),
    Code("DL005", "unequal-hands", E,
         "The known hands hold different numbers of cards.",
         why="A full deal has 13 cards per hand; an end position has the same smaller number in "
             "every known hand (PBN 6.2), so a hand of another size means cards are missing or "
             "extra.",
         example="N with 13 cards, E with 12"),
    Code("DL006", "no-hand", E,
         "The Deal gives no hand at all.",
         why="At least one hand must be known (PBN 3.4.11).",
         example='[Deal "N:- - - -"]'),
    # The play (PL)
    Code("PL001", "card-not-held", E,
         "A card the player does not hold.",
         why="Each player plays from their own hand, each card once. For an unknown hand, a card "
             "a known hand holds is not available (PBN 3.6; the verifier's 'Bad card').",
         example="West plays SA but SA is in North's hand",
         fix="Correct the card, or check that the rows are in fixed seat columns (not in the "
             "order the cards were played)."),
    Code("PL002", "revoke", E,
         "A player does not follow suit while holding the suit led.",
         why="Players must follow suit when able. A revoke not noticed in time is written with ^R "
             "before the card (PBN 3.9).",
         example="CA S6 C3 C4 with North holding a club",
         fix="Correct the card, or write ^R S6 if the revoke stood."),
    Code("PL003", "bad-revoke-mark", E,
         "^R on a card that is not a revoke.",
         why="^R marks a failure to follow suit; a card that follows suit, a lead, or a discard "
             "from a void is not one.",
         example="CA ^R C2 C3 C4",
         fix="Remove the ^R."),
    Code("PL004", "bad-lead-mark", E,
         "^L on a card led by the rightful leader, or twice in a trick.",
         why="^L marks a lead out of turn that the opponents accepted (PBN 3.9).",
         example="^L CA C2 C3 C4 where West was on lead",
         fix="Remove the ^L."),
    Code("PL005", "play-without-deal", E,
         "A play section without a Deal tag.",
         why="The cards played can only be checked against the deal, which must come before the "
             "play section (PBN 3.1).",
         example='[Play "W"] with no [Deal]',
         fix="Add the Deal tag."),
    Code("PL006", "play-without-contract", E,
         "A play section without a contract or declarer.",
         why="The trump suit and the opening leader follow from Contract and Declarer, which must "
             "come before the play section (PBN 3.1); a passed-out board has no play.",
         example='[Play "W"] with no [Contract]',
         fix="Add the Contract and Declarer tags."),
    Code("PL007", "too-many-cards", E,
         "More cards than the tricks of the deal.",
         why="The play ends after 13 tricks (or the hand size of an end position).",
         example="a 14th row of cards",
         fix="Remove the extra cards."),
    Code("PL008", "invalid-card", E,
         "A token in the play that is not a card.",
         why="Cards are a suit S H D C and a rank A K Q J T 9-2; '-' is an unknown card (PBN "
             "3.6.1). The token is read as an unknown card.",
         example="S10",
         fix="Write ST."),
    Code("PL009", "play-seat-not-leader", W,
         "The Play tag value is not the opening leader.",
         why="Declarer's left-hand opponent leads; export format writes that seat in the Play "
             "tag. Import format may start the columns elsewhere (PBN 3.6).",
         example='[Declarer "S"] [Play "N"]',
         fix='Write [Play "W"] and rotate the columns.'),
    Code("PL010", "card-after-end-marker", E,
         "A card after * or + in the play.",
         why="* ends the play section; after + (the next card to play) only '-' may follow, and a "
             "second + is one too many (PBN 3.6).",
         example="SA + SK",
         fix="Remove what follows the marker."),
    Code("PL011", "bad-play-seat", E,
         "The Play tag value is not a seat.",
         why="The Play tag names the seat of the first column: W, N, E or S.",
         example='[Play "X"]',
         fix='Write [Play "W"] (the opening leader, in export format).'),
    Code("PL013", "misplaced-irregularity", E,
         "An auction irregularity (^I or ^S) in the play.",
         why="^I (insufficient bid) and ^S (skipped call) belong to the auction section.",
         example="SA ^S SK",
         fix="Remove it."),
    Code("PL016", "missing-note", E,
         "A note reference in the play with no Note tag of that index in the play section.",
         why='A reference =n= is explained by [Note "n:..."] after the cards of the play section; '
             "play notes are numbered separately from the others (PBN 3.5.5, 3.6.5).",
         example='1NT =1= with no [Note "1:..."] after the calls',
         fix="Add the Note tag."),
    Code("PL017", "unused-note", W,
         "A Note tag of the play section that no card refers to.",
         why="The verifier reports it as 'Unused note'.",
         example='[Note "2:..."] and no =2=',
         fix="Remove the Note or add the reference."),
    Code("PL018", "note-index-out-of-range", E,
         "A note index outside 1-32.",
         why="Note references =n= and Note tags '<n>:<text>' use indices 1 to 32 (PBN 3.5.4); the "
             "verifier reports 'Bad note'.",
         example="=40=",
         fix="Renumber the note from 1."),
    Code("PL102", "export-cards-per-line", E,
         "A line of the play that does not hold four cards (export format).",
         why="Export format writes four cards to a line; fewer only when annotations make the "
             "line long, and the last line may be short (PBN 3.5, 3.6).",
         example="SK H3 S4 S3 C5 / C2 C6 CK",
         fix="Put four cards on each line."),
    Code("PL103", "export-card-suffix", E,
         "A suffix after a card (export format).",
         why="Export format converts suffixes such as ! and ?? to NAGs (PBN 3.5.2, 3.6.2).",
         example="!!",
         fix="Write the NAG instead: $3 after a call, $9 after a card."),
    Code("PL104", "export-card-case", E,
         "A card not written in its uppercase export form.",
         why="Export format allows only uppercase for suits, ranks, NT, X/XX, Pass and AP (PBN "
             "3.11).",
         example="pass, 1nt, sa",
         fix="Write Pass, 1NT, SA."),
    Code("PL105", "export-card-annotation-order", E,
         "The annotations of a card are not in export order.",
         why="Export order is the note reference, then the NAGs in ascending order (PBN 3.5.2, "
             "3.6.2).",
         example="1S $25 =1= $3",
         fix="Write 1S =1= $3 $25."),
    # Results and scores (SC)
    Code("SC001", "contract-mismatch", E,
         "The Contract tag disagrees with the auction.",
         why="The contract is the last bid, doubled or redoubled if a double or redouble stands "
             "on it.",
         example='1S Pass Pass X AP with [Contract "1S"]',
         fix='Write [Contract "1SX"], or correct the auction.'),
    Code("SC002", "declarer-mismatch", E,
         "The Declarer tag disagrees with the auction.",
         why="Declarer is the player of the side that won the contract who first named its "
             "strain. When declarer and dummy were swapped, write ^ and the seat that actually "
             "declared (PBN 3.4.13).",
         example='N 1C, E 1S, S 2H, N 4H, all pass with [Declarer "N"]',
         fix='Write [Declarer "S"].'),
    Code("SC003", "result-mismatch", E,
         "The Result tag disagrees with the tricks played.",
         why="After 13 tricks Result is declarer's tricks; after * (a claim) it is the total, at "
             "least the tricks already won; for an unfinished play it may be the partial count "
             "(PBN 3.4.15). A table agreement that differs is written with ^.",
         example='ten tricks won by declarer in the play, [Result "9"]',
         fix='Correct the Result, or write [Result "^9"] if 9 was agreed at the table.'),
    Code("SC020", "score-mismatch", E,
         "The Score tag disagrees with the contract, declarer, result and vulnerability.",
         why="Score is the Law 77 score: bare, it is declarer's side's; 'NS x' and 'EW y' are "
             "each side's. The reference verifier reports this as 'Bad score'. An irregularity "
             "may justify another figure; when commentary follows the tag this is only a warning.",
         example='[Declarer "N"] [Contract "4S"] [Result "11"] [Vulnerable "None"] [Score "NS '
                 '420"]',
         fix='Write [Score "NS 450"], or correct the Contract, Result or Vulnerable tag.'),
    Code("SC021", "imps-mismatch", E,
         "ScoreIMP disagrees with the team match's IMPs.",
         why="With both rooms of a match in the file, the board's IMPs follow from the two N-S "
             "scores: Open room N-S is team A, Closed room N-S is team B.",
         example='Open 4S= +420, Closed 3S+1 +170 (250: 6 IMPs) with [ScoreIMP "NS 5"] in the '
                 "Open room",
         fix='Write [ScoreIMP "NS 6"].'),
    Code("SC022", "matchpoints-mismatch-in-file", W,
         "ScoreMP or ScorePercentage disagrees with the matchpoints of the board's results in "
         "this file.",
         why="Computed from the results of the board that this file holds, as pbnkit score "
             "computes them (MP1 unless Scoring says MP2; where the records name their pairs, a "
             "board with fewer results than the most played is scaled by Neuberg). A file may "
             "hold only part of the field, so this only warns.",
         example='two results of board 1, +420 and +170, with [ScoreMP "NS 0"] on the +420',
         fix="Correct the figure, or ignore this if the file holds only part of the field."),
    Code("SC023", "matchpoints-mismatch-with-table", E,
         "ScoreMP or ScorePercentage disagrees with the game's ScoreTable.",
         why="The ScoreTable holds the whole field's results on the board (PBN 5); the record's "
             "own score is one of its rows and gets the matchpoints the table gives that score.",
         example='[ScorePercentage "NS 40"] where the table makes the record\'s +420 worth 75%',
         fix="Correct the figure or the table."),
    Code("SC024", "rubber-score-mismatch", E,
         "ScoreRubber disagrees with the rubber score sheet.",
         why="ScoreRubber gives a deal's points above/below the line (PBN 4.2); pbnkit writes "
             "each deal on the rubber sheet in file order (docs/scoring.md), rubber bonus "
             "included on the deal that ends the rubber.",
         example='1NT by S making 8 tricks, not vulnerable, with [ScoreRubber "NS 30/40"]',
         fix='Write [ScoreRubber "NS 30/40"] only for 9 tricks; for 8 it is "NS 0/40".'),
    Code("SC025", "rubber-vulnerability-mismatch", W,
         "Vulnerable disagrees with the games won so far in the rubber.",
         why="In rubber bridge a side is vulnerable once it has won a game; auction bridge 1920 "
             "has no vulnerability.",
         example='N-S won a game on the first deal; the second deal says [Vulnerable "None"]',
         fix='Write [Vulnerable "NS"].'),
    Code("SC026", "table-score-mismatch", E,
         "A ScoreTable row's score disagrees with its contract, declarer and result.",
         why="Each row's Score_NS (or Score_EW) is the Law 77 score of the row's contract, "
             "declarer and result at the board's vulnerability (the Vulnerable tag, else the "
             "board number). Artificial (^), unknown (?) and '-' cells are not compared.",
         example="a row '4S N 10 450' on a board where nobody is vulnerable",
         fix="Write 420."),
    Code("SC027", "table-matchpoints-mismatch", E,
         "A ScoreTable row's MP, Percentage or Rank disagrees with the table's own scores.",
         why="MP_NS/MP_EW and Percentage_NS/_EW follow from the table's scores (MP1 unless "
             "Scoring says MP2; a Multiplicity column counts a row several times). In an "
             "individual event MP_North, Percentage_East... are the player's side's: North and "
             "South have the N-S figure, East and West the E-W one. A figure rounded or cut to "
             "the precision written is accepted. Figures factored to a larger field (Neuberg: (MP "
             "+ 1) x E / e - 1, as pbnkit score factors a board with fewer results than the "
             "event's most) are accepted too, and compared with the event's most results at the "
             "end of the file (SC029 when they differ, an SC035 note when they agree). Rank is "
             "one more than the results with a better N-S score, tied results sharing the better "
             "rank.",
         example="rows scoring 420 and 170 with MP_NS 0 on the 420 row",
         fix="Write MP_NS 2 on the 420 row and 0 on the 170 row."),
    Code("SC028", "table-imps-mismatch", E,
         "A ScoreTable row's IMP_NS or IMP_EW disagrees with its score.",
         why="Checked only where the IMPs are unambiguous: against the row's datum column "
             "(ButlerDatum or Datum), or against every other score under Scoring 'Cross' (summed; "
             "'Cross1' divided by the number of scores, 'Cross2' by the number of comparisons). "
             "An individual event's IMP_North... are the player's side's.",
         example="score 120 against a datum of -90 (210: 5 IMPs) with IMP_NS 4",
         fix="Write 5."),
    Code("SC029", "table-matchpoints-unexplained", W,
         "Most of a ScoreTable's MP or Percentage figures do not follow from its scores.",
         why="The table may list only part of the field, or the event used a method pbnkit does "
             "not know; the table is reported once instead of row by row.",
         example="two rows, 500 and 470, with Percentage_NS 99.4 and 98.4",
         fix="Give the whole field, or check the figures."),
    Code("SC030", "imps-not-checked", I,
         "ScoreIMP computed by a method pbnkit does not compute is not checked.",
         why="An expert or median datum, the 1948/1961 scales, board-a-match and instant scoring, "
             "and Butler or cross-IMPs on team-match records (they belong to a pairs field) are "
             "reported once per file. Butler and cross-IMPs of a pairs field are checked (SC033).",
         example='[Scoring "IMP;Median"] [ScoreIMP "NS 3"]'),
    Code("SC031", "total-score-mismatch", E,
         "A TotalScoreTable figure disagrees with the ranking of the file's own results.",
         why="pbnkit scores every board of the file (each ScoreTable row is a result) by the "
             "Scoring tag's method (matchpoints with Neuberg, Butler or cross-IMPs), adds up each "
             "pair's boards and ranks the pairs, ties sharing the better place. A pair's total, "
             "mean, percentage and rank must agree, to the precision written, when the file holds "
             "all the boards the table counts for it. A team's line (TeamId) is compared with the "
             "file's matches: its victory points on the WBF 2013 scale over the boards each match "
             "compared, its IMPs (won, or their difference) and its rank.",
         example="a pair with 50 IMPs over its 21 boards listed with TotalIMP 48",
         fix="Correct the figure, or the board results it comes from."),
    Code("SC032", "score-figures-not-checked", I,
         "Score figures that pbnkit cannot check in this file, and why.",
         why="Every score figure of a file is either checked or reported here once per file and "
             "kind: ScoreIMP whose other room is not in the file, matchpoints of a board whose "
             "other results are not in the file, matchpoints under a Scoring that names IMPs or "
             "on the records of a team match, ScoreMP above the top of the file's results, "
             "ScoreMP or ScorePercentage whose score is not a row of the record's ScoreTable, "
             "ScoreRubber after a deal that could not be scored, ScoreTable figures whose field "
             "is not known (an artificial score in it, a single result) or whose method is not "
             "(IMPs without a datum column, an expert or median datum), victory points of a "
             "ScoreTable or of pairs, TotalScoreTable columns named like figures that PBN 2.1 and "
             "the programs pbnkit knows do not define (a session's Score_1), and TotalScoreTable "
             "lines for pairs or teams whose boards or matches the file does not hold.",
         example='[ScoreIMP "NS 6"] on an Open-room record whose Closed room is in another file'),
    Code("SC033", "pairs-imps-mismatch-in-file", W,
         "ScoreIMP disagrees with the Butler or cross-IMPs of the board's results in this file.",
         why="Under Scoring 'Butler' (or 'Mean') each N-S score is IMPed against the datum of the "
             "board's results (their mean, the highest and lowest left out from five on, to the "
             "nearest 10; under 'Butler-2' from three on); under 'Cross' against every other "
             "result, summed ('Cross1': divided by the number of scores, 'Cross2': by the number "
             "of comparisons). A file may hold only part of the field, so this only warns.",
         example='[Scoring "IMP;Butler"], results +420, +170, -50 (datum 180) and [ScoreIMP "NS '
                 '5"] on the +420',
         fix='Write [ScoreIMP "NS 6"] (240 over the datum).'),
    Code("SC034", "table-datum-mismatch", E,
         "A ScoreTable's datum column disagrees with the Butler datum of the table's scores.",
         why="Under Scoring 'Butler' (or 'Mean', or 'IMP' alone) the datum (ButlerDatum, Datum) "
             "is the mean of the table's N-S scores, the highest and the lowest left out from "
             "five results on, rounded to the nearest 10 (an exact 5 away from zero); under "
             "'Butler-2' the 2 extreme scores are left out from three results on (PBN 2.1 3.4.12; "
             "with one or two results all are kept). A plain 'Butler' datum that is the mean of "
             "all the scores, none left out, is the standard's other reading: accepted and noted "
             "(SC035). An expert or median datum is not computed (SC032).",
         example="Butler-2, rows +600, +300, -100 with ButlerDatum 270 on each",
         fix="Write 300 (the mean of +300 once +600 and -100 are left out)."),
    Code("SC035", "score-convention-followed", I,
         "Stated figures accepted under the convention they follow, named once per file and kind.",
         why="Programs differ on a few conventions, and figures that follow one of them are "
             "accepted, with this note naming it: a ScoreTable's matchpoints on a board with "
             "fewer results than the event's most, factored to it (Neuberg, as pbnkit score does) "
             "or plain; a plain Butler datum that is the mean of all the scores (PBN 2.1's "
             "wording; pbnkit score leaves out the highest and the lowest from five results on); "
             "a TotalScoreTable line crediting a pair that sat out boards with its average (its "
             "NrBoards is the session's, its total the mean per board played times those boards).",
         example="a board played 7 times in an 8-table event, its ScoreTable giving plain "
                 "matchpoints over a top of 12"),
    Code("SC036", "result-not-scored", W,
         "A result that pbnkit score cannot score, and why.",
         why="A ScoreTable row, or a record with a contract, whose contract, declarer, result or "
             "vulnerability cannot be read is left out of its board's field and of its pairs' "
             "totals: the ranking no longer counts it. A table row is a warning; a record with a "
             "contract and no result (a deal saved after the auction) is information.",
         example='a ScoreTable row "2 6 3D/ E 8 - -": no contract reads 3D/, and no score is given',
         fix="Write the result as PBN spells it (3DX), or an artificial score (^50) for an "
             "adjusted board."),
    Code("SC041", "wrong-double-dummy-table", E,
         "An OptimumResultTable or DoubleDummyTricks whose tricks are not the double-dummy tricks "
         "of the deal.",
         why="The table gives, for each declarer and denomination, the tricks that declarer takes "
             "with best play by all four players, every card in view. pbnkit solves the deal "
             "(validate --dd) and compares each entry. DoubleDummyTricks holds the same 20 "
             "numbers as hexadecimal digits, declarers N, S, E, W each in NT, S, H, D, C.",
         example="N S 9 where North takes 10 tricks in spades",
         fix="Recompute it with pbnkit analyze."),
    Code("SC042", "wrong-optimum-score", E,
         "An OptimumScore that is not the par score of the deal.",
         why="OptimumScore is the score both sides reach when each bids its best against the "
             "other, sacrifices included, with the double-dummy tricks and the deal's "
             "vulnerability; the dealer's side bids first.",
         example='[OptimumScore "NS 420"] on a deal whose par is NS 450',
         fix="Recompute it with pbnkit analyze."),
    Code("SC043", "wrong-par-contract", E,
         "A ParContract naming a contract that does not score the par, or a wrong result.",
         why="Each contract of ParContract must take the stated number of tricks double dummy for "
             "its declarer and score the par score.",
         example='[ParContract "NS 4S="] where N-S take 11 tricks in spades',
         fix="Recompute it with pbnkit analyze."),
    Code("SC044", "unreadable-double-dummy-tag", W,
         "An OptimumResultTable, DoubleDummyTricks, OptimumScore or ParContract that cannot be "
         "checked.",
         why="A row that is not a declarer, a denomination and a number of tricks, or a value in "
             "neither the 'NS <score>' nor the 'NS 4S=' form, cannot be compared with the "
             "solver's answer.",
         example='[ParContract "four spades"]',
         fix="Write the value as PBN has it."),
    Code("SC301", "lin-impossible-claim", E,
         "A LIN claim (mc) that the play makes impossible.",
         why="BBO's `mc` is declarer's total of tricks, those already played included: at least "
             "what declarer has won, at most 13 less what the defence has won, exactly declarer's "
             "tricks after the 13th. A claim outside that range cannot have been agreed; it is "
             "the number written wrong, or cards left out or misplaced.",
         example="West has won trick 1, then mc|13|",
         fix="Correct the claim (or the cards before it)."),
    # Syntax (SY)
    Code("SY001", "syntax-error", E,
         "The text of a game cannot be read as PBN.",
         why="A malformed tag pair, an unterminated string or comment, or data before the first "
             "tag makes the rest of the line unreadable.",
         example='[Board "1]',
         fix='Close the string and the bracket: [Board "1"].'),
    Code("SY002", "unquoted-tag-value", W,
         "A tag value is not in double quotes.",
         why="PBN 3.3 requires a string; some programs write [Event Random Deal #].",
         example="[Event Random Deal]",
         fix='[Event "Random Deal"]'),
    Code("SY003", "bad-character", E,
         "A control character or a character outside the allowed set.",
         why="PBN 2.2 forbids control characters (other than tabs and line ends) and the codes "
             "127-159 everywhere.",
         example="a 0x85 byte in a name",
         fix="Remove the byte."),
    Code("SY004", "line-too-long", W,
         "A line longer than 255 characters.",
         why="PBN 2.3 limits lines to 255 characters, line end included.",
         fix="Break the line."),
    Code("SY005", "encoding-fallback", W,
         "A line is not in the file's encoding and was read as Latin-1, or as Windows-1252.",
         why="Files labelled one charset sometimes hold another. A file that declares none is "
             "read as UTF-8, else as PBN's own Latin-1; bytes 0x80-0x9F, which Latin-1 leaves to "
             "control characters, are read as Windows-1252 (curly quotes, dashes) and reported "
             "here.",
         example="charset=UTF-8 but a 0xE9 byte; O\\x92Brien in a file without a charset",
         fix="Re-save the file in one encoding (UTF-8, or Latin-1 declared with %charset)."),
    Code("SY006", "bad-annotation", E,
         "A malformed or misplaced annotation in an auction or play section.",
         why="Suffixes, =n= note references, $n NAGs and ^x irregularities follow rules of their "
             "own (PBN 3.5-3.7).",
         example="1S !! ?",
         fix="One suffix per call."),
    Code("SY007", "bad-section-token", E,
         "A token in an auction or play section that is neither a call nor a card nor an "
         "annotation.",
         example="1S 2Z",
         fix="Use PBN call and card tokens."),
    Code("SY008", "game-too-many-errors", W,
         "Reading of a game stopped after many syntax errors."),
    Code("SY009", "not-a-pbn-file", E,
         "The file is not PBN text; nothing is read.",
         why="A PBN file is text in an ASCII-based charset; a file holding NUL bytes is a "
             "program, an archive, an image, or text in UTF-16, and gets this one finding instead "
             "of one per byte.",
         example="pbnkit validate /bin/ls",
         fix="Name only PBN files, or re-save a UTF-16 file as UTF-8."),
    Code("SY101", "export-tab", E,
         "A tab character (export format).",
         why="Export format uses single spaces and no tabs (PBN 2.3, 9).",
         example='[Auction "N"]\\t1S',
         fix="Replace tabs with spaces."),
    Code("SY102", "export-line-end", E,
         "Line ends other than CRLF (export format).",
         why="Export format ends every line with CR LF (PBN 2.3).",
         example="LF line ends",
         fix="Write CRLF line ends."),
    Code("SY103", "export-game-separation", E,
         "Games not separated by exactly one empty line (export format).",
         why="Export format puts one truly empty line between games and none before the first "
             "(PBN 3, 9).",
         example="two blank lines between games",
         fix="Leave one empty line."),
    Code("SY301", "lin-unknown-key", W,
         "A LIN key that Bridge Base Online does not define.",
         why="The pair is kept as written and carried into the archive, but it means nothing to "
             "pbnkit; a misspelt key (`mbb|1S|`) loses the call it held.",
         example="xx|1|",
         fix="Correct the key, or leave it if another program wrote it on purpose."),
    Code("SY302", "lin-misplaced-key", W,
         "A LIN pair where it cannot apply.",
         why="An explanation (`an`) belongs to the call just before it; a claim (`mc`) or a card "
             "(`pc`) to a board with a deal.",
         example="an|strong| before any mb",
         fix="Move the pair after the call or into the board it belongs to."),
    Code("SY303", "unknown-format", E,
         "A file that is neither PBN nor LIN.",
         why='PBN files start with tag pairs such as [Event "..."], LIN files with key|value| '
             "pairs such as pn|...|; this file has neither, so nothing in it is read.",
         example="a spreadsheet saved as board1.pbn",
         fix="Export the records from the program that made them as PBN or LIN."),
    # Tags (TG)
    Code("TG001", "duplicate-tag", W,
         "A tag appears twice in one game; the first counts.",
         why="In import format a repeated tag is ignored (PBN 3.3); in export format it is an "
             "error. Note tags may repeat with different indices.",
         example='[Room "Open"] ... [Room "IMP"]',
         fix="Remove the second tag."),
    Code("TG002", "forbidden-inheritance", E,
         "'#' or '##' on a tag that may not inherit.",
         why="Dealer, Vulnerable, Deal, Declarer, Contract, Auction, Play and Note must be given "
             "in every game (PBN 4.8).",
         example='[Deal "#"]',
         fix="Write the value out."),
    Code("TG003", "unknown-tag", I,
         "A tag name that PBN 2.1 does not define.",
         why="Unknown tags are allowed and skipped (PBN 4.9); they are often a program's own "
             "extensions (DoubleDummyTricks, ParContract, BCFlags).",
         example='[ParContract "4S"]'),
    Code("TG004", "invalid-seat", E,
         "A Dealer or Declarer value that is not a seat.",
         why="Dealer is W, N, E or S; Declarer may also be ^W.. (declarer and dummy swapped) or "
             "empty for a passed-out board.",
         example='[Dealer "X"]',
         fix='[Dealer "N"]'),
    Code("TG005", "invalid-vulnerable", E,
         "A Vulnerable value PBN does not know.",
         why="None, Love, -, NS, EW, All or Both, in any case (PBN 3.4.10).",
         example='[Vulnerable "Yes"]',
         fix='[Vulnerable "All"]'),
    Code("TG006", "invalid-contract", E,
         "A Contract value that is not Pass or level-strain-risk.",
         why="PBN 3.4.14: Pass, or 1-7, then C D H S NT, then nothing, X or XX; an end position "
             "gives only the strain.",
         example='[Contract "4N"]',
         fix='[Contract "4NT"]'),
    Code("TG007", "invalid-result", E,
         "A Result value in none of the PBN forms.",
         why="PBN 3.4.15: a number of tricks, or NS n / EW n forms, each 0-13, the two sides "
             "different and adding up to at most 13.",
         example='[Result "14"]',
         fix='[Result "10"]'),
    Code("TG008", "invalid-board", E,
         "A Board value that is not a positive integer.",
         why="Board numbers decide dealer and vulnerability in duplicate (PBN 3.4.4).",
         example='[Board "Example 1"]',
         fix='[Board "1"]'),
    Code("TG009", "invalid-date", W,
         "A Date, EventDate or UTCDate not in YYYY.MM.DD.",
         why="Unknown digits are written '?' (PBN 3.4.3); years before 1900 are refused by the "
             "reference verifier.",
         example='[Date "2025-03-01"]',
         fix='[Date "2025.03.01"]'),
    Code("TG010", "invalid-time", W,
         "A Time or UTCTime not in HH:MM:SS.",
         why="PBN 4.5.",
         example='[Time "17.04"]',
         fix='[Time "17:04:00"]'),
    Code("TG011", "invalid-scoring", E,
         "A Scoring value with two basic scoring systems.",
         why="At most one of MP, MatchPoints, IMP, Cavendish, Chicago, Rubber, BAM, Instant (PBN "
             "3.4.12).",
         example='[Scoring "IMP;MP"]',
         fix='[Scoring "IMP"]'),
    Code("TG012", "unknown-tag-value", I,
         "A value outside the examples PBN lists for Scoring, Competition, Mode or the *Type tags.",
         why="These lists are open-ended; the reference verifier only remarks on them.",
         example='[Scoring "Facit"]'),
    Code("TG013", "invalid-tag-value", E,
         "A value that does not follow its tag's format.",
         why="Room is Open or Closed, FrenchMP Yes or No, Round letters/digits/_/., Hidden seat "
             "letters, score tags their NS/EW forms, Note 'n:text' (PBN 4).",
         example='[Room "IMP"]',
         fix='[Room "Open"]'),
    Code("TG014", "dealer-not-board-dealer", W,
         "Dealer differs from the duplicate board number's dealer.",
         why="Board n is dealt by N, E, S, W in turn. This warns only where the boards are "
             "duplicate boards (a duplicate Scoring such as IMP or MP, a Room tag, or score tags "
             "and tables); elsewhere (practice, robot or challenge files that number deals "
             "freely) it is info.",
         example='[Scoring "IMP"] [Board "2"] [Dealer "N"]'),
    Code("TG015", "vulnerable-not-board-vulnerable", W,
         "Vulnerable differs from the duplicate board number's vulnerability.",
         why="The 16-board cycle. Like TG014, this warns only where the boards are duplicate "
             "boards, and is info elsewhere.",
         example='[Scoring "MP"] [Board "2"] [Vulnerable "None"]'),
    Code("TG016", "bad-table", E,
         "A table section whose columns or rows are malformed.",
         why="A table's tag value lists its columns as col;col;...; its elements then fill rows "
             "of exactly that many cells (PBN 5).",
         example='[ScoreTable ""] or a last row short of cells',
         fix="List the columns; give every row all its cells ('-' or '?' when empty)."),
    Code("TG017", "nonstandard-value", W,
         "A tag value written in a spelling PBN does not define; it is read as meant.",
         why="PBN writes each word of a value either all in uppercase or all in lowercase (Pass "
             "or pass, NT or nt); some programs write 3N, PASS, 4SR or NONE. Calls in the auction "
             "written so get AU009, with the same severity.",
         example='[Contract "3N"]',
         fix='[Contract "3NT"] (pbnkit validate --fix writes it)'),
    Code("TG018", "vulnerable-not-rubber-vulnerable", E,
         "Vulnerable disagrees with the games won in ScoreRubberHistory.",
         why="In a rubber, a side that has won a game is vulnerable; ScoreRubberHistory gives the "
             "below-the-line points of each game, so the games won, and the Vulnerable tag must "
             "agree with them.",
         example='[Vulnerable "None"] [ScoreRubberHistory "NS 0 0/120 0 EW 0 0/40 0"]',
         fix='[Vulnerable "NS"]'),
    Code("TG019", "tag-in-escape-line", W,
         "An escape line (% in column 1) holds a tag pair, which is therefore ignored.",
         why="Everything after % in column 1 is outside PBN; a tag pair there is usually one a "
             "program or an editor commented out by mistake.",
         example='%[Vulnerable "NS"]',
         fix="Remove the %, or the line."),
    Code("TG020", "trailing-blanks", W,
         "A tag value that ends in spaces or tabs.",
         why="The blanks are part of the value: 'Smith ' and 'Smith' are different names to a "
             "program comparing them, and a program that writes the file back keeps them.",
         example='[North "Smith "]',
         fix='[North "Smith"] (pbnkit validate --fix writes it)'),
    Code("TG021", "comment-in-table", W,
         "Commentary after an element of a table.",
         why="A table may have commentary only after its tag pair, before its first element; "
             "between or after the elements it is forbidden (PBN 5.1), as a program reading the "
             "rows need not expect it. The rows are still read.",
         example='[ScoreTable "Score\\5R"] 100 {a comment} 200',
         fix="Move the comment before the first element."),
    Code("TG022", "starred-double", W,
         "A doubled or redoubled contract written with '*' or '**', as some club scoring programs "
         "write it; read as X or XX.",
         why="PBN writes a double X and a redouble XX (PBN 3.4.14). Bridgewebs and others write "
             "3D* and 3D**, in the Contract tag and in ScoreTable rows alike.",
         example='[Contract "3D*"]',
         fix='[Contract "3DX"] (pbnkit validate --fix writes it in a tag)'),
    Code("TG023", "passed-out-spelling", W,
         "A passed-out board's contract written PO, AP or P; read as Pass.",
         why="PBN writes a passed-out board's contract Pass (PBN 3.4.14); AP is PBN's word for "
             "the four passes in an auction, not a contract, and PO and P are programs' own.",
         example='[Contract "PO"]',
         fix='[Contract "Pass"] (pbnkit validate --fix writes it in a tag)'),
    Code("TG024", "artificial-score-spelling", W,
         "An artificial (adjusted) score written as a scoring program writes it (A, A+, A-, A=, "
         "A6040, 60%, 40%/60%); read as the award it names.",
         why="PBN has one form for an artificial score: a ScoreTable element after '^', with '-' "
             "for its Contract, Declarer and Result (PBN 5.9); a Contract or Result tag cannot "
             "hold one. Programs write averages in the Contract or score cells. pbnkit scores "
             "them by Law 12C2: average plus 60 %, average 50 %, average minus 40 % of the top "
             "(3, 0 and -3 IMPs), A6040 60 % to N-S and 40 % to E-W.",
         example='a ScoreTable row "3 4 A A A - -" or [Contract "A+"]',
         fix="In a ScoreTable: '-' in Contract, Declarer and Result, and ^60 in Score_NS."),
    Code("TG101", "export-missing-tag", E,
         "A mandatory tag is missing (export format).",
         why="Export format gives all 15 mandatory tags, '?' when unknown and '' when not "
             "applicable, unless an earlier game set the value with '##' (PBN 3.4).",
         example="no [Scoring] tag",
         fix='[Scoring "?"]'),
    Code("TG102", "export-tag-order", E,
         "Tags out of export order.",
         why="The 15 mandatory tags come first in the order Event, Site, Date, Board, West, "
             "North, East, South, Dealer, Vulnerable, Deal, Scoring, Declarer, Contract, Result; "
             "then the other tags sorted by name; then the auction and play sections, and last "
             "the supplemental sections (tables) sorted by name (PBN 3.1, 9).",
         example="[Board] before [Date]",
         fix="Reorder the tags."),
    Code("TG103", "export-tag-layout", E,
         'A tag pair not written as [Name "value"] alone at the start of its line (export format).',
         why="PBN 3.3: no space after '[', one space before the value, none before ']'.",
         example='[Event  "x"] [Site "y"]',
         fix='One [Name "value"] per line.'),
    Code("TG104", "export-value-form", E,
         "A tag value not in its export form.",
         why="Export format writes seats, suits, ranks, NT, X, Pass in uppercase, Vulnerable as "
             "None/NS/EW/All, Result as declarer's tricks, and the Deal from the dealer with "
             "ranks in descending order (PBN 9 items 6-9).",
         example='[Vulnerable "Both"]',
         fix='[Vulnerable "All"]'),
    Code("TG105", "export-duplicate-tag", E,
         "A repeated tag (export format).",
         why="In export format a repeated tag is an error, not ignored (PBN 3.3).",
         example='[Room "Open"] [Room "IMP"]',
         fix="Keep one."),
    Code("TG301", "lin-bad-board", E,
         "A LIN board header that names no board.",
         why="`qx` is the room and board (o1 = open room, board 1; c1 = closed room) and `ah` the "
             "board's title (Board 1); the board number is read from them.",
         example="qx|x1|",
         fix="Write qx|o1| or qx|c1|."),
)

#: the table by code
CODES: dict[str, Code] = {code.code: code for code in TABLE}
