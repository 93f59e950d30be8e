"""Steps 1–2 of recall: who is asking (scope) and which records any route may look at
(filter), and what recall reads about the subject before it starts (``recall_context``)."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.postgres.expressions import ArraySubquery
from django.contrib.postgres.fields import ArrayField
from django.db.models import CharField, Exists, JSONField, OuterRef, Q, QuerySet, Subquery
from django.db.models.expressions import RawSQL

from accounts.models import Sensitivity, Tenant
from core.sqltemplate import Literals, Placeholders, QueryTemplate
from core.tenancy import TENANT_SETTING
from memory.embedders import configured_model_id
from memory.models import (
    TENANT_PROCEDURES_EXTERNAL_ID,
    Cardinality,
    EmbeddingIndex,
    EmbeddingIndexStatus,
    MemoryRecord,
    MemoryStatus,
    MemoryType,
    SourceEvent,
    Subject,
    SubjectKind,
)
from memory.recall.accel import prepared

# --- inputs ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RecallScope:
    """Who is asking, from the credential only."""

    tenant_id: uuid.UUID
    subject_id: uuid.UUID
    agent_id: uuid.UUID | None
    clearance: str


@dataclass(frozen=True)
class RecallRequest:
    query: str
    purpose: str
    memory_types: tuple[str, ...] = ()
    namespaces: tuple[str, ...] = ()
    predicates: tuple[str, ...] = ()
    # Valid time: "what was true then" (default now).
    as_of: datetime | None = None
    # Record time: "what did we believe then" (default: what we believe now).
    known_at: datetime | None = None
    # Only memories whose valid time overlaps [valid_during_start, valid_during_end).
    valid_during_start: datetime | None = None
    valid_during_end: datetime | None = None
    # Also return facts that become valid after as_of (flagged future_dated).
    include_future: bool = False
    k: int = 10
    token_budget: int = 1500
    # Which routed items come back (``routing.ROUTE_MODES``): all, auto or inject_only.
    route: str = "all"


# --- 1. scope -------------------------------------------------------------------------


def scope_q(
    scope: RecallScope, request: RecallRequest, procedures_subject_id: uuid.UUID | None = None
) -> Q:
    cleared = [
        s.value for s in Sensitivity if Sensitivity.rank(s) <= Sensitivity.rank(scope.clearance)
    ]
    reach = Q(subject_id=scope.subject_id, purpose=request.purpose)
    if procedures_subject_id is not None:
        # Approved procedures belong to the tenant, not to a person (governance keeps them
        # on the tenant's procedures subject): every agent of the tenant may follow them,
        # for any task. They hold no personal data; only reviewed versions are ever active.
        reach |= Q(subject_id=procedures_subject_id, memory_type=MemoryType.PROCEDURAL)
    return Q(tenant_id=scope.tenant_id, sensitivity__in=cleared) & reach


@dataclass(frozen=True)
class RecallContext:
    consent_withdrawn: bool
    tenant_policy: dict[str, Any]
    procedures_subject_id: uuid.UUID | None
    model_id: str
    # The subject's own names: display name and current name facts the request may read.
    self_names: tuple[str, ...] = ()
    # The predicates (slots) of the subject's memories the request may read.
    predicates: tuple[str, ...] = ()
    # The people speaking in the subject's recorded conversations (source events).
    speakers: tuple[str, ...] = ()
    # Some readable memory is a single-valued fact (``slot_keys`` has work to do).
    single_valued_slots: bool = True
    # The subject's kind (``SubjectKind``): the API refuses organisation subjects named by
    # a subject token (``memory.api.views.org_subject_tokens_allowed``).
    subject_kind: str = ""
    # The tenant the transaction the context was read in is scoped to (row-level security).
    transaction_tenant: str = ""


# At most this many distinct predicates of a subject are matched by meaning (slot route).
SLOTS_MAX = 200
# At most this many speakers of a subject's conversations are read as names.
_SPEAKERS_MAX = 50
# Facts that hold the subject's own name ("User's name is Olivia Harris").
SELF_NAME_PREDICATES = ("full_name", "name", "preferred_name", "nickname", "display_name")


def recall_context(scope: RecallScope, request: RecallRequest, now: datetime) -> RecallContext:
    """What recall needs to know before it starts, in one query: the subject's consent,
    the tenant's policy (recall weights), the tenant's procedures subject, the model
    of the active index version and the subject's own names. The query is compiled once
    per clearance (``QueryTemplate``): it is the first step of every recall, and building
    it with the ORM cost several times what PostgreSQL takes to run it. Recall's prepared
    statements, this one first, are planned generically in this transaction
    (``prepared.plan_generically``)."""
    prepared.plan_generically()
    rows = prepared.rows(
        _CONTEXT,
        (scope.clearance,),
        {
            "tenant": scope.tenant_id,
            "subject": scope.subject_id,
            "purpose": request.purpose,
            "now": now,
        },
    )
    if not rows:
        raise Subject.DoesNotExist(scope.subject_id)
    (
        withdrawn,
        tenant_policy,
        procedures_id,
        model_id,
        display_name,
        name_values,
        slot_names,
        speaker_names,
        single_slots,
        subject_kind,
        transaction_tenant,
    ) = rows[0]
    # jsonb arrives as text from a template (no field converters): decode it here.
    tenant_policy = json.loads(tenant_policy) if isinstance(tenant_policy, str) else tenant_policy
    name_values = [json.loads(v) if isinstance(v, str) else v for v in name_values or []]
    return RecallContext(
        consent_withdrawn=withdrawn is not None,
        tenant_policy=tenant_policy if isinstance(tenant_policy, dict) else {},
        procedures_subject_id=procedures_id,
        model_id=model_id or configured_model_id(),
        self_names=tuple(
            n for n in [display_name, *name_values] if isinstance(n, str) and n.strip()
        ),
        predicates=tuple(sorted(slot_names or [])),
        speakers=tuple(sorted(n for n in speaker_names or [] if n.strip())),
        single_valued_slots=bool(single_slots),
        subject_kind=subject_kind,
        transaction_tenant=transaction_tenant or "",
    )


def _context_query(p: Placeholders, clearance: str) -> QuerySet:
    scope = RecallScope(
        tenant_id=p.uuid("tenant"), subject_id=p.uuid("subject"), agent_id=None, clearance=clearance
    )
    request = RecallRequest(query="", purpose=p.text("purpose"))
    now = p.datetime("now")
    procedures = Subject.objects.filter(
        tenant_id=OuterRef("tenant_id"),
        kind=SubjectKind.ORG,
        external_id=TENANT_PROCEDURES_EXTERNAL_ID,
    ).values("id")[:1]
    policy = Tenant.objects.filter(pk=OuterRef("tenant_id")).values("policy")[:1]
    active_model = EmbeddingIndex.objects.filter(status=EmbeddingIndexStatus.ACTIVE).values(
        "model_id"
    )[:1]
    # The names the subject goes by now (whatever time the question is about), among the
    # memories this request may read.
    current = filter_q(request, as_of=now, now=now)
    names = MemoryRecord.objects.filter(
        scope_q(scope, request), current, predicate__in=SELF_NAME_PREDICATES
    ).values("value")
    readable = MemoryRecord.objects.filter(scope_q(scope, request)).exclude(status__in=NEVER)
    slots = readable.exclude(predicate="").order_by().values("predicate").distinct()[:SLOTS_MAX]
    # The subject's distinct speakers, alphabetically, one index probe each (a "loose
    # index scan" of ``event_speakers``): DISTINCT reads every event of the subject, which
    # grows with the conversation while the speakers stay few.
    events = SourceEvent._meta.db_table
    subject_events = "e.tenant_id = %s AND e.subject_id = %s AND e.speaker <> ''"
    speakers = RawSQL(
        f"""ARRAY(
            WITH RECURSIVE s(speaker) AS (
                (SELECT e.speaker FROM {events} e WHERE {subject_events}
                 ORDER BY e.speaker LIMIT 1)
                UNION ALL
                SELECT (SELECT e.speaker FROM {events} e
                        WHERE {subject_events} AND e.speaker > s.speaker
                        ORDER BY e.speaker LIMIT 1)
                FROM s WHERE s.speaker IS NOT NULL
            )
            SELECT s.speaker FROM s WHERE s.speaker IS NOT NULL LIMIT {_SPEAKERS_MAX}
        )""",
        [scope.tenant_id, scope.subject_id] * 2,
        output_field=ArrayField(CharField()),
    )
    # Whether any single-valued fact could be another version of a slot (``slot_keys``).
    single = readable.filter(cardinality=Cardinality.SINGLE).exclude(predicate="")
    return (
        Subject.objects.filter(tenant_id=scope.tenant_id, id=scope.subject_id)
        .annotate(
            tenant_policy=Subquery(policy, output_field=JSONField()),
            procedures_id=Subquery(procedures),
            active_model=Subquery(active_model),
            name_values=ArraySubquery(names),
            slot_names=ArraySubquery(slots),
            speaker_names=speakers,
            single_slots=Exists(single),
            transaction_tenant=RawSQL(
                "current_setting(%s, true)", [TENANT_SETTING], output_field=CharField()
            ),
        )
        .values_list(
            "consent_withdrawn_at",
            "tenant_policy",
            "procedures_id",
            "active_model",
            "display_name",
            "name_values",
            "slot_names",
            "speaker_names",
            "single_slots",
            "kind",
            "transaction_tenant",
        )
    )


_CONTEXT = QueryTemplate(_context_query)


# --- 2. filter ------------------------------------------------------------------------

# Never returned, whatever the time point: gone, or not yet (or never) accepted.
NEVER = (MemoryStatus.DELETED, MemoryStatus.QUARANTINED, MemoryStatus.PENDING_CONFIRMATION)


def filter_q(request: RecallRequest, *, as_of: datetime, now: datetime) -> Q:
    if request.known_at is None:
        # What we believe now: only active records (procedural ones are active only once
        # approved), whose record time is still open.
        believed = Q(status=MemoryStatus.ACTIVE, superseded_at__isnull=True)
    else:
        # What we believed at known_at: versions recorded by then and not yet closed then,
        # whatever became of them later — except erased or never-accepted ones.
        believed = (
            Q(recorded_at__lte=request.known_at)
            & (Q(superseded_at__isnull=True) | Q(superseded_at__gt=request.known_at))
            & ~Q(status__in=NEVER)
        )
    started = Q() if request.include_future else Q(valid_from__lte=as_of)
    valid = started & (Q(valid_to__isnull=True) | Q(valid_to__gt=as_of))
    # Retention expiry is about the present: an expired record is gone for every query.
    not_expired = Q(expires_at__isnull=True) | Q(expires_at__gt=now)
    return believed & valid & not_expired & narrowing_q(request)


def narrowing_q(request: RecallRequest) -> Q:
    """What the request narrows to: types, namespaces, predicates, a valid-time range."""
    q = Q()
    if request.memory_types:
        q &= Q(memory_type__in=request.memory_types)
    if request.namespaces:
        ns = Q()
        for namespace in request.namespaces:
            ns |= Q(namespace=namespace) | Q(namespace__startswith=namespace.rstrip("/") + "/")
        q &= ns
    if request.predicates:
        q &= Q(predicate__in=request.predicates)
    if request.valid_during_start is not None:
        q &= Q(valid_to__isnull=True) | Q(valid_to__gt=request.valid_during_start)
    if request.valid_during_end is not None:
        q &= Q(valid_from__lt=request.valid_during_end)
    return q


def history_q(request: RecallRequest, *, now: datetime) -> Q:
    """Other versions of single-valued facts — superseded ones, and ones valid at another
    time — in the same permission scope. They are never returned; they only serve as
    matching keys for their slot (see ``slot_keys``). Erased, quarantined, pending,
    retracted and expired records are not among them."""
    q = (
        Q(cardinality=Cardinality.SINGLE, status__in=[MemoryStatus.ACTIVE, MemoryStatus.SUPERSEDED])
        & ~Q(predicate="")
        & (Q(expires_at__isnull=True) | Q(expires_at__gt=now))
    )
    if request.known_at is not None:
        # Not even as a key: what was recorded after the point asked about.
        q &= Q(recorded_at__lte=request.known_at)
    return q & narrowing_q(request)


# --- steps 1–2 as a template ----------------------------------------------------------
# The routes' queries are compiled once per request shape (``core.sqltemplate``), with
# ``eligible`` built from the same ``scope_q`` and ``filter_q`` as above: what changes
# the SQL's text is the shape, everything a request supplies is a value.


def eligible_shape(
    scope: RecallScope, request: RecallRequest, procedures_subject_id: uuid.UUID | None
) -> tuple:
    return (
        scope.clearance,
        procedures_subject_id is not None,
        request.known_at is not None,
        request.include_future,
        len(request.memory_types),
        len(request.namespaces),
        len(request.predicates),
        request.valid_during_start is not None,
        request.valid_during_end is not None,
    )


def eligible_values(
    scope: RecallScope,
    request: RecallRequest,
    procedures_subject_id: uuid.UUID | None,
    *,
    as_of: datetime,
    now: datetime,
) -> dict[str, Any]:
    values: dict[str, Any] = {
        "tenant": scope.tenant_id,
        "subject": scope.subject_id,
        "procedures": procedures_subject_id,
        "purpose": request.purpose,
        "known_at": request.known_at,
        "valid_during_start": request.valid_during_start,
        "valid_during_end": request.valid_during_end,
        "as_of": as_of,
        "now": now,
    }
    for kind, items in (
        ("type", request.memory_types),
        ("namespace", request.namespaces),
        ("predicate", request.predicates),
    ):
        values.update({f"{kind}{i}": item for i, item in enumerate(items)})
    return values


def eligible_q(p: Placeholders, shape: tuple) -> tuple[Q, Q]:
    """(scope, filter) of ``shape``, with ``p``'s values: see ``eligible_values``."""
    (clearance, procedures, known_at, include_future, types, namespaces, predicates, start, end) = (
        shape
    )
    scope = RecallScope(
        tenant_id=p.uuid("tenant"), subject_id=p.uuid("subject"), agent_id=None, clearance=clearance
    )
    request = RecallRequest(
        query="",
        purpose=p.text("purpose"),
        memory_types=tuple(p.text(f"type{i}") for i in range(types)),
        namespaces=tuple(p.text(f"namespace{i}") for i in range(namespaces)),
        predicates=tuple(p.text(f"predicate{i}") for i in range(predicates)),
        known_at=p.datetime("known_at") if known_at else None,
        valid_during_start=p.datetime("valid_during_start") if start else None,
        valid_during_end=p.datetime("valid_during_end") if end else None,
        include_future=include_future,
    )
    procedures_id = p.uuid("procedures") if procedures else None
    return (
        scope_q(scope, request, procedures_id),
        filter_q(request, as_of=p.datetime("as_of"), now=p.datetime("now")),
    )


@dataclass(frozen=True)
class Eligible:
    """Steps 1–2 for one request: the records any route may look at, as the shape and
    values of ``eligible_q`` (what the routes' templates take) and as a queryset."""

    shape: tuple
    values: dict[str, Any]

    @classmethod
    def of(
        cls,
        scope: RecallScope,
        request: RecallRequest,
        procedures_subject_id: uuid.UUID | None = None,
        *,
        as_of: datetime,
        now: datetime,
    ) -> Eligible:
        return cls(
            eligible_shape(scope, request, procedures_subject_id),
            eligible_values(scope, request, procedures_subject_id, as_of=as_of, now=now),
        )

    @property
    def queryset(self) -> QuerySet[MemoryRecord]:
        return MemoryRecord.objects.filter(*eligible_q(Literals(self.values), self.shape))
