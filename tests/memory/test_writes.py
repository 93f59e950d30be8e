"""The write path end to end in the database: each operation's persistence, audit, event
idempotency and ordering under concurrency."""

from __future__ import annotations

import json
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from core.actor import Actor
from core.models import AuditEvent
from memory.models import MemoryRecord, MemoryStatus, SourceEvent
from memory.services.events import EventIdConflict, EventInput, events_append
from memory.services.writes import candidates_submit
from memory.write_policy import Candidate, Intent

pytestmark = pytest.mark.django_db


def cand(**kw) -> Candidate:
    base = dict(
        memory_type="semantic",
        namespace="assistant/profile",
        statement="User wants answers conclusion-first",
        assertion_kind="user_explicit",
        confidence=1.0,
        purpose="personalization",
        consent_basis="explicit_consent",
    )
    base.update(kw)
    return Candidate(**base)


def city(value, **kw) -> Candidate:
    kw.setdefault("statement", f"User lives in {value}")
    return cand(predicate="home_city", value=value, **kw)


def submit(subject, *candidates, agent=None):
    actor = Actor.agent(agent.id, subject.tenant_id) if agent else Actor.system(subject.tenant_id)
    return candidates_submit(
        actor=actor,
        subject=subject,
        candidates=list(candidates),
        agent_id=agent.id if agent else None,
    )


def append(subject, agent, *contents, role="user"):
    items = [
        EventInput(client_event_id=f"evt-{i}-{c[:8]}", kind="message", role=role, content=c)
        for i, c in enumerate(contents)
    ]
    return events_append(
        actor=Actor.agent(agent.id, subject.tenant_id),
        agent_id=agent.id,
        subject=subject,
        items=items,
    )


def test_add_then_duplicate_confirms_without_new_row(owner_subject, write_agent):
    [e1, e2] = append(
        owner_subject,
        write_agent.agent,
        "I like conclusions first",
        "Again: conclusion first please",
    )
    [added] = submit(owner_subject, cand(source_event_ids=(e1.event_id,)), agent=write_agent.agent)
    [confirmed] = submit(
        owner_subject,
        cand(statement="user wants answers CONCLUSION first!", source_event_ids=(e2.event_id,)),
        agent=write_agent.agent,
    )
    assert (added.operation, confirmed.operation) == ("ADD", "CONFIRM")
    assert confirmed.record_id == added.record_id
    record = MemoryRecord.objects.get(subject=owner_subject)
    assert record.evidence_count == 2
    assert set(record.source_events.values_list("id", flat=True)) == {e1.event_id, e2.event_id}
    assert record.created_by_agent_id == write_agent.agent.id


def test_future_dated_supersede_keeps_old_value_until_new_starts(owner_subject):
    [munich] = submit(
        owner_subject, city("Munich", valid_from=timezone.now() - timedelta(days=100))
    )
    [berlin] = submit(owner_subject, city("Berlin", statement="I move to Berlin next month"))
    assert berlin.operation == "SUPERSEDE" and berlin.target_id == munich.record_id

    old = MemoryRecord.objects.get(pk=munich.record_id)
    assert old.status == MemoryStatus.SUPERSEDED and old.superseded_at is not None
    new = MemoryRecord.objects.get(pk=berlin.record_id)
    assert new.valid_from > timezone.now()
    assert new.supersedes_id == old.id and new.lineage_id == old.lineage_id
    # What we now believe about the past: Munich until Berlin starts.
    closed = MemoryRecord.objects.get(supersedes=old, status=MemoryStatus.ACTIVE, value="Munich")
    assert closed.valid_to == new.valid_from
    assert closed.statement == old.statement
    # Exactly one active value at any instant (the database would refuse otherwise).
    assert MemoryRecord.objects.filter(subject=owner_subject, status="active").count() == 2


def test_correction_replaces_from_the_start_without_closed_copy(owner_subject):
    start = timezone.now() - timedelta(days=30)
    [shanghai] = submit(
        owner_subject,
        cand(statement="我在上海办公", predicate="work_city", value="上海", valid_from=start),
    )
    [fix] = submit(
        owner_subject,
        cand(
            statement="不对，我在杭州", predicate="work_city", value="杭州", intent=Intent.CORRECT
        ),
    )
    assert (fix.operation, fix.reason_code) == ("SUPERSEDE", "correction")
    assert MemoryRecord.objects.get(pk=fix.record_id).valid_from == start
    assert not MemoryRecord.objects.filter(supersedes_id=shanghai.record_id, value="上海").exists()


