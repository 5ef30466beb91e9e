"""SIGTERM as Ctrl-C: a module of its own, without the export layer's imports, so that
every command (validate and score never load pyarrow) can use it."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """Turn SIGTERM into KeyboardInterrupt while the block runs, so temporary outputs are
    removed as on Ctrl-C (only in the main thread, where Python handles signals)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
