"""The governed memory record and the raw events it is derived from.

Invariants the database enforces itself (tests in tests/memory/test_constraints.py):
- confidence in [0, 1]; valid_from < valid_to; importance in [0, 1];
- no two *active* records of a single-valued predicate for the same tenant, subject,
  namespace and predicate with overlapping valid time (exclusion constraint, btree_gist);
- a record's content is never updated in place: only lifecycle columns (status, record-time
  end, statistics, index bookkeeping) may change; a correction is a new version;
- source events are append-only.
Erasure (memory.services.erasure) is the only code allowed past those triggers.
"""

from __future__ import annotations

import uuid

import pgtrigger
from django.contrib.postgres.constraints import ExclusionConstraint
from django.contrib.postgres.fields import (
    ArrayField,
    DateTimeRangeField,
    RangeBoundary,
    RangeOperators,
)
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from pgvector.django import HnswIndex, VectorField

from accounts.models import Sensitivity


class TsTzRange(models.Func):
    function = "TSTZRANGE"
    output_field = DateTimeRangeField()


class SubjectKind(models.TextChoices):
    USER = "user", _("user")
    AGENT = "agent", _("agent")
    ORG = "org", _("organisation")
    PROJECT = "project", _("project")


class Subject(models.Model):
    """Whom memories are about. Resolved from the credential, never from a request body."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    kind = models.CharField(max_length=16, choices=SubjectKind.choices)
    external_id = models.CharField(max_length=200)
    # The end user who may sign in and manage these memories (kind=user only).
    user = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="subjects"
    )
    display_name = models.CharField(max_length=200, blank=True)
    # Paused: agents may still read, but no new memories are written.
    memory_paused = models.BooleanField(default=False)
    consent_withdrawn_at = models.DateTimeField(null=True, blank=True)
    # Bumped under a row lock by every write for this subject: writes apply in order.
    write_sequence = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "kind", "external_id"], name="subject_unique_external_id"
            ),
            models.UniqueConstraint(
                fields=["tenant", "user"],
                condition=Q(user__isnull=False),
                name="subject_unique_user_per_tenant",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind}:{self.external_id}"


class EventKind(models.TextChoices):
    MESSAGE = "message", _("message")
    TOOL_RESULT = "tool_result", _("tool result")
    DOCUMENT = "document", _("document")
    SOR_RECEIPT = "sor_receipt", _("system-of-record receipt")


class EventRole(models.TextChoices):
    USER = "user", _("user")
    ASSISTANT = "assistant", _("assistant")
    TOOL = "tool", _("tool")
    SYSTEM = "system", _("system")
    EXTERNAL = "external", _("external content")


class RetentionClass(models.TextChoices):
    SHORT = "short", _("short (days)")
    STANDARD = "standard", _("standard")
    LONG = "long", _("long (audit)")


class SourceEvent(models.Model):
    """An append-only raw event: what was said or returned, before any interpretation.

    Detected secrets are redacted before the row is written (they never reach storage).
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="events")
    agent = models.ForeignKey("accounts.Agent", null=True, on_delete=models.SET_NULL)
    client_event_id = models.CharField(max_length=200)
    thread_id = models.CharField(max_length=200, blank=True)
    kind = models.CharField(max_length=16, choices=EventKind.choices)
    role = models.CharField(max_length=16, choices=EventRole.choices)
    speaker = models.CharField(max_length=200, blank=True)
    content = models.TextField()
    uri = models.CharField(max_length=1000, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    retention_class = models.CharField(
        max_length=16, choices=RetentionClass.choices, default=RetentionClass.STANDARD
    )
    occurred_at = models.DateTimeField()
    received_at = models.DateTimeField(default=timezone.now)
    # Fingerprint of the submitted payload: a retry with the same client_event_id but a
    # different payload is an idempotency conflict, not a silent no-op.
    payload_sha256 = models.CharField(max_length=64)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "agent", "client_event_id"], name="event_idempotency_key"
            ),
        ]
        indexes = [
            # Serves thread reads (compression, source display) in time order.
            models.Index(
                fields=["tenant", "subject", "thread_id", "occurred_at"], name="event_thread"
            ),
        ]
        triggers = [
            pgtrigger.Protect(
                name="source_event_append_only",
                operation=pgtrigger.Update | pgtrigger.Delete,
            ),
        ]

    def __str__(self) -> str:
        return f"event:{self.id}"