def test_retract_and_expire(owner_subject):
    [a] = submit(owner_subject, city("Berlin", valid_from=timezone.now() - timedelta(days=5)))
    [r] = submit(owner_subject, city("Berlin", intent=Intent.RETRACT))
    assert r.operation == "RETRACT"
    assert MemoryRecord.objects.get(pk=a.record_id).status == MemoryStatus.RETRACTED

    [b] = submit(
        owner_subject,
        cand(
            predicate="team",
            value="search",
            statement="User is on the search team",
            valid_from=timezone.now() - timedelta(days=5),
        ),
    )
    [x] = submit(
        owner_subject,
        cand(predicate="team", value="search", statement="left the team", intent=Intent.EXPIRE),
    )
    assert x.operation == "EXPIRE"
    copy = MemoryRecord.objects.get(pk=x.record_id)
    assert copy.valid_to is not None and copy.valid_to <= timezone.now()
    assert MemoryRecord.objects.get(pk=b.record_id).status == MemoryStatus.SUPERSEDED


def test_delete_erases_every_version(owner_subject):
    submit(owner_subject, city("Munich", valid_from=timezone.now() - timedelta(days=100)))
    [berlin] = submit(owner_subject, city("Berlin"))
    [deleted] = submit(owner_subject, city("Berlin", intent=Intent.FORGET))
    assert deleted.operation == "DELETE"
    lineage = MemoryRecord.objects.get(pk=berlin.record_id).lineage_id
    versions = MemoryRecord.objects.filter(lineage_id=lineage)
    assert versions.count() == 3
    for v in versions:
        assert v.status == MemoryStatus.DELETED and v.statement == "" and v.value is None
    assert AuditEvent.objects.filter(action="memory.erase", record_id=lineage).exists()


def test_reject_stores_nothing_and_audits_reason(owner_subject):
    [out] = submit(owner_subject, cand(statement="my password is hunter2!"))
    assert (out.operation, out.reason_code, out.record_id) == ("REJECT", "secret_detected", None)
    assert not MemoryRecord.objects.exists()
    audit = AuditEvent.objects.get(action="memory.write", reason_code="secret_detected")
    assert "hunter2" not in json.dumps(audit.extra)


def test_quarantine_is_stored_out_of_the_active_set(owner_subject):
    [a] = submit(owner_subject, city("Berlin", assertion_kind="agent_inference", confidence=0.6))
    [q] = submit(owner_subject, city("Paris", assertion_kind="agent_inference", confidence=0.6))
    assert (q.operation, q.reason_code) == ("QUARANTINE", "conflict_equal_authority")
    held = MemoryRecord.objects.get(pk=q.record_id)
    assert held.status == MemoryStatus.QUARANTINED and held.conflicts_with_id == a.record_id
    assert MemoryRecord.objects.get(pk=a.record_id).status == MemoryStatus.ACTIVE


def test_sensitive_data_held_pending_confirmation(owner_subject):
    [q] = submit(owner_subject, cand(statement="我的手机号 13812345678"))
    held = MemoryRecord.objects.get(pk=q.record_id)
    assert held.status == MemoryStatus.PENDING_CONFIRMATION and held.sensitivity == "restricted"


def test_tenant_policy_rejecting_sensitive_data(owner_subject, tenant):
    tenant.policy = {"sensitive_personal_data": "reject"}
    tenant.save()
    [out] = submit(owner_subject, cand(statement="User was diagnosed with diabetes"))
    assert (out.operation, out.reason_code) == ("REJECT", "sensitive_personal_data")


