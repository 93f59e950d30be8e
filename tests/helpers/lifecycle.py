"""Lifecycle helpers: append real events through the service and run jobs
the way a worker does (``task.apply`` executes the task body in this process, through the
same run_job machinery, tenant context and row-level security)."""

from __future__ import annotations

import itertools
import uuid
from datetime import datetime

from core.actor import Actor
from memory.models import DeletionRequest, MemoryRecord, MemoryStatus, SourceEvent
from memory.services.deletion import deletion_request_create
from memory.services.events import EventInput, events_append
from memory.tasks import extract_events, run_deletion

_ids = itertools.count()


def append(
    agent_cred,
    subject,
    content: str,
    *,
    role: str = "user",
    kind: str = "message",
    thread: str = "t1",
    occurred_at: datetime | None = None,
    retention_class: str = "standard",
) -> SourceEvent:
    agent = agent_cred.agent
    [outcome] = events_append(
        actor=Actor.agent(agent.id, agent.tenant_id),
        agent_id=agent.id,
        subject=subject,
        items=[
            EventInput(
                client_event_id=f"e-{next(_ids)}-{uuid.uuid4().hex[:6]}",
                kind=kind,
                role=role,
                content=content,
                thread_id=thread,
                occurred_at=occurred_at,
                retention_class=retention_class,
            )
        ],
    )
    assert outcome.event_id, outcome
    return SourceEvent.objects.get(pk=outcome.event_id)


def extract(*events: SourceEvent) -> None:
    tenant_id = str(events[0].tenant_id)
    extract_events.apply(args=(tenant_id, [str(e.id) for e in events])).get()


def active(subject, **filters) -> list[MemoryRecord]:
    return list(MemoryRecord.objects.filter(subject=subject, status=MemoryStatus.ACTIVE, **filters))


def erase(subject, scope, target_id) -> DeletionRequest:
    request = deletion_request_create(
        actor=Actor.system(subject.tenant_id, "test"),
        subject=subject,
        scope=scope,
        target_id=target_id,
        enqueue=False,
    )
    run_deletion.apply(args=(str(subject.tenant_id), str(request.id))).get()
    request.refresh_from_db()
    return request
