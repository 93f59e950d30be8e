"""One low-priority daemon thread per process that drains a queue in batches: the shape
of the after-commit work that must not slow a request (embedding new records, writing
access statistics) when no Celery worker does it.

Started lazily on the first ``put`` (or by ``start``, after a fork) — never at import,
because a process that embeds must not fork afterwards (docs/performance.md). On Linux a thread has its own nice value,
so the thread yields the CPU to the web worker's request thread and to PostgreSQL. Items are ids
only; what a process still holds when it exits is lost, and each user says how that is
repaired (the embedding queue: its periodic sweep).
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

from django.db import close_old_connections, connection

logger = logging.getLogger(__name__)

T = TypeVar("T")


class BatchingThread(Generic[T]):
    def __init__(
        self,
        name: str,
        handle: Callable[[list[T]], object],
        *,
        nice: int = 15,
        gather_seconds: float = 0.0,
        max_batch: int | None = None,
        periodic: Callable[[], object] | None = None,
        period_seconds: Callable[[], float] | None = None,
    ) -> None:
        """``handle`` gets each batch on the thread (with its own database connection);
        ``gather_seconds``: wait this long after the first item for more to arrive;
        ``max_batch``: at most this many items per batch; ``periodic``: also called on
        the thread every ``period_seconds()`` (first soon after the thread starts), between
        batches, whether or not items keep arriving; a period of 0 turns it off."""
        self.name = name
        self._handle = handle
        self._nice = nice
        self._gather_seconds = gather_seconds
        self._max_batch = max_batch
        self._periodic = periodic
        self._period_seconds = period_seconds or (lambda: 60.0)
        self._queue: queue.Queue[T] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        """Start the thread if it is not running (``put`` does too)."""
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()

    def put(self, item: T) -> None:
        self._queue.put(item)
        self.start()

    def join(self) -> None:
        """Wait until every item put so far is handled (tests and benchmarks)."""
        self._queue.join()

    def _call(self, what: str, func: Callable[[], object], size: int = 0) -> None:
        try:
            close_old_connections()
            func()
        except Exception:
            logger.exception(
                "%s: %s failed", self.name, what if not size else f"a batch of {size} items"
            )
        finally:
            connection.close()

    def _run(self) -> None:
        with contextlib.suppress(AttributeError, OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self._nice)
        # The first periodic call comes soon after the start: a process that replaced one
        # killed mid-batch picks up what it lost.
        # A period of 0 or less turns the periodic work off.
        periodic = self._periodic if self._period_seconds() > 0 else None
        next_periodic = time.monotonic() + min(5.0, self._period_seconds())
        while True:
            timeout = None
            if periodic is not None:
                timeout = max(0.0, next_periodic - time.monotonic())
            try:
                batch = [self._queue.get(timeout=timeout)]
            except queue.Empty:
                batch = []
            if batch:
                if self._gather_seconds:
                    time.sleep(self._gather_seconds)
                while self._max_batch is None or len(batch) < self._max_batch:
                    try:
                        batch.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
                try:
                    self._call("batch", lambda batch=batch: self._handle(batch), len(batch))
                finally:
                    for _ in batch:
                        self._queue.task_done()
            if periodic is not None and time.monotonic() >= next_periodic:
                self._call("periodic work", periodic)
                next_periodic = time.monotonic() + self._period_seconds()
