"""Everything a process keeps between requests, in one registry.

Engram keeps little state in a process, and all of it here: a cache of what costs more to
compute than to keep (compiled SQL, a scope's vectors, the embedder), or a lazily created
helper (a thread pool). Each entry is registered by name with

- an explicit bound (``Cache``: items and, optionally, seconds; ``memoized``: maxsize);
- its own lock (a web worker's threads share it);
- a reset: ``reset_all()`` empties every entry (tests call it between tests, so no test
  sees another's state), and a forked child starts with every entry reset — a parent's
  threads and locks do not exist in the child.

Nothing a process keeps may decide what a request is allowed to see: every entry is
either a pure function of its key (compiled SQL, an embedding) or checked against the
database in the request's own transaction before use (``memory.recall.accel``).
``tests/test_architecture.py`` refuses module-level mutable state outside this module."""

from __future__ import annotations

import functools
import inspect
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from time import monotonic
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
F = TypeVar("F", bound=Callable[..., Any])

__all__ = [
    "Cache",
    "Slot",
    "compute_constants",
    "entries",
    "memoized",
    "register",
    "reset",
    "reset_all",
]


class _Entry:
    def __init__(
        self,
        name: str,
        reset: Callable[[], None],
        describe: Callable[[], str],
        after_fork: Callable[[], None],
        pure: bool,
        constant: Callable[[], Any] | None = None,
    ) -> None:
        self.pure = pure
        self.constant = constant
        self.name = name
        self.reset = reset
        self.describe = describe
        self.after_fork = after_fork


_REGISTRY: dict[str, _Entry] = {}
_REGISTRY_LOCK = threading.Lock()


def register(
    name: str,
    reset: Callable[[], None],
    describe: Callable[[], str],
    after_fork: Callable[[], None] | None = None,
    *,
    pure: bool = False,
    constant: Callable[[], Any] | None = None,
) -> None:
    """Register state kept elsewhere (an object with its own lock and bound): ``reset``
    empties it, ``describe`` says its bound and how full it is, ``after_fork`` (default:
    ``reset``) empties it in a forked child without taking a lock a parent's thread may
    have held; ``pure``: nothing a request or a test can change is in it (compiled SQL,
    an embedder, a thread pool, a setting made at start-up), so tests keep it from one
    test to the next; ``constant``: a call that fills it with the one value it can hold (a
    pure function of no arguments), for ``compute_constants``. One name, one entry."""
    with _REGISTRY_LOCK:
        if name in _REGISTRY:
            raise ValueError(f"process state {name!r} is registered twice")
        _REGISTRY[name] = _Entry(name, reset, describe, after_fork or reset, pure, constant)


def entries() -> dict[str, str]:
    """Every registered entry and its bound (for the architecture test and operators)."""
    with _REGISTRY_LOCK:
        held = list(_REGISTRY.values())
    return {entry.name: entry.describe() for entry in held}


def compute_constants() -> dict[str, BaseException | None]:
    """Fill every registered constant now (``memoized`` functions of no arguments: a table
    read from a package's data, a model), in registration order, instead of in the first
    request that needs it; returns each one's name and the exception it raised, if any
    (one that fails is left to its first use, which raises as before). Only the modules
    imported so far have registered theirs."""
    with _REGISTRY_LOCK:
        held = [entry for entry in _REGISTRY.values() if entry.constant is not None]
    outcome: dict[str, BaseException | None] = {}
    for entry in held:
        try:
            entry.constant()
            outcome[entry.name] = None
        except Exception as exc:  # noqa: BLE001 - reported to the caller, raised at first use
            outcome[entry.name] = exc
    return outcome


def reset(name: str) -> None:
    with _REGISTRY_LOCK:
        entry = _REGISTRY[name]
    entry.reset()


def reset_all(*, pure_too: bool = True) -> None:
    """Empty every entry: what a fresh process holds. ``pure_too=False`` keeps the
    ``pure`` ones (what tests do between tests: no test can change those)."""
    with _REGISTRY_LOCK:
        held = list(_REGISTRY.values())
    for entry in held:
        if pure_too or not entry.pure:
            entry.reset()


