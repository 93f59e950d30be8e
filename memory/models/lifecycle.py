"""Rows written by the lifecycle engine: jobs, dead letters, summaries, cases, decay and
deletion requests."""

from __future__ import annotations

import uuid

from django.contrib.postgres.fields import (
    ArrayField,
)
from django.contrib.postgres.indexes import GinIndex
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.codes import ReasonCode

from .records import MemoryRecord
from .subjects import Subject

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
    # Undone by the user before it ran (only a request with ``run_after`` can be).
    CANCELLED = "cancelled", _("undone")


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
    reason_code = models.CharField(max_length=64, default=ReasonCode.DELETION_REQUESTED)
    requested_at = models.DateTimeField(default=timezone.now)
    completed_at = models.DateTimeField(null=True, blank=True)
    # Not before: a user's delete waits a few seconds so that it can be undone. Until it
    # runs, the memory's current versions are archived (agents no longer see them) and
    # ``held`` keeps their previous status and reason by id, to put back on undo.
    run_after = models.DateTimeField(null=True, blank=True)
    held = models.JSONField(default=dict, blank=True)
    receipt = models.JSONField(default=dict, blank=True)
    verification = models.JSONField(default=dict, blank=True)

    class Meta:
        indexes = [
            # Serves the operations page's receipt list (newest first).
            models.Index(fields=["tenant", "-requested_at"], name="deletion_recent"),
            # Serves the sweep of delayed deletions that are due (and a user's pending ones).
            models.Index(
                fields=["tenant", "subject_id", "run_after"],
                condition=Q(status="pending", run_after__isnull=False),
                name="deletion_delayed_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"deletion:{self.scope}:{self.target_id}"


# --- retrieval: derived indexes and the recall trace ----------------------------------
