"""Whom memories are about, and the append-only raw events they are derived from."""

from __future__ import annotations

import uuid

import pgtrigger
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


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


class AgentAccess(models.TextChoices):
    """What the user allows one agent to do with their memories."""

    PAUSED = "paused", _("paused")
    REVOKED = "revoked", _("revoked")


class SubjectAgentAccess(models.Model):
    """The user has paused or revoked one agent's access to their memories: every API
    request of that agent naming this subject is refused (``memory.api.authentication``),
    whatever the route — recall, list, reads, writes, events. No row: the agent has the
    access its key and clearance give it. Resuming deletes the row (audited)."""

    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    subject = models.ForeignKey(Subject, on_delete=models.CASCADE, related_name="agent_access")
    agent = models.ForeignKey("accounts.Agent", on_delete=models.CASCADE)
    state = models.CharField(max_length=8, choices=AgentAccess.choices)
    changed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["subject", "agent"], name="subject_agent_access_once"),
        ]
        indexes = [
            # Serves the check on every API request that names a subject (an index-only
            # probe; the table is empty for most subjects).
            models.Index(fields=["tenant", "agent", "subject"], name="subject_agent_access_probe"),
        ]

    def __str__(self) -> str:
        return f"{self.state}:{self.agent_id}:{self.subject_id}"


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
            # An agent's event ids are its own per user: another user's "turn-1" is
            # another event (and says nothing about that user).
            models.UniqueConstraint(
                fields=["tenant", "agent", "subject", "client_event_id"],
                name="event_idempotency_key_per_subject",
            ),
        ]
        indexes = [
            # Serves thread reads (compression, source display) in time order.
            models.Index(
                fields=["tenant", "subject", "thread_id", "occurred_at"], name="event_thread"
            ),
            # Serves recall's list of the people speaking in a subject's conversations
            # (an index-only scan: events are append-only).
            models.Index(
                fields=["tenant", "subject", "speaker"],
                condition=~Q(speaker=""),
                name="event_speakers",
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
