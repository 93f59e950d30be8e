"""Consolidation: near-duplicates become one record with an evidence count; episodes are
grouped into cases that keep their episodes."""

from __future__ import annotations

import pytest

from core.actor import Actor
from memory.models import MemoryCase, MemoryRecord, MemoryStatus
from memory.services.consolidation import similarity, subject_consolidate
from memory.tasks import consolidate_all
from tests.helpers.cast import candidate
from tests.helpers.lifecycle import active, append, extract

pytestmark = pytest.mark.django_db


def test_similarity_handles_english_and_chinese():
    assert similarity("I prefer green tea in the morning", "prefer green tea in the morning") == 1
    assert similarity("我喜欢早上喝绿茶", "我喜欢早上喝点绿茶") >= 0.6
    assert similarity("I prefer green tea", "I live in Hangzhou") == 0


def test_exact_repeats_are_one_record_with_evidence(write_agent, owner_subject):
    events = [
        append(write_agent, owner_subject, "I prefer green tea in the morning") for _ in range(3)
    ]
    extract(*events)
    [record] = active(owner_subject)
    assert record.evidence_count == 3 and record.source_events.count() == 3


def test_near_duplicates_fold_into_the_strongest_record(api, write_agent, owner_subject):
    a = append(write_agent, owner_subject, "I prefer green tea in the morning")
    b = append(write_agent, owner_subject, "Remember that I really prefer green tea in the morning")
    c = append(write_agent, owner_subject, "I like jazz")
    extract(a, b, c)
    assert len(active(owner_subject)) == 3
    result = subject_consolidate(
        actor=Actor.system(owner_subject.tenant_id),
        tenant_id=owner_subject.tenant_id,
        subject_id=owner_subject.id,
    )
    assert result["folded"] == 1
    tea = [r for r in active(owner_subject) if "tea" in r.statement]
    assert len(tea) == 1 and tea[0].evidence_count == 2
    assert set(tea[0].source_events.values_list("id", flat=True)) == {a.id, b.id}
    folded = MemoryRecord.objects.get(status=MemoryStatus.SUPERSEDED)
    assert folded.status_reason == "consolidated" and folded.statement  # kept in history
    # Running it again changes nothing.
    again = subject_consolidate(
        actor=Actor.system(owner_subject.tenant_id),
        tenant_id=owner_subject.tenant_id,
        subject_id=owner_subject.id,
    )
    assert again["folded"] == 0


def test_other_subjects_are_never_folded_together(write_agent, owner_subject, same_tenant_user):
    bob = same_tenant_user[1]
    extract(append(write_agent, owner_subject, "I prefer green tea in the morning"))
    extract(append(write_agent, bob, "I prefer green tea in the morning!"))
    consolidate_all.apply().get()
    assert len(active(owner_subject)) == 1 and len(active(bob)) == 1


def test_episodes_become_a_case_with_references(api, owner_subject):
    ids = []
    for i, outcome in enumerate(["export finished", "export finished", "still failing"]):
        r = api.post_json(
            "/api/v1/candidates",
            {
                "candidates": [
                    candidate(
                        memory_type="episodic",
                        namespace="ops/incidents",
                        statement=f"Report export timeout #{i}",
                        value={
                            "problem": "nightly report export timed out",
                            "actions": ["raised the statement timeout", "re-ran the job"],
                            "outcome": outcome,
                            "run": i,
                            "conditions": ["month end"],
                        },
                    )
                ]
            },
        )
        ids.append(r.json()["results"][0]["record_id"])
    r = api.post_json(
        "/api/v1/candidates",
        {
            "candidates": [
                candidate(
                    memory_type="episodic",
                    namespace="ops/incidents",
                    statement="Login page showed a blank screen after deploy",
                )
            ]
        },
    )
    subject_consolidate(
        actor=Actor.system(owner_subject.tenant_id),
        tenant_id=owner_subject.tenant_id,
        subject_id=owner_subject.id,
    )
    [case] = MemoryCase.objects.all()
    assert case.problem == "nightly report export timed out"
    assert case.actions == ["raised the statement timeout", "re-ran the job"]
    assert case.outcome == "export finished" and case.conditions == ["month end"]
    assert sorted(map(str, case.episode_ids)) == sorted(ids)
