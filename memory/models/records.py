"""The governed memory record: bitemporal (valid time, record time), never edited in place."""

from __future__ import annotations

import uuid
from datetime import datetime

import pgtrigger
from django.contrib.postgres.constraints import ExclusionConstraint
from django.contrib.postgres.fields import (
    DateTimeRangeField,
    RangeBoundary,
    RangeOperators,
)
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.models import Sensitivity

from .subjects import SourceEvent, Subject


class TsTzRange(models.Func):
    function = "TSTZRANGE"
    output_field = DateTimeRangeField()


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


# Never believed, whatever the time point: gone, or not yet (or never) accepted.
NEVER_BELIEVED = (
    MemoryStatus.DELETED,
    MemoryStatus.QUARANTINED,
    MemoryStatus.PENDING_CONFIRMATION,
)


def believed_q(known_at: datetime | None = None) -> Q:
    """Record time. ``known_at=None``: what we believe now, active records whose record
    time is still open (procedural ones are active only once approved). Otherwise what we
    believed at ``known_at``: versions recorded by then and not yet closed then, whatever
    became of them later, except erased or never-accepted ones."""
    if known_at is None:
        return Q(status=MemoryStatus.ACTIVE, superseded_at__isnull=True)
    return (
        Q(recorded_at__lte=known_at)
        & (Q(superseded_at__isnull=True) | Q(superseded_at__gt=known_at))
        & ~Q(status__in=NEVER_BELIEVED)
    )


def valid_q(at: datetime, *, include_future: bool = False) -> Q:
    """Valid time: the fact holds at ``at``, [valid_from, valid_to) contains it. With
    ``include_future``, a validity that has not begun yet counts as well (only the end is
    checked)."""
    started = Q() if include_future else Q(valid_from__lte=at)
    return started & (Q(valid_to__isnull=True) | Q(valid_to__gt=at))


# What recall's eligibility filter (``memory.recall.scope.eligible_q``) reads of a record
# besides its tenant and subject. The database copies them onto the record's lexical doc
# (``MemorySearchDoc``), so the lexical route filters its matches without a join: the
# record's trigger below sends each change, the doc's own trigger copies them on every
# write of the doc.
RECALL_ELIGIBILITY_FIELDS = (
    "purpose",
    "sensitivity",
    "memory_type",
    "namespace",
    "predicate",
    "valid_from",
    "valid_to",
    "recorded_at",
    "status",
    "superseded_at",
    "expires_at",
)


class MemoryRecordQuerySet(models.QuerySet):
    """The domain words for reading records; each names one exact filter."""

    def active(self) -> MemoryRecordQuerySet:
        """Status ``active``, whatever the valid time (a version whose validity has ended,
        "lived in Shanghai until May", is still active: it is true history)."""
        return self.filter(status=MemoryStatus.ACTIVE)

    def current(self, at: datetime | None = None) -> MemoryRecordQuerySet:
        """Active records whose validity has not ended by ``at`` (default now). A validity
        that starts later still counts (see ``in_force``)."""
        at = timezone.now() if at is None else at
        return self.active().exclude(valid_to__lte=at)

    def without_ended(self, at: datetime | None = None) -> MemoryRecordQuerySet:
        """Every status, less the active versions whose validity has ended by ``at``
        (default now): what a user's page counts, where ended versions are history."""
        at = timezone.now() if at is None else at
        return self.exclude(status=MemoryStatus.ACTIVE, valid_to__lte=at)

    def in_force(self, at: datetime | None = None) -> MemoryRecordQuerySet:
        """Active records valid at ``at`` (default now): begun and not ended."""
        at = timezone.now() if at is None else at
        return self.current(at).filter(valid_from__lte=at)

    def as_of(
        self,
        at: datetime,
        *,
        known_at: datetime | None = None,
        include_future: bool = False,
    ) -> MemoryRecordQuerySet:
        """Bitemporal: valid at ``at`` (``valid_q``) as believed at ``known_at``
        (``believed_q``; None is now). Retention expiry is not applied here."""
        return self.filter(believed_q(known_at) & valid_q(at, include_future=include_future))

    def close_record_time(self, status: str, reason: str, at: datetime | None = None) -> int:
        """``MemoryRecord.close_record_time`` in bulk, for the rows whose record time is still
        open (it closes once: already-closed rows keep theirs). Returns the rows closed."""
        return self.filter(superseded_at__isnull=True).update(
            status=status,
            status_reason=reason,
            superseded_at=timezone.now() if at is None else at,
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
    # Recall feedback (memory.services.recall_feedback): how often an agent said it used
    # this memory, and how many reported recalls in a row returned it without use.
    feedback_used_count = models.PositiveIntegerField(default=0)
    feedback_unused_streak = models.PositiveIntegerField(default=0)
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

    objects = MemoryRecordQuerySet.as_manager()

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
            # Serves recall's list of a subject's slots (the predicates it has): a subject
            # of thousands of conversation turns has few facts with a predicate, if any.
            models.Index(
                fields=["tenant", "subject", "predicate"],
                condition=~Q(predicate=""),
                name="memory_subject_predicates",
            ),
            # Serves recall's "what may be searched" (``memory.recall.scope.eligible_q``)
            # for the current beliefs of one subject and purpose without reading the
            # table: the lexical route checks every match against it, and for a large subject
            # the index alone is several times faster than scanning the table.
            models.Index(
                fields=["tenant", "subject", "purpose"],
                include=[
                    "sensitivity",
                    "valid_from",
                    "valid_to",
                    "expires_at",
                    "memory_type",
                    "id",
                ],
                condition=Q(status="active", superseded_at__isnull=True),
                name="memory_recall_eligible",
            ),
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
            # A change of what recall's eligibility reads reaches the lexical doc in the
            # same statement (its own trigger copies every column from here).
            pgtrigger.Trigger(
                name="memory_eligibility_to_search_doc",
                operation=pgtrigger.Update,
                when=pgtrigger.After,
                condition=pgtrigger.AnyChange(*RECALL_ELIGIBILITY_FIELDS),
                func=(
                    "UPDATE memory_memorysearchdoc SET "
                    + ", ".join(f"{name} = NEW.{name}" for name in RECALL_ELIGIBILITY_FIELDS)
                    + " WHERE record_id = NEW.id; RETURN NULL;"
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.memory_type}:{self.id}"

    @property
    def is_inferred(self) -> bool:
        return self.assertion_kind == AssertionKind.AGENT_INFERENCE

    def close_record_time(self, status: str, reason: str, at: datetime | None = None) -> None:
        """End what we believe about this record (record time, at ``at``, default now) with
        ``status`` and ``reason``; its content stays as it was. The database lets a record
        time close once."""
        self.status = status
        self.status_reason = reason
        self.superseded_at = timezone.now() if at is None else at
        self.save(update_fields=["status", "status_reason", "superseded_at"])


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
