"""The model's words for reading and closing records: active, current, in force, as of,
closing record time, and a candidate restating a record."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from core.actor import Actor
from memory.models import MemoryRecord, MemoryStatus
from memory.services.writes import candidates_submit
from memory.write_policy import Candidate
from tests.helpers.memories import home_city

pytestmark = pytest.mark.django_db


@pytest.fixture
def moved(owner_subject):
    """Munich from 300 days ago, then Berlin from 30 days ago (Munich closed at Berlin's
    start, kept as a closed copy)."""
    actor = Actor.system(owner_subject.tenant_id)
    now = timezone.now()
    candidates_submit(
        actor=actor,
        subject=owner_subject,
        candidates=[home_city("Munich", now - timedelta(days=300))],
    )
    between = timezone.now()
    candidates_submit(
        actor=actor,
        subject=owner_subject,
        candidates=[home_city("Berlin", now - timedelta(days=30))],
    )
    return now, between


def values(qs, subject) -> list[str]:
    return sorted(qs.filter(subject=subject).values_list("value", flat=True))


def test_active_current_and_in_force(owner_subject, moved):
    now, _ = moved
    records = MemoryRecord.objects
    assert values(records.active(), owner_subject) == ["Berlin", "Munich"]
    assert values(records.current(), owner_subject) == ["Berlin"]
    # 100 days ago Berlin had not begun: current (its validity has not ended) but not in force.
    then = now - timedelta(days=100)
    assert values(records.current(then), owner_subject) == ["Berlin", "Munich"]
    assert values(records.in_force(then), owner_subject) == ["Munich"]


def test_as_of_is_bitemporal(owner_subject, moved):
    now, between = moved
    then = now - timedelta(days=100)
    believed_now = MemoryRecord.objects.as_of(then).filter(subject=owner_subject)
    [munich_copy] = believed_now
    assert munich_copy.value == "Munich" and munich_copy.valid_to is not None
    # Before Berlin was recorded we believed the open-ended Munich version, since closed.
    [munich] = MemoryRecord.objects.as_of(then, known_at=between).filter(subject=owner_subject)
    assert munich.value == "Munich" and munich.valid_to is None
    assert munich.status == MemoryStatus.SUPERSEDED
    later = now + timedelta(days=1)
    assert values(MemoryRecord.objects.as_of(later), owner_subject) == ["Berlin"]


def test_close_record_time_once(owner_subject, moved):
    berlin = MemoryRecord.objects.current().get(subject=owner_subject)
    berlin.close_record_time(MemoryStatus.RETRACTED, "test_retracted")
    berlin.refresh_from_db()
    assert berlin.status == MemoryStatus.RETRACTED
    assert berlin.status_reason == "test_retracted" and berlin.superseded_at is not None
    # In bulk only open rows close: the closed one keeps its time.
    closed = MemoryRecord.objects.filter(pk=berlin.pk).close_record_time(
        MemoryStatus.SUPERSEDED, "again"
    )
    assert closed == 0


def test_candidate_from_record_restates_it(owner_subject, moved):
    berlin = MemoryRecord.objects.current().get(subject=owner_subject)
    c = Candidate.from_record(berlin, confidence=0.5)
    assert (c.statement, c.predicate, c.value, c.namespace) == (
        "Lives in Berlin",
        "home_city",
        "Berlin",
        "personal/profile",
    )
    assert c.confidence == 0.5 and c.assertion_kind == berlin.assertion_kind
    assert c.valid_from is None and c.source_event_ids == () and c.target_record_id is None


def test_without_ended_keeps_every_status_but_ended_active_versions(owner_subject, moved):
    rows = MemoryRecord.objects.without_ended().filter(subject=owner_subject)
    by_value = sorted((r.value, r.status) for r in rows)
    assert by_value == [("Berlin", MemoryStatus.ACTIVE), ("Munich", MemoryStatus.SUPERSEDED)]