class Cache(Generic[K, V]):
    """A map of at most ``max_items`` entries, least recently used dropped first, each
    kept at most ``seconds`` (None: until dropped), behind one lock."""

    def __init__(
        self,
        name: str,
        *,
        max_items: int,
        seconds: float | None = None,
        pure: bool = False,
        kept_in_child: bool = False,
    ) -> None:
        if max_items < 1:
            raise ValueError("a cache holds at least one item")
        self.name = name
        self.max_items = max_items
        self.seconds = seconds
        self._items: OrderedDict[K, tuple[float, V]] = OrderedDict()
        self._lock = threading.Lock()
        # ``kept_in_child``: what it holds is true in a forked child too (a server the
        # parent started); only the lock is new there.
        after_fork = self._new_lock if kept_in_child else self._forget
        register(name, self.clear, self._describe, after_fork, pure=pure)

    def _forget(self) -> None:
        self._items = OrderedDict()
        self._lock = threading.Lock()

    def _new_lock(self) -> None:
        self._lock = threading.Lock()

    def get(self, key: K, default: V | None = None) -> V | None:
        with self._lock:
            held = self._items.get(key)
            if held is None:
                return default
            if self.seconds is not None and monotonic() - held[0] >= self.seconds:
                del self._items[key]
                return default
            self._items.move_to_end(key)
            return held[1]

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = (monotonic(), value)
            self._items.move_to_end(key)
            while len(self._items) > self.max_items:
                self._items.popitem(last=False)

    def get_or_compute(self, key: K, compute: Callable[[], V]) -> V:
        """The value kept for ``key``, or ``compute()`` kept (computed outside the lock:
        two threads may both compute it; either result is right)."""
        sentinel = _MISSING
        held = self.get(key, sentinel)  # type: ignore[arg-type]
        if held is not sentinel:
            return held  # type: ignore[return-value]
        value = compute()
        self.put(key, value)
        return value

    def pop(self, key: K) -> V | None:
        with self._lock:
            held = self._items.pop(key, None)
            return None if held is None else held[1]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)

    def __iter__(self) -> Iterator[K]:
        """The keys held now (an expired one is dropped, not given)."""
        with self._lock:
            if self.seconds is not None:
                now = monotonic()
                for key in [k for k, (at, _) in self._items.items() if now - at >= self.seconds]:
                    del self._items[key]
            return iter(list(self._items))

    def _describe(self) -> str:
        ttl = f", {self.seconds:g} s each" if self.seconds is not None else ""
        return f"{len(self)} of at most {self.max_items} items{ttl}"


_MISSING: Any = object()


class Slot(Generic[V]):
    """One value created on first use (a thread pool, say) by ``create``, behind a lock;
    a reset forgets it (``close`` is called on it first, except in a forked child, where
    the parent's threads do not exist)."""

    def __init__(
        self,
        name: str,
        create: Callable[[], V] | None = None,
        *,
        close: Callable[[V], None] | None = None,
        pure: bool = False,
        kept_in_child: bool = False,
    ) -> None:
        self.name = name
        self._create = create
        self._close = close
        self._value: V | None = None
        self._lock = threading.Lock()
        # ``kept_in_child``: the value holds in a forked child too (a setting made at
        # start-up, not a thread or a connection); only the lock is new there.
        after_fork = self._new_lock if kept_in_child else self._forget
        register(name, self.reset, self._describe, after_fork, pure=pure)

    def get(self) -> V:
        with self._lock:
            if self._value is None:
                if self._create is None:
                    raise LookupError(f"{self.name} holds nothing")
                self._value = self._create()
            return self._value

    def current(self) -> V:
        """``get`` without the lock once a value is set: reading the reference is atomic,
        and a value is replaced (``set``, ``reset``), never changed in place, so a reader
        sees the old value or the new one whole. For values read many times a request."""
        value = self._value
        return value if value is not None else self.get()

    def peek(self) -> V | None:
        with self._lock:
            return self._value

    def set(self, value: V | None) -> None:
        with self._lock:
            self._value = value

    def reset(self) -> None:
        with self._lock:
            value, self._value = self._value, None
        if value is not None and self._close is not None:
            self._close(value)

    def _forget(self) -> None:
        self._value = None
        self._lock = threading.Lock()

    def _new_lock(self) -> None:
        self._lock = threading.Lock()

    def _describe(self) -> str:
        return "one value" + (" (set)" if self.peek() is not None else "")


def memoized(name: str, *, maxsize: int) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize)`` for a pure function of its arguments, registered
    (a reset clears it)."""

    def decorate(function: F) -> F:
        cached = functools.lru_cache(maxsize=maxsize)(function)

        def describe() -> str:
            info = cached.cache_info()
            return f"{info.currsize} of at most {maxsize} results"

        # A pure function of no arguments holds one value: a constant of the process.
        takes_none = not inspect.signature(function).parameters
        register(
            name, cached.cache_clear, describe, pure=True, constant=cached if takes_none else None
        )
        return cached  # type: ignore[return-value]

    return decorate


def _after_fork_in_child() -> None:
    # A forked child shares nothing of its parent's: no threads (a pool's workers), no
    # held locks, no connections. Every entry starts empty there.
    global _REGISTRY_LOCK
    _REGISTRY_LOCK = threading.Lock()
    for entry in list(_REGISTRY.values()):
        entry.after_fork()


os.register_at_fork(after_in_child=_after_fork_in_child)
