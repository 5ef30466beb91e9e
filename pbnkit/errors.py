"""The three kinds of error pbnkit raises, under one root.

Like python-chess, bad text and bad-in-context are different errors:

* :class:`PbnSyntaxError` -- the text is not PBN at all (raised only by the reader's
  strict entry points; the streaming reader turns syntax errors into diagnostics);
* :class:`InvalidTokenError` -- a token is well formed PBN but its value is not a valid
  card, call, seat, contract... (``Card.from_pbn("S1")``);
* :class:`IllegalError` -- the value is valid but against the rules in its context
  (an insufficient bid, a revoke, a card the player does not hold).

All are :class:`ValueError` subclasses so ``except ValueError`` keeps working. Beside
them, :class:`ReadError` says that an input file cannot be read at all.
"""

from __future__ import annotations


class PbnError(ValueError):
    """Root of every error pbnkit raises on purpose."""


class PbnSyntaxError(PbnError):
    """The text cannot be read as PBN."""


class InvalidTokenError(PbnError):
    """A token has a value that PBN does not allow (bad text)."""


class IllegalError(PbnError):
    """A valid value that the rules of bridge forbid in its context."""


class ReadError(PbnError):
    """An input file cannot be read (the system's error, with the file's name)."""