class MemoryType(models.TextChoices):
    SEMANTIC = "semantic", _("fact or preference")
    EPISODIC = "episodic", _("experience")
    PROCEDURAL = "procedural", _("procedure")


class Cardinality(models.TextChoices):
    SINGLE = "single", _("single-valued")
    MULTI = "multi", _("multi-valued")


class AssertionKind(models.TextChoices):
    """Where a memory's authority comes from, strongest first."""

    USER_EXPLICIT = "user_explicit", _("you said this")
    USER_CONFIRMED = "user_confirmed", _("you confirmed this")
    TOOL_CONFIRMED = "tool_confirmed", _("confirmed by a tool or system of record")
    AGENT_INFERENCE = "agent_inference", _("the assistant inferred this")
    EXTERNAL_UNTRUSTED = "external_untrusted", _("from external content")


class MemoryStatus(models.TextChoices):
    ACTIVE = "active", _("active")
    SUPERSEDED = "superseded", _("superseded")
    RETRACTED = "retracted", _("retracted")
    EXPIRED = "expired", _("expired")
    DELETED = "deleted", _("deleted")
    QUARANTINED = "quarantined", _("quarantined")
    PENDING_CONFIRMATION = "pending_confirmation", _("pending confirmation")
    ARCHIVED = "archived", _("archived")


class ConsentBasis(models.TextChoices):
    EXPLICIT_CONSENT = "explicit_consent", _("explicit consent")
    CONTRACT = "contract", _("contract")
    LEGITIMATE_INTEREST = "legitimate_interest", _("legitimate interest")
    LEGAL_OBLIGATION = "legal_obligation", _("legal obligation")


# Columns that describe what a record asserts. Never updated in place (trigger below).
MEMORY_CONTENT_FIELDS = (
    "tenant",
    "subject",
    "namespace",
    "memory_type",
    "predicate",
    "statement",
    "value",
    "content_key",
    "cardinality",
    "assertion_kind",
    "confidence",
    "source_uri",
    "valid_from",
    "valid_to",
    "recorded_at",
    "supersedes",
    "lineage_id",
    "purpose",
    "sensitivity",
    "consent_basis",
)


