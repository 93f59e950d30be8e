"""Erasure: the one named piece of code allowed past the append-only and immutability
triggers. Everything that removes personal data goes through here, so a reader can audit
deletion in one place."""

from __future__ import annotations

import uuid

import pgtrigger
from django.db import connection, transaction
from django.utils import timezone

from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction
from memory.models import MemoryRecord, MemorySource, MemoryStatus, SourceEvent
from memory.services.index_maintenance import derived_rows_erase

_CONTENT_TRIGGER = "memory.MemoryRecord:memory_content_immutable"
_EVENT_TRIGGER = "memory.SourceEvent:source_event_append_only"


@transaction.atomic
def memory_lineage_erase(
    *,
    actor: Actor,
    tenant_id: uuid.UUID,
    lineage_id: uuid.UUID,
    reason_code: str,
    request_id: str = "",
) -> list[uuid.UUID]:
    """Tombstone every version of one memory: its content is blanked and its status set to
    ``deleted``, so no route can return it; ids remain for the audit receipt.

    Propagation to derived stores (indexes, summaries, exports) is done by the deletion
    workflow, which calls this first.
    """
    records = list(
        MemoryRecord.objects.select_for_update()
        .filter(tenant_id=tenant_id, lineage_id=lineage_id)
        .exclude(status=MemoryStatus.DELETED)
    )
    ids = [r.id for r in records]
    if not ids:
        return []
    _blank(ids, reason_code)
    audit_record(
        actor=actor,
        action=AuditAction.MEMORY_ERASE,
        operation="DELETE",
        reason_code=reason_code,
        subject_id=records[0].subject_id,
        record_id=lineage_id,
        request_id=request_id,
        extra={"record_ids": [str(i) for i in ids]},
    )
    return ids


def _blank(ids: list[uuid.UUID], reason_code: str) -> None:
    """Tombstone versions: content blanked, status deleted, record time closed (it may be
    set once only, so already-closed versions keep theirs); derived rows that hold the
    content (vectors, lexical docs) go with it."""
    now = timezone.now()
    with pgtrigger.ignore(_CONTENT_TRIGGER):
        MemoryRecord.objects.filter(id__in=ids, superseded_at__isnull=True).update(
            superseded_at=now
        )
        MemoryRecord.objects.filter(id__in=ids).update(
            status=MemoryStatus.DELETED,
            status_reason=reason_code,
            statement="",
            value=None,
            content_key="erased",
            source_uri="",
        )
    derived_rows_erase(ids)


@transaction.atomic
def memory_records_erase(
    *,
    actor: Actor,
    tenant_id: uuid.UUID,
    record_ids: list[uuid.UUID],
    reason_code: str,
    request_id: str = "",
) -> list[uuid.UUID]:
    """Tombstone individual versions (not whole lineages): used when a deleted source
    event was the only support of some versions of a memory."""
    ids = list(
        MemoryRecord.objects.select_for_update()
        .filter(tenant_id=tenant_id, id__in=record_ids)
        .exclude(status=MemoryStatus.DELETED, statement="")
        .values_list("id", flat=True)
    )
    if not ids:
        return []
    _blank(ids, reason_code)
    audit_record(
        actor=actor,
        action=AuditAction.MEMORY_ERASE,
        operation="DELETE",
        reason_code=reason_code,
        request_id=request_id,
        extra={"record_ids": [str(i) for i in ids]},
    )
    return ids


@transaction.atomic
def source_events_erase(
    *,
    actor: Actor,
    tenant_id: uuid.UUID,
    event_ids: list[uuid.UUID],
    reason_code: str,
    request_id: str = "",
) -> int:
    """Remove raw events (past the append-only trigger) and their provenance links.
    Callers decide what else depends on them (memory.services.deletion)."""
    ids = list(
        SourceEvent.objects.filter(tenant_id=tenant_id, id__in=event_ids).values_list(
            "id", flat=True
        )
    )
    if not ids:
        return 0
    MemorySource.objects.filter(tenant_id=tenant_id, event_id__in=ids).delete()
    # One DELETE, as QuerySet._raw_delete would issue (no collector: what refers to an
    # event is the database's to cascade or clear), through the public cursor, so the
    # trigger's ignore (an execute wrapper on this connection) applies.
    with pgtrigger.ignore(_EVENT_TRIGGER), connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {connection.ops.quote_name(SourceEvent._meta.db_table)} "
            "WHERE tenant_id = %s AND id = ANY(%s)",
            [tenant_id, ids],
        )
    audit_record(
        actor=actor,
        action=AuditAction.EVENT_ERASE,
        operation="DELETE",
        reason_code=reason_code,
        request_id=request_id,
        extra={"event_ids": [str(i) for i in ids]},
    )
    return len(ids)
