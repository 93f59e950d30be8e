"""The batching thread behind after-commit work: batches are handled, the periodic work
runs soon after the start and then every period, and a period of 0 turns it off (what
the live test servers use, so no sweep races the flush that ends each test)."""

from __future__ import annotations

import threading
import time

import pytest

from memory.services.background import BatchingThread

pytestmark = pytest.mark.django_db(transaction=True)


def _thread(period: float, ticks: list[float], handled: list[int]) -> BatchingThread[int]:
    return BatchingThread(
        f"test-{period}",
        handled.extend,
        nice=0,
        periodic=lambda: ticks.append(time.monotonic()),
        period_seconds=lambda: period,
    )


def test_the_periodic_work_runs_soon_and_then_every_period():
    ticks: list[float] = []
    handled: list[int] = []
    thread = _thread(0.05, ticks, handled)
    thread.put(1)
    thread.put(2)
    thread.join()
    deadline = time.monotonic() + 5
    while len(ticks) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert handled == [1, 2]
    assert len(ticks) >= 3


def test_a_period_of_zero_turns_the_periodic_work_off():
    ticks: list[float] = []
    handled: list[int] = []
    thread = _thread(0, ticks, handled)
    for n in range(3):
        thread.put(n)
    thread.join()
    time.sleep(0.3)  # several would-be periods (and the first call comes "soon")
    assert handled == [0, 1, 2]
    assert ticks == []
    assert any(t.name == "test-0" for t in threading.enumerate())  # still serving batches
