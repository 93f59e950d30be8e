"""Forgetting: memory that only grows turns into noise.

- **Decay**: every active record gets a score from its importance, its age since it was
  last written or used, and how often it was used (weights, half-life and threshold are
  settings, ENGRAM_LIFECYCLE). Retrieval ranks by it. A record scoring below the threshold
  and older than the minimum age is **archived**: out of default recall, still visible to
  its user and exportable. Decay never deletes, and importance alone keeps a rare but
  important fact above the threshold (with default weights, importance ≥ 0.6 never
  archives).
- **TTL**: a record past its ``expires_at`` becomes ``expired``.
- **Retention of raw events** per tenant policy (days per retention class) and per memory
  type of the memories an event supports; purging goes through memory.services.erasure.
  The memories themselves stay (they have their own lifecycle); summaries citing a purged
  event are rebuilt without it.
"""

from __future__ import annotations

import math
import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from accounts.models import Tenant
from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction, ReasonCode
from memory.models import MemoryDecay, MemoryRecord, MemoryStatus, SourceEvent, ThreadSummary
from memory.services.erasure import source_events_erase


def decay_score(
    *,
    importance: float,
    last_touched: datetime,
    access_count: int,
    now: datetime,
) -> float:
    conf = settings.ENGRAM_LIFECYCLE
    w_importance, w_fresh, w_access = conf["DECAY_WEIGHTS"]
    age_days = max(0.0, (now - last_touched).total_seconds() / 86400)
    freshness = 0.5 ** (age_days / conf["DECAY_HALF_LIFE_DAYS"])
    usage = min(1.0, math.log1p(access_count) / math.log1p(20))
    score = w_importance * importance + w_fresh * freshness + w_access * usage
    return max(0.0, min(1.0, score / (w_importance + w_fresh + w_access)))


def records_decay(*, actor: Actor, tenant_id: uuid.UUID, now: datetime | None = None) -> dict:
    """Score every active record of the tenant; archive the faded ones."""
    conf = settings.ENGRAM_LIFECYCLE
    now = now or timezone.now()
    min_age = timedelta(days=conf["ARCHIVE_MIN_AGE_DAYS"])
    scored, archived = 0, []
    records = (
        MemoryRecord.objects.active()
        .filter(tenant_id=tenant_id)
        .only("id", "importance", "recorded_at", "last_accessed_at", "access_count", "memory_type")
    )
    rows = []
    for record in records.iterator(chunk_size=500):
        touched = max(record.recorded_at, record.last_accessed_at or record.recorded_at)
        score = decay_score(
            importance=record.importance,
            last_touched=touched,
            access_count=record.access_count,
            now=now,
        )
        rows.append(
            MemoryDecay(record_id=record.id, tenant_id=tenant_id, score=score, computed_at=now)
        )
        scored += 1
        if score < conf["ARCHIVE_BELOW"] and now - touched >= min_age:
            archived.append(record.id)
    MemoryDecay.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["record"],
        update_fields=["score", "computed_at"],
        batch_size=500,
    )
    if archived:
        MemoryRecord.objects.active().filter(id__in=archived).update(
            status=MemoryStatus.ARCHIVED, status_reason=ReasonCode.DECAYED
        )
        audit_record(
            actor=actor,
            action=AuditAction.MEMORY_ARCHIVE,
            reason_code=ReasonCode.DECAYED,
            extra={"record_ids": [str(i) for i in archived]},
        )
    return {"scored": scored, "archived": len(archived)}


def records_expire(*, actor: Actor, tenant_id: uuid.UUID, now: datetime | None = None) -> dict:
    """Active records past their time-to-live become ``expired``."""
    now = now or timezone.now()
    ids = list(
        MemoryRecord.objects.active()
        .filter(tenant_id=tenant_id, expires_at__lte=now)
        .values_list("id", flat=True)
    )
    if ids:
        MemoryRecord.objects.active().filter(id__in=ids).update(
            status=MemoryStatus.EXPIRED, status_reason=ReasonCode.TTL_EXPIRED
        )
        audit_record(
            actor=actor,
            action=AuditAction.MEMORY_EXPIRE,
            reason_code=ReasonCode.TTL_EXPIRED,
            extra={"record_ids": [str(i) for i in ids]},
        )
    return {"expired": len(ids)}


def _retention_days(policy: dict) -> tuple[dict, dict]:
    by_class = dict(settings.ENGRAM_LIFECYCLE["EVENT_RETENTION_DAYS"])
    by_class.update(policy.get("event_retention_days") or {})
    by_type = dict(policy.get("event_retention_days_by_memory_type") or {})
    return by_class, by_type


def events_retention_purge(
    *, actor: Actor, tenant_id: uuid.UUID, now: datetime | None = None
) -> dict:
    """Erase raw events older than the tenant's retention. An event that supports a
    live memory of a type with its own (longer, or unlimited = null) retention is kept."""
    now = now or timezone.now()
    policy = Tenant.objects.only("policy").get(pk=tenant_id).policy or {}
    by_class, by_type = _retention_days(policy)
    expired = Q(pk__in=[])
    for retention_class, days in by_class.items():
        if days is not None:
            expired |= Q(
                retention_class=retention_class, occurred_at__lt=now - timedelta(days=int(days))
            )
    candidates = SourceEvent.objects.filter(expired, tenant_id=tenant_id)
    keep = Q(pk__in=[])
    for memory_type, days in by_type.items():
        supported = Q(
            memorysource__record__memory_type=memory_type,
            memorysource__record__status__in=[MemoryStatus.ACTIVE, MemoryStatus.ARCHIVED],
        )
        if days is None:
            keep |= supported
        else:
            keep |= supported & Q(occurred_at__gte=now - timedelta(days=int(days)))
    purge = list(
        candidates.exclude(pk__in=SourceEvent.objects.filter(keep).values("pk")).values_list(
            "id", "subject_id", "thread_id"
        )
    )
    if not purge:
        return {"purged": 0}
    ids = [p[0] for p in purge]
    count = source_events_erase(
        actor=actor, tenant_id=tenant_id, event_ids=ids, reason_code=ReasonCode.RETENTION_EXPIRED
    )
    from memory.services.compression import thread_summarize

    threads = {(p[1], p[2]) for p in purge if p[2]}
    for subject_id, thread_id in sorted(threads, key=str):
        if ThreadSummary.objects.filter(
            tenant_id=tenant_id, subject_id=subject_id, thread_id=thread_id
        ).exists():
            thread_summarize(
                actor=actor, tenant_id=tenant_id, subject_id=subject_id, thread_id=thread_id
            )
    audit_record(
        actor=actor,
        action=AuditAction.EVENT_RETENTION,
        reason_code=ReasonCode.RETENTION_EXPIRED,
        extra={"purged": count},
    )
    return {"purged": count}
