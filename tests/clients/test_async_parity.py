"""Async parity: every public method of the sync client classes has an async twin with the
same parameters, a coroutine (or an async generator where the sync one yields)."""

from __future__ import annotations

import inspect

import pytest
from engramhq_client import AsyncEngramClient, AsyncSubjectClient, EngramClient, SubjectClient

PAIRS = [(EngramClient, AsyncEngramClient), (SubjectClient, AsyncSubjectClient)]
# Context-manager and transport plumbing whose async form has another name.
RENAMED = {"close": "aclose", "__enter__": "__aenter__", "__exit__": "__aexit__"}
# Plain methods on both sides: they build a handle, they do no I/O.
NOT_IO = {"for_subject", "for_user"}


def _public(cls) -> dict[str, object]:
    return {
        name: member
        for name, member in inspect.getmembers(cls, inspect.isfunction)
        if not name.startswith("_")
    }


@pytest.mark.parametrize("sync_cls, async_cls", PAIRS, ids=lambda c: c.__name__)
def test_every_method_has_an_async_twin(sync_cls, async_cls):
    sync_methods, async_methods = _public(sync_cls), _public(async_cls)
    assert len(sync_methods) >= 5
    for name, method in sync_methods.items():
        twin = async_methods.get(RENAMED.get(name, name))
        assert twin is not None, f"{async_cls.__name__} lacks {name}"
        if name in NOT_IO or name in RENAMED:
            continue
        if inspect.isgeneratorfunction(method):
            assert inspect.isasyncgenfunction(twin), f"{name} should be an async generator"
        else:
            assert inspect.iscoroutinefunction(twin), f"{name} should be async"
        sync_params = list(inspect.signature(method).parameters)
        async_params = list(inspect.signature(twin).parameters)
        assert sync_params == async_params, f"{name}: {sync_params} != {async_params}"