def test_every_decision_is_audited_with_ids_only(owner_subject):
    statements = ["User likes jazz", "Today I'm in a hurry", "User likes jazz"]
    outcomes = submit(owner_subject, *[cand(statement=s) for s in statements])
    assert [o.operation for o in outcomes] == ["ADD", "REJECT", "CONFIRM"]
    audits = AuditEvent.objects.filter(action="memory.write").order_by("id")
    assert [a.operation for a in audits] == ["ADD", "REJECT", "CONFIRM"]
    assert [a.reason_code for a in audits] == ["new_memory", "transient", "duplicate_confirmed"]
    dumped = json.dumps([a.extra for a in audits])
    assert "jazz" not in dumped and "hurry" not in dumped


def test_unknown_or_foreign_source_event_rejected(owner_subject, same_tenant_user, write_agent):
    [foreign] = append(same_tenant_user[1], write_agent.agent, "bob's message")
    [out] = submit(owner_subject, cand(source_event_ids=(foreign.event_id,)))
    assert (out.operation, out.reason_code) == ("REJECT", "unknown_source_event")


def test_user_claim_backed_only_by_tool_output_rejected(owner_subject, write_agent):
    [tool] = append(owner_subject, write_agent.agent, "weather API: sunny", role="tool")
    [out] = submit(owner_subject, cand(source_event_ids=(tool.event_id,)))
    assert out.reason_code == "assertion_not_supported_by_source"


def test_paused_subject_gets_nothing_written(owner_subject):
    owner_subject.memory_paused = True
    owner_subject.save()
    [out] = submit(owner_subject, cand())
    assert (out.operation, out.reason_code) == ("REJECT", "memory_paused")
    assert not MemoryRecord.objects.exists()


def test_events_idempotent_and_secrets_redacted(owner_subject, write_agent):
    agent = write_agent.agent
    actor = Actor.agent(agent.id, owner_subject.tenant_id)
    item = EventInput(
        client_event_id="turn-1",
        kind="message",
        role="user",
        content="my password is hunter2! and I like tea",
    )
    [first] = events_append(actor=actor, agent_id=agent.id, subject=owner_subject, items=[item])
    [retry] = events_append(actor=actor, agent_id=agent.id, subject=owner_subject, items=[item])
    assert first.created and not retry.created and retry.event_id == first.event_id
    assert SourceEvent.objects.count() == 1
    stored = SourceEvent.objects.get()
    assert "hunter2" not in stored.content and "[REDACTED]" in stored.content
    changed = EventInput(
        client_event_id="turn-1", kind="message", role="user", content="something else"
    )
    with pytest.raises(EventIdConflict) as conflict:
        events_append(actor=actor, agent_id=agent.id, subject=owner_subject, items=[changed])
    assert conflict.value.client_event_ids == ["turn-1"]
    assert SourceEvent.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_writes_for_one_subject_are_serialised(owner_subject):
    """Two writers race to set a single-valued fact; the subject lock orders them, so the
    second sees the first and supersedes it — never two active values, never an error."""
    barrier = threading.Barrier(2)
    results = {}

    def worker(name, value):
        try:
            barrier.wait()
            [out] = submit(owner_subject, city(value))
            results[name] = out
        finally:
            connection.close()

    threads = [
        threading.Thread(target=worker, args=(n, v)) for n, v in (("a", "Berlin"), ("b", "Paris"))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    ops = sorted(o.operation for o in results.values())
    assert ops == ["ADD", "SUPERSEDE"]
    now = timezone.now()
    current = [
        r
        for r in MemoryRecord.objects.filter(subject=owner_subject, status="active")
        if r.valid_from <= now and (r.valid_to is None or r.valid_to > now)
    ]
    assert len(current) == 1


def test_a_retracted_or_superseded_version_can_still_be_deleted(owner_subject):
    [a] = submit(owner_subject, city("Berlin", valid_from=timezone.now() - timedelta(days=5)))
    submit(owner_subject, city("Berlin", intent=Intent.RETRACT))
    [d] = submit(owner_subject, city("Berlin", intent=Intent.FORGET, target_record_id=a.record_id))
    assert d.operation == "DELETE"
    assert MemoryRecord.objects.get(pk=a.record_id).status == MemoryStatus.DELETED
    [again] = submit(
        owner_subject, city("Berlin", intent=Intent.FORGET, target_record_id=a.record_id)
    )
    assert (again.operation, again.reason_code) == ("REJECT", "nothing_to_change")
