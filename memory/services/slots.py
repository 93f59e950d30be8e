"""Writes addressed by slot (namespace + predicate) instead of by record id: what a
key-value store such as LangGraph's ``BaseStore`` means by ``put(namespace, key, value)``
and ``delete``. ``PUT /api/v1/memories/by-slot`` calls :func:`memory_slots_write`.

The caller never reads first: in one transaction, under the subject's write lock, each
write finds the slot's current value and becomes the candidate that says what the
application means — ``ASSERT`` for an empty slot (or the same value again: the policy
confirms it), ``SUPERSEDE`` of the current record for a new value (the old version is
closed and kept in history), ``FORGET`` for a deletion. Every candidate then goes through
the write policy like any other (``candidates_submit``): a secret is still refused, an
inference never overrides what the user said. So a client may queue such a write while
Engram is down and send it later: it is decided against the slot as it is then.

A time-to-live is ``expires_at`` on the record; ``memory_slots_ttl_refresh`` moves it
forward for records read with "refresh on read" (retention metadata, like access
statistics, so it changes in place; the record's content never does).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction, Operation, ReasonCode
from memory.models import Cardinality, MemoryRecord, Subject
from memory.selectors import memory_current_in_slots
from memory.services.writes import WriteOutcome, candidates_submit
from memory.write_policy import Candidate, Intent


@dataclass(frozen=True)
class SlotWrite:
    namespace: str
    predicate: str
    delete: bool = False
    statement: str = ""
    value: Any = None
    memory_type: str = "semantic"
    assertion_kind: str = "agent_inference"
    confidence: float = 0.8
    purpose: str = ""
    consent_basis: str = ""
    sensitivity: str | None = None
    importance: float = 0.5
    expires_at: datetime | None = None
    valid_from: datetime | None = None


def _nothing_to_delete() -> WriteOutcome:
    return WriteOutcome(
        Operation.REJECT,
        ReasonCode.NOTHING_TO_CHANGE,
        "There is no current memory in this slot; nothing was deleted.",
    )


def _candidate(write: SlotWrite, current: MemoryRecord | None) -> Candidate:
    if write.delete:
        assert current is not None
        return Candidate.from_record(
            current,
            intent=Intent.FORGET,
            target_record_id=current.id,
            assertion_kind=write.assertion_kind,
            sensitivity=current.sensitivity,
        )
    fields: dict[str, Any] = {
        "statement": write.statement,
        "value": write.value,
        "assertion_kind": write.assertion_kind,
        "confidence": write.confidence,
        "importance": write.importance,
        "expires_at": write.expires_at,
        "valid_from": write.valid_from,
    }
    if current is not None and current.value != write.value:
        # A new value for the slot: the application replaces it (the old version is
        # closed and kept). Without this, two inferences disagreeing would go to the
        # conflict queue, which is not what a key-value put means.
        return Candidate.from_record(
            current,
            intent=Intent.SUPERSEDE,
            target_record_id=current.id,
            sensitivity=write.sensitivity or current.sensitivity,
            **fields,
        )
    extra = {"sensitivity": write.sensitivity} if write.sensitivity else {}
    return Candidate(
        memory_type=write.memory_type,
        namespace=write.namespace,
        predicate=write.predicate,
        cardinality=Cardinality.SINGLE,
        purpose=write.purpose,
        consent_basis=write.consent_basis,
        **fields,
        **extra,
    )


def memory_slots_write(
    *,
    actor: Actor,
    agent_id: uuid.UUID,
    subject: Subject,
    clearance: str,
    writes: Sequence[SlotWrite],
    request_id: str = "",
) -> list[WriteOutcome]:
    """One outcome per write, in order. Two writes to one slot in a batch: send the last
    one only (the caller's job; the API refuses such a batch)."""
    with transaction.atomic():
        # The subject's write lock first (candidates_submit takes the same one again),
        # so no other writer changes a slot between reading it here and deciding.
        Subject.objects.select_for_update(no_key=True).filter(pk=subject.pk).first()
        currents = memory_current_in_slots(
            tenant_id=subject.tenant_id,
            subject_id=subject.id,
            clearance=clearance,
            slots=[(w.namespace, w.predicate) for w in writes],
        )
        outcomes: list[WriteOutcome | None] = [None] * len(writes)
        submit: list[tuple[int, Candidate]] = []
        refresh: list[tuple[MemoryRecord, datetime]] = []
        for index, (write, current) in enumerate(zip(writes, currents, strict=True)):
            if write.delete and current is None:
                outcomes[index] = _nothing_to_delete()
                continue
            if (
                not write.delete
                and current is not None
                and current.value == write.value
                and write.expires_at is not None
            ):
                refresh.append((current, write.expires_at))
            submit.append((index, _candidate(write, current)))
        if submit:
            decided = candidates_submit(
                actor=actor,
                subject=subject,
                candidates=[c for _, c in submit],
                agent_id=agent_id,
                request_id=request_id,
            )
            for (index, _), outcome in zip(submit, decided, strict=True):
                outcomes[index] = outcome
        for record, expires_at in refresh:
            # The same value put again with a time-to-live: the policy confirmed it; the
            # put's time-to-live starts again, as in any key-value store.
            _set_expiry(actor, subject, [record.id], expires_at)
    return [o for o in outcomes if o is not None]


def _set_expiry(
    actor: Actor, subject: Subject, record_ids: list[uuid.UUID], expires_at: datetime
) -> int:
    changed = MemoryRecord.objects.filter(
        tenant_id=subject.tenant_id,
        subject_id=subject.id,
        id__in=record_ids,
        expires_at__isnull=False,
    ).update(expires_at=expires_at)
    if changed:
        audit_record(
            actor=actor,
            # A change of retention metadata, not of content: a memory write whose extra
            # says which.
            action=AuditAction.MEMORY_WRITE,
            subject_id=subject.id,
            extra={
                "change": "expires_at",
                "record_ids": [str(i) for i in record_ids],
                "expires_at": expires_at.isoformat(),
            },
        )
    return changed


def memory_slots_ttl_refresh(
    *, actor: Actor, subject: Subject, records: Sequence[MemoryRecord], ttl: timedelta
) -> int:
    """Move the expiry of records that have one to ``now + ttl`` (read with "refresh on
    read"); records without a time-to-live keep none."""
    ids = [r.id for r in records if r.expires_at is not None]
    if not ids:
        return 0
    expires_at = timezone.now() + ttl
    with transaction.atomic():
        changed = _set_expiry(actor, subject, ids, expires_at)
    for record in records:
        if record.expires_at is not None:
            record.expires_at = expires_at
    return changed
