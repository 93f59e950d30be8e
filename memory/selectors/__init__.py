"""Reads of governed memory, always scoped by the caller's tenant and subject."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from django.conf import settings
from django.db.models import Case, CharField, Count, IntegerField, Q, QuerySet, Value, When
from django.utils import timezone

from core.codes import ReasonCode
from core.sqltemplate import Placeholders, QueryTemplate
from memory.models import (
    AssertionKind,
    EmbeddingIndex,
    EmbeddingIndexStatus,
    MemoryRecord,
    MemoryStatus,
    MemoryType,
    RecallTrace,
    SourceEvent,
    Subject,
    SubjectAgentAccess,
    SubjectKind,
)
from memory.selectors.overview import deletion_request_get_for_user as deletion_request_get_for_user
from memory.selectors.overview import deletions_pending_for_user as deletions_pending_for_user
from memory.selectors.overview import memory_agents_for_user as memory_agents_for_user
from memory.selectors.overview import memory_recall_days_for_user as memory_recall_days_for_user
from memory.selectors.overview import memory_topic_counts_for_user as memory_topic_counts_for_user
from memory.selectors.overview import memory_usage_for_user as memory_usage_for_user
from memory.selectors.overview import memory_waiting_for_user as memory_waiting_for_user
from memory.selectors.overview import memory_write_reasons as memory_write_reasons

# Statuses a record can be looked up in by an agent (deleted ones are gone for every route).
AGENT_VISIBLE_STATUSES = (
    MemoryStatus.ACTIVE,
    MemoryStatus.SUPERSEDED,
    MemoryStatus.RETRACTED,
    MemoryStatus.EXPIRED,
    MemoryStatus.ARCHIVED,
)


# A memory its user deleted is hidden at once, also while its erasure waits for the undo
# time (its versions are archived with this reason until then).
BEING_DELETED = Q(status=MemoryStatus.ARCHIVED, status_reason=ReasonCode.DELETION_PENDING)


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
    ).exclude(BEING_DELETED)
    if clearance is not None:
        qs = qs.filter(sensitivity__in=_cleared(clearance))
    return qs.first()


def agent_access_state(
    *, tenant_id: uuid.UUID, agent_id: uuid.UUID, subject_id: uuid.UUID
) -> str | None:
    """``paused`` or ``revoked`` when the subject (their user) took this agent's access to
    their memories away; None when the agent has the access its key gives it. Every
    request naming a subject asks: with ``ENGRAM_API_COMPILED_AUTH`` the query runs from
    its SQL compiled once."""
    if settings.ENGRAM["API_COMPILED_AUTH"]:
        values = {"tenant": tenant_id, "agent": agent_id, "subject": subject_id}
        rows = _ACCESS_STATE.rows((), values)
        return rows[0][0] if rows else None
    return (
        SubjectAgentAccess.objects.filter(
            tenant_id=tenant_id, agent_id=agent_id, subject_id=subject_id
        )
        .values_list("state", flat=True)
        .first()
    )


def _access_state_query(p: Placeholders) -> QuerySet:
    # What ``.first()`` asks of the reference's queryset: ordered by the key, one row.
    return (
        SubjectAgentAccess.objects.filter(
            tenant_id=p.uuid("tenant"), agent_id=p.uuid("agent"), subject_id=p.uuid("subject")
        )
        .order_by("pk")
        .values_list("state")[:1]
    )


_ACCESS_STATE = QueryTemplate(
    _access_state_query, enabled=lambda: settings.ENGRAM["API_COMPILED_AUTH"]
)


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


# The end user's own pages ("Manage my memories"): the signed-in user reaches their
# memories only through their own Subject. Every query below starts from it, so a record id
# from another user (same tenant or not) is simply not found — the page answers 404, never
# 403, and never says whether the id exists.

# Statuses a user can filter by on their own page (deleted records are tombstones: gone).
USER_VISIBLE_STATUSES = tuple(s for s in MemoryStatus.values if s != MemoryStatus.DELETED)


# What the list shows, as buckets: every record that is not deleted lies in exactly one, so
# the counts of every page (list, filter, "delete everything", settings) add up the same.
SHOW_CURRENT = "active"  # in force now or planned: what the default list shows


SHOW_WAITING = "waiting"  # held for the user's confirmation or for review


SHOW_EARLIER = "earlier"  # history: replaced, marked wrong, expired, or no longer true


SHOW_ARCHIVED = "archived"  # kept but not used by agents (by the user, or by forgetting)


SHOW_DELETING = "deleting"  # deleted by the user, still undoable for a few seconds


SHOW_BUCKETS = (SHOW_CURRENT, SHOW_WAITING, SHOW_EARLIER, SHOW_ARCHIVED, SHOW_DELETING)


WAITING_STATUSES = (MemoryStatus.PENDING_CONFIRMATION, MemoryStatus.QUARANTINED)


EARLIER_STATUSES = (MemoryStatus.SUPERSEDED, MemoryStatus.RETRACTED, MemoryStatus.EXPIRED)


def _show_q(show: str, now) -> Q:
    """The records of one bucket (or, for the old single-status filters, one status)."""
    ended = Q(status=MemoryStatus.ACTIVE, valid_to__lte=now)
    deleting = BEING_DELETED
    if show == SHOW_CURRENT:
        return Q(status=MemoryStatus.ACTIVE) & ~ended
    if show == SHOW_WAITING:
        return Q(status__in=WAITING_STATUSES)
    if show == SHOW_EARLIER:
        return Q(status__in=EARLIER_STATUSES) | ended
    if show == SHOW_ARCHIVED:
        return Q(status=MemoryStatus.ARCHIVED) & ~deleting
    if show == SHOW_DELETING:
        return deleting
    return Q(status=show)


def subject_for_user(*, user, tenant_id: uuid.UUID | None = None) -> Subject | None:
    """The signed-in user's own subject (kind ``user``) in a tenant they belong to:
    ``tenant_id`` (the request's active tenant) when given, else their oldest one."""
    if not getattr(user, "is_authenticated", False):
        return None
    qs = Subject.objects.filter(user=user, kind=SubjectKind.USER, tenant__memberships__user=user)
    if tenant_id is not None:
        qs = qs.filter(tenant_id=tenant_id)
    return qs.order_by("created_at").first()


# Who wrote a memory, as the list's filter names it.
ORIGIN_ME = "me"  # said by me (on these pages or to an agent, as my explicit words)


ORIGIN_AGENTS = "agents"  # created by an agent (inferred, from tools, or proposed)


SORT_NEWEST, SORT_OLDEST, SORT_RELEVANCE = "newest", "oldest", "relevance"


def memory_list_for_user(
    *,
    subject: Subject,
    query: str = "",
    memory_type: str = "",
    namespace: str = "",
    status: str = SHOW_CURRENT,
    agent_id: uuid.UUID | None = None,
    origin: str = "",
    since=None,
    until=None,
    sort: str = "",
    ranked_ids: Sequence[uuid.UUID] = (),
) -> QuerySet[MemoryRecord]:
    """The user's memories as the list page filters them: one bucket (``SHOW_*``, or a
    single status), type, topic (a namespace and everything below it), the agent that
    wrote them, who said them (``ORIGIN_*``), a date range on when they were recorded
    (``until`` inclusive), newest or oldest first.

    ``query``: a case-insensitive substring of statement or predicate (correct for
    Chinese and English alike) — or one of ``ranked_ids``, what the retrieval pipeline
    found for the query (``memory_search_for_user``), which come first in its order unless
    a date order is asked for.
    """
    if status not in SHOW_BUCKETS and status not in USER_VISIBLE_STATUSES:
        status = SHOW_CURRENT
    now = timezone.now()
    qs = MemoryRecord.objects.filter(tenant_id=subject.tenant_id, subject=subject)
    qs = qs.filter(_show_q(status, now)).select_related("created_by_agent", "created_by_user")
    if memory_type:
        qs = qs.filter(memory_type=memory_type)
    if namespace:
        qs = qs.filter(Q(namespace=namespace) | Q(namespace__startswith=namespace + "/"))
    if agent_id is not None:
        qs = qs.filter(created_by_agent_id=agent_id)
    if origin == ORIGIN_ME:
        qs = qs.filter(assertion_kind__in=USER_STATED)
    elif origin == ORIGIN_AGENTS:
        qs = qs.exclude(assertion_kind__in=USER_STATED)
    if since is not None:
        qs = qs.filter(recorded_at__date__gte=since)
    if until is not None:
        qs = qs.filter(recorded_at__date__lte=until)
    query = query.strip()
    if query:
        words = Q()
        for term in query.split():
            words &= Q(statement__icontains=term) | Q(predicate__icontains=term)
        qs = qs.filter(words | Q(id__in=list(ranked_ids)))
    if sort == SORT_OLDEST:
        return qs.order_by("recorded_at", "id")
    if query and ranked_ids and sort != SORT_NEWEST:
        rank = Case(
            *(When(id=record_id, then=Value(i)) for i, record_id in enumerate(ranked_ids)),
            default=Value(len(ranked_ids)),
            output_field=IntegerField(),
        )
        return qs.order_by(rank, "-recorded_at", "id")
    return qs.order_by("-recorded_at", "id")


# The assertion kinds that are the user's own words.
USER_STATED = (AssertionKind.USER_EXPLICIT, AssertionKind.USER_CONFIRMED)


def memory_counts_for_user(*, subject: Subject) -> dict:
    """The one count of a user's memories that every page shows (list, filter, settings,
    "delete everything"): records per bucket (``SHOW_*``, which partition every record
    that is not deleted), current ones by type, and the waiting ones by why they wait."""
    now = timezone.now()
    bucket = Case(
        *(When(_show_q(show, now), then=Value(show)) for show in SHOW_BUCKETS),
        default=Value(""),
        output_field=CharField(),
    )
    rows = (
        MemoryRecord.objects.filter(tenant_id=subject.tenant_id, subject=subject)
        .exclude(status=MemoryStatus.DELETED)
        .annotate(bucket=bucket)
        .order_by()
        .values_list("bucket", "memory_type", "status")
        .annotate(n=Count("id"))
    )
    by_type = dict.fromkeys(MemoryType.values, 0)
    by_show = dict.fromkeys(SHOW_BUCKETS, 0)
    by_status = dict.fromkeys(USER_VISIBLE_STATUSES, 0)
    for show, memory_type, status, n in rows:
        by_show[show] += n
        by_status[status] += n
        if show == SHOW_CURRENT:
            by_type[memory_type] += n
    return {
        "type": by_type,
        "show": by_show,
        "status": by_status,
        "active": by_show[SHOW_CURRENT],
        "waiting": by_show[SHOW_WAITING],
        "pending": by_status[MemoryStatus.PENDING_CONFIRMATION],
        "earlier": by_show[SHOW_EARLIER],
        "archived": by_show[SHOW_ARCHIVED],
        "deleting": by_show[SHOW_DELETING],
        "total": sum(by_show.values()),
    }


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


# The index is stuck, not catching up, when records wait longer than this and no vector
# was written for as long.
INDEX_STUCK_AFTER_MINUTES = 10


def index_lag_detail(*, tenant_id: uuid.UUID, oldest, now=None) -> dict:
    """For the operations page, beside the index lag's count and the age of the oldest
    record still waiting (``oldest``, its record time; ``index_maintenance.index_lag_of``): when
    the tenant's last vector was written, and whether that looks stuck — the oldest has
    waited, and no vector was written, for longer than ``INDEX_STUCK_AFTER_MINUTES``."""
    from datetime import timedelta

    from memory.models import MemoryEmbedding

    last_vector = (
        MemoryEmbedding.objects.filter(tenant_id=tenant_id, model_id=active_model_id())
        .order_by("-created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    limit = (now or timezone.now()) - timedelta(minutes=INDEX_STUCK_AFTER_MINUTES)
    return {
        "oldest_waiting": oldest,
        "last_vector": last_vector,
        "stuck": oldest is not None
        and oldest < limit
        and (last_vector is None or last_vector < limit),
        "stuck_after_minutes": INDEX_STUCK_AFTER_MINUTES,
    }


def indexing_model_ids() -> list[str]:
    """The models new records are embedded for: the active one and any being built (so a
    new version is complete when it is switched to)."""
    building = EmbeddingIndex.objects.filter(status=EmbeddingIndexStatus.BUILDING).values_list(
        "model_id", flat=True
    )
    active = active_model_id()
    return [active, *(m for m in building if m != active)]


def subject_erasure_preview(*, subject: Subject) -> dict[str, int]:
    """What "delete everything" would remove, in the same counts the list shows
    (``memory_counts_for_user``): current memories by kind, earlier versions, memories
    waiting for the user or for review, archived ones, and the conversation snippets they
    came from."""
    counts = memory_counts_for_user(subject=subject)
    return {
        "memories": counts["active"],
        "semantic": counts["type"][MemoryType.SEMANTIC],
        "episodic": counts["type"][MemoryType.EPISODIC],
        "procedural": counts["type"][MemoryType.PROCEDURAL],
        "versions": counts["earlier"],
        "held": counts["waiting"],
        "archived": counts["archived"] + counts["deleting"],
        "total": counts["total"],
        "events": SourceEvent.objects.filter(tenant_id=subject.tenant_id, subject=subject).count(),
    }


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
        .exclude(BEING_DELETED)
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
