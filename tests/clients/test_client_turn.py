"""``add(messages, candidates=…)`` in both clients against a real running Engram: the turn's
messages and the agent's own candidates in one request, the decisions as
``submit_candidates`` returns them, and an unknown citation refused with nothing stored."""

from __future__ import annotations

import asyncio

import pytest
from engramhq_client import AsyncEngramClient, EngramClient, InvalidInput, RetryPolicy, Timeouts
from engramhq_client.models import Candidate, CandidateResult, Message

from memory.models import MemoryRecord, SourceEvent
from tests.helpers.live_server import preference

pytestmark = pytest.mark.django_db(transaction=True)

FAST = dict(
    timeouts=Timeouts(connect=0.5, recall=30, read=30, write=30),
    retry=RetryPolicy(attempts=2, backoff_base=0),
)


def test_add_with_candidates_is_one_request(live_engram, keys):
    with EngramClient(live_engram.url, keys.write_key, admin_api_key=keys.admin_key, **FAST) as c:
        result = c.add(
            [
                Message(role="user", content="I drink oolong now.", client_event_id="c-1"),
                {"role": "assistant", "content": "Noted."},
            ],
            user_id="ana",
            thread_id="t-1",
            candidates=[
                Candidate(**preference("User drinks oolong", source_client_event_ids=["c-1"])),
                preference("用户喜欢乌龙茶", namespace="assistant/taste"),
            ],
        )
        assert [e.created for e in result.events] == [True, True]
        assert all(isinstance(d, CandidateResult) for d in result.candidates)
        assert [d.operation for d in result.candidates] == ["ADD", "ADD"]
        assert result.decisions == []
        record = MemoryRecord.objects.get(id=result.candidates[0].record_id)
        assert [e.client_event_id for e in record.source_events.all()] == ["c-1"]

        with pytest.raises(InvalidInput) as refused:
            c.add(
                [{"role": "user", "content": "hello", "client_event_id": "c-2"}],
                user_id="ana",
                candidates=[preference("User says hello", source_client_event_ids=["c-9"])],
            )
        assert refused.value.code == "unknown_source_event"
        assert not SourceEvent.objects.filter(client_event_id="c-2").exists()

        # Without candidates, add is what it was: Engram's extraction decides.
        plain = c.add([{"role": "user", "content": "Remember that I live in Oslo."}], user_id="ana")
        assert plain.candidates == [] and plain.decisions


def test_async_add_with_candidates(live_engram, keys):
    async def go():
        async with AsyncEngramClient(
            live_engram.url, keys.write_key, admin_api_key=keys.admin_key, **FAST
        ) as c:
            return await c.add(
                [{"role": "user", "content": "I like jazz.", "client_event_id": "a-1"}],
                user_id="bo",
                candidates=[preference("User likes jazz", source_client_event_ids=["a-1"])],
            )

    result = asyncio.run(go())
    assert [d.operation for d in result.candidates] == ["ADD"]
