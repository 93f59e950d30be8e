"""Reads of governed memory, always scoped by the caller's tenant and subject."""

from __future__ import annotations

import uuid

from django.db.models import Case, Count, Q, QuerySet, Value, When
from django.utils import timezone

from memory.models import (
    EmbeddingIndex,
    EmbeddingIndexStatus,
    MemoryRecord,
    MemoryStatus,
    MemoryType,
    RecallTrace,
    SourceEvent,
    Subject,
    SubjectKind,
)

# Statuses a record can be looked up in by an agent (deleted ones are gone for every route).
AGENT_VISIBLE_STATUSES = (
    MemoryStatus.ACTIVE,
    MemoryStatus.SUPERSEDED,
    MemoryStatus.RETRACTED,
    MemoryStatus.EXPIRED,
    MemoryStatus.ARCHIVED,
)


def memory_get_for_subject(
    *,
    tenant_id: uuid.UUID,
    subject_id: uuid.UUID,
    record_id: uuid.UUID,
    clearance: str | None = None,
) -> MemoryRecord | None:
    """One of the subject's records, or None if it is not theirs, or deleted, or held in
    quarantine (quarantined content is not the agent's to read), or — when ``clearance``
    is given (an agent asking) — more sensitive than that clearance allows."""
    qs = MemoryRecord.objects.filter(
        tenant_id=tenant_id,
        subject_id=subject_id,
        id=record_id,
        status__in=AGENT_VISIBLE_STATUSES,
    )
    if clearance is not None:
        qs = qs.filter(sensitivity__in=_cleared(clearance))
    return qs.first()


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


# --- the end user's own pages ("Manage my memories") ------------------------------------
#
# The signed-in user reaches their memories only through their own Subject: every query
# below starts from it, so a record id from another user (same tenant or not) is simply
# not found — the page answers 404, never 403, and never says whether the id exists.

# Statuses a user can filter by on their own page (deleted records are tombstones: gone).
USER_VISIBLE_STATUSES = tuple(s for s in MemoryStatus.values if s != MemoryStatus.DELETED)


def subject_for_user(*, user, tenant_id: uuid.UUID | None = None) -> Subject | None:
    """The signed-in user's own subject (kind ``user``) in a tenant they belong to:
    ``tenant_id`` (the request's active tenant) when given, else their oldest one."""
    if not getattr(user, "is_authenticated", False):
        return None
    qs = Subject.objects.filter(user=user, kind=SubjectKind.USER, tenant__memberships__user=user)
    if tenant_id is not None:
        qs = qs.filter(tenant_id=tenant_id)
    return qs.order_by("created_at").first()


def memory_list_for_user(
    *,
    subject: Subject,
    query: str = "",
    memory_type: str = "",
    namespace: str = "",
    status: str = MemoryStatus.ACTIVE,
) -> QuerySet[MemoryRecord]:
    """The user's memories, newest first, filtered as on the list page.

    Search is a case-insensitive substring match over the statement and predicate: it is
    correct for Chinese (no word boundaries needed) and English alike; the ranked lexical
    index belongs to the retrieval pipeline, not to this page.
    """
    if status not in USER_VISIBLE_STATUSES:
        status = MemoryStatus.ACTIVE
    qs = MemoryRecord.objects.filter(tenant_id=subject.tenant_id, subject=subject)
    # A version whose validity has ended ("lived in Shanghai until May") is history,
    # shown on its memory's page, not a current memory.
    qs = qs.current() if status == MemoryStatus.ACTIVE else qs.filter(status=status)
    qs = qs.select_related("created_by_agent", "created_by_user")
    if memory_type:
        qs = qs.filter(memory_type=memory_type)
    if namespace:
        qs = qs.filter(Q(namespace=namespace) | Q(namespace__startswith=namespace + "/"))
    query = query.strip()
    if query:
        for term in query.split():
            qs = qs.filter(Q(statement__icontains=term) | Q(predicate__icontains=term))
    return qs.order_by("-recorded_at", "id")


def memory_counts_for_user(*, subject: Subject) -> dict[str, dict[str, int]]:
    """Counts for the filter bar: active memories by type, and all memories by status."""
    rows = (
        MemoryRecord.objects.filter(tenant_id=subject.tenant_id, subject=subject)
        .exclude(status=MemoryStatus.DELETED)
        .without_ended()
        .values_list("status", "memory_type")
        .annotate(n=Count("id"))
    )
    by_type = dict.fromkeys(MemoryType.values, 0)
    by_status = dict.fromkeys(USER_VISIBLE_STATUSES, 0)
    for status, memory_type, n in rows:
        by_status[status] += n
        if status == MemoryStatus.ACTIVE:
            by_type[memory_type] += n
    return {"type": by_type, "status": by_status, "active": by_status[MemoryStatus.ACTIVE]}


def memory_namespaces_for_user(*, subject: Subject) -> list[str]:
    return list(
        MemoryRecord.objects.filter(tenant_id=subject.tenant_id, subject=subject)
        .exclude(status=MemoryStatus.DELETED)
        .order_by("namespace")
        .values_list("namespace", flat=True)
        .distinct()
    )


