"""A thread's summary rebuilt by one read and one upsert (``ENGRAM_INGEST_SUMMARY_ONE_READ``)
equals the reference's (two reads and ``update_or_create``) after any sequence of turns:
goals, tasks and their "done", constraints, tool results, English and Chinese; the agent's
candidates citing some messages (confirmed facts), a single-valued fact superseding the
last (its fact leaves the summary), several facts citing one message, messages out of
time order and at the same instant, and an event left out (deletion's rebuild)."""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.tenancy import tenant_context
from memory.models import SourceEvent, ThreadSummary
from memory.services.compression import thread_summarize
from tests.helpers.cast import candidate

URL = "/api/v1/conversation"
TEXTS = [
    "I want to learn Portuguese before the trip",
    "Please send the draft to finance. Next step: book the hall",
    "Done, it's finished",
    "We must not spend more than 300 euros",
    "The weather was lovely today",
    "我想下个月去成都。预算不能超过五千元",
    "提醒我明天给妈妈打电话",
    "已经完成了",
    "help me plan a birthday party; only vegetarian food",
]
BASE = datetime(2026, 3, 1, 9, tzinfo=UTC)
_ids = itertools.count()

message = st.fixed_dictionaries(
    {
        "text": st.sampled_from(TEXTS),
        "role": st.sampled_from(["user", "user", "assistant", "tool"]),
        # minutes from BASE: repeats are ties, smaller ones arrive out of order
        "minute": st.integers(0, 4),
        "cited": st.integers(0, 2),  # how many candidates cite it
        "single": st.booleans(),  # a single-valued fact (supersedes the last)
    }
)
step = st.one_of(
    st.tuples(st.just("turn"), st.sampled_from(["t1", "t2"]), st.lists(message, max_size=4)),
    st.tuples(st.just("leave_out"), st.sampled_from(["t1", "t2"]), st.integers(0, 50)),
)


def _summary(owner_subject, thread: str, one_read: bool, settings_, exclude=()):
    settings_.ENGRAM_INGEST = {**settings_.ENGRAM_INGEST, "SUMMARY_ONE_READ": one_read}
    with tenant_context(owner_subject.tenant_id):
        built = thread_summarize(
            actor=None,
            tenant_id=owner_subject.tenant_id,
            subject_id=owner_subject.id,
            thread_id=thread,
            exclude_event_ids=exclude,
        )
        row = ThreadSummary.objects.filter(subject=owner_subject, thread_id=thread).first()
    if built is None:
        assert row is None
        return None
    assert built.items == row.items and built.pk == row.pk
    return (row.items, sorted(row.source_event_ids), row.event_count)


def _turn(api, thread: str, messages: list[dict]) -> None:
    body = {"thread_id": thread, "messages": [], "candidates": []}
    for m in messages:
        n = next(_ids)
        cid = f"m{n}"
        body["messages"].append(
            {
                "client_event_id": cid,
                "role": m["role"],
                "content": f"{m['text']} ({n})",
                "occurred_at": (BASE + timedelta(minutes=m["minute"])).isoformat(),
            }
        )
        for k in range(m["cited"]):
            extra = {"predicate": "home_city", "cardinality": "single"} if m["single"] else {}
            body["candidates"].append(
                candidate(
                    statement=f"User lives in city {n}-{k}",
                    namespace="profile",
                    source_client_event_ids=[cid],
                    **extra,
                )
            )
    if body["messages"]:
        r = api.post_json(URL, body)
        assert r.status_code == 200, r.content


@pytest.mark.django_db
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(step, min_size=1, max_size=6))
def test_one_read_equals_the_reference_after_any_sequence(api, settings, owner_subject, steps):
    for kind, thread, arg in steps:
        exclude: list[uuid.UUID] = []
        if kind == "turn":
            _turn(api, thread, arg)
        else:
            ids = list(
                SourceEvent.objects.filter(subject=owner_subject, thread_id=thread)
                .order_by("id")
                .values_list("id", flat=True)
            )
            exclude = [ids[arg % len(ids)]] if ids else []
        reference = _summary(owner_subject, thread, False, settings, exclude)
        mine = _summary(owner_subject, thread, True, settings, exclude)
        assert mine == reference
        again = _summary(owner_subject, thread, False, settings, exclude)
        assert again == reference  # the upsert left what the reference reads back


@pytest.mark.django_db
def test_summaries_have_content_and_an_empty_thread_none(api, settings, owner_subject):
    """The property above would hold for empty summaries: this one holds each kind, a
    fact, and a thread whose only event is left out loses its summary either way."""
    _turn(
        api,
        "t1",
        [
            {"text": t, "role": "user", "minute": i % 3, "cited": i % 2, "single": False}
            for i, t in enumerate(TEXTS)
        ],
    )
    for one_read in (False, True):
        items, sources, count = _summary(owner_subject, "t1", one_read, settings)
        assert {i["kind"] for i in items} == {"goal", "task", "constraint", "fact"}
        assert count == len(TEXTS) and sources
    _turn(api, "t3", [{"text": TEXTS[0], "role": "user", "minute": 0, "cited": 0, "single": 0}])
    [only] = SourceEvent.objects.filter(subject=owner_subject, thread_id="t3")
    for one_read in (True, False):
        assert _summary(owner_subject, "t3", one_read, settings, [only.id]) is None
