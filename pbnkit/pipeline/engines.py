"""Engines run work units and give their results back in unit order: inline (``-j 1``),
in this process and a pool of local ones (``-j N``), or on a Dask cluster
(``--scheduler``).

A unit's function is a pure, module-level function of one picklable unit that returns
plain picklable results; the parent only merges them, in order. Every engine runs it the
same way, :func:`run_unit`, under the collector's policy (:mod:`.collector`). Every engine keeps at
most a small window of units in flight, so memory stays bounded by the window, never by
the input.
"""

from __future__ import annotations

import collections
import contextlib
import os
import pickle
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import TYPE_CHECKING, Any, Final, NamedTuple, Protocol, TypeVar

from pbnkit.errors import PbnError
from pbnkit.pipeline import collector

if TYPE_CHECKING:  # a run on one process (a small file, -j 1) never starts a pool
    import multiprocessing.context
    from concurrent.futures import Future

U = TypeVar("U")
R = TypeVar("R")

#: units in flight per worker: enough to keep it busy while the parent merges
WINDOW_PER_JOB = 2
#: the units the parent of a pool may have run whose results wait for a worker's before
#: them. With a bound of two units per worker, the parent of a ``-j 2`` rescore could
#: sit waiting while its worker ran the last two units, which made the whole run slower
#: than with this bound.
HELD_HERE = 8


class EngineError(PbnError):
    """An engine cannot start (no Dask, no scheduler at that address)."""


class UnitError(PbnError):
    """A unit of work failed: names the unit (file and part) and what went wrong."""


class Engine(Protocol):
    jobs: int
    #: a local directory that this process and its workers share, where a unit may leave
    #: a large result as a file rather than send it through a pipe (None: no such place)
    spool: str | None

    def map(self, function: Callable[[U], R], units: Iterable[U]) -> Iterator[tuple[U, R]]: ...

    def close(self) -> None: ...


def run_unit(function: Callable[[U], R], unit: U) -> R:
    """``function(unit)`` as every engine runs it: with the collector paused."""
    with collector.paused():
        return function(unit)


def usable_cores() -> int:
    """The cores this process may run on (a container or ``taskset`` may allow fewer
    than the machine has)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover -- not on Linux
        return os.cpu_count() or 1


class Inline:
    """Units one after the other in this process: ``-j 1``."""

    jobs = 1
    spool: str | None = None  # a result is handed over as it is, uncopied

    def map(self, function: Callable[[U], R], units: Iterable[U]) -> Iterator[tuple[U, R]]:
        for unit in units:
            yield unit, run_unit(function, unit)

    def close(self) -> None:
        pass


def _in_order(submit: Callable[[U], Future[R]], units: Iterable[U],
              window: int) -> Iterator[tuple[U, R]]:
    """Each unit with its result, in unit order, with at most ``window`` units submitted
    and not yet taken."""
    pending: collections.deque[tuple[U, Future[R]]] = collections.deque()
    remaining = iter(units)
    try:
        for unit in remaining:
            pending.append((unit, submit(unit)))
            if len(pending) >= window:
                break
        while pending:
            unit, future = pending.popleft()
            result = _reported(unit, future.result)
            for following in remaining:
                pending.append((following, submit(following)))
                break
            yield unit, result
    finally:
        for _, future in pending:  # an error or Ctrl-C: drop the units not started yet
            future.cancel()


#: Errors a unit's failure passes on as they are: pbnkit's own already say what and
#: where; a missing module is a broken installation, which the command reports as such
#: (wrapped, it would read as a pbnkit bug).
_PASSED_ON: Final = (PbnError, ModuleNotFoundError)


def _reported(unit: object, result: Callable[[], R]) -> R:
    """``result()``; a failure other than pbnkit's own (a crashed worker, or a pbnkit bug
    in one) named by its unit."""
    try:
        return result()
    except _PASSED_ON:
        raise
    except Exception as error:
        raise _failed(unit, error) from error


def _described(unit: object) -> str:
    describe = getattr(unit, "describe", None)
    return str(describe()) if describe is not None else repr(unit)


def _failed(unit: object, error: Exception) -> UnitError:
    return UnitError(f"{_described(unit)}: {type(error).__name__}: {error}")


def _start_worker(parent: int | None) -> None:
    """Ctrl-C reaches every process of the terminal's group; the parent alone decides what
    happens (it lets the units in flight finish and drops the rest). SIGTERM, which the
    pool itself sends to stop a worker, kills it, not the parent's handler, inherited in
    the fork. The worker dies with its parent (:func:`_die_with`). And the collector is
    as :mod:`.collector` starts a worker's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with(parent)
    collector.worker_started()


#: prctl's option that has the kernel signal this process when its parent ends
_PR_SET_PDEATHSIG: Final = 1


