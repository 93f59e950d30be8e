"""The client's working memory and thread close against a real running Engram (gunicorn
on loopback, the test database), sync and async, and the MCP tools over stdio."""

from __future__ import annotations

import asyncio
import json
import os
import sys

import pytest
from engramhq_client import AsyncEngramClient, EngramClient, PermissionDenied, RetryPolicy, Timeouts
from engramhq_client.errors import EngramAPIError
from engramhq_client.models import Event

pytestmark = pytest.mark.django_db(transaction=True)

PATIENT = Timeouts(connect=0.5, recall=30, read=30, write=30)
FAST = dict(timeouts=PATIENT, retry=RetryPolicy(attempts=2, backoff_base=0))


def test_working_memory_and_close_through_the_sync_client(live_engram, keys):
    with EngramClient(live_engram.url, keys.write_key, admin_api_key=keys.admin_key, **FAST) as c:
        alice = c.for_user("alice")
        alice.append_events(
            [
                Event(
                    "w-1",
                    "message",
                    "user",
                    "I'm comparing flights to Lisbon for May.",
                    thread_id="trip/7",
                ),
                Event("w-2", "message", "user", "记住我喜欢靠窗的座位。", thread_id="trip/7"),
            ]
        )
        entry = alice.working_put("trip/7", "budget", {"max_eur": 400}, ttl_seconds=600)
        assert entry.value == {"max_eur": 400} and entry.size_bytes == len('{"max_eur":400}')
        alice.working_put("trip/7", "航线", "里斯本")
        assert alice.working_get("trip/7", "budget").value == {"max_eur": 400}
        listing = alice.working_list("trip/7")
        assert sorted(e.key for e in listing.results) == ["budget", "航线"]
        assert alice.working_delete("trip/7", "航线") is True
        assert alice.working_delete("trip/7", "航线") is False
        assert alice.working_get("trip/7", "航线") is None
        # Another user of the same agent sees nothing of alice's.
        assert c.for_user("bob").working_get("trip/7", "budget") is None
        with pytest.raises(EngramAPIError) as secret:
            alice.working_put("trip/7", "login", {"password": "Tr0ub4dor&3xq"})
        assert secret.value.code == "secret_detected" and secret.value.status_code == 422

        closed = alice.close_thread(
            "trip/7", keep=["budget", {"statement": "User is planning a May trip to Lisbon"}]
        )
        assert closed.replayed is False
        assert [k.kept for k in closed.kept] == ["budget", "statement"]
        assert closed.summary is not None and closed.summary.operation == "ADD"
        assert closed.summary_writer == "extractive" and closed.event_count == 2
        assert closed.working_dropped == 1
        assert alice.working_list("trip/7").results == []
        again = alice.close_thread("trip/7")
        assert again.replayed is True and again.summary.record_id == closed.summary.record_id


def test_read_only_key_cannot_put(live_engram, keys):
    with EngramClient(live_engram.url, keys.read_key, admin_api_key=keys.admin_key, **FAST) as c:
        with pytest.raises(PermissionDenied):
            c.for_user("alice").working_put("t", "k", 1)


def test_async_client_twins(live_engram, keys):
    async def run() -> None:
        async with AsyncEngramClient(
            live_engram.url, keys.write_key, admin_api_key=keys.admin_key, **FAST
        ) as c:
            alice = c.for_user("alice")
            await alice.working_put("t-async", "step", 3)
            assert (await alice.working_get("t-async", "step")).value == 3
            assert [e.key for e in (await alice.working_list("t-async")).results] == ["step"]
            closed = await alice.close_thread("t-async", keep=["step"], summary=False)
            assert closed.summary is None and closed.working_dropped == 1
            assert await alice.working_get("t-async", "step") is None
            assert await alice.working_delete("t-async", "step") is False

    asyncio.run(run())


def test_mcp_working_memory_tools(live_engram, keys, tmp_path):
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "engramhq_client.mcp_server"],
        env={
            "ENGRAM_URL": live_engram.url,
            "ENGRAM_API_KEY": keys.write_key,
            "ENGRAM_ADMIN_API_KEY": keys.admin_key,
            "ENGRAM_SUBJECT": "alice",
            "ENGRAM_OUTBOX": "off",
            "PATH": os.environ.get("PATH", ""),
            # The client package this test runs against (a worktree's, not only the one
            # installed in the environment).
            "PYTHONPATH": os.pathsep.join(p for p in sys.path if p),
        },
    )

    def text(result) -> str:
        return "".join(c.text for c in result.content if getattr(c, "text", None))

    async def session() -> None:
        async with Client(params, read_timeout_seconds=60) as mcp:
            said = text(
                await mcp.call_tool(
                    "working_put", {"thread_id": "mcp-1", "key": "plan", "value": {"step": 1}}
                )
            )
            assert said.startswith("Stored plan")
            got = text(await mcp.call_tool("working_get", {"thread_id": "mcp-1", "key": "plan"}))
            assert json.loads(got) == {"step": 1}
            listing = text(await mcp.call_tool("working_list", {"thread_id": "mcp-1"}))
            assert json.loads(listing) == {"plan": {"step": 1}}
            refused = await mcp.call_tool(
                "working_put",
                {"thread_id": "mcp-1", "key": "pw", "value": "my password is Tr0ub4dor&3xq"},
            )
            message = text(refused)
            assert refused.is_error
            assert json.loads(message[message.index("{") :])["code"] == "secret_detected"
            closed = text(
                await mcp.call_tool("close_thread", {"thread_id": "mcp-1", "keep": ["plan"]})
            )
            assert (
                closed.startswith("Thread mcp-1 closed") and "working memory dropped: 1" in closed
            )
            gone = text(await mcp.call_tool("working_get", {"thread_id": "mcp-1", "key": "plan"}))
            assert gone.startswith("No working memory")
            deleted = text(
                await mcp.call_tool("working_delete", {"thread_id": "mcp-1", "key": "plan"})
            )
            assert deleted.startswith("There was nothing")

    asyncio.run(session())
