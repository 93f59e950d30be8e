"""Writing audit events. Callers pass ids and codes; this module never takes text."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from governance.models import ActorType, AuditEvent


@dataclass(frozen=True)
class Actor:
    """Who is acting: an agent (API key), a signed-in user, or the system (a job)."""

    type: str
    id: str
    tenant_id: uuid.UUID

    @classmethod
    def agent(cls, agent_id: Any, tenant_id: uuid.UUID) -> Actor:
        return cls(ActorType.AGENT, str(agent_id), tenant_id)

    @classmethod
    def user(cls, user_id: Any, tenant_id: uuid.UUID) -> Actor:
        return cls(ActorType.USER, str(user_id), tenant_id)

    @classmethod
    def system(cls, tenant_id: uuid.UUID, name: str = "system") -> Actor:
        return cls(ActorType.SYSTEM, name, tenant_id)


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
    AuditEvent.objects.bulk_create(list(events))
