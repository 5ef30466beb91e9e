"""The garbage collector's policy, for every run of the pipeline: decided here only.

A unit makes many small objects that refcounting frees: rows, games and board results,
which hold no reference cycles. With the default thresholds the collector runs every
700 of them and walks all that the process holds, a large share of the work of a
conversion and of a rescore. So:

- a unit's work runs with the collector paused (:func:`paused`); any cyclic garbage
  waits for the end of the unit, which bounds it (and there is little: checking the
  18,173 games of the test corpus, 18,482 errors among them, leaves 788 objects in
  cycles);
- the parent's merge of a file's units, and the scoring of all that the units gave, run
  with it paused too: what gathers there is in no cycle;
- where a run gathers the results of other processes, from the first unit to the end
  of its output (:func:`gathering`): unpickled, a hundred thousand of them and what they
  hold, in no cycle, which the collector's passes would walk every few hundred new
  objects to find nothing. Units run in the parent leave a few objects in cycles, which
  wait for the end of the output (run alone, the parent frees them between units);
- a worker starts with it on (:func:`worker_started`), whatever its parent had paused it
  for: what cycles a unit leaves are collected between units.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """The cyclic garbage collector off for a unit of work, or a merge (see above)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def worker_started() -> None:
    """A forked worker starts with the collector on, as a process starts."""
    gc.enable()


def gathering(other_processes: bool) -> contextlib.AbstractContextManager[None]:
    """Paused while a run holds results gathered from ``other_processes``."""
    return paused() if other_processes else contextlib.nullcontext()
