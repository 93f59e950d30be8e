"""Working memory (the short-term tier) and the record of a closed thread.

``WorkingMemoryEntry`` is the embedded default store of ``memory.working`` (Redis holds it
when one is configured): the state of the current task, keyed by thread and key,
overwritten in place and gone at ``expires_at``. It is never governed memory: recall never
reads it, export leaves it out, and it becomes long-term only through
``POST /threads/{id}/close`` and the write policy. The table is UNLOGGED (migration 0022):
losing it in a crash costs a task's scratch state, and skipping the WAL keeps its
overwrites cheap.

``ThreadClosure`` is what closing a thread answered, kept so that a second close of the
same thread returns the first answer (ids and reason codes only, never memory text).
"""

from __future__ import annotations

import uuid

from django.db import models
from django.utils import timezone

from .subjects import Subject


class WorkingMemoryEntry(models.Model):
    id = models.BigAutoField(primary_key=True)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="+")
    thread_id = models.CharField(max_length=200)
    key = models.CharField(max_length=128)
    value = models.JSONField()
    size_bytes = models.PositiveIntegerField()
    updated_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()

    class Meta:
        constraints = [
            # Overwrite semantics: one value per key of a thread (the PUT upserts on it).
            models.UniqueConstraint(
                fields=["tenant", "subject", "thread_id", "key"], name="working_memory_key"
            ),
        ]
        indexes = [
            # Serves the cleanup job: "entries whose time is up".
            models.Index(fields=["expires_at"], name="working_memory_expiry"),
        ]

    def __str__(self) -> str:
        return f"working:{self.thread_id}/{self.key}"


class ThreadClosure(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="+")
    thread_id = models.CharField(max_length=200)
    agent_id = models.UUIDField(null=True, blank=True)
    result = models.JSONField(default=dict)
    closed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            # A thread closes once: a second close returns this row's result.
            models.UniqueConstraint(
                fields=["tenant", "subject", "thread_id"], name="thread_closure_once"
            ),
        ]

    def __str__(self) -> str:
        return f"closed:{self.thread_id}"
