"""The quality inspector's rows: one inspection run per tenant and time, the findings it
made, the retrieval canaries a tenant admin saved, and each canary's Recall@k per run.

Findings name records by id and carry numbers only (``detail``): the console shows the
memories themselves through the records, never through a copy here, so erasing a memory
leaves no text behind in the inspector's tables. A canary's query is the one text the
inspector keeps: a tenant admin typed it as a test question, it is not memory content,
and it is removed with the canary.
"""

from __future__ import annotations

import uuid

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .subjects import Subject


class FindingKind(models.TextChoices):
    NEAR_DUPLICATE = "near_duplicate", _("near-duplicate memories")
    STALE_SUPERSEDED = "stale_superseded", _("superseded value still active")
    SLOT_CONFLICT = "slot_conflict", _("two current values in one slot")
    LOW_VALUE = "low_value", _("never recalled and of low importance")
    INDEX_LAG = "index_lag", _("records waiting for a vector")
    OLD_MODEL_VECTORS = "old_model_vectors", _("vectors from an old model")
    INDEX_BLOAT = "index_bloat", _("vector index bloat")
    CANARY_MISS = "canary_miss", _("retrieval canary below its expected recall")


class FindingSeverity(models.TextChoices):
    INFO = "info", _("info")
    WARNING = "warning", _("warning")
    CRITICAL = "critical", _("critical")


class FindingStatus(models.TextChoices):
    OPEN = "open", _("open")
    APPLIED = "applied", _("applied")
    DISMISSED = "dismissed", _("dismissed")


class InspectionRun(models.Model):
    """One pass of the inspector over one tenant. ``counts`` holds findings per kind and
    the figures the detectors measured (ids and numbers only)."""

    id = models.BigAutoField(primary_key=True)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    # "beat", "command", "console", "index_change": who asked for the run.
    trigger = models.CharField(max_length=32, blank=True)
    counts = models.JSONField(default=dict, blank=True)

    class Meta:
        indexes = [
            # Serves the console's latest report and the findings-over-runs chart.
            models.Index(fields=["tenant", "-started_at"], name="inspection_run_recent"),
        ]

    def __str__(self) -> str:
        return f"inspection:{self.id}"


class QualityFinding(models.Model):
    id = models.BigAutoField(primary_key=True)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    run = models.ForeignKey(InspectionRun, on_delete=models.CASCADE, related_name="findings")
    kind = models.CharField(max_length=32, choices=FindingKind.choices)
    severity = models.CharField(
        max_length=16, choices=FindingSeverity.choices, default=FindingSeverity.INFO
    )
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, null=True, blank=True)
    record_ids = ArrayField(models.UUIDField(), default=list, blank=True)
    # Ids and numbers only (similarities, counts, ages, model ids): never memory text.
    detail = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        max_length=16, choices=FindingStatus.choices, default=FindingStatus.OPEN
    )
    # The action that closed it ("merge", "expire", "archive", "reindex", "dismiss").
    action = models.CharField(max_length=16, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            # Serves the console's findings of the latest run, open ones first.
            models.Index(fields=["tenant", "run", "status"], name="quality_finding_run"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status="open", resolved_at__isnull=True)
                | (~Q(status="open") & Q(resolved_at__isnull=False)),
                name="quality_finding_resolved_when_closed",
            ),
        ]

    def __str__(self) -> str:
        return f"finding:{self.kind}:{self.id}"


class RetrievalCanary(models.Model):
    """A test question a tenant admin saved with the memories recall should find for it.
    Run through the real recall pipeline, for ``subject`` and ``purpose``, by every
    inspection and around every index change. Expected memories are matched by lineage,
    so a correction of one still counts as found."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE)
    query = models.TextField()
    purpose = models.CharField(max_length=100)
    expected_record_ids = ArrayField(models.UUIDField())
    k = models.PositiveSmallIntegerField(default=5)
    created_by_user_id = models.IntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(k__gte=1) & Q(k__lte=50), name="canary_k_range"),
            models.CheckConstraint(
                condition=Q(expected_record_ids__len__gte=1), name="canary_expects_something"
            ),
        ]
        indexes = [
            models.Index(fields=["tenant", "created_at"], name="canary_tenant"),
        ]

    def __str__(self) -> str:
        return f"canary:{self.id}"


class CanaryResult(models.Model):
    """One canary's Recall@k in one run (an inspection, or one side of an index change:
    ``phase`` "before"/"after"), with the index and model it was measured on."""

    id = models.BigAutoField(primary_key=True)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    run = models.ForeignKey(InspectionRun, on_delete=models.CASCADE, related_name="canary_results")
    canary = models.ForeignKey(RetrievalCanary, on_delete=models.CASCADE, related_name="results")
    recall_at_k = models.FloatField()
    found = models.PositiveSmallIntegerField(default=0)
    expected = models.PositiveSmallIntegerField(default=0)
    model_id = models.CharField(max_length=100, blank=True)
    # The active embedding index version's row id, if one exists (None: configured model).
    index_version = models.BigIntegerField(null=True, blank=True)
    phase = models.CharField(max_length=16, blank=True)
    measured_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(recall_at_k__gte=0) & Q(recall_at_k__lte=1),
                name="canary_recall_range",
            ),
        ]
        indexes = [
            # Serves the Recall@k-over-time chart.
            models.Index(fields=["tenant", "canary", "measured_at"], name="canary_result_time"),
        ]

    def __str__(self) -> str:
        return f"canary_result:{self.id}"
