"""Threads that went quiet are closed as if the agent had closed them
(memory.services.thread_idle): summary written, working memory dropped; busy, already
closed, long-forgotten and other tenants' threads are left alone, and the tenant policy or
the setting turns it off."""

from __future__ import annotations

import json
from datetime import timedelta

import pgtrigger
import pytest
from django.utils import timezone

from core.actor import Actor
from core.tenancy import tenant_context
from memory.models import MemoryRecord, SourceEvent, ThreadClosure
from memory.services.session_summary import SOURCE_URI_PREFIX
from memory.services.thread_idle import idle_threads_close
from memory.tasks import threads_idle_close_tenant
from tests.helpers.lifecycle import append

pytestmark = pytest.mark.django_db

HOUR = timedelta(hours=1)
APPEND_ONLY = "memory.SourceEvent:source_event_append_only"


def received(event_ids, at):
    """Back-date when events arrived (events are append-only; only a test may do this)."""
    with pgtrigger.ignore(APPEND_ONLY):
        SourceEvent.objects.filter(pk__in=event_ids).update(received_at=at)


def talk(write_agent, subject, thread, turns):
    return [append(write_agent, subject, text, thread=thread) for text in turns]


def run(tenant, now=None):
    with tenant_context(tenant.id):
        return idle_threads_close(
            actor=Actor.system(tenant.id, "threads"),
            tenant_id=tenant.id,
            now=now or timezone.now() + HOUR,
        )


def summaries(subject):
    return MemoryRecord.objects.filter(
        subject=subject, source_uri__startswith=SOURCE_URI_PREFIX, status="active"
    )


def test_a_quiet_thread_is_closed_with_its_summary_and_working_memory_dropped(
    api, write_agent, owner_subject, tenant
):
    talk(
        write_agent,
        owner_subject,
        "garden",
        ["I planted three tomato varieties on the balcony in Lisbon.", "The basil died again."],
    )
    r = api.put(
        "/api/v1/threads/garden/working/step",
        json.dumps({"value": "watering plan"}),
        content_type="application/json",
    )
    assert r.status_code == 200
    assert run(tenant) == {"closed": 1, "failed": 0}
    closure = ThreadClosure.objects.get(subject=owner_subject, thread_id="garden")
    assert closure.agent_id is None and closure.result["summary"]["operation"] == "ADD"
    [summary] = summaries(owner_subject)
    assert "Lisbon" in summary.statement
    assert api.get("/api/v1/threads/garden/working").json()["results"] == []
    # Closed once: the next run finds nothing to do.
    assert run(tenant) == {"closed": 0, "failed": 0}


def test_a_chinese_thread_gets_its_summary_too(write_agent, owner_subject, tenant):
    talk(write_agent, owner_subject, "装修", ["我们下个季度要把厨房改成开放式，预算八万。"])
    assert run(tenant)["closed"] == 1
    [summary] = summaries(owner_subject)
    assert summary.statement.startswith("会话")


def test_busy_closed_forgotten_and_threadless_events_are_left_alone(
    api, write_agent, owner_subject, tenant
):
    talk(write_agent, owner_subject, "busy", ["Still talking about the move to Porto."])
    talk(write_agent, owner_subject, "done", ["We booked the ferry to Tangier."])
    assert api.post_json("/api/v1/threads/done/close", {}).status_code == 200
    talk(write_agent, owner_subject, "", ["An event outside any thread, about Seville."])
    old = talk(write_agent, owner_subject, "ancient", ["Last year's trip to Bergen."])
    received([old[0].pk], timezone.now() - 30 * 24 * HOUR)
    # "busy" is quiet for only ten minutes of the half hour.
    assert run(tenant, now=timezone.now() + timedelta(minutes=10)) == {"closed": 0, "failed": 0}
    before = ThreadClosure.objects.count()
    result = run(tenant)
    assert result == {"closed": 1, "failed": 0}
    assert ThreadClosure.objects.count() == before + 1
    assert ThreadClosure.objects.filter(thread_id="busy").exists()
    assert not ThreadClosure.objects.filter(thread_id__in=["ancient", ""]).exists()


def test_other_tenants_threads_are_not_touched(
    write_agent, owner_subject, tenant, other_tenant, other_tenant_agent, other_tenant_user
):
    talk(other_tenant_agent, other_tenant_user[1], "theirs", ["Globex's thread about Oslo."])
    talk(write_agent, owner_subject, "ours", ["Our thread about Ghent."])
    assert run(tenant)["closed"] == 1
    assert not ThreadClosure.objects.filter(thread_id="theirs").exists()
    assert run(other_tenant)["closed"] == 1


def test_the_tenant_policy_and_the_setting_turn_it_off(
    write_agent, owner_subject, tenant, settings
):
    talk(write_agent, owner_subject, "quiet", ["A thread about the Dolomites."])
    tenant.policy = {**(tenant.policy or {}), "thread_idle_close": False}
    tenant.save(update_fields=["policy"])
    assert run(tenant) == {"closed": 0, "failed": 0}
    tenant.policy = {**tenant.policy, "thread_idle_close": True}
    tenant.save(update_fields=["policy"])
    settings.ENGRAM_WORKING_MEMORY = {**settings.ENGRAM_WORKING_MEMORY, "IDLE_CLOSE_SECONDS": 0}
    assert run(tenant) == {"closed": 0, "failed": 0}
    assert not ThreadClosure.objects.exists()


def test_a_run_closes_at_most_its_share_the_oldest_first(
    write_agent, owner_subject, tenant, settings
):
    settings.ENGRAM_WORKING_MEMORY = {**settings.ENGRAM_WORKING_MEMORY, "IDLE_CLOSE_PER_RUN": 2}
    for i, place in enumerate(["Turin", "Bari", "Lecce"]):
        [event] = talk(write_agent, owner_subject, f"t{i}", [f"A weekend in {place}."])
        received([event.pk], timezone.now() - (3 - i) * HOUR)
    assert run(tenant)["closed"] == 2
    assert set(ThreadClosure.objects.values_list("thread_id", flat=True)) == {"t0", "t1"}
    assert run(tenant)["closed"] == 1


def test_withdrawn_consent_writes_no_summary(write_agent, owner, owner_subject, tenant):
    from memory.services.subject_data import subject_consent_withdraw

    talk(write_agent, owner_subject, "private", ["Notes about the allotment in Leeds."])
    with tenant_context(tenant.id):
        subject_consent_withdraw(user=owner[0], subject=owner_subject, erase_everything=False)
    run(tenant)
    assert not summaries(owner_subject).exists()


def test_the_beat_task_closes_them_in_the_tenant_context(write_agent, owner_subject, tenant):
    talk(write_agent, owner_subject, "beat", ["Planning a cycling week in Girona."])
    received(
        SourceEvent.objects.filter(thread_id="beat").values_list("pk", flat=True),
        timezone.now() - HOUR,
    )
    threads_idle_close_tenant.delay(str(tenant.id))
    assert ThreadClosure.objects.filter(subject=owner_subject, thread_id="beat").exists()
