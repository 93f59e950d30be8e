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


# Approved procedures belong to the tenant; governance keeps them on this org subject.
TENANT_PROCEDURES_EXTERNAL_ID = "tenant"


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
            # Serves the write policy's duplicate lookup for statements without a predicate.
            models.Index(
                fields=["tenant", "subject", "content_key"],
                condition=Q(status="active"),
                name="memory_active_content",
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


# --- Lifecycle (background jobs, derived data, deletion) -------------------------------
# Everything below is written by the lifecycle engine (memory/tasks.py and the services it
# calls). Derived rows keep the ids of what they were derived from so the deletion
# workflow can find, remove or rebuild them.


class TaskOutcome(models.TextChoices):
    RUNNING = "running", _("running")
    SUCCEEDED = "succeeded", _("succeeded")
    RETRYING = "retrying", _("retrying")
    DEAD = "dead", _("dead-lettered")


class TaskRun(models.Model):
    """One logical job, keyed for idempotency (e.g. ``extract:<event id>``). A redelivered
    or repeated task finds its row already succeeded and does nothing."""

    id = models.BigAutoField(primary_key=True)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    task_name = models.CharField(max_length=100)
    key = models.CharField(max_length=200)
    outcome = models.CharField(max_length=16, choices=TaskOutcome.choices)
    attempts = models.PositiveIntegerField(default=0)
    error_class = models.CharField(max_length=100, blank=True)
    # Counts only (records written, rows erased, …): never memory text.
    result = models.JSONField(default=dict, blank=True)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tenant", "task_name", "key"], name="taskrun_key"),
        ]
        indexes = [
            # Serves the operations page's outcome counts and recent runs.
            models.Index(fields=["tenant", "outcome", "-started_at"], name="taskrun_outcome"),
        ]

    def __str__(self) -> str:
        return f"{self.task_name}:{self.key}"


class DeadLetter(models.Model):
    """A task that exhausted its retries. Ids and the error class only — no memory text,
    no exception message (it may quote data)."""

    id = models.BigAutoField(primary_key=True)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    task_name = models.CharField(max_length=100)
    task_id = models.CharField(max_length=64, blank=True)
    object_ids = models.JSONField(default=list)
    error_class = models.CharField(max_length=100)
    attempts = models.PositiveIntegerField()
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # Serves the operations page's dead-letter list (newest first).
            models.Index(fields=["tenant", "-created_at"], name="deadletter_recent"),
        ]

    def __str__(self) -> str:
        return f"dead:{self.task_name}:{self.id}"


class ThreadSummary(models.Model):
    """A compressed view of one conversation thread. ``items`` is a list of
    ``{"kind": goal|fact|task|tool_result|constraint, "text": ..., "source_event_ids": [...]}``:
    every statement carries the events it came from, so deleting an event can rebuild it."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="summaries")
    thread_id = models.CharField(max_length=200)
    items = models.JSONField(default=list)
    source_event_ids = ArrayField(models.UUIDField(), default=list)
    event_count = models.PositiveIntegerField(default=0)
    built_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "subject", "thread_id"], name="thread_summary_unique"
            ),
        ]
        indexes = [
            # Serves "which summaries used this event" (deletion propagation).
            GinIndex(fields=["source_event_ids"], name="thread_summary_sources"),
        ]

    def __str__(self) -> str:
        return f"summary:{self.thread_id}"


class MemoryCase(models.Model):
    """Similar episodes grouped into a reusable case: problem → actions → outcome →
    conditions. Derived: rebuilt from the remaining episodes (or removed) when one goes."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="cases")
    namespace = models.CharField(max_length=300)
    problem = models.TextField()
    actions = models.JSONField(default=list)
    outcome = models.TextField(blank=True)
    conditions = models.JSONField(default=list)
    episode_ids = ArrayField(models.UUIDField(), default=list)
    built_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            # Serves "which cases used this episode" (deletion propagation).
            GinIndex(fields=["episode_ids"], name="memory_case_episodes"),
            models.Index(fields=["tenant", "subject", "namespace"], name="memory_case_scope"),
        ]

    def __str__(self) -> str:
        return f"case:{self.id}"


class MemoryDecay(models.Model):
    """The forgetting score of one record, recomputed by the decay job. Retrieval ranks by
    it; the decay job archives what falls below the threshold. Never deletes."""

    record = models.OneToOneField(
        MemoryRecord, primary_key=True, on_delete=models.CASCADE, related_name="decay"
    )
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    score = models.FloatField()
    computed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(score__gte=0) & Q(score__lte=1), name="memory_decay_0_1"
            ),
        ]

    def __str__(self) -> str:
        return f"decay:{self.record_id}={self.score:.2f}"


