"""The thread summary job's bookkeeping in one INSERT (``ENGRAM_INGEST["SUMMARY_JOB_ONE_INSERT"]``)
and the turn's events without a savepoint of their own (``TURN_EVENTS_NO_SAVEPOINT``) leave
what their references leave: the same TaskRun rows when the summary succeeds, fails once,
or fails for good (dead letter); nothing of a turn whose events are refused."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.actor import Actor
from memory.models import DeadLetter, SourceEvent, TaskRun, ThreadSummary
from memory.services import compression
from memory.services.conversation import turn_append
from memory.services.events import EventIdConflict, EventInput
from memory.tasks import summarize_thread
from tests.helpers.lifecycle import append

pytestmark = pytest.mark.django_db


def _with(settings, **switches) -> None:
    settings.ENGRAM_INGEST = {**django_settings.ENGRAM_INGEST, **switches}


def _rows(tenant_id) -> list[tuple]:
    return sorted(
        (
            r.key.rsplit(":", 1)[0],
            r.outcome,
            r.attempts,
            r.error_class,
            str(r.result),
            r.finished_at is not None and r.started_at <= r.finished_at,
        )
        for r in TaskRun.objects.filter(tenant_id=tenant_id, task_name="memory.summarize_thread")
    )


def _summarize(subject, monkeypatch, failures: int) -> None:
    original, calls = compression.thread_summarize, {"n": 0}

    def flaky(**kw):
        calls["n"] += 1
        if calls["n"] <= failures:
            raise ValueError("boom")
        return original(**kw)

    monkeypatch.setattr(compression, "thread_summarize", flaky)
    summarize_thread.apply(args=(str(subject.tenant_id), str(subject.id), "t1")).get()
    monkeypatch.setattr(compression, "thread_summarize", original)


@pytest.mark.parametrize("failures", [0, 1, 2, 99])
def test_summary_job_rows_equal_with_one_insert(
    tenant, write_agent, owner_subject, settings, monkeypatch, failures
):
    append(write_agent, owner_subject, "We planted tomatoes by the fence", thread="t1")
    settings.ENGRAM_LIFECYCLE = {**django_settings.ENGRAM_LIFECYCLE, "MAX_RETRIES": 3}
    found = {}
    for switch in (False, True):
        TaskRun.objects.filter(task_name="memory.summarize_thread").delete()
        DeadLetter.objects.all().delete()
        ThreadSummary.objects.all().delete()
        _with(settings, SUMMARY_JOB_ONE_INSERT=switch)
        with CaptureQueriesContext(connection) as queries:
            _summarize(owner_subject, monkeypatch, failures)
        found[switch] = (
            _rows(tenant.id),
            sorted((d.task_name, d.error_class, d.attempts) for d in DeadLetter.objects.all()),
            [(s.thread_id, s.event_count) for s in ThreadSummary.objects.all()],
            len(queries),
        )
    assert found[True][:3] == found[False][:3]
    if failures == 0:
        assert found[True][0][0][1:3] == ("succeeded", 1)
        # The locking read, the savepoint's two statements and the update are gone.
        assert found[True][3] == found[False][3] - 4


def test_a_refused_turn_stores_nothing_without_the_events_savepoint(
    tenant, write_agent, owner_subject, settings
):
    actor = Actor.agent(write_agent.agent.id, tenant.id)
    at = datetime(2026, 3, 1, 9, tzinfo=UTC)

    def turn(client_id: str, content: str):
        item = EventInput(client_id, "message", "user", content, thread_id="t9", occurred_at=at)
        return turn_append(
            actor=actor,
            agent_id=write_agent.agent.id,
            subject=owner_subject,
            items=[item],
            candidates=[],
            cited=[],
        )

    for switch in (False, True):
        _with(settings, TURN_EVENTS_NO_SAVEPOINT=switch)
        turn(f"a-{switch}", "I collect old maps")
        with pytest.raises(EventIdConflict):
            # A new message stored first, then a client id reused with other content.
            turn_many = [(f"b-{switch}", "We moved the piano"), (f"a-{switch}", "I sell maps")]
            turn_append(
                actor=actor,
                agent_id=write_agent.agent.id,
                subject=owner_subject,
                items=[
                    EventInput(c, "message", "user", t, thread_id="t9", occurred_at=at)
                    for c, t in turn_many
                ],
                candidates=[],
                cited=[],
            )
        # Nothing of the refused turn is stored, and the transaction is still usable.
        assert sorted(
            SourceEvent.objects.filter(subject=owner_subject).values_list(
                "client_event_id", "content"
            )
        ) == sorted([(f"a-{s}", "I collect old maps") for s in (False, True) if s <= switch])
