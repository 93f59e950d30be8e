"""Reads for the governance console, always for one tenant and one actor.

Call inside ``tenant_context(tenant_id)``.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from guardian.shortcuts import get_objects_for_user

from accounts.models import Membership
from accounts.tenancy import MembershipInfo, user_memberships
from core.codes import AuditAction
from core.models import AuditEvent
from governance.audit_groups import group_q
from governance.models import (
    ChangeRequest,
    ChangeRequestStatus,
    ProceduralDocument,
    ProceduralVersion,
)
from governance.policies import CONFLICT_REASONS, ConsoleAccess
from memory.models import MemoryRecord, MemoryStatus

REVIEW_PERM = "governance.review_proceduraldocument"
QUARANTINE_STATUSES = (MemoryStatus.QUARANTINED, MemoryStatus.PENDING_CONFIRMATION)


def memberships_for_user(*, user: User) -> list[MembershipInfo]:
    """All of the user's memberships, across tenants (row-level security would show only
    the current tenant's; this goes through the SECURITY DEFINER lookup)."""
    return user_memberships(user.pk)


def console_access_get(*, user: User, tenant_id: uuid.UUID) -> ConsoleAccess | None:
    """The user's rights in ``tenant_id``, or None when they are not a member."""
    membership = Membership.objects.filter(user=user, tenant_id=tenant_id).first()
    if membership is None:
        return None
    reviewable = get_objects_for_user(
        user,
        REVIEW_PERM,
        klass=ProceduralDocument.objects.filter(tenant_id=tenant_id),
        with_superuser=False,
        accept_global_perms=False,
    ).values_list("id", flat=True)
    return ConsoleAccess(
        user_id=user.pk,
        tenant_id=tenant_id,
        role=membership.role,
        reviewable_document_ids=frozenset(reviewable),
    )


# --- procedures -------------------------------------------------------------------------


def procedure_list_for(*, access: ConsoleAccess) -> QuerySet[ProceduralDocument]:
    return ProceduralDocument.objects.filter(tenant_id=access.tenant_id).order_by("slug")


def procedure_get(*, tenant_id: uuid.UUID, slug: str) -> ProceduralDocument | None:
    return ProceduralDocument.objects.filter(tenant_id=tenant_id, slug=slug).first()


def procedure_version_get(*, document: ProceduralDocument, number: int) -> ProceduralVersion | None:
    return ProceduralVersion.objects.filter(
        tenant_id=document.tenant_id, document=document, number=number
    ).first()


def procedure_versions_for(*, document: ProceduralDocument) -> QuerySet[ProceduralVersion]:
    return ProceduralVersion.objects.filter(
        tenant_id=document.tenant_id, document=document
    ).order_by("-number")


def change_request_list_for(
    *, access: ConsoleAccess, status: str | None = ChangeRequestStatus.OPEN
) -> QuerySet[ChangeRequest]:
    qs = ChangeRequest.objects.filter(tenant_id=access.tenant_id).select_related(
        "document", "proposer_user", "proposer_agent"
    )
    if status:
        qs = qs.filter(status=status)
    return qs.order_by("created_at")


def change_request_get(
    *, access: ConsoleAccess, change_request_id: uuid.UUID
) -> ChangeRequest | None:
    return (
        ChangeRequest.objects.filter(tenant_id=access.tenant_id, id=change_request_id)
        .select_related("document", "proposer_user", "proposer_agent", "decided_by")
        .first()
    )


# --- quarantine -------------------------------------------------------------------------


def quarantine_list_for(*, access: ConsoleAccess) -> QuerySet[MemoryRecord]:
    return (
        MemoryRecord.objects.filter(tenant_id=access.tenant_id, status__in=QUARANTINE_STATUSES)
        .select_related("subject", "conflicts_with", "created_by_agent")
        .order_by("recorded_at")
    )


def quarantine_get(*, access: ConsoleAccess, record_id: uuid.UUID) -> MemoryRecord | None:
    return quarantine_list_for(access=access).filter(id=record_id).first()


# --- audit ------------------------------------------------------------------------------


def audit_list_for(
    *,
    access: ConsoleAccess,
    actor: str = "",
    subject_id: uuid.UUID | None = None,
    operation: str = "",
    since: datetime | None = None,
    until: datetime | None = None,
    record_id: uuid.UUID | None = None,
    what: str = "",
) -> QuerySet[AuditEvent]:
    """Audit events of the tenant, newest first. ``actor`` is an id, or ``type:id``;
    ``operation`` matches the write-policy operation or the dotted action; ``what`` is
    one of the kinds of event of ``governance.audit_groups``."""
    qs = AuditEvent.objects.filter(tenant_id=access.tenant_id)
    if what:
        qs = qs.filter(group_q(what) or Q(pk__in=[]))
    if actor:
        kind, sep, ident = actor.partition(":")
        qs = qs.filter(actor_type=kind, actor_id=ident) if sep else qs.filter(actor_id=actor)
    if subject_id:
        qs = qs.filter(subject_id=subject_id)
    if operation:
        qs = qs.filter(operation=operation) if operation.isupper() else qs.filter(action=operation)
    if record_id:
        qs = qs.filter(record_id=record_id)
    if since:
        qs = qs.filter(occurred_at__gte=since)
    if until:
        qs = qs.filter(occurred_at__lt=until)
    return qs.order_by("-occurred_at", "-id")


