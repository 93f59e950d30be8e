"""Erasure: the one named piece of code allowed past the append-only and immutability
triggers. Everything that removes personal data goes through here, so a reader can audit
deletion in one place."""

from __future__ import annotations

import uuid

import pgtrigger
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from governance.services import Actor, audit_record
from memory.models import MemoryRecord, MemoryStatus
from memory.services.indexing import derived_rows_erase

_CONTENT_TRIGGER = "memory.MemoryRecord:memory_content_immutable"


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
    now = timezone.now()
    records = list(
        MemoryRecord.objects.select_for_update()
        .filter(tenant_id=tenant_id, lineage_id=lineage_id)
        .exclude(status=MemoryStatus.DELETED)
    )
    ids = [r.id for r in records]
    if not ids:
        return []
    with pgtrigger.ignore(_CONTENT_TRIGGER):
        # superseded_at may be set once only; leave already-closed versions' value alone.
        MemoryRecord.objects.filter(id__in=ids, superseded_at__isnull=True).update(
            superseded_at=now
        )
        MemoryRecord.objects.filter(Q(id__in=ids)).update(
            status=MemoryStatus.DELETED,
            status_reason=reason_code,
            statement="",
            value=None,
            content_key="erased",
            source_uri="",
        )
    # [retrieval] Derived rows (vectors, lexical docs) hold the content too: gone with it.
    derived_rows_erase(ids)
    audit_record(
        actor=actor,
        action="memory.erase",
        operation="DELETE",
        reason_code=reason_code,
        subject_id=records[0].subject_id,
        record_id=lineage_id,
        request_id=request_id,
        extra={"record_ids": [str(i) for i in ids]},
    )
    return ids
