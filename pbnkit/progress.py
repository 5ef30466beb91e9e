"""Progress on stderr for long runs: only when stderr is a terminal, never in pipes or CI.

With a known total (the input's size in bytes) it is click's progress bar, with the
percentage, the games read, their rate and the time left; without one, a counter with the
rate. Jobs report as their units finish, so the bar is the sum over every worker.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

import click


class Progress:
    """Counts games (and, towards ``total``, bytes) and draws at most ten times a second."""

    def __init__(self, label: str, enabled: bool | None = None, stream: TextIO | None = None,
                 total: int | None = None):
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.label = label
        self.count = 0
        self.detail = ""
        self._start = time.monotonic()
        self._last = 0.0
        self._bar: Any = None
        if self.enabled and total:
            self._bar = click.progressbar(length=total, label=label, file=self.stream,
                                          show_eta=True, show_percent=True, width=24,
                                          item_show_func=self._status)

    def _status(self, _: object = None) -> str:
        elapsed = max(time.monotonic() - self._start, 1e-9)
        return f"{self.count:,} games, {self.count / elapsed:,.0f}/s {self.detail}".rstrip()

    def advance(self, step: int = 1, size: int = 0) -> None:
        """``step`` more games read; ``size`` more bytes of the total done."""
        self.count += step
        if self._bar is not None:
            self._bar.update(size)
            return
        now = time.monotonic()
        if self.enabled and now - self._last >= 0.1:
            self._last = now
            self.stream.write(f"\r{self.label}: {self._status()}\x1b[K")
            self.stream.flush()

    def close(self) -> None:
        if self._bar is not None:
            self._bar.render_finish()
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._bar = None
        elif self.enabled and self._last:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
