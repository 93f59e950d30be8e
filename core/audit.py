"""Writing audit events. Callers pass ids and codes; this module never takes text.

One event is written elsewhere: a recall's read event goes into the same statement as its
trace (``memory.recall.trace.record_recall``), each column prepared by the model's field as
here. A rule added to every audit event belongs there too."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

from core.actor import Actor
from core.db.json_rows import rows_insert
from core.models import AuditEvent


def audit_record(
    *,
    actor: Actor,
    action: str,
    operation: str = "",
    reason_code: str = "",
    subject_id: uuid.UUID | None = None,
    record_id: uuid.UUID | None = None,
    event_id: uuid.UUID | None = None,
    request_id: str = "",
    extra: dict[str, Any] | None = None,
) -> AuditEvent:
    return AuditEvent.objects.create(
        tenant_id=actor.tenant_id,
        actor_type=actor.type,
        actor_id=actor.id,
        action=action,
        operation=operation,
        reason_code=reason_code,
        subject_id=subject_id,
        record_id=record_id,
        event_id=event_id,
        request_id=request_id,
        extra=extra or {},
    )


def audit_record_many(events: Iterable[AuditEvent]) -> None:
    rows_insert(AuditEvent, list(events))