def memory_get_for_user(*, subject: Subject, record_id: uuid.UUID) -> MemoryRecord | None:
    """One of the user's own records in any status but deleted, or None."""
    return (
        MemoryRecord.objects.filter(tenant_id=subject.tenant_id, subject=subject, id=record_id)
        .exclude(status=MemoryStatus.DELETED)
        .select_related("created_by_agent", "created_by_user")
        .first()
    )


def memory_current_version(*, record: MemoryRecord) -> MemoryRecord | None:
    """What a change to ``record`` acts on: the record itself while it is active, else the
    active version of its lineage with the latest validity, if any. (A supersede leaves two
    active versions: the old value closed at the new one's start, and the new value.)
    Read from the database, never from the possibly stale ``record.status``."""
    return (
        MemoryRecord.objects.active()
        .filter(
            tenant_id=record.tenant_id,
            subject_id=record.subject_id,
            lineage_id=record.lineage_id,
        )
        .order_by(
            Case(When(id=record.id, then=Value(0)), default=Value(1)),
            "-recorded_at",
            "-valid_from",
            "-id",
        )
        .first()
    )


def memory_history(*, record: MemoryRecord) -> QuerySet[MemoryRecord]:
    """Every version of one memory, oldest first (record time), with who wrote each."""
    return (
        MemoryRecord.objects.filter(
            tenant_id=record.tenant_id, subject_id=record.subject_id, lineage_id=record.lineage_id
        )
        .select_related("created_by_agent", "created_by_user")
        # Versions written by one change share recorded_at; valid time orders them (the
        # closed copy of the old value before the new value).
        .order_by("recorded_at", "valid_from", "id")
    )


def memory_source_events(*, record: MemoryRecord) -> QuerySet[SourceEvent]:
    """The raw events (conversation turns, tool results) this version was derived from.
    They are the user's own conversation, so the user may read their content."""
    return SourceEvent.objects.filter(
        tenant_id=record.tenant_id,
        subject_id=record.subject_id,
        memorysource__record=record,
    ).order_by("occurred_at")


def memory_recalls_for_user(*, record: MemoryRecord, limit: int = 50) -> list[dict]:
    """Which agents recalled any version of this memory, when and for what purpose (from
    the recall traces, newest first). Ids and names only: traces never hold text."""
    versions = list(
        MemoryRecord.objects.filter(
            tenant_id=record.tenant_id, subject_id=record.subject_id, lineage_id=record.lineage_id
        ).values_list("id", flat=True)
    )
    traces = (
        RecallTrace.objects.filter(
            tenant_id=record.tenant_id, subject_id=record.subject_id, record_ids__overlap=versions
        )
        .select_related("agent")
        .order_by("-created_at")[:limit]
    )
    return [
        {
            "agent_name": t.agent.name if t.agent else "—",
            "at": t.created_at,
            "purpose": t.purpose,
            "used": bool(set(t.used_record_ids) & set(versions)),
        }
        for t in traces
    ]


# --- embedding index versions (global, no tenant) --------------------------------------


def embedding_index_list() -> list[EmbeddingIndex]:
    """Every index version, the active one first, then building, then retired."""
    order = {EmbeddingIndexStatus.ACTIVE: 0, EmbeddingIndexStatus.BUILDING: 1}
    rows = list(EmbeddingIndex.objects.order_by("-created_at"))
    return sorted(rows, key=lambda i: order.get(i.status, 2))


def active_model_id() -> str:
    """The model recall serves: the active index version's, else the configured one."""
    from memory.embedders import configured_model_id

    found = (
        EmbeddingIndex.objects.filter(status=EmbeddingIndexStatus.ACTIVE)
        .values_list("model_id", flat=True)
        .first()
    )
    return found or configured_model_id()


def indexing_model_ids() -> list[str]:
    """The models new records are embedded for: the active one and any being built (so a
    new version is complete when it is switched to)."""
    building = EmbeddingIndex.objects.filter(status=EmbeddingIndexStatus.BUILDING).values_list(
        "model_id", flat=True
    )
    active = active_model_id()
    return [active, *(m for m in building if m != active)]


# --- the end user's own overview pages ---------------------------------------------------


def subject_erasure_preview(*, subject: Subject) -> dict[str, int]:
    """What "delete everything" would remove, in counts a person understands: memories
    (one per lineage, whatever its versions) by kind, earlier versions, memories held for
    review or confirmation, and the conversation snippets they came from."""
    records = MemoryRecord.objects.filter(tenant_id=subject.tenant_id, subject=subject).exclude(
        status=MemoryStatus.DELETED
    )
    by_type = dict.fromkeys(MemoryType.values, 0)
    for memory_type, n in (
        records.order_by().values_list("memory_type").annotate(n=Count("lineage_id", distinct=True))
    ):
        by_type[memory_type] = n
    lineages = sum(by_type.values())
    return {
        "memories": lineages,
        "semantic": by_type[MemoryType.SEMANTIC],
        "episodic": by_type[MemoryType.EPISODIC],
        "procedural": by_type[MemoryType.PROCEDURAL],
        "versions": max(0, records.count() - lineages),
        "held": records.filter(
            status__in=[MemoryStatus.QUARANTINED, MemoryStatus.PENDING_CONFIRMATION]
        ).count(),
        "events": SourceEvent.objects.filter(tenant_id=subject.tenant_id, subject=subject).count(),
    }


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


