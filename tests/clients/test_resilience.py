"""Retry, backoff, Retry-After and circuit-breaker decisions, deterministic: the HTTP
exchange is scripted with httpx.MockTransport (a stand-in for the network, not for
Engram: the behaviour against the real server is in test_client_live.py), sleeps are
recorded instead of slept and the breaker's clock is a counter."""

from __future__ import annotations

import json
import random

import httpx
import pytest
from engramhq_client import (
    CircuitBreaker,
    EngramClient,
    EngramUnavailable,
    InvalidInput,
    Outbox,
    QueuedWrite,
    RateLimited,
    RetryPolicy,
    ServerError,
)
from engramhq_client.errors import api_error

TOKEN = "eyJzIjoiMTExMTExMTEtMTExMS0xMTExLTExMTEtMTExMTExMTExMTExIn0:sig:sig"
PACK = {
    "trace_id": "11111111-1111-1111-1111-111111111111",
    "empty": True,
    "empty_reason": "no_relevant_memory",
    "items": [],
    "context_pack": "",
    "as_of": "2026-01-01T00:00:00Z",
    "known_at": None,
    "dropped_by_budget": 0,
    "vector_pending": 0,
    "vector_unavailable": False,
}


class Script:
    """Answers requests from a list of responses or exceptions, recording each request."""

    def __init__(self, *steps) -> None:
        self.steps = list(steps)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        step = self.steps.pop(0)
        if isinstance(step, Exception):
            raise step
        status, body = step
        return httpx.Response(status, json=body)


def make(script: Script, **kw):
    sleeps: list[float] = []
    c = EngramClient(
        "http://engram.invalid",
        "egk_test",
        transport=httpx.MockTransport(script),
        sleep=sleeps.append,
        rng=random.Random(7),
        **kw,
    )
    return c, sleeps


def err(code: str, **extra) -> dict:
    return {"code": code, "message": "m", "extra": extra}


def test_connection_errors_are_retried_with_jittered_backoff():
    script = Script(httpx.ConnectError("refused"), httpx.ConnectError("refused"), (200, PACK))
    c, sleeps = make(script, retry=RetryPolicy(attempts=3, backoff_base=0.1, backoff_max=1))
    pack = c.for_subject(TOKEN).recall("q", "personalization")
    assert not pack.degraded and len(script.requests) == 3
    assert len(sleeps) == 2 and 0 <= sleeps[0] <= 0.1 and 0 <= sleeps[1] <= 0.2


def test_retry_after_is_honoured_when_it_fits_the_budget():
    script = Script((429, err("rate_limited", retry_after_seconds=1)), (200, PACK))
    c, sleeps = make(script, retry=RetryPolicy(attempts=3, max_wait=2))
    assert not c.for_subject(TOKEN).recall("q", "p").degraded
    assert sleeps == [1.0]


def test_a_retry_after_beyond_the_budget_gives_up_at_once():
    script = Script((429, err("rate_limited", retry_after_seconds=30)))
    c, sleeps = make(script, retry=RetryPolicy(attempts=3, max_wait=2))
    pack = c.for_subject(TOKEN).recall("q", "p")
    assert pack.degraded and pack.degraded_reason == "rate_limited" and sleeps == []
    assert c.breaker.state == "closed"  # being throttled is not an outage


def test_503_is_retried_and_degrades_recall():
    script = Script((503, err("unavailable")), (503, err("unavailable")))
    c, _ = make(script, retry=RetryPolicy(attempts=2))
    pack = c.for_subject(TOKEN).recall("q", "p")
    assert pack.degraded and pack.degraded_reason == "server_unavailable"
    assert pack.items == [] and pack.context_pack == ""


def test_a_read_timeout_resends_reads_but_never_a_candidate(tmp_path):
    script = Script(httpx.ReadTimeout("slow"), (200, PACK))
    c, _ = make(script)
    assert not c.for_subject(TOKEN).recall("q", "p").degraded
    assert len(script.requests) == 2

    # The candidate may have been applied: no blind resend, it waits in the outbox.
    script = Script(httpx.ReadTimeout("slow"))
    c, _ = make(script, outbox=str(tmp_path / "o.sqlite"))
    result = c.for_subject(TOKEN).remember({"statement": "x"})
    assert isinstance(result, QueuedWrite) and result.reason == "timeout"
    assert len(script.requests) == 1