class MemoryRecord(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="memories")
    # Slash-separated scope path, broadest first: "support-agent/preference/finance-report".
    namespace = models.CharField(max_length=300)
    memory_type = models.CharField(max_length=16, choices=MemoryType.choices)
    predicate = models.CharField(max_length=200, blank=True)
    statement = models.TextField()
    value = models.JSONField(null=True, blank=True)
    # Hash of the normalised value/statement: duplicate detection (write_policy.content_key).
    content_key = models.CharField(max_length=32)
    cardinality = models.CharField(
        max_length=8, choices=Cardinality.choices, default=Cardinality.MULTI
    )
    assertion_kind = models.CharField(max_length=24, choices=AssertionKind.choices)
    confidence = models.FloatField()
    source_events = models.ManyToManyField(
        SourceEvent, through="MemorySource", related_name="memories"
    )
    source_uri = models.CharField(max_length=1000, blank=True)
    # Valid time: when the fact holds in the world, [valid_from, valid_to).
    valid_from = models.DateTimeField()
    valid_to = models.DateTimeField(null=True, blank=True)
    # Record time: when we believed it, [recorded_at, superseded_at).
    recorded_at = models.DateTimeField(default=timezone.now)
    superseded_at = models.DateTimeField(null=True, blank=True)
    supersedes = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by"
    )
    # All versions of one memory share a lineage id (the first version's id).
    lineage_id = models.UUIDField()
    status = models.CharField(max_length=24, choices=MemoryStatus.choices)
    status_reason = models.CharField(max_length=64, blank=True)
    purpose = models.CharField(max_length=100)
    sensitivity = models.CharField(
        max_length=16, choices=Sensitivity.choices, default=Sensitivity.INTERNAL
    )
    consent_basis = models.CharField(max_length=24, choices=ConsentBasis.choices)
    expires_at = models.DateTimeField(null=True, blank=True)
    importance = models.FloatField(default=0.5)
    evidence_count = models.PositiveIntegerField(default=1)
    access_count = models.PositiveIntegerField(default=0)
    last_accessed_at = models.DateTimeField(null=True, blank=True)
    # Index versions: which extractor wrote it and which embedding model indexed it.
    extractor_version = models.CharField(max_length=64, blank=True)
    embedding_model = models.CharField(max_length=100, blank=True)
    schema_version = models.PositiveSmallIntegerField(default=1)
    created_by_agent = models.ForeignKey(
        "accounts.Agent", null=True, blank=True, on_delete=models.SET_NULL
    )
    created_by_user = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL
    )
    # For quarantined equal-authority conflicts: the active record this one contradicts.
    conflicts_with = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(confidence__gte=0) & Q(confidence__lte=1),
                name="memory_confidence_0_1",
            ),
            models.CheckConstraint(
                condition=Q(importance__gte=0) & Q(importance__lte=1),
                name="memory_importance_0_1",
            ),
            models.CheckConstraint(
                condition=Q(valid_to__isnull=True) | Q(valid_from__lt=F("valid_to")),
                name="memory_valid_from_before_valid_to",
            ),
            models.CheckConstraint(
                condition=Q(superseded_at__isnull=True) | Q(recorded_at__lte=F("superseded_at")),
                name="memory_recorded_before_superseded",
            ),
            models.CheckConstraint(
                condition=~Q(cardinality="single") | ~Q(predicate=""),
                name="memory_single_needs_predicate",
            ),
            # One current value per single-valued predicate and scope at any valid time.
            ExclusionConstraint(
                name="memory_single_value_no_overlap",
                expressions=[
                    ("tenant", RangeOperators.EQUAL),
                    ("subject", RangeOperators.EQUAL),
                    ("namespace", RangeOperators.EQUAL),
                    ("predicate", RangeOperators.EQUAL),
                    (
                        TsTzRange("valid_from", "valid_to", RangeBoundary()),
                        RangeOperators.OVERLAPS,
                    ),
                ],
                condition=Q(status="active", cardinality="single"),
            ),
        ]
        indexes = [
            # Serves the write policy's lookup of current facts for one predicate.
            models.Index(
                fields=["tenant", "subject", "namespace", "predicate"],
                condition=Q(status="active"),
                name="memory_active_predicate",
            ),
            # Serves a subject's memory list and status filters (user pages, recall scope).
            models.Index(fields=["tenant", "subject", "status"], name="memory_subject_status"),
            # Serves version history of one memory.
            models.Index(fields=["tenant", "lineage_id", "recorded_at"], name="memory_lineage"),
        ]
        triggers = [
            pgtrigger.Protect(
                name="memory_content_immutable",
                operation=pgtrigger.Update,
                condition=pgtrigger.AnyChange(*MEMORY_CONTENT_FIELDS),
            ),
            pgtrigger.Protect(
                name="memory_record_time_closed_once",
                operation=pgtrigger.Update,
                condition=pgtrigger.Q(old__superseded_at__isnull=False)
                & pgtrigger.Q(old__superseded_at__df=pgtrigger.F("new__superseded_at")),
            ),
            pgtrigger.Protect(name="memory_no_delete", operation=pgtrigger.Delete),
        ]

    def __str__(self) -> str:
        return f"{self.memory_type}:{self.id}"

    @property
    def is_inferred(self) -> bool:
        return self.assertion_kind == AssertionKind.AGENT_INFERENCE


class MemorySource(models.Model):
    """Provenance link: which raw events a record was derived from (used by deletion)."""

    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    record = models.ForeignKey(MemoryRecord, on_delete=models.CASCADE)
    event = models.ForeignKey(SourceEvent, on_delete=models.CASCADE)
    linked_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["record", "event"], name="memory_source_unique"),
        ]
        indexes = [
            # Serves "which memories came from this event" (deletion propagation).
            models.Index(fields=["tenant", "event"], name="memory_source_by_event"),
        ]

    def __str__(self) -> str:
        return f"{self.record_id}<-{self.event_id}"


