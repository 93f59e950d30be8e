"""Carrying out one decided operation on the records (``_apply``): a new record, a new
version that supersedes the current one (its closed copy keeps the old valid time), a
confirmation, a deletion request, an archive."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from django.conf import settings
from django.db.models import F

from core.actor import Actor
from core.codes import Operation, ReasonCode
from memory.models import MemoryRecord, MemorySource, MemoryStatus, Subject
from memory.services.erasure import memory_lineage_erase
from memory.services.indexing import record_indexed_on_write
from memory.services.record_instances import record_instance
from memory.write_policy import (
    Candidate,
    Decision,
    content_key,
)


def _apply(
    decision: Decision,
    *,
    subject: Subject,
    actor: Actor,
    agent_id: uuid.UUID | None,
    user_id: int | None,
    now: datetime,
    request_id: str,
    deferred: list[tuple[MemoryRecord, tuple[uuid.UUID, ...]]] | None = None,
) -> uuid.UUID | None:
    """``deferred``: a new record (ADD) is not inserted here; the caller inserts it, its
    source links and its lexical doc later, together with the rest of its batch
    (memory/services/write_batch.py)."""
    op, c = decision.operation, decision.candidate
    if op == Operation.REJECT:
        return None
    if op == Operation.DELETE:
        target = MemoryRecord.objects.get(
            pk=decision.target_id, tenant_id=subject.tenant_id, subject=subject
        )
        memory_lineage_erase(
            actor=actor,
            tenant_id=subject.tenant_id,
            lineage_id=target.lineage_id,
            reason_code=decision.reason_code,
            request_id=request_id,
        )
        # Then the deletion workflow reaches every derived store (indexes, summaries, …).
        from memory.services.deletion import deletion_request_create

        deletion_request_create(
            actor=actor, subject=subject, scope="memory", target_id=target.lineage_id
        )
        return target.id
    assert c is not None
    if op in (Operation.ADD, Operation.QUARANTINE):
        record = _create(
            c,
            subject=subject,
            status=decision.status,
            agent_id=agent_id,
            user_id=user_id,
            now=now,
            conflicts_with=decision.target_id if op == Operation.QUARANTINE else None,
            reason=decision.reason_code,
            deferred=deferred,
        )
        return record.id

    target = MemoryRecord.objects.select_for_update(no_key=True).get(
        pk=decision.target_id, tenant_id=subject.tenant_id, subject=subject
    )
    if op == Operation.CONFIRM:
        MemoryRecord.objects.filter(pk=target.pk).update(evidence_count=F("evidence_count") + 1)
        _link_sources(target, c.source_event_ids)
        return target.id
    if op == Operation.RETRACT:
        target.close_record_time(MemoryStatus.RETRACTED, decision.reason_code, now)
        return target.id
    if op == Operation.EXPIRE:
        end = datetime.fromisoformat(decision.extra["valid_to"])
        target.close_record_time(MemoryStatus.SUPERSEDED, decision.reason_code, now)
        copy = _closed_copy(target, valid_to=end, now=now)
        return copy.id
    if op == Operation.SUPERSEDE:
        assert c.valid_from is not None
        target.close_record_time(MemoryStatus.SUPERSEDED, decision.reason_code, now)
        if decision.close_old_at_new_start and c.valid_from > target.valid_from:
            _closed_copy(target, valid_to=c.valid_from, now=now)
        record = _create(
            c,
            subject=subject,
            status=MemoryStatus.ACTIVE,
            agent_id=agent_id,
            user_id=user_id,
            now=now,
            supersedes=target,
            reason=decision.reason_code,
        )
        return record.id
    raise AssertionError(f"unhandled operation {op}")


def _create(
    c: Candidate,
    *,
    subject: Subject,
    status: str,
    agent_id: uuid.UUID | None,
    user_id: int | None,
    now: datetime,
    reason: str,
    supersedes: MemoryRecord | None = None,
    conflicts_with: uuid.UUID | None = None,
    deferred: list[tuple[MemoryRecord, tuple[uuid.UUID, ...]]] | None = None,
) -> MemoryRecord:
    record_id = uuid.uuid4()
    record = record_instance(
        id=record_id,
        tenant_id=subject.tenant_id,
        subject=subject,
        namespace=c.namespace,
        memory_type=c.memory_type,
        predicate=c.predicate,
        statement=c.statement,
        value=c.value,
        content_key=content_key(c),
        cardinality=c.cardinality or "multi",
        assertion_kind=c.assertion_kind,
        confidence=c.confidence,
        source_uri=c.source_uri,
        valid_from=c.valid_from or now,
        valid_to=c.valid_to,
        recorded_at=now,
        supersedes=supersedes,
        lineage_id=supersedes.lineage_id if supersedes else record_id,
        status=status,
        status_reason=reason,
        purpose=c.purpose,
        sensitivity=c.sensitivity,
        consent_basis=c.consent_basis,
        expires_at=c.expires_at,
        importance=c.importance,
        created_by_agent_id=agent_id,
        created_by_user_id=user_id,
        conflicts_with_id=conflicts_with,
    )
    if deferred is not None:  # inserted by the caller, with the rest of its batch
        deferred.append((record, tuple(c.source_event_ids)))
        return record
    record.save(force_insert=True)
    _link_sources(record, c.source_event_ids)
    # [retrieval] lexical doc now, in this transaction; embedding after the commit.
    record_indexed_on_write(record, citing_known([(record, c.source_event_ids)]))
    return record


def citing_known(created: Sequence[tuple[MemoryRecord, Sequence[uuid.UUID]]]) -> set | None:
    """The ids of just-created records that cite an event (the rest have no context turn
    to look up), or None (look all up: the reference) with ``FEWER_ROUND_TRIPS`` off."""
    if not settings.ENGRAM_WRITE_BATCH.get("FEWER_ROUND_TRIPS"):
        return None
    return {record.id for record, events in created if events}


def _link_sources(record: MemoryRecord, event_ids: Sequence[uuid.UUID]) -> None:
    if event_ids:
        MemorySource.objects.bulk_create(
            [
                MemorySource(tenant_id=record.tenant_id, record=record, event_id=e)
                for e in event_ids
            ],
            ignore_conflicts=True,
        )


def _closed_copy(old: MemoryRecord, *, valid_to: datetime, now: datetime) -> MemoryRecord:
    """A new version of ``old`` whose validity ends at ``valid_to``: what we now believe
    about the past. Keeps "what was true back then" answerable without editing history."""
    end = min(valid_to, old.valid_to) if old.valid_to else valid_to
    copy = MemoryRecord.objects.create(
        **{
            f.attname: getattr(old, f.attname)
            for f in MemoryRecord._meta.concrete_fields
            if f.attname
            not in (
                "id",
                "valid_to",
                "recorded_at",
                "superseded_at",
                "supersedes_id",
                "status",
                "status_reason",
            )
        },
        id=uuid.uuid4(),
        valid_to=end,
        recorded_at=now,
        supersedes_id=old.id,
        status=MemoryStatus.ACTIVE,
        status_reason=ReasonCode.VALIDITY_CLOSED,
    )
    MemorySource.objects.bulk_create(
        [
            MemorySource(tenant_id=old.tenant_id, record=copy, event_id=e)
            for e in old.source_events.values_list("id", flat=True)
        ],
        ignore_conflicts=True,
    )
    # [retrieval] lexical doc now, in this transaction; embedding after the commit.
    record_indexed_on_write(copy)
    return copy