def _die_with(parent: int | None) -> None:
    """End this worker when the process that started it ends, even by SIGKILL, which
    runs none of its cleanup: the worker would otherwise wait on its pipe forever.

    On Linux the kernel does it (``prctl(PR_SET_PDEATHSIG)``): at once, and whatever the
    worker is doing, even in a unit that holds the interpreter's lock. Elsewhere a
    daemon thread looks for a change of parent (the orphan is adopted) every second.
    ``parent``: the pid the worker's parent must have (a forked worker's), in case it
    ended before the kernel was asked; None when it is a fork server, which ends when
    the pool's process does."""
    started = os.getppid() if parent is None else parent
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        asked = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError, TypeError):  # not Linux: no prctl
        asked = False
    if asked:
        if os.getppid() != started:
            os._exit(1)  # the parent ended first: nobody waits for this worker
        return

    def watch() -> None:
        while os.getppid() == started:
            time.sleep(1)
        os._exit(1)

    threading.Thread(target=watch, name="pbnkit-parent-watch", daemon=True).start()


class Pool:
    """This process and ``N - 1`` local workers: ``-j N``.

    This process runs units too, while it waits for a worker's (see :func:`_shared`): the
    merging it does between them leaves a core mostly idle otherwise, and the results of
    the units it runs need no pickling. A ``-j 2`` rescore ends sooner this way than
    with two workers.

    Workers are forked from this process when it runs no other Python thread: they start
    at once, with pbnkit already imported (a fork server must start Python and import
    pbnkit first, a cost a large file's run would notice). A process with threads (a
    library caller's, or a Dask client's) may hold a lock that a forked child would wait
    on forever, so there the workers come from a fork server instead, which has imported
    pbnkit and has no threads."""

    def __init__(self, jobs: int):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.jobs = jobs
        context: multiprocessing.context.BaseContext
        if threading.active_count() == 1:
            context = multiprocessing.get_context("fork")
        else:
            server = multiprocessing.get_context("forkserver")
            server.set_forkserver_preload(["pbnkit.pipeline.score"])
            context = server
        self._workers = max(1, jobs - 1)
        # a forked worker's parent is this process; a fork server's worker's, the server
        parent = os.getpid() if context.get_start_method() == "fork" else None
        self._executor = ProcessPoolExecutor(max_workers=self._workers, mp_context=context,
                                             initializer=_start_worker, initargs=(parent,))
        # Removed on close, after the workers have stopped: none is writing there then.
        self._spool = tempfile.TemporaryDirectory(prefix="pbnkit-spool-",
                                                  ignore_cleanup_errors=True)
        self.spool: str | None = self._spool.name

    def map(self, function: Callable[[U], R], units: Iterable[U]) -> Iterator[tuple[U, R]]:
        spool = self._spool.name
        return _shared(lambda unit: self._executor.submit(_handed_over, function, spool, unit),
                       function, units, self._workers * WINDOW_PER_JOB)

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
        self._spool.cleanup()


class _Slot:
    """A unit in its place: in a worker (``future``) or run here (``result`` or
    ``error``)."""

    __slots__ = ("unit", "future", "result", "error")

    def __init__(self, unit: Any, future: Future[Any] | None = None):
        self.unit = unit
        self.future = future
        self.result: Any = None
        self.error: Exception | None = None

    def run(self, function: Callable[[Any], Any]) -> None:
        """Run the unit here; a failure waits for the unit's turn, so that the first
        unit to fail is the one reported, as at ``-j 1``."""
        self.future = None
        try:
            self.result = run_unit(function, self.unit)
        except Exception as error:
            self.error = error


def _shared(submit: Callable[[U], Future[Any]], run: Callable[[U], R],
            units: Iterable[U], window: int) -> Iterator[tuple[U, R]]:
    """Each unit with its result, in unit order, with at most ``window`` units submitted
    to the workers and not yet taken.

    While the first unit waited for is not done, this process runs the next unit itself.
    No unit is taken here while :data:`HELD_HERE` units wait here for the workers' before
    them. A unit submitted cannot be taken back: a process pool marks the unit a worker
    will run next as running already, so a worker always has the unit it runs and the
    next. The plans make the last units small, for the processes to end together."""
    from concurrent.futures import wait

    slots: collections.deque[_Slot] = collections.deque()
    remaining = iter(units)
    submitted, more = 0, True
    try:
        while True:
            while more and submitted < window:
                for unit in remaining:
                    slots.append(_Slot(unit, submit(unit)))
                    submitted += 1
                    break
                else:
                    more = False
            if not slots:
                return
            first = slots[0]
            if first.future is None or first.future.done():
                slots.popleft()
                submitted -= first.future is not None
                yield first.unit, _outcome(first)
            elif more and len(slots) < window + HELD_HERE:
                for unit in remaining:
                    slots.append(_Slot(unit))
                    slots[-1].run(run)
                    break
                else:
                    more = False
            else:
                wait([first.future])
    finally:
        for slot in slots:  # an error or Ctrl-C: drop the units not started yet
            if slot.future is not None:
                slot.future.cancel()


