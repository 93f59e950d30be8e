"""Forgetting: decay lowers rank and archives (never deletes), TTL expiry, raw event
retention per tenant policy and memory type."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from core.actor import Actor
from memory.models import MemoryDecay, MemoryRecord, MemoryStatus, SourceEvent, ThreadSummary
from memory.services.forgetting import (
    decay_score,
    events_retention_purge,
    records_decay,
    records_expire,
)
from memory.tasks import decay_all, expire_all
from tests.helpers.cast import candidate
from tests.helpers.lifecycle import append, extract

pytestmark = pytest.mark.django_db


def write(api, **overrides) -> MemoryRecord:
    r = api.post_json("/api/v1/candidates", {"candidates": [candidate(**overrides)]})
    assert r.status_code == 200, r.content
    return MemoryRecord.objects.get(pk=r.json()["results"][0]["record_id"])


def test_score_falls_with_age_rises_with_importance_and_use():
    now = timezone.now()
    fresh = decay_score(importance=0.5, last_touched=now, access_count=0, now=now)
    old = decay_score(
        importance=0.5, last_touched=now - timedelta(days=365), access_count=0, now=now
    )
    used = decay_score(
        importance=0.5, last_touched=now - timedelta(days=365), access_count=15, now=now
    )
    rare_but_vital = decay_score(
        importance=1.0, last_touched=now - timedelta(days=3650), access_count=0, now=now
    )
    assert fresh > used > old
    assert rare_but_vital >= 0.5 > old


def test_decay_archives_faded_records_and_keeps_important_ones(api, tenant):
    faded = write(api, statement="Mentioned liking a podcast once", importance=0.1)
    vital = write(api, statement="Is allergic to penicillin-free dressings", importance=1.0)
    later = timezone.now() + timedelta(days=400)
    result = records_decay(actor=Actor.system(tenant.id), tenant_id=tenant.id, now=later)
    assert result == {"scored": 2, "archived": 1}
    faded.refresh_from_db()
    vital.refresh_from_db()
    assert faded.status == MemoryStatus.ARCHIVED and faded.statement  # archived, not erased
    assert vital.status == MemoryStatus.ACTIVE
    assert MemoryDecay.objects.get(record=vital).score > MemoryDecay.objects.get(record=faded).score


def test_recent_records_are_scored_but_never_archived(api, tenant):
    write(api, statement="Mentioned liking a podcast once", importance=0.0)
    assert records_decay(actor=Actor.system(tenant.id), tenant_id=tenant.id) == {
        "scored": 1,
        "archived": 0,
    }


def test_ttl_expiry_marks_records_expired(api, tenant):
    soon = timezone.now() + timedelta(hours=1)
    record = write(
        api, statement="Is in the Shanghai office this week", expires_at=soon.isoformat()
    )
    keep = write(api, statement="Prefers answers in Chinese")
    assert records_expire(actor=Actor.system(tenant.id), tenant_id=tenant.id)["expired"] == 0
    later = soon + timedelta(minutes=1)
    assert records_expire(actor=Actor.system(tenant.id), tenant_id=tenant.id, now=later) == {
        "expired": 1
    }
    record.refresh_from_db()
    keep.refresh_from_db()
    assert record.status == MemoryStatus.EXPIRED and keep.status == MemoryStatus.ACTIVE


def test_periodic_fan_out_reaches_every_tenant(api, tenant, other_tenant):
    write(api, statement="Prefers answers in Chinese")
    assert decay_all.apply().get() == 2
    assert expire_all.apply().get() == 2
    assert MemoryDecay.objects.filter(tenant=tenant).count() == 1


def test_retention_purges_old_events_by_class_and_keeps_memories(
    write_agent, owner_subject, tenant, ago
):
    old_chat = append(
        write_agent,
        owner_subject,
        "Remember that I prefer green tea",
        occurred_at=ago(days=40),
        retention_class="short",
    )
    extract(old_chat)
    recent = append(
        write_agent,
        owner_subject,
        "I want a summary of this week",
        occurred_at=ago(days=2),
        retention_class="short",
    )
    old_standard = append(write_agent, owner_subject, "hello there", occurred_at=ago(days=40))
    result = events_retention_purge(actor=Actor.system(tenant.id), tenant_id=tenant.id)
    assert result == {"purged": 1}
    assert set(SourceEvent.objects.values_list("id", flat=True)) == {recent.id, old_standard.id}
    # The memory stays (its own lifecycle decides), without the purged provenance link.
    record = MemoryRecord.objects.get(subject=owner_subject)
    assert record.status == MemoryStatus.ACTIVE and not record.source_events.exists()
    summary = ThreadSummary.objects.get(subject=owner_subject)
    assert str(old_chat.id) not in [str(e) for e in summary.source_event_ids]


def test_tenant_policy_keeps_events_backing_a_memory_type(write_agent, owner_subject, tenant, ago):
    tenant.policy = {
        "event_retention_days": {"standard": 7},
        "event_retention_days_by_memory_type": {"semantic": None},
    }
    tenant.save()
    backing = append(
        write_agent, owner_subject, "Remember that I prefer green tea", occurred_at=ago(days=40)
    )
    extract(backing)
    idle = append(write_agent, owner_subject, "just chatting", occurred_at=ago(days=40))
    assert events_retention_purge(actor=Actor.system(tenant.id), tenant_id=tenant.id) == {
        "purged": 1
    }
    assert list(SourceEvent.objects.values_list("id", flat=True)) == [backing.id]
    assert not SourceEvent.objects.filter(pk=idle.pk).exists()
