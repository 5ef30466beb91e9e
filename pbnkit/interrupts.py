"""Ctrl-C and SIGTERM: a module of its own, without the export layer's imports, so that
every command (validate and score never load pyarrow) can use it.

While a command runs (:func:`interruptible`), SIGINT and SIGTERM both raise
:class:`Interrupted`, a :class:`KeyboardInterrupt`: every ``finally`` and context manager
on the way out removes its temporary files, and the command ends with status 130.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

#: the signals that stop a command
STOPS = (signal.SIGINT, signal.SIGTERM)


class Interrupted(KeyboardInterrupt):
    """SIGINT or SIGTERM, raised by pbnkit's handler.

    A subclass, not KeyboardInterrupt itself: when a KeyboardInterrupt leaves code run by
    ``exec`` or ``eval`` of a string (a dataclass or a named tuple being made, which an
    import does), CPython marks the interrupt as unhandled and, under ``python -m``, ends
    the process by SIGINT at exit however the exception was caught, and the status 130
    is lost. CPython marks KeyboardInterrupt only, not its subclasses."""


_depth = 0
_previous: dict[signal.Signals, Any] = {}


def _stop(signum: int, frame: object) -> None:
    # From the first signal on, the command is ending with 130: a second one (a
    # process group signalled twice, an impatient Ctrl-C) would cut short the removal of
    # its temporary files, or strike in the pool's shutdown after 130 was decided.
    for stop in STOPS:
        signal.signal(stop, signal.SIG_IGN)
    raise Interrupted(f"signal {signum}")


@contextlib.contextmanager
def interruptible() -> Iterator[None]:
    """SIGINT and SIGTERM raise :class:`Interrupted` while the block runs (only in the
    main thread, where Python handles signals). Blocks nest: the outermost one installs
    the handler and puts back the previous ones when it ends, unless a signal came (the
    process is ending then; they stay ignored). A SIGINT ignored on entry (a background
    command of a shell without job control) stays ignored."""
    global _depth
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _depth += 1
    if _depth == 1:
        _previous.clear()
        for stop in STOPS:
            _previous[stop] = current = signal.getsignal(stop)
            if not (stop == signal.SIGINT and current == signal.SIG_IGN):
                signal.signal(stop, _stop)
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0:
            for stop, previous in _previous.items():
                if signal.getsignal(stop) == _stop:
                    signal.signal(stop, previous)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """SIGINT and SIGTERM held back while the block runs, and handled as it ends: for
    making a temporary file and taking note of it to be removed, which a signal between
    the two would leave behind (made, with its name lost). Where signals cannot be held
    (not POSIX), or outside the main thread, the block runs as it is."""
    if not hasattr(signal, "pthread_sigmask") or \
            threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)
