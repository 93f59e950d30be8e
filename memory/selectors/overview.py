"""What the user's overview pages show beside the list: how their memories are used, by
which agents, what waits for them, pending deletions, why writes were decided, topics,
and recalls per day."""

from __future__ import annotations

import uuid

from django.db.models import Count, Max
from django.utils import timezone

from core.codes import AuditAction
from memory.models import (
    MemoryRecord,
    MemoryStatus,
    RecallTrace,
    Subject,
    SubjectAgentAccess,
)


def memory_usage_for_user(*, subject: Subject) -> dict:
    """The list's one-line summary: how many memories are current, how many agents wrote
    or used them, and when the oldest current one was recorded."""
    current = MemoryRecord.objects.current().filter(tenant_id=subject.tenant_id, subject=subject)
    oldest = current.order_by("recorded_at").values_list("recorded_at", flat=True).first()
    return {
        "memories": current.count(),
        "agents": len(memory_agents_for_user(subject=subject)),
        "oldest": oldest,
    }


def memory_agents_for_user(*, subject: Subject) -> list[dict]:
    """The agents that wrote or used the user's memories (or whose access the user
    changed), each with how many current memories it wrote, when it last used one, and
    the access the user gives it (``None``: as its key allows; ``paused``; ``revoked``)."""
    from accounts.models import Agent

    tenant_id = subject.tenant_id
    wrote = dict(
        MemoryRecord.objects.current()
        .filter(tenant_id=tenant_id, subject=subject, created_by_agent__isnull=False)
        .order_by()
        .values_list("created_by_agent_id")
        .annotate(n=Count("id"))
    )
    used = dict(
        RecallTrace.objects.filter(tenant_id=tenant_id, subject=subject, agent__isnull=False)
        .order_by()
        .values_list("agent_id")
        .annotate(last=Max("created_at"))
    )
    access = dict(
        SubjectAgentAccess.objects.filter(tenant_id=tenant_id, subject=subject).values_list(
            "agent_id", "state"
        )
    )
    wrote_any = set(
        MemoryRecord.objects.filter(tenant_id=tenant_id, subject=subject)
        .exclude(created_by_agent__isnull=True)
        .order_by()
        .values_list("created_by_agent_id", flat=True)
        .distinct()
    )
    ids = set(wrote) | set(used) | set(access) | wrote_any
    agents = Agent.objects.filter(tenant_id=tenant_id, id__in=ids).order_by("name")
    return [
        {
            "agent": agent,
            "memories": wrote.get(agent.id, 0),
            "last_used": used.get(agent.id),
            "access": access.get(agent.id),
        }
        for agent in agents
    ]


def memory_waiting_for_user(*, subject: Subject, limit: int = 20) -> dict:
    """What waits for the user, for the banner: memories an agent proposed that are
    kept only if the user confirms them, and changes planned for the future."""
    now = timezone.now()
    records = MemoryRecord.objects.filter(tenant_id=subject.tenant_id, subject=subject)
    pending = records.filter(status=MemoryStatus.PENDING_CONFIRMATION).order_by("-recorded_at")
    future = records.current().filter(valid_from__gt=now).order_by("valid_from")
    return {
        "pending": list(pending[:limit]),
        "pending_count": pending.count(),
        "future": list(future[:limit]),
        "future_count": future.count(),
    }


def deletions_pending_for_user(*, subject: Subject) -> list[dict]:
    """The user's deletes that can still be undone, each with what it deletes (the
    memory's current text, still kept until the erasure runs) and when it runs."""
    from memory.models import DeletionRequest, DeletionStatus

    requests = list(
        DeletionRequest.objects.filter(
            tenant_id=subject.tenant_id,
            subject_id=subject.id,
            status=DeletionStatus.PENDING,
            run_after__isnull=False,
        ).order_by("run_after")
    )
    held = {
        str(r.id): r
        for r in MemoryRecord.objects.filter(
            tenant_id=subject.tenant_id,
            id__in=[i for d in requests for i in d.held],
        )
    }
    out = []
    for request in requests:
        records = [held[i] for i in request.held if i in held]
        out.append(
            {
                "request": request,
                "statement": records[0].statement if records else "",
                "record_ids": [str(r.id) for r in records],
            }
        )
    return out


def memory_write_reasons(*, record: MemoryRecord) -> dict[uuid.UUID, str]:
    """Why each version of ``record``'s memory was written: the write policy's reason code
    from the audit log (``memory.write``), by record id. A version keeps its own status
    reason only while open; the audit row keeps why it was written."""
    from core.models import AuditEvent

    versions = MemoryRecord.objects.filter(
        tenant_id=record.tenant_id, subject_id=record.subject_id, lineage_id=record.lineage_id
    ).values_list("id", flat=True)
    rows = (
        AuditEvent.objects.filter(
            tenant_id=record.tenant_id,
            record_id__in=list(versions),
            action=AuditAction.MEMORY_WRITE,
        )
        .order_by("occurred_at", "id")
        .values_list("record_id", "reason_code")
    )
    reasons: dict[uuid.UUID, str] = {}
    for record_id, reason in rows:
        reasons.setdefault(record_id, reason)
    return reasons


def deletion_request_get_for_user(*, subject: Subject, request_id: uuid.UUID):
    """One of the user's own deletion requests (its receipt), or None."""
    from memory.models import DeletionRequest

    return DeletionRequest.objects.filter(
        tenant_id=subject.tenant_id, subject_id=subject.id, id=request_id
    ).first()


def memory_topic_counts_for_user(*, subject: Subject) -> list[tuple[str, int]]:
    """Current (active, valid now) memories per topic, largest first."""
    rows = (
        MemoryRecord.objects.current()
        .filter(tenant_id=subject.tenant_id, subject=subject)
        .order_by()
        .values_list("namespace")
        .annotate(n=Count("lineage_id", distinct=True))
    )
    return sorted(rows, key=lambda r: (-r[1], r[0]))


def memory_recall_days_for_user(*, subject: Subject, days: int = 14) -> dict:
    """Which agents recalled the user's memories on each of the last ``days`` days:
    ``{"days": [date…], "agents": {name: [count per day]}}`` (trace counts, no text)."""
    from datetime import timedelta

    from django.db.models.functions import TruncDate

    today = timezone.localdate()
    first = today - timedelta(days=days - 1)
    rows = (
        RecallTrace.objects.filter(
            tenant_id=subject.tenant_id,
            subject=subject,
            created_at__date__gte=first,
        )
        .annotate(day=TruncDate("created_at"))
        .order_by()
        .values_list("agent__name", "day")
        .annotate(n=Count("id"))
    )
    dates = [first + timedelta(days=i) for i in range(days)]
    agents: dict[str, list[int]] = {}
    for name, day, n in rows:
        series = agents.setdefault(name or "—", [0] * days)
        index = (day - first).days
        if 0 <= index < days:
            series[index] += n
    return {"days": dates, "agents": agents}
