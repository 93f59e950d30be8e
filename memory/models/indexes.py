"""Retrieval's derived indexes, the recall trace and stored idempotent answers."""

from __future__ import annotations

import uuid

import pgtrigger
from django.contrib.postgres.fields import (
    ArrayField,
)
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVector, SearchVectorField
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from pgvector.django import HnswIndex, VectorField

from .records import RECALL_ELIGIBILITY_FIELDS, MemoryRecord
from .subjects import Subject

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
    # The turn said just before this memory in its conversation (``memory.neighbourhood``),
    # segmented like ``segmented_text``: it helps the memory to be found, it is never
    # returned. ``context_event_id`` names that turn, so erasing it rebuilds this row.
    context_text = models.TextField(blank=True, default="")
    context_vector = models.GeneratedField(
        expression=SearchVector("context_text", config="english"),
        output_field=SearchVectorField(),
        db_persist=True,
    )
    context_event_id = models.UUIDField(null=True, blank=True)
    indexed_at = models.DateTimeField(default=timezone.now)
    # Copies of the record's columns that recall's eligibility filter reads
    # (``RECALL_ELIGIBILITY_FIELDS``, same names, so ``memory.recall.scope.eligible_q``
    # applies to a doc as to its record): the lexical route filters its matches here
    # instead of joining every match to its record, which dominates for a large subject. Written only by the database — the trigger below copies them from the record
    # on every insert and update of the doc, and the record's own trigger sends each
    # change — so whatever the application sets here is overwritten. NULL (no record) is
    # never eligible.
    purpose = models.CharField(max_length=100, null=True, editable=False)
    sensitivity = models.CharField(max_length=16, null=True, editable=False)
    memory_type = models.CharField(max_length=16, null=True, editable=False)
    namespace = models.CharField(max_length=300, null=True, editable=False)
    predicate = models.CharField(max_length=200, null=True, editable=False)
    valid_from = models.DateTimeField(null=True, editable=False)
    valid_to = models.DateTimeField(null=True, editable=False)
    recorded_at = models.DateTimeField(null=True, editable=False)
    status = models.CharField(max_length=24, null=True, editable=False)
    superseded_at = models.DateTimeField(null=True, editable=False)
    expires_at = models.DateTimeField(null=True, editable=False)

    class Meta:
        triggers = [
            pgtrigger.Trigger(
                name="search_doc_copies_eligibility",
                operation=pgtrigger.Insert | pgtrigger.Update,
                when=pgtrigger.Before,
                func=(
                    "SELECT "
                    + ", ".join(f"r.{name}" for name in RECALL_ELIGIBILITY_FIELDS)
                    + " INTO "
                    + ", ".join(f"NEW.{name}" for name in RECALL_ELIGIBILITY_FIELDS)
                    + " FROM memory_memoryrecord r WHERE r.id = NEW.record_id; RETURN NEW;"
                ),
            ),
        ]
        indexes = [
            # Serves the lexical route: search_vector @@ tsquery within a tenant's records.
            GinIndex(fields=["search_vector"], name="memory_search_doc_fts"),
            GinIndex(fields=["context_vector"], name="memory_search_doc_ctx_fts"),
            # Serves erasure of a context turn (the rows built with it are rebuilt).
            models.Index(fields=["tenant", "context_event_id"], name="memory_search_doc_ctx_event"),
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
    # The context turn embedded with the memory (``memory.neighbourhood``), if any.
    context_event_id = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["record", "model_id"], name="memory_embedding_unique"),
        ]
        triggers = [
            # A row's vector is its record's under its model for as long as the row
            # exists: a new vector is a new row (a new id). Recall keeps vectors in
            # process memory by row id and relies on it (memory/recall/vector_cache.py).
            # (The comparison is in the function, not in a WHEN clause: a restore
            # recreates triggers with an empty search_path, where pgvector's operators
            # are not found.)
            pgtrigger.Trigger(
                name="embedding_vector_read_only",
                operation=pgtrigger.Update,
                when=pgtrigger.Before,
                func=(
                    "IF NEW.vector IS DISTINCT FROM OLD.vector"
                    " OR NEW.record_id IS DISTINCT FROM OLD.record_id THEN"
                    " RAISE EXCEPTION 'an embedding row''s vector and record never change:"
                    " store a new row'; END IF; RETURN NEW;"
                ),
            ),
        ]
        indexes = [
            # Serves the vector route's exact scan within one subject's scope (the default:
            # exact and faster than HNSW at per-subject sizes; docs/performance.md).
            # Its ids in order, index-only, tell recall whether the vectors it keeps in
            # process memory are still the scope's (memory/recall/vector_cache.py).
            models.Index(
                fields=["tenant", "subject", "model_id", "id"], name="memory_embedding_scope"
            ),
            models.Index(fields=["tenant", "context_event_id"], name="memory_embedding_ctx_event"),
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
