"""The deletion workflow: one memory, one source event, a whole subject; receipts list
every store; verification tries every route and must find nothing."""

from __future__ import annotations

import pytest

from core.actor import Actor
from core.models import AuditEvent
from memory.models import (
    DeadLetter,
    DeletionRequest,
    DeletionStatus,
    MemoryCase,
    MemoryDecay,
    MemoryRecord,
    MemorySource,
    MemoryStatus,
    SourceEvent,
    ThreadSummary,
)
from memory.services import deletion
from memory.services.deletion import (
    DerivedStore,
    deletion_request_run,
    register_store,
)
from memory.tasks import run_deletion
from tests.helpers.cast import candidate
from tests.helpers.lifecycle import active, append, erase, extract

pytestmark = pytest.mark.django_db


@pytest.fixture
def alice_memories(write_agent, owner_subject):
    """Alice said two things in one thread; extraction wrote them, summarised the thread,
    and the other jobs left decay scores and a dead letter naming one event."""
    tea = append(write_agent, owner_subject, "Remember that I prefer oolong tea in the morning.")
    city = append(write_agent, owner_subject, "我现在住在杭州西湖区")
    goal = append(write_agent, owner_subject, "I want to plan a trip to Kyoto in spring")
    extract(tea, city, goal)
    from memory.services.forgetting import records_decay

    records_decay(actor=Actor.system(owner_subject.tenant_id), tenant_id=owner_subject.tenant_id)
    DeadLetter.objects.create(
        tenant_id=owner_subject.tenant_id,
        task_name="memory.extract_events",
        object_ids=[str(tea.id)],
        error_class="OperationalError",
        attempts=4,
    )
    return {"tea": tea, "city": city, "goal": goal}


def test_seed_case_6_subject_erasure_reaches_every_store_and_leaves_others_untouched(
    alice_memories, write_agent, owner_subject, same_tenant_user
):
    bob = same_tenant_user[1]
    bob_event = append(write_agent, bob, "Remember that I prefer oolong tea in the morning.")
    extract(bob_event)
    request = erase(owner_subject, "subject", owner_subject.id)

    assert request.status == DeletionStatus.DONE, request.verification
    assert set(request.verification.values()) == {0}
    assert request.receipt["source_events"] == 3
    assert request.receipt["record_versions"] == 2
    assert request.receipt["summaries"] == 1
    assert request.receipt["dead_letters"] == 1
    assert request.receipt["decay_scores"] == 2
    assert not SourceEvent.objects.filter(subject=owner_subject).exists()
    assert not ThreadSummary.objects.filter(subject=owner_subject).exists()
    assert not MemorySource.objects.filter(record__subject=owner_subject).exists()
    assert set(
        MemoryRecord.objects.filter(subject=owner_subject).values_list("status", "statement")
    ) == {(MemoryStatus.DELETED, "")}
    # Bob said the very same thing: his memory, event and summary are untouched.
    [bob_record] = active(bob)
    assert bob_record.statement == "I prefer oolong tea in the morning"
    assert SourceEvent.objects.filter(subject=bob).count() == 1
    assert ThreadSummary.objects.filter(subject=bob).exists()
    owner_subject.refresh_from_db()
    assert owner_subject.memory_paused  # nothing new is written after erasure
    # The receipt is audited with counts, never text.
    audit = AuditEvent.objects.get(action="deletion.complete")
    assert "oolong" not in str(audit.extra) and audit.extra["receipt"] == request.receipt


def test_deleting_one_memory_removes_its_sole_source_and_rebuilds_the_summary(
    alice_memories, owner_subject
):
    [tea] = active(owner_subject, predicate="")
    request = erase(owner_subject, "memory", tea.id)
    assert request.status == DeletionStatus.DONE, request.verification
    assert request.receipt["record_versions"] == 1 and request.receipt["source_events"] == 1
    assert not SourceEvent.objects.filter(pk=alice_memories["tea"].pk).exists()
    # The city memory, its event and the rest of the summary remain.
    [city] = active(owner_subject, predicate="home_city")
    summary = ThreadSummary.objects.get(subject=owner_subject)
    assert str(alice_memories["tea"].id) not in str(summary.items)
    assert "oolong" not in str(summary.items)
    assert any(i["kind"] == "goal" for i in summary.items)
    assert city.value == "杭州西湖区"
    assert not MemoryDecay.objects.filter(record=tea).exists()