# --- retrieval: derived indexes and the recall trace ----------------------------------
# Everything below is derived from MemoryRecord and can be rebuilt from it
# (``manage.py engram_reindex``), except RecallTrace, which records what recall returned.

EMBEDDING_DIMENSIONS = 384


class MemorySearchDoc(models.Model):
    """The lexical index row of one record, written in the same transaction as the record
    so the exact, lexical and trigram routes see a memory the moment it is committed.

    ``segmented_text`` is the statement, predicate and value cut into words by rjieba
    (Chinese has no spaces) and joined with spaces; PostgreSQL's ``english`` configuration
    then stems the English words and keeps Chinese words as they are.
    """

    record = models.OneToOneField(
        MemoryRecord, primary_key=True, on_delete=models.CASCADE, related_name="search_doc"
    )
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE)
    segmented_text = models.TextField()
    # Lower-cased raw text for trigram matching of names, ids and error codes.
    trigram_text = models.TextField()
    search_vector = models.GeneratedField(
        expression=SearchVector("segmented_text", config="english"),
        output_field=SearchVectorField(),
        db_persist=True,
    )
    indexed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            # Serves the lexical route: search_vector @@ tsquery within a tenant's records.
            GinIndex(fields=["search_vector"], name="memory_search_doc_fts"),
            # Serves the trigram route: word_similarity(token, trigram_text) on ids and codes.
            GinIndex(
                fields=["trigram_text"], opclasses=["gin_trgm_ops"], name="memory_search_doc_trgm"
            ),
            # Serves scoping of every lexical query to one tenant and subject.
            models.Index(fields=["tenant", "subject"], name="memory_search_doc_scope"),
        ]

    def __str__(self) -> str:
        return f"search_doc:{self.record_id}"


class MemoryEmbedding(models.Model):
    """One record's vector under one embedding model. Stored with the model id so a model
    change is re-indexed side by side (both rows exist until the old model is dropped).
    Secrets and restricted records are never embedded."""

    id = models.BigAutoField(primary_key=True)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE)
    record = models.ForeignKey(MemoryRecord, on_delete=models.CASCADE, related_name="embeddings")
    model_id = models.CharField(max_length=100)
    vector = VectorField(dimensions=EMBEDDING_DIMENSIONS)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["record", "model_id"], name="memory_embedding_unique"),
        ]
        indexes = [
            # Serves the vector route's exact scan within one subject's scope (the default:
            # exact and faster than HNSW at per-subject sizes, PERF-NOTES).
            models.Index(fields=["tenant", "subject", "model_id"], name="memory_embedding_scope"),
            # Serves approximate search over large scopes (with hnsw.iterative_scan).
            HnswIndex(
                fields=["vector"],
                name="memory_embedding_hnsw",
                m=16,
                ef_construction=64,
                opclasses=["vector_cosine_ops"],
            ),
        ]

    def __str__(self) -> str:
        return f"embedding:{self.record_id}:{self.model_id}"


class RecallTrace(models.Model):
    """Which memory ids reached which agent, for what purpose, when. Ids and a hash of the
    query only — never the query text. The agent may later report which ids it used."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="recall_traces")
    agent = models.ForeignKey("accounts.Agent", null=True, on_delete=models.SET_NULL)
    purpose = models.CharField(max_length=100)
    # sha256 of the normalised query: lets identical queries be grouped without storing text.
    query_sha256 = models.CharField(max_length=64)
    record_ids = ArrayField(models.UUIDField(), default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # Feedback from the agent: which of record_ids it actually used and whether they helped.
    used_record_ids = ArrayField(models.UUIDField(), default=list, blank=True)
    helpful = models.BooleanField(null=True, blank=True)
    feedback_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # Serves the end user's "used by" view: a subject's traces, newest first.
            models.Index(fields=["tenant", "subject", "-created_at"], name="recall_trace_subject"),
            # Serves "which traces returned this record" (GIN over the id array).
            GinIndex(fields=["record_ids"], name="recall_trace_record_ids"),
        ]

    def __str__(self) -> str:
        return f"recall:{self.id}"