class DeletionScope(models.TextChoices):
    MEMORY = "memory", _("one memory")
    EVENT = "event", _("one source event")
    SUBJECT = "subject", _("everything about a person (right to erasure)")


class DeletionStatus(models.TextChoices):
    PENDING = "pending", _("pending")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("verification failed")


class DeletionRequest(models.Model):
    """A request to erase one memory, one source event or a whole subject, run as a job.
    ``receipt`` lists every store touched with counts; ``verification`` the count every
    route still finds (must be all zero)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    scope = models.CharField(max_length=16, choices=DeletionScope.choices)
    # Plain ids, not foreign keys: the targets are gone when the receipt is read.
    subject_id = models.UUIDField()
    target_id = models.UUIDField()
    status = models.CharField(
        max_length=16, choices=DeletionStatus.choices, default=DeletionStatus.PENDING
    )
    requested_by_type = models.CharField(max_length=8)
    requested_by_id = models.CharField(max_length=64)
    reason_code = models.CharField(max_length=64, default="deletion_requested")
    requested_at = models.DateTimeField(default=timezone.now)
    completed_at = models.DateTimeField(null=True, blank=True)
    receipt = models.JSONField(default=dict, blank=True)
    verification = models.JSONField(default=dict, blank=True)

    class Meta:
        indexes = [
            # Serves the operations page's receipt list (newest first).
            models.Index(fields=["tenant", "-requested_at"], name="deletion_recent"),
        ]

    def __str__(self) -> str:
        return f"deletion:{self.scope}:{self.target_id}"


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


class EmbeddingIndexStatus(models.TextChoices):
    BUILDING = "building", _("building")
    ACTIVE = "active", _("active")
    RETIRED = "retired", _("retired")


class EmbeddingIndex(models.Model):
    """One version of the vector index: the embeddings of one model across all tenants.

    Global (no tenant): which model recall serves is an installation-wide decision. At
    most one version is active; with none, the configured embedder's model is. A new
    model is built side by side (``building``) while recall keeps serving the active one,
    then switched to; the old one is ``retired`` and its vectors kept until pruned.
    Holds counts and golden-set metrics only, never memory text."""

    model_id = models.CharField(max_length=100, unique=True)
    status = models.CharField(max_length=10, choices=EmbeddingIndexStatus.choices)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    activated_at = models.DateTimeField(null=True, blank=True)
    # Golden-set comparison against the active version (memory.services.index_versions).
    drift = models.JSONField(default=dict, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["status"],
                condition=Q(status="active"),
                name="embedding_index_one_active",
            ),
        ]

    def __str__(self) -> str:
        return f"index:{self.model_id}:{self.status}"

    @property
    def drift_rows(self) -> list[tuple[str, float, float, float]]:
        """(metric, old model, new model, change) for display."""
        if not self.drift or "error" in self.drift:
            return []
        return [
            (name, self.drift["old"][key], self.drift["new"][key], self.drift["delta"][key])
            for name, key in (("Recall@5", "recall@5"), ("nDCG@10", "ndcg@10"))
        ]

    @property
    def percent(self) -> int:
        if not self.total:
            return 100 if self.status != EmbeddingIndexStatus.BUILDING else 0
        return min(100, int(100 * self.done / self.total))


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
    # Wall time of the whole recall in milliseconds (null on rows written before it was
    # measured); the console draws its p50/p95 per day.
    latency_ms = models.FloatField(null=True, blank=True)
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


class IdempotencyKey(models.Model):
    """The first successful answer to ``POST /api/v1/candidates`` sent with an
    ``Idempotency-Key`` header, scoped by tenant, agent and subject. A replay with the same
    key and body gets this answer back and writes nothing; the row is also the lock that
    keeps two concurrent requests with one key from both applying. Rows older than
    ``ENGRAM_IDEMPOTENCY_TTL_HOURS`` are ignored (and replaced on the next use of the key).
    The request is kept as a hash only; the answer holds ids, codes and policy messages."""

    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    id = models.BigAutoField(primary_key=True)
    agent = models.ForeignKey("accounts.Agent", on_delete=models.CASCADE)
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE)
    key = models.CharField(max_length=200)
    # sha256 of the request body as canonical JSON: same key + other body -> 422.
    request_sha256 = models.CharField(max_length=64)
    response_status = models.PositiveSmallIntegerField()
    response_body = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tenant", "agent", "subject", "key"], name="idempotency_key_unique"
            )
        ]
        indexes = [models.Index(fields=["created_at"], name="idempotency_key_created")]

    def __str__(self) -> str:
        return f"idempotency:{self.id}"
