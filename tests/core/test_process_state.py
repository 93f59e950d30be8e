"""The registry's entries keep their bounds: a cache drops its least recently used item
past ``max_items`` and an item older than ``seconds``; a slot makes its value once and
closes it on reset; a reset empties what tests may not share and keeps the pure."""

from __future__ import annotations

import itertools

import pytest

from core import process_state
from core.process_state import Cache, Slot, memoized

_names = itertools.count()


def _name(kind: str) -> str:
    return f"test.{kind}.{next(_names)}"


def test_a_cache_holds_at_most_its_items_least_recently_used_first_out():
    cache = Cache(_name("lru"), max_items=2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "a" is now the most recently used
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (1, None, 3)
    assert len(cache) == 2


def test_a_cache_forgets_an_item_after_its_seconds(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(process_state, "monotonic", lambda: now[0])
    cache = Cache(_name("ttl"), max_items=10, seconds=5)
    cache.put("k", "v")
    now[0] += 4.9
    assert cache.get("k") == "v" and list(cache) == ["k"]
    now[0] += 5.0  # put at 100, read at 109.9: gone
    assert list(cache) == [] and cache.get("k") is None


def test_get_or_compute_computes_once_and_keeps_it():
    cache = Cache(_name("compute"), max_items=4)
    calls = []
    assert cache.get_or_compute("k", lambda: calls.append(1) or 42) == 42
    assert cache.get_or_compute("k", lambda: calls.append(1) or 43) == 42
    assert calls == [1]


def test_a_slot_makes_its_value_once_and_closes_it_on_reset():
    closed = []
    slot = Slot(_name("slot"), lambda: object(), close=closed.append)
    first = slot.get()
    assert slot.get() is first
    slot.reset()
    assert closed == [first] and slot.peek() is None and slot.get() is not first


def test_a_slots_current_value_is_gets_and_follows_set_and_reset():
    made = []
    slot = Slot(_name("current"), lambda: made.append(1) or object())
    first = slot.current()  # creates it, as ``get`` does
    assert made == [1] and slot.get() is first and slot.current() is first
    other = object()
    slot.set(other)
    assert slot.current() is other
    slot.reset()
    assert slot.current() is not other and made == [1, 1]
    empty = Slot(_name("empty"))
    with pytest.raises(LookupError):
        empty.current()


def test_reset_all_keeps_the_pure_when_asked():
    shared = Cache(_name("shared"), max_items=2)
    pure = Cache(_name("pure"), max_items=2, pure=True)

    @memoized(_name("memo"), maxsize=4)
    def square(x: int) -> int:
        return x * x

    shared.put("k", 1)
    pure.put("k", 1)
    square(3)
    process_state.reset_all(pure_too=False)
    assert len(shared) == 0 and len(pure) == 1 and square.cache_info().currsize == 1
    process_state.reset_all()
    assert len(pure) == 0 and square.cache_info().currsize == 0


def test_a_name_is_registered_once():
    name = _name("once")
    Cache(name, max_items=1)
    with pytest.raises(ValueError):
        Cache(name, max_items=1)
    with pytest.raises(ValueError):
        Cache(_name("empty"), max_items=0)