def test_deleting_a_source_event_re_derives_what_has_other_support(write_agent, owner_subject):
    said = append(write_agent, owner_subject, "Remember that I prefer oolong tea in the morning.")
    again = append(write_agent, owner_subject, "I prefer oolong tea in the morning")
    only = append(write_agent, owner_subject, "I prefer window seats on long flights")
    extract(said, again, only)
    [tea] = active(owner_subject, statement__contains="oolong")
    assert tea.evidence_count == 2

    request = erase(owner_subject, "event", said.id)
    assert request.status == DeletionStatus.DONE, request.verification
    tea.refresh_from_db()
    assert tea.status == MemoryStatus.ACTIVE and tea.evidence_count == 1
    assert list(tea.source_events.all()) == [again]

    request = erase(owner_subject, "event", only.id)
    assert request.receipt["record_versions"] == 1
    assert not active(owner_subject, statement__contains="window")


def test_forget_through_the_api_starts_the_deletion_workflow(api, write_agent, owner_subject):
    event = append(write_agent, owner_subject, "Remember that I prefer oolong tea in the morning.")
    extract(event)
    [record] = active(owner_subject)
    r = api.delete_json(f"/api/v1/memories/{record.id}", {"assertion_kind": "user_explicit"})
    assert r.status_code in (200, 204), r.content
    request = DeletionRequest.objects.get(target_id=record.lineage_id)
    run_deletion.apply(args=(str(owner_subject.tenant_id), str(request.id))).get()
    request.refresh_from_db()
    assert request.status == DeletionStatus.DONE, request.verification
    assert not SourceEvent.objects.filter(pk=event.pk).exists()


def test_a_deletion_job_run_twice_does_nothing_the_second_time(alice_memories, owner_subject):
    request = erase(owner_subject, "subject", owner_subject.id)
    receipt = request.receipt
    deletion_request_run(tenant_id=owner_subject.tenant_id, request_id=request.id)
    request.refresh_from_db()
    assert request.receipt == receipt
    assert AuditEvent.objects.filter(action="deletion.complete").count() == 1


def test_cases_are_rebuilt_or_removed_when_an_episode_goes(api, owner_subject):
    ids = []
    for i in range(3):
        r = api.post_json(
            "/api/v1/candidates",
            {
                "candidates": [
                    candidate(
                        memory_type="episodic",
                        namespace="ops/incidents",
                        statement=f"Nightly report export timed out on run {i}",
                        value={
                            "problem": "nightly report export timed out",
                            "actions": ["raised the statement timeout", f"re-ran job {i}"],
                            "outcome": "export finished",
                            "conditions": ["month end"],
                        },
                    )
                ]
            },
        )
        ids.append(r.json()["results"][0]["record_id"])
    from memory.services.consolidation import subject_consolidate

    subject_consolidate(
        actor=Actor.system(owner_subject.tenant_id),
        tenant_id=owner_subject.tenant_id,
        subject_id=owner_subject.id,
    )
    [case] = MemoryCase.objects.filter(subject=owner_subject)
    assert len(case.episode_ids) == 3

    erase(owner_subject, "memory", ids[0])
    [case] = MemoryCase.objects.filter(subject=owner_subject)
    assert sorted(map(str, case.episode_ids)) == sorted(ids[1:])
    erase(owner_subject, "memory", ids[1])
    assert not MemoryCase.objects.filter(subject=owner_subject).exists()


def test_a_store_registered_later_is_erased_and_verified(alice_memories, owner_subject):
    """How the retrieval indexes plug in: one register_store call."""
    kept: set = {alice_memories["tea"].id, alice_memories["city"].id}
    calls = []

    def erase_index(target):
        calls.append("erase")
        gone = kept & target.event_ids
        kept.difference_update(gone)
        return len(gone)

    saved = deletion.registered_stores()
    register_store(DerivedStore("test_index", erase_index, lambda t: len(kept & t.event_ids)))
    try:
        request = erase(owner_subject, "subject", owner_subject.id)
    finally:
        deletion._STORES[:] = saved
    assert calls == ["erase"]
    assert request.receipt["test_index"] == 2 and request.verification["test_index"] == 0


def test_a_store_that_keeps_data_fails_verification(alice_memories, owner_subject):
    saved = deletion.registered_stores()
    register_store(DerivedStore("leaky_cache", lambda t: 0, lambda t: 1))
    try:
        request = erase(owner_subject, "subject", owner_subject.id)
    finally:
        deletion._STORES[:] = saved
    assert request.status == DeletionStatus.FAILED
    assert request.verification["leaky_cache"] == 1


def test_deletion_cannot_reach_another_tenant(alice_memories, owner_subject, other_tenant_user):
    """Running tenant B's job against A's subject id finds nothing of A (RLS)."""
    mallory = other_tenant_user[1]
    request = DeletionRequest.objects.create(
        tenant_id=mallory.tenant_id,
        scope="subject",
        subject_id=owner_subject.id,
        target_id=owner_subject.id,
        requested_by_type="system",
        requested_by_id="test",
    )
    run_deletion.apply(args=(str(mallory.tenant_id), str(request.id))).get()
    assert len(active(owner_subject)) == 2
    assert SourceEvent.objects.filter(subject=owner_subject).count() == 3