def review_grants_for(*, documents: list[ProceduralDocument]) -> dict[uuid.UUID, list[str]]:
    """Usernames holding the per-document review permission, by document id."""
    from guardian.shortcuts import get_users_with_perms

    return {
        d.id: sorted(
            u.username
            for u in get_users_with_perms(
                d, only_with_perms_in=["review_proceduraldocument"], with_superusers=False
            )
        )
        for d in documents
    }


# --- the console's charts (counts per day from the audit log and recall traces) ----------


def _days(n: int) -> list:
    from datetime import timedelta

    from django.utils import timezone

    today = timezone.localdate()
    return [today - timedelta(days=n - 1 - i) for i in range(n)]


def write_decisions_by_day(*, access: ConsoleAccess, days: int = 14) -> dict:
    """Write-policy decisions per day by operation, and the most common reasons, over the
    last ``days`` days (from ``memory.write`` audit events: codes and counts only)."""
    from django.db.models import Count
    from django.db.models.functions import TruncDate

    dates = _days(days)
    rows = (
        AuditEvent.objects.filter(
            tenant_id=access.tenant_id,
            action=AuditAction.MEMORY_WRITE,
            occurred_at__date__gte=dates[0],
        )
        .annotate(day=TruncDate("occurred_at"))
        .order_by()
        .values_list("day", "operation")
        .annotate(n=Count("id"))
    )
    index = {d: i for i, d in enumerate(dates)}
    by_operation: dict[str, list[int]] = {}
    for day, operation, n in rows:
        if day in index:
            by_operation.setdefault(operation or "?", [0] * days)[index[day]] += n
    reasons = list(
        AuditEvent.objects.filter(
            tenant_id=access.tenant_id,
            action=AuditAction.MEMORY_WRITE,
            occurred_at__date__gte=dates[0],
        )
        .exclude(reason_code="")
        .order_by()
        .values_list("reason_code")
        .annotate(n=Count("id"))
        .order_by("-n")[:8]
    )
    return {"days": dates, "operations": by_operation, "reasons": reasons}


def held_queues_by_day(*, access: ConsoleAccess, days: int = 14) -> dict:
    """Size of the quarantine queue and of the conflict queue at the end of each day:
    memories held (``QUARANTINE`` decisions) minus those resolved (``quarantine.resolve``)
    up to then, from the audit log."""
    from datetime import datetime, time, timedelta

    from django.utils import timezone

    dates = _days(days)
    held = list(
        AuditEvent.objects.filter(
            tenant_id=access.tenant_id, action=AuditAction.MEMORY_WRITE, operation="QUARANTINE"
        ).values_list("occurred_at", "reason_code", "record_id")
    )
    resolved = dict(
        AuditEvent.objects.filter(
            tenant_id=access.tenant_id,
            action=AuditAction.QUARANTINE_RESOLVE,
            record_id__isnull=False,
        ).values_list("record_id", "occurred_at")
    )
    tz = timezone.get_current_timezone()
    quarantine, conflicts = [], []
    for day in dates:
        end = datetime.combine(day + timedelta(days=1), time.min, tzinfo=tz)
        open_rows = [
            (reason, record)
            for at, reason, record in held
            if at < end and not (record in resolved and resolved[record] < end)
        ]
        conflicts.append(sum(1 for reason, _r in open_rows if reason in CONFLICT_REASONS))
        quarantine.append(len(open_rows) - conflicts[-1])
    return {"days": dates, "quarantine": quarantine, "conflicts": conflicts}


def recalls_by_day(*, access: ConsoleAccess, days: int = 14) -> dict:
    """Recall requests per day, the share that came back empty (abstentions), and the
    recall latency p50/p95 in ms (PostgreSQL's percentile_cont over the day's traces;
    traces without a latency, written before it was measured, are not counted)."""
    from django.db.models import Aggregate, Count, FloatField, Q
    from django.db.models.functions import TruncDate

    from memory.models import RecallTrace

    class Percentile(Aggregate):
        function = "percentile_cont"
        template = "%(function)s(%(fraction)s) WITHIN GROUP (ORDER BY %(expressions)s)"
        output_field = FloatField()

    dates = _days(days)
    rows = (
        RecallTrace.objects.filter(tenant_id=access.tenant_id, created_at__date__gte=dates[0])
        .annotate(day=TruncDate("created_at"))
        .order_by()
        .values_list("day")
        .annotate(
            n=Count("id"),
            empty=Count("id", filter=Q(record_ids=[])),
            p50=Percentile("latency_ms", fraction=0.5),
            p95=Percentile("latency_ms", fraction=0.95),
        )
    )
    per_day = {day: (n, empty, p50, p95) for day, n, empty, p50, p95 in rows}
    none = (0, 0, None, None)
    volume = [per_day.get(d, none)[0] for d in dates]
    abstention = [
        round(100 * per_day[d][1] / per_day[d][0], 1) if per_day.get(d, none)[0] else None
        for d in dates
    ]

    def ms(value: float | None) -> float | None:
        return None if value is None else round(value, 1)

    return {
        "days": dates,
        "volume": volume,
        "abstention": abstention,
        "latency_p50": [ms(per_day.get(d, none)[2]) for d in dates],
        "latency_p95": [ms(per_day.get(d, none)[3]) for d in dates],
    }
