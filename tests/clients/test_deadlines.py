"""Clients never hang: against a real Engram whose workers are stopped (SIGSTOP: the
kernel accepts connections, nobody answers) and against a closed port, with the default
deadlines. What is asserted is the mechanism, not the clock: each attempt's timeouts come
from what is left of the call's deadline (a short connect, the rest to read), a hung
server costs one attempt per call, the breaker opens after a few failures and then sends
nothing, recall degrades, writes queue, and the writes the stopped worker took in are,
once it resumes, applied exactly once with the outbox's replay."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from engramhq_client import (
    AsyncEngramClient,
    CircuitBreaker,
    EngramClient,
    QueuedWrite,
    Timeouts,
)

from memory.models import MemoryRecord
from tests.helpers.live_server import free_port, preference

pytestmark = pytest.mark.django_db(transaction=True)

DEFAULTS = Timeouts()


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Recording(httpx.BaseTransport):
    """The real HTTP transport, noting each request's path and timeouts."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.sent: list[tuple[str, dict]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append((request.url.path, dict(request.extensions.get("timeout", {}))))
        return self.inner.handle_request(request)

    def close(self) -> None:
        self.inner.close()


class AsyncRecording(httpx.AsyncBaseTransport):
    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.sent: list[tuple[str, dict]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append((request.url.path, dict(request.extensions.get("timeout", {}))))
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


def _within(timeouts: list[dict], deadline: float) -> None:
    assert timeouts
    for t in timeouts:
        assert 0 < t["connect"] <= DEFAULTS.connect
        assert 0 < t["read"] <= deadline


def test_a_hung_server_costs_one_deadline_per_call_then_the_breaker_answers(
    live_engram, keys, tmp_path
):
    transport = Recording()
    breaker = CircuitBreaker(clock=(clock := FakeClock()))
    with EngramClient(
        live_engram.url,
        keys.write_key,
        admin_api_key=keys.admin_key,
        transport=transport,
        breaker=breaker,
        outbox=tmp_path / "outbox.sqlite",
    ) as c:
        alice = c.for_user("alice")
        assert alice.remember(preference("User likes tea")).operation == "ADD"
        transport.sent.clear()
        with live_engram.hung():
            pack = alice.recall("what does the user drink", "personalization")
            assert pack.degraded and pack.degraded_reason == "timeout"
            [(path, timeout)] = transport.sent  # a timed-out attempt uses up the deadline
            assert path == "/api/v1/recall"
            _within([timeout], DEFAULTS.recall)

            transport.sent.clear()
            queued = alice.remember(preference("User likes coffee"))
            assert isinstance(queued, QueuedWrite) and queued.reason == "timeout"
            assert queued.operation == "QUEUED" and not queued.accepted
            _within([t for _, t in transport.sent], DEFAULTS.write)
            assert len(transport.sent) == 1  # a candidate is never resent blindly

            assert alice.recall("tea", "personalization").degraded_reason == "timeout"
            assert breaker.state == "open"  # three failures within the window
            transport.sent.clear()
            assert alice.recall("tea", "personalization").degraded_reason == "circuit_open"
            assert isinstance(alice.remember(preference("User likes cocoa")), QueuedWrite)
            assert transport.sent == []  # nothing touched the network

        clock.now += breaker.reset_timeout
        report = alice.flush_outbox()
        assert (report.sent, report.failed, report.remaining) == (2, 0, 0)
        # The stopped worker took the coffee write in and applied it when it resumed; the
        # replay carried the same Idempotency-Key: one record, no second CONFIRM.
        [coffee] = MemoryRecord.objects.filter(statement="User likes coffee")
        assert coffee.evidence_count == 1
        assert MemoryRecord.objects.filter(statement="User likes cocoa").count() == 1


def test_a_closed_port_fails_fast_and_opens_the_breaker(tmp_path):
    transport = Recording()
    url = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    with EngramClient(
        url, "egk_x_y", admin_api_key="egk_x_z", transport=transport, outbox=tmp_path / "o.sqlite"
    ) as c:
        alice = c.for_user("alice")
        pack = alice.recall("anything", "personalization")
        assert pack.degraded and pack.degraded_reason == "connect_error"
        # Refused connections are retried within the deadline, then the breaker opens.
        assert len(transport.sent) == 3 and c.breaker.state == "open"
        _within([t for _, t in transport.sent], DEFAULTS.recall)
        transport.sent.clear()
        queued = alice.add([{"role": "user", "content": "Remember that I like tea"}])
        assert isinstance(queued, QueuedWrite) and queued.reason == "circuit_open"
        assert queued.decisions == [] and transport.sent == []
        assert alice.recall_feedback(pack.trace_id, []) is None  # nothing to report on


def test_async_client_never_hangs_either(live_engram, keys, tmp_path):
    async def session() -> None:
        transport = AsyncRecording()
        async with AsyncEngramClient(
            live_engram.url,
            keys.write_key,
            admin_api_key=keys.admin_key,
            transport=transport,
            outbox=tmp_path / "outbox.sqlite",
        ) as c:
            alice = c.for_user("alice")
            assert (await alice.remember(preference("User likes jazz"))).operation == "ADD"
            transport.sent.clear()
            with live_engram.hung():
                pack = await alice.recall("music", "personalization")
                assert pack.degraded and pack.degraded_reason == "timeout"
                _within([t for _, t in transport.sent], DEFAULTS.recall)
                assert isinstance(await alice.remember(preference("User likes blues")), QueuedWrite)
            closed = AsyncEngramClient(f"http://127.0.0.1:{free_port()}", "egk_x_y")
            async with closed:
                pack = await closed.for_subject("t:x:y").recall("q", "personalization")
                assert pack.degraded_reason == "connect_error"

    asyncio.run(session())