def _outcome(slot: _Slot) -> Any:
    """A unit's result, or its failure as :func:`_in_order` reports it."""
    def result() -> Any:
        if slot.future is not None:
            return _received(slot.future.result())
        if slot.error is not None:
            raise slot.error
        return slot.result
    return _reported(slot.unit, result)


#: a pipe holds 64 KiB: a worker's result larger than that waits in a file of the spool
_PIPE_BYTES: Final = 1 << 16


def _handed_over(function: Callable[[U], Any], spool: str, unit: U) -> bytes | str:
    """A unit's result as a worker hands it over: pickled, and when larger than a pipe
    holds, left in a file of the spool, whose path goes through the pipe instead.

    The pool's thread in the parent reads a result from the pipe 64 KiB at a time, and
    needs the interpreter's lock for each read, which the parent, busy with a unit of its
    own, gives up only at the interpreter's switch interval: the large results of a unit
    of a rescore kept its worker waiting many such intervals. A full disk sends the
    result through the pipe after all."""
    data = pickle.dumps(run_unit(function, unit), pickle.HIGHEST_PROTOCOL)
    if len(data) <= _PIPE_BYTES:
        return data
    path = ""
    try:
        descriptor, path = tempfile.mkstemp(suffix=".pickle", dir=spool)
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
    except OSError:
        if path:
            with contextlib.suppress(OSError):
                os.unlink(path)
        return data
    return path


def _received(handed: bytes | str) -> Any:
    """What :func:`_handed_over` handed over; its file is gone once read."""
    if isinstance(handed, str):
        with open(handed, "rb") as file:
            data = file.read()
        os.unlink(handed)
        handed = data
    return pickle.loads(handed)


class Dask:
    """The units on a Dask cluster, through ``distributed`` (the ``pbnkit[dask]`` extra)."""

    def __init__(self, address: str):
        try:
            import distributed
        except ImportError:
            raise EngineError("--scheduler needs Dask: pip install 'pbnkit[dask]'") from None
        try:
            client: Any = distributed.Client  # untyped
            self._client: Any = client(address, set_as_default=False, timeout="10s")
        except (OSError, TimeoutError) as error:
            raise EngineError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        workers = self._client.scheduler_info().get("workers", {})
        self.jobs = max(1, sum(w.get("nthreads", 1) for w in workers.values()))
        self.spool: str | None = None  # workers may be on other machines

    def map(self, function: Callable[[U], R], units: Iterable[U]) -> Iterator[tuple[U, R]]:
        return _in_order(lambda unit: self._client.submit(run_unit, function, unit,
                                                          pure=False),
                         units, self.jobs * WINDOW_PER_JOB)

    def close(self) -> None:
        self._client.close()


class Bundled:
    """Another engine, given small units several at a time.

    Handing a unit to a worker and its result back costs the parent and the worker about
    as much as reading a LIN file of one board. A folder of thousands of
    such files ran slower at ``-j 2`` than at ``-j 1``. Consecutive units are sent
    together until they hold ``least`` bytes (their ``size``); a unit as large goes
    alone. The results still come back one per unit, in order, and a unit that fails is
    named as before."""

    def __init__(self, inner: Engine, least: int):
        self.inner = inner
        self.least = least
        self.jobs = inner.jobs
        self.spool = inner.spool

    def map(self, function: Callable[[U], R], units: Iterable[U]) -> Iterator[tuple[U, R]]:
        bundles = _bundles(units, self.least)
        for bundle, results in self.inner.map(partial(_each, function), bundles):
            yield from zip(bundle.units, results, strict=True)

    def close(self) -> None:
        self.inner.close()


class _Bundle(NamedTuple):
    units: list[Any]

    def describe(self) -> str:
        first = _described(self.units[0])
        return first if len(self.units) == 1 else \
            f"{first} or one of the {len(self.units) - 1} units after it"


def _bundles(units: Iterable[Any], least: int) -> Iterator[_Bundle]:
    bundle: list[Any] = []
    size = 0
    for unit in units:
        bundle.append(unit)
        size += unit.size
        if size >= least:
            yield _Bundle(bundle)
            bundle, size = [], 0
    if bundle:
        yield _Bundle(bundle)


def _each(function: Callable[[U], R], bundle: _Bundle) -> list[R]:
    """The results of a bundle's units, in a worker; a unit that fails is named."""
    results = []
    for unit in bundle.units:
        try:
            results.append(function(unit))
        except _PASSED_ON:
            raise
        except Exception as error:  # a pbnkit bug: named here, where the unit is known
            raise _failed(unit, error) from error
    return results


def engine(jobs: int | None, scheduler: str | None = None, alone: bool = False) -> Engine:
    """The engine for ``-j``/``--scheduler``: Dask when a scheduler is named, else a pool of
    ``jobs`` processes (default: every usable core); inline when one process is enough
    (``alone``: the work is a single unit)."""
    if scheduler:
        return Dask(scheduler)
    jobs = usable_cores() if jobs is None or jobs < 1 else jobs
    return Inline() if jobs <= 1 or alone else Pool(jobs)
