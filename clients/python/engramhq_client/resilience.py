"""Deadlines, retries with jitter and a circuit breaker: how the client behaves when Engram
is slow, overloaded, hung or down.

Every call has a total deadline — all its attempts, the backoff between them and, for a
subject handle that issues its own tokens, the token request too. By default a recall gets
1.5 s and a write 3 s: a memory lookup that takes longer is worth less than answering the
turn without it, and a write that cannot be sent in time waits in the outbox. Within the
deadline each attempt has a short connect timeout (a dead host or a full listen queue
costs at most that) and the rest of the deadline to read the answer (a hung server costs
the deadline, once; after a few such failures the breaker answers at once).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Timeouts:
    """Seconds. ``recall``, ``write`` and ``read`` are the total deadline of one call of
    that kind (every attempt and wait included); ``connect`` caps the connection phase of
    each attempt, ``pool`` the wait for a free connection."""

    connect: float = 0.5
    recall: float = 1.5
    write: float = 3.0
    read: float = 3.0
    # Export and erasure of a whole subject: large answers, or the deletion workflow.
    bulk: float = 30.0
    pool: float = 0.5

    def for_kind(self, kind: str) -> float:
        return {"recall": self.recall, "write": self.write, "bulk": self.bulk}.get(kind, self.read)


@dataclass(frozen=True)
class RetryPolicy:
    """Retries on connection errors, 429 and 503 (and, for idempotent requests only, on
    read timeouts and 502/504), with full-jitter exponential backoff, within the call's
    deadline. A server's ``retry_after_seconds`` is honoured when it fits both ``max_wait``
    and what is left of the deadline; a longer wait gives up at once (the caller degrades
    or queues instead of stalling the turn)."""

    attempts: int = 3
    backoff_base: float = 0.1
    backoff_max: float = 1.0
    max_wait: float = 2.0

    def delay(
        self,
        attempt: int,
        retry_after: float | None,
        rng: random.Random,
        remaining: float | None = None,
    ) -> float | None:
        """Seconds to wait before attempt ``attempt + 1``, or None to give up."""
        if attempt >= self.attempts:
            return None
        if retry_after is not None:
            wait = retry_after if retry_after <= self.max_wait else None
        else:
            wait = rng.uniform(0, min(self.backoff_max, self.backoff_base * (2 ** (attempt - 1))))
        if wait is not None and remaining is not None and wait >= remaining:
            return None
        return wait


@dataclass
class CircuitBreaker:
    """Closed → (``failure_threshold`` failures within ``window`` seconds, with no success
    between them) → open: calls fail fast for ``reset_timeout`` seconds → half-open: one
    trial call; success closes, failure opens again. Thread-safe; ``clock`` is injectable
    for tests. Failures are outages (timeouts, refused connections, 5xx), never a 4xx."""

    failure_threshold: int = 3
    window: float = 30.0
    reset_timeout: float = 10.0
    clock: Callable[[], float] = time.monotonic
    _failures: list[float] = field(default_factory=list, repr=False)
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
            self._failures.clear()
            self._opened_at = None
            self._trial_running = False

    def record_failure(self) -> None:
        with self._lock:
            now = self.clock()
            self._failures = [t for t in self._failures if now - t < self.window]
            self._failures.append(now)
            if self._trial_running or len(self._failures) >= self.failure_threshold:
                self._opened_at = now
            self._trial_running = False

    def reset(self) -> None:
        self.record_success()
