"""The per-agent throttle's packed history (``ENGRAM_API_THROTTLE_PACKED_HISTORY``,
accounts/throttles.py) decides as DRF's list does: over any sequence of request times —
bursts, gaps longer than the window, the clock stepping back — the same requests are
allowed and refused, with the same ``wait()``, and at the API a refused request answers
the same 429."""

from __future__ import annotations

import struct
import uuid
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.core.cache.backends.locmem import LocMemCache
from django.test import override_settings
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from accounts.authentication import AgentPrincipal
from accounts.throttles import AgentRateThrottle
from tests.helpers.api import assert_error


def packed(on: bool):
    return override_settings(ENGRAM={**settings.ENGRAM, "THROTTLE_PACKED_HISTORY": on})


def throttle(clock: list[float], num_requests: int, duration: int) -> AgentRateThrottle:
    t = AgentRateThrottle()
    t.num_requests, t.duration = num_requests, duration
    t.timer = lambda: clock[0]
    t.cache = LocMemCache(f"throttle-{uuid.uuid4()}", {})
    return t


def request_of(agent_id: uuid.UUID):
    principal = AgentPrincipal(agent=SimpleNamespace(id=agent_id), api_key=None, subject_id=None)
    return SimpleNamespace(user=principal)


@hypothesis_settings(max_examples=200, deadline=None)
@given(
    num_requests=st.integers(1, 6),
    duration=st.integers(1, 20),
    steps=st.lists(
        st.one_of(
            st.floats(0, 3, allow_nan=False),  # bursts and pauses inside the window
            st.floats(0, 40, allow_nan=False),  # gaps longer than it
            st.floats(-2, 0, allow_nan=False),  # the clock stepping back
            st.sampled_from([0.0, 1.0]),  # equal times, exactly one window apart
        ),
        max_size=60,
    ),
)
def test_the_packed_history_decides_as_drfs_list(num_requests, duration, steps):
    clock = [1_000_000.0]
    reference = throttle(clock, num_requests, duration)
    fast = throttle(clock, num_requests, duration)
    request = request_of(uuid.uuid4())
    for step in steps:
        clock[0] += step
        with packed(False):
            allowed = reference.allow_request(request, None)
            waited = None if allowed else reference.wait()
        with packed(True):
            assert fast.allow_request(request, None) == allowed
            assert (None if allowed else fast.wait()) == waited
        assert list(fast.history) == list(reference.history)


def test_each_form_under_its_own_key():
    clock = [50.0]
    t = throttle(clock, 3, 60)
    request = request_of(uuid.uuid4())
    for on in (True, False):
        with packed(on):
            assert t.allow_request(request, None)
    key = t.get_cache_key(request, None)
    assert t.cache.get(key) == [50.0]
    assert t.cache.get(key + ":packed") == struct.pack("=d", 50.0)


@pytest.mark.django_db
@pytest.mark.parametrize("on", [False, True])
def test_a_refused_request_answers_429_both_ways(on, read_agent, owner_subject, monkeypatch):
    monkeypatch.setattr(
        AgentRateThrottle, "THROTTLE_RATES", {**AgentRateThrottle.THROTTLE_RATES, "agent": "2/min"}
    )
    client = read_agent.client(owner_subject)
    with packed(on):
        assert client.get("/api/v1/memories").status_code == 200
        assert client.get("/api/v1/memories").status_code == 200
        refused = client.get("/api/v1/memories")
    assert_error(refused, 429, "rate_limited")
    assert 0 < int(refused.headers["Retry-After"]) <= 60
