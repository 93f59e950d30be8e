"""Timeouts, retries with jitter and a circuit breaker: how the client behaves when Engram
is slow, overloaded or down.

Budgets default to what one chat turn can afford: a memory lookup that takes longer than a
few seconds is worth less than answering without it.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Timeouts:
    """Seconds. ``connect`` is short (a dead host should not hold a turn); ``read`` covers
    a recall on a busy server."""

    connect: float = 1.0
    read: float = 5.0
    write: float = 5.0
    pool: float = 1.0


@dataclass(frozen=True)
class RetryPolicy:
    """Retries on connection errors, 429 and 503 (and, for idempotent requests only, on
    read timeouts and 502/504), with full-jitter exponential backoff. A server's
    ``retry_after_seconds`` is honoured when it fits in ``max_wait``; a longer wait gives
    up at once (the caller degrades or queues instead of stalling the turn)."""

    attempts: int = 3
    backoff_base: float = 0.1
    backoff_max: float = 1.0
    max_wait: float = 2.0

    def delay(self, attempt: int, retry_after: float | None, rng: random.Random) -> float | None:
        """Seconds to wait before attempt ``attempt + 1``, or None to give up."""
        if attempt >= self.attempts:
            return None
        if retry_after is not None:
            return retry_after if retry_after <= self.max_wait else None
        cap = min(self.backoff_max, self.backoff_base * (2 ** (attempt - 1)))
        return rng.uniform(0, cap)


@dataclass
class CircuitBreaker:
    """Closed → (``failure_threshold`` consecutive failures) → open: calls fail fast for
    ``reset_timeout`` seconds → half-open: one trial call; success closes, failure opens
    again. Thread-safe; ``clock`` is injectable for tests."""

    failure_threshold: int = 5
    reset_timeout: float = 10.0
    clock: Callable[[], float] = time.monotonic
    _failures: int = 0
    _opened_at: float | None = None
    _trial_running: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def state(self) -> str:
        with self._lock:
            return self._state()

    def _state(self) -> str:
        if self._opened_at is None:
            return "closed"
        if self.clock() - self._opened_at >= self.reset_timeout:
            return "half_open"
        return "open"

    def allow(self) -> bool:
        with self._lock:
            state = self._state()
            if state == "closed":
                return True
            if state == "half_open" and not self._trial_running:
                self._trial_running = True
                return True
            return False

    def record_success(self) -> None:
        with self._lock:
            self._failures = 0
            self._opened_at = None
            self._trial_running = False

    def record_failure(self) -> None:
        with self._lock:
            self._failures += 1
            if self._trial_running or self._failures >= self.failure_threshold:
                self._opened_at = self.clock()
            self._trial_running = False

    def reset(self) -> None:
        self.record_success()
