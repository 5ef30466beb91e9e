"""Progress on stderr for long runs: only when stderr is a terminal, never in pipes or CI."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """A one-line counter redrawn at most ten times a second."""

    def __init__(self, label: str, enabled: bool | None = None, stream: TextIO | None = None):
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.label = label
        self.count = 0
        self.detail = ""
        self._last = 0.0

    def advance(self, step: int = 1) -> None:
        self.count += step
        now = time.monotonic()
        if self.enabled and now - self._last >= 0.1:
            self._last = now
            self.stream.write(f"\r{self.label}: {self.count} games {self.detail}\x1b[K")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled and self._last:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
