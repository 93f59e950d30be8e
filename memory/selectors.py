"""Reads of governed memory, always scoped by the caller's tenant and subject."""

from __future__ import annotations

import uuid

from django.db.models import QuerySet

from memory.models import MemoryRecord, MemoryStatus, SourceEvent

# Statuses a record can be looked up in by an agent (deleted ones are gone for every route).
AGENT_VISIBLE_STATUSES = (
    MemoryStatus.ACTIVE,
    MemoryStatus.SUPERSEDED,
    MemoryStatus.RETRACTED,
    MemoryStatus.EXPIRED,
    MemoryStatus.ARCHIVED,
)


def memory_get_for_subject(
    *, tenant_id: uuid.UUID, subject_id: uuid.UUID, record_id: uuid.UUID
) -> MemoryRecord | None:
    """One of the subject's records, or None if it is not theirs, or deleted, or held in
    quarantine (quarantined content is not the agent's to read)."""
    return MemoryRecord.objects.filter(
        tenant_id=tenant_id,
        subject_id=subject_id,
        id=record_id,
        status__in=AGENT_VISIBLE_STATUSES,
    ).first()


def memory_list_for_subject(
    *, tenant_id: uuid.UUID, subject_id: uuid.UUID, statuses=(MemoryStatus.ACTIVE,)
) -> QuerySet[MemoryRecord]:
    return MemoryRecord.objects.filter(
        tenant_id=tenant_id, subject_id=subject_id, status__in=statuses
    ).order_by("-recorded_at")


def events_resolve_client_ids(
    *, tenant_id: uuid.UUID, agent_id: uuid.UUID, subject_id: uuid.UUID, client_ids: list[str]
) -> dict[str, uuid.UUID]:
    """Map an agent's client_event_ids to stored event ids (this subject's events only)."""
    if not client_ids:
        return {}
    return dict(
        SourceEvent.objects.filter(
            tenant_id=tenant_id,
            agent_id=agent_id,
            subject_id=subject_id,
            client_event_id__in=client_ids,
        ).values_list("client_event_id", "id")
    )
