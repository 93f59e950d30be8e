"""An extraction batch reads its events, and whether a memory already cites each, in one
query (``ENGRAM_WRITE_FEWER_ROUND_TRIPS``, ``memory.tasks._EventReads``) instead of two
per job: the jobs' results, the memories and the audit rows are the reference's, for
ordinary, extractable, secret-bearing, already-cited, assistant and erased/foreign events;
a job run again alone still reads its own event."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.actor import Actor
from core.codes import AuditAction
from core.models import AuditEvent
from memory.models import MemoryRecord, TaskRun
from memory.services.writes import candidates_submit
from memory.tasks import _UNREAD, _EventReads
from memory.write_policy import Candidate
from tests.helpers.lifecycle import append

pytestmark = pytest.mark.django_db

TURNS = [
    ("user", "Remember that I prefer tea over coffee."),
    ("user", "What is the weather like today?"),
    ("assistant", "I'll remember that you prefer tea."),
    ("user", "I moved to Hangzhou"),
    ("user", "my wifi password is Qv7!plumtree88, remember it"),
    ("user", "记住，我喜欢喝绿茶"),
    ("user", "Actually, I live in Shenzhen"),
    ("user", "I prefer short answers with the conclusion first"),  # cited before: skipped
]


def _events(write_agent, subject, foreign_event) -> list:
    events = [append(write_agent, subject, text, role=role) for role, text in TURNS]
    agent = write_agent.agent
    candidates_submit(
        actor=Actor.agent(agent.id, agent.tenant_id),
        subject=subject,
        candidates=[
            Candidate(
                memory_type="semantic",
                namespace="assistant/profile",
                statement="User wants the conclusion first",
                assertion_kind="user_explicit",
                confidence=1.0,
                purpose="personalization",
                consent_basis="explicit_consent",
                source_event_ids=(events[-1].id,),
            )
        ],
        agent_id=agent.id,
    )
    return [*events, foreign_event]


def _outcome(subject, events) -> tuple:
    results = [TaskRun.objects.get(key=f"extract:{e.id}").result for e in events]
    records = sorted(
        (r.statement, r.predicate, str(r.value), r.status, r.status_reason, r.assertion_kind)
        for r in MemoryRecord.objects.filter(subject=subject)
    )
    audits = sorted(
        (a.operation, a.reason_code, tuple(a.extra.get("findings", [])))
        for a in AuditEvent.objects.filter(subject_id=subject.id, action=AuditAction.MEMORY_WRITE)
    )
    return results, records, audits


def test_batch_reads_extract_what_the_reference_extracts(
    settings, write_agent, owner_subject, same_tenant_user, other_tenant_agent, other_tenant_user
):
    foreign = append(other_tenant_agent, other_tenant_user[1], "Remember that I like jazz.")
    sides = {}
    for fewer, subject in ((True, owner_subject), (False, same_tenant_user[1])):
        settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "FEWER_ROUND_TRIPS": fewer}
        events = _events(write_agent, subject, foreign)
        with CaptureQueriesContext(connection) as queries:
            _extract(write_agent, events)
        sides[fewer] = (_outcome(subject, events[:-1]), len(queries))
        TaskRun.objects.filter(key=f"extract:{foreign.id}").delete()
    (mine, n_fewer), (reference, n_reference) = sides[True], sides[False]
    assert mine == reference
    results, records, _ = mine
    assert results[-1]["skipped"] == 1  # the cited event
    assert any("tea" in r[0] for r in records)  # something was extracted
    assert n_fewer <= n_reference - len(TURNS)


def _extract(write_agent, events) -> None:
    from memory.tasks import extract_events

    tenant_id = str(write_agent.agent.tenant_id)
    extract_events.apply(args=(tenant_id, [str(e.id) for e in events])).get()


def test_the_foreign_event_is_missing_either_way(
    settings, write_agent, other_tenant_agent, other_tenant_user
):
    foreign = append(other_tenant_agent, other_tenant_user[1], "Remember that I like jazz.")
    for fewer in (True, False):
        settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "FEWER_ROUND_TRIPS": fewer}
        _extract(write_agent, [foreign])
        run = TaskRun.objects.get(key=f"extract:{foreign.id}")
        assert run.result == {"missing": 1}
        run.delete()
    assert not MemoryRecord.objects.filter(subject=other_tenant_user[1]).exists()


def test_each_row_is_taken_once_then_the_job_reads_its_own(settings, write_agent, owner_subject):
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "FEWER_ROUND_TRIPS": True}
    event = append(write_agent, owner_subject, "Remember that I prefer tea over coffee.")
    gone = str(uuid.uuid4())
    reads = _EventReads(str(owner_subject.tenant_id), [str(event.id), gone])
    first, used = reads.take(str(event.id))
    assert first.id == event.id and used is False
    assert reads.take(gone) == (None, False)  # erased (or never): missing
    # A job run again alone (after a failure): its own reads, as the reference.
    assert reads.take(str(event.id)) == (_UNREAD, None)
    settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "FEWER_ROUND_TRIPS": False}
    off = _EventReads(str(owner_subject.tenant_id), [str(event.id)])
    assert off.take(str(event.id)) == (_UNREAD, None)