def test_client_errors_raise_and_are_not_retried():
    script = Script((400, err("invalid_input", fields={"k": ["bad"]})))
    c, sleeps = make(script)
    with pytest.raises(InvalidInput) as e:
        c.for_subject(TOKEN).recall("q", "p")
    assert e.value.extra == {"fields": {"k": ["bad"]}} and sleeps == []
    assert len(script.requests) == 1


def test_500_raises_server_error_without_retry():
    script = Script((500, err("server_error")))
    c, _ = make(script)
    with pytest.raises(ServerError):
        c.for_subject(TOKEN).get_memory("11111111-1111-1111-1111-111111111111")


def test_error_bodies_outside_the_shape_still_map():
    e = api_error(502, "<html>bad gateway</html>")
    assert isinstance(e, ServerError) and e.code == "http_502"
    assert isinstance(api_error(429, err("rate_limited", retry_after_seconds=3)), RateLimited)


def test_circuit_opens_fails_fast_and_half_opens_for_one_trial():
    now = [0.0]
    breaker = CircuitBreaker(failure_threshold=2, reset_timeout=10, clock=lambda: now[0])
    script = Script(httpx.ConnectError("x"), httpx.ConnectError("x"), (200, PACK), (200, PACK))
    c, _ = make(script, breaker=breaker, retry=RetryPolicy(attempts=1))
    alice = c.for_subject(TOKEN)
    assert alice.recall("q", "p").degraded_reason == "connect_error"
    assert alice.recall("q", "p").degraded_reason == "connect_error"
    assert breaker.state == "open"
    assert alice.recall("q", "p").degraded_reason == "circuit_open"
    assert len(script.requests) == 2  # the open circuit sent nothing
    now[0] = 10.0
    assert breaker.state == "half_open"
    assert breaker.allow() and not breaker.allow()  # one trial at a time
    breaker.record_failure()
    assert breaker.state == "open"
    now[0] = 20.0
    assert not alice.recall("q", "p").degraded
    assert breaker.state == "closed"


def test_writes_with_no_outbox_raise_when_unavailable():
    c, _ = make(Script(httpx.ConnectError("x")), retry=RetryPolicy(attempts=1))
    with pytest.raises(EngramUnavailable) as e:
        c.for_subject(TOKEN).remember({"statement": "x"})
    assert e.value.reason == "connect_error"


def test_outbox_claims_keep_two_senders_apart(tmp_path):
    a, b = Outbox(tmp_path / "o.sqlite"), Outbox(tmp_path / "o.sqlite")
    a.put(subject_key="s", op="events_append", method="POST", path="/p", body={"x": 1}, key="k1")
    a.put(subject_key="s", op="events_append", method="POST", path="/p", body={"x": 1}, key="k1")
    [entry] = a.pending("s")
    assert a.claim(entry.id) and not b.claim(entry.id)
    a.release(entry.id)
    assert b.claim(entry.id)
    b.done(entry.id)
    assert a.count() == 0


def test_logs_carry_no_memory_text(tmp_path, caplog):
    caplog.set_level("DEBUG", logger="engramhq_client")
    one = RetryPolicy(attempts=1)
    c, _ = make(Script(httpx.ConnectError("x")), outbox=str(tmp_path / "o.sqlite"), retry=one)
    c.for_subject(TOKEN).remember({"statement": "my secret diagnosis is X"})
    c2, _ = make(Script(httpx.ConnectError("x")), retry=one)
    c2.for_subject(TOKEN).recall("what is my diagnosis", "p")
    text = caplog.text
    assert "diagnosis" not in text and "egk_test" not in text and TOKEN not in text


def test_recall_passes_through_what_this_client_does_not_know_yet():
    """A newer server's recall (routing: ``route`` in, ``use`` per item out) works with this
    client: unknown options are sent, unknown fields are kept."""
    item = {
        "id": "22222222-2222-2222-2222-222222222222",
        "statement": "User likes tea",
        "use": "verify",
        "route_reason": "inference",
    }
    script = Script((200, {**PACK, "items": [item], "route": "auto"}))
    c, _ = make(script)
    pack = c.for_subject(TOKEN).recall("q", "p", k=3, route="auto")
    sent = json.loads(script.requests[0].content)
    assert sent["route"] == "auto" and sent["k"] == 3
    [got] = pack.items
    assert got.use == "verify" and got.extra["route_reason"] == "inference"
    assert got.statement == "User likes tea" and got.flags == []  # missing fields default
    assert pack.extra == {"route": "auto"}
