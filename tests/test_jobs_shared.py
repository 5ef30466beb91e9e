"""``-j N`` is this process and N - 1 workers: the parent runs units itself while it
waits for a worker's, and still gives every result in unit order, with the first failure
in that order reported. A worker's large result waits in a file of the spool rather than
in the pipe."""

from __future__ import annotations

import os
import threading
from concurrent.futures import Future

import pytest

from pbnkit.pipeline import engines
from pbnkit.pipeline.engines import HELD_HERE, Pool, UnitError, _shared


class _Worker:
    """One worker, played out in this process, as a process pool runs it: a unit
    submitted is marked running at once (the pool queues the next unit a worker will
    run as running already), and the worker finishes its units in order, one each time
    the parent runs a unit or waits."""

    def __init__(self, failing: int | None = None) -> None:
        self.failing = failing
        self.queue: list[tuple[int, Future[int]]] = []
        self.ran: list[int] = []

    def submit(self, unit: int) -> Future[int]:
        future: Future[int] = Future()
        assert future.set_running_or_notify_cancel()
        self.queue.append((unit, future))
        return future

    def step(self) -> None:
        if not self.queue:
            return
        unit, future = self.queue.pop(0)
        self.ran.append(unit)
        if unit == self.failing:
            future.set_exception(ValueError(f"unit {unit} failed"))
        else:  # what _handed_over gives: the result, pickled
            future.set_result(engines.pickle.dumps(unit * 10))

    def wait(self, futures: list[Future[int]]) -> None:
        """``concurrent.futures.wait`` for the parent: the worker runs until they are done."""
        while not all(future.done() for future in futures):
            self.step()


def test_the_parent_runs_the_next_unit_while_it_waits(monkeypatch):
    worker = _Worker()
    monkeypatch.setattr("concurrent.futures.wait", worker.wait)
    here = []

    def run(unit: int) -> int:
        here.append(unit)
        worker.step()
        return unit * 10

    results = list(_shared(worker.submit, run, range(10), window=2))
    assert results == [(unit, unit * 10) for unit in range(10)]
    # two units submitted at a time; the parent runs the next while the first is not
    # done, and once there is none, waits for the worker's last two
    assert here == [2, 4, 6, 8]
    assert worker.ran == [0, 1, 3, 5, 7, 9]


def test_the_units_run_here_are_bounded():
    """Workers stuck on long units: the parent runs HELD_HERE units, then waits, rather
    than keep every result after the workers'."""
    waiting: list[Future[int]] = []
    here = []

    def submit(unit: int) -> Future[int]:
        future: Future[int] = Future()
        future.set_running_or_notify_cancel()  # started: cannot be taken back
        waiting.append(future)
        return future

    def finish() -> None:
        for future in waiting:
            future.set_result(engines.pickle.dumps(-1))

    def run(unit: int) -> int:
        here.append(unit)
        if len(here) == HELD_HERE:  # the workers finish a while after that
            threading.Timer(0.2, finish).start()
        return unit

    results = _shared(submit, run, range(100), window=2)
    assert next(results) == (0, -1)
    assert here == list(range(2, 2 + HELD_HERE))  # then it waited


def test_the_first_unit_to_fail_in_order_is_reported_wherever_it_ran(monkeypatch):
    worker = _Worker(failing=1)
    monkeypatch.setattr("concurrent.futures.wait", worker.wait)

    def run(unit: int) -> int:
        worker.step()
        if unit == 2:
            raise ValueError("unit 2 failed")
        return unit

    results = _shared(worker.submit, run, range(4), window=2)
    assert next(results) == (0, 0)
    with pytest.raises(UnitError, match=r"^1: ValueError: unit 1 failed"):
        next(results)


def test_a_large_result_waits_in_the_spool_and_is_gone_once_taken(monkeypatch):
    handed: list[bytes | str] = []
    received = engines._received

    def receiving(what: bytes | str) -> object:
        handed.append(what)
        return received(what)

    monkeypatch.setattr(engines, "_received", receiving)
    pool = Pool(2)
    try:
        spool = pool.spool
        results = list(pool.map(_sized, [10, 200_000, 10, 200_000, 10, 200_000]))
        assert os.listdir(spool) == []
    finally:
        pool.close()
    assert [(size, len(result)) for size, result in results] == [
        (size, size) for size in [10, 200_000, 10, 200_000, 10, 200_000]]
    # the worker ran the first unit at least; the parent, the one after it at least
    assert 0 < len(handed) < 6
    for what in handed:
        assert isinstance(what, bytes) and len(what) < 1 << 16 or \
            isinstance(what, str) and os.path.dirname(what) == spool


def _sized(size: int) -> bytes:
    return os.urandom(size)