def memory_list_for_agent(
    *,
    tenant_id: uuid.UUID,
    subject_id: uuid.UUID,
    clearance: str,
    memory_type: str = "",
    namespace: str = "",
    predicate: str = "",
    purpose: str = "",
    query: str = "",
) -> QuerySet[MemoryRecord]:
    """The subject's current memories for an agent (``GET /api/v1/memories``), newest first.

    Current means active and valid now: superseded, retracted, expired, deleted and
    quarantined versions are history or not the agent's to read, and a version whose
    validity has ended or not yet begun is not current. Sensitivity above the agent's
    clearance is filtered out, as in recall. ``namespace`` is a prefix (the namespace and
    everything below it); ``query`` a case-insensitive substring of statement or predicate.
    """
    from accounts.models import Sensitivity

    cleared = [s.value for s in Sensitivity if Sensitivity.rank(s) <= Sensitivity.rank(clearance)]
    qs = (
        MemoryRecord.objects.in_force()
        .filter(tenant_id=tenant_id, subject_id=subject_id, sensitivity__in=cleared)
        # Past its time-to-live a record is not current, before the periodic expiry job
        # marks it expired (recall's eligibility filter reads expires_at the same way).
        .exclude(expires_at__lte=timezone.now())
        .prefetch_related("source_events")
    )
    if memory_type:
        qs = qs.filter(memory_type=memory_type)
    if namespace:
        qs = qs.filter(Q(namespace=namespace) | Q(namespace__startswith=namespace + "/"))
    if predicate:
        qs = qs.filter(predicate=predicate)
    if purpose:
        qs = qs.filter(purpose=purpose)
    for term in query.split():
        qs = qs.filter(Q(statement__icontains=term) | Q(predicate__icontains=term))
    return qs.order_by("-recorded_at", "id")


def _cleared(clearance: str) -> list[str]:
    from accounts.models import Sensitivity

    return [s.value for s in Sensitivity if Sensitivity.rank(s) <= Sensitivity.rank(clearance)]


def memory_history_for_agent(
    *, tenant_id: uuid.UUID, subject_id: uuid.UUID, record_id: uuid.UUID, clearance: str
) -> list[MemoryRecord] | None:
    """Every version of the memory ``record_id`` belongs to that an agent may read (not
    deleted, not held, within its clearance), in record time order; None when the record
    itself is not the agent's to see (``GET /api/v1/memories/{id}/history``)."""
    record = memory_get_for_subject(tenant_id=tenant_id, subject_id=subject_id, record_id=record_id)
    if record is None or record.sensitivity not in _cleared(clearance):
        return None
    return list(
        MemoryRecord.objects.filter(
            tenant_id=tenant_id,
            subject_id=subject_id,
            lineage_id=record.lineage_id,
            status__in=AGENT_VISIBLE_STATUSES,
            sensitivity__in=_cleared(clearance),
        )
        .prefetch_related("source_events")
        # Versions written by one change share recorded_at; valid time orders them (the
        # closed copy of the old value before the new value), as memory_history does.
        .order_by("recorded_at", "valid_from", "id")
    )


def memory_current_in_slots(
    *,
    tenant_id: uuid.UUID,
    subject_id: uuid.UUID,
    clearance: str,
    slots: list[tuple[str, str]],
) -> list[MemoryRecord | None]:
    """The current record in each (namespace, predicate) slot — exactly that namespace,
    any spelling of the predicate — or None: what a key-value store's ``get`` reads. One
    query for all slots (served by the partial index memory_active_predicate)."""
    from memory.predicates import canonical_predicate, predicate_spellings

    if not slots:
        return []
    now = timezone.now()
    wanted = Q()
    for namespace, predicate in slots:
        wanted |= Q(namespace=namespace, predicate__in=predicate_spellings(predicate))
    found: dict[tuple[str, str], MemoryRecord] = {}
    rows = (
        MemoryRecord.objects.in_force(now)
        .filter(wanted, tenant_id=tenant_id, subject_id=subject_id)
        .filter(sensitivity__in=_cleared(clearance))
        .exclude(expires_at__lte=now)
        .prefetch_related("source_events")
        # The latest start wins when a slot holds more than one value.
        .order_by("valid_from", "recorded_at")
    )
    for record in rows:
        found[(record.namespace, canonical_predicate(record.predicate))] = record
    return [found.get((ns, canonical_predicate(p))) for ns, p in slots]
