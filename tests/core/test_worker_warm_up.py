"""A web worker loads the write path's code and the process's constants, then freezes its
start-up objects out of the collector's view, after it forks (core/worker_warm_up.py,
``ENGRAM_WARM_UP_WRITES``, ``ENGRAM_GC_FREEZE_AFTER_START``). Each, on, leaves every
answer as the reference (off) gives it: the same writes decided the same way (a phone
number, a confusable spelling, a date, a plain statement), nothing written by the
warm-up itself; a constant that fails is left to its first use, which fails as before."""

from __future__ import annotations

import gc
import uuid

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings

from core import process_state
from core.models import AuditEvent
from core.worker_warm_up import after_fork as core_after_fork
from memory.models import MemoryRecord

# The warm-up closes the connections it opened: not inside a test transaction.
pytestmark = pytest.mark.django_db(transaction=True)

STATEMENTS = (
    "User's phone number is +1 415 555 2671",
    "User's pаsswоrd hint is the dog's name",  # Cyrillic a and o
    "User moved to Lisbon last Tuesday",
    "User wants answers conclusion-first",
    "用户喜欢简短的回答",
)


@pytest.fixture(autouse=True)
def _unfrozen():
    yield
    gc.unfreeze()


def after_fork() -> None:
    """As config/gunicorn.py calls it."""
    from memory.write_policy.warm_up import decide_plain_statements

    core_after_fork(exercise=(decide_plain_statements,))


def switched(on: bool):
    return override_settings(
        ENGRAM={**settings.ENGRAM, "WARM_UP_WRITES": on, "GC_FREEZE_AFTER_START": on}
    )


def constant_entries() -> dict[str, object]:
    with process_state._REGISTRY_LOCK:
        return {e.name: e for e in process_state._REGISTRY.values() if e.constant is not None}


def forget_constants() -> None:
    for name in constant_entries():
        process_state.reset(name)


def filled(name: str) -> bool:
    return constant_entries()[name].describe().startswith("1 ")


def answers(client, namespace: str) -> list:
    seen = []
    for text in STATEMENTS:
        body = {
            "candidates": [
                {
                    "memory_type": "semantic",
                    "namespace": namespace,
                    "statement": text,
                    "assertion_kind": "user_explicit",
                    "confidence": 1.0,
                    "purpose": "personalization",
                    "consent_basis": "explicit_consent",
                }
            ]
        }
        response = client.post_json("/api/v1/candidates", body)
        result = response.json()["results"][0]
        seen.append(
            (
                response.status_code,
                result["operation"],
                sorted(k for k in result if not k.endswith("id")),
                {k: v for k, v in result.items() if k in ("reason", "code", "status")},
            )
        )
    return seen


def test_compute_constants_fills_the_memos_of_no_arguments_only():
    calls: list[str] = []
    tag = uuid.uuid4().hex

    @process_state.memoized(f"test.constant.{tag}", maxsize=1)
    def constant() -> int:
        calls.append("constant")
        return 42

    @process_state.memoized(f"test.function.{tag}", maxsize=4)
    def function(x: int) -> int:
        calls.append("function")
        return x

    @process_state.memoized(f"test.failing.{tag}", maxsize=1)
    def failing() -> int:
        calls.append("failing")
        raise LookupError("not yet")

    try:
        outcome = process_state.compute_constants()
        assert outcome[f"test.constant.{tag}"] is None
        assert isinstance(outcome[f"test.failing.{tag}"], LookupError)
        assert f"test.function.{tag}" not in outcome
        assert constant.cache_info().currsize == 1 and constant() == 42
        assert calls.count("constant") == 1 and "function" not in calls
        with pytest.raises(LookupError):  # left to its first use, which fails as before
            failing()
    finally:
        for name in ("constant", "function", "failing"):
            process_state._REGISTRY.pop(f"test.{name}.{tag}")


def test_after_fork_fills_every_constant_and_freezes_only_when_on(write_agent, owner_subject):
    forget_constants()
    with switched(False):
        after_fork()
    assert not any(filled(name) for name in constant_entries())
    assert gc.get_freeze_count() == 0
    with switched(True):
        after_fork()
    assert all(filled(name) for name in constant_entries()), [
        n for n in constant_entries() if not filled(n)
    ]
    assert gc.get_freeze_count() > 0
    assert connection.connection is None  # nothing kept open outside a request


def test_the_warm_up_writes_nothing():
    before = (MemoryRecord.objects.count(), AuditEvent.objects.count())
    forget_constants()
    with switched(True):
        after_fork()
    assert (MemoryRecord.objects.count(), AuditEvent.objects.count()) == before


def test_writes_answer_the_same_after_the_warm_up(write_agent, owner_subject):
    client = write_agent.client(owner_subject)
    seen = {}
    for on in (False, True):
        forget_constants()
        gc.unfreeze()
        with switched(on):
            after_fork()
            # Records cannot be deleted: each side writes under its own namespace.
            seen[on] = answers(client, f"assistant/warm-up-{on}")
    assert seen[True] == seen[False]
    assert {operation for _, operation, _, _ in seen[True]} >= {"ADD"}
