"""Procedural memory: versioned documents and reviewed change requests."""

from __future__ import annotations

import uuid

import pgtrigger
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# --- Procedural memory: versioned documents, reviewed change requests ------------------


class ProcedureKind(models.TextChoices):
    RUNBOOK = "runbook", _("runbook")
    SKILL = "skill", _("skill")
    RULE = "rule", _("rule")


class ProceduralDocument(models.Model):
    """A runbook, skill or rule an agent follows. Its text lives in immutable versions;
    ``current_version`` is the approved one (0 = nothing approved yet). Only approval
    (governance.services.procedures) moves it, under a row lock on this document."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    slug = models.SlugField(max_length=100)
    title = models.CharField(max_length=200)
    kind = models.CharField(max_length=16, choices=ProcedureKind.choices)
    # Memory namespace the approved text is written under ("support-agent/refunds").
    namespace = models.CharField(max_length=300)
    current_version = models.PositiveIntegerField(default=0)
    # The governed MemoryRecord holding the current approved text (recall reads that).
    current_record_id = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tenant", "slug"], name="procedure_unique_slug"),
        ]
        # Object permission (django-guardian) for reviewers of one document only.
        permissions = [("review_proceduraldocument", "Can review changes to this procedure")]

    def __str__(self) -> str:
        return f"{self.kind}:{self.slug}"


class ProceduralVersion(models.Model):
    """One approved text of a document. Append-only (trigger): history is never edited."""

    id = models.BigAutoField(primary_key=True)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    document = models.ForeignKey(
        ProceduralDocument, on_delete=models.CASCADE, related_name="versions"
    )
    number = models.PositiveIntegerField()
    text = models.TextField()
    change_request = models.OneToOneField(
        "ChangeRequest", on_delete=models.PROTECT, related_name="created_version"
    )
    approved_by = models.ForeignKey(
        "auth.User", null=True, on_delete=models.SET_NULL, related_name="+"
    )
    memory_record_id = models.UUIDField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["document", "number"], name="procedure_version_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="procedure_version_from_1"),
        ]
        triggers = [
            pgtrigger.Protect(
                name="procedure_version_append_only",
                operation=pgtrigger.Update | pgtrigger.Delete,
            ),
        ]

    def __str__(self) -> str:
        return f"{self.document_id}@v{self.number}"


class ProposalSource(models.TextChoices):
    """Where the proposed text comes from; decides its authority in the write path."""

    USER = "user", _("a person in this tenant")
    AGENT = "agent", _("the agent's own inference")
    TOOL = "tool", _("tool output")
    EXTERNAL = "external", _("external content (web, e-mail, documents)")


UNTRUSTED_PROPOSAL_SOURCES = (ProposalSource.TOOL, ProposalSource.EXTERNAL)


class ChangeRequestStatus(models.TextChoices):
    OPEN = "open", _("open")
    APPROVED = "approved", _("approved")
    REJECTED = "rejected", _("rejected")
    STALE = "stale", _("stale (the document changed)")


class ChangeRequest(models.Model):
    """A proposed full text for a document, against the version it was written from.

    Proposal text, proposer and warnings never change after creation; only the decision
    columns (status, decided_*) are set once, by the review services.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.CASCADE)
    document = models.ForeignKey(
        ProceduralDocument, on_delete=models.CASCADE, related_name="change_requests"
    )
    base_version = models.PositiveIntegerField()
    proposed_text = models.TextField()
    rationale = models.TextField(blank=True)
    # Set when the request restores an earlier version's text (rollback).
    rollback_of_version = models.PositiveIntegerField(null=True, blank=True)
    proposer_user = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    proposer_agent = models.ForeignKey(
        "accounts.Agent", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    source = models.CharField(max_length=16, choices=ProposalSource.choices)
    source_uri = models.CharField(max_length=1000, blank=True)
    # Warning codes computed at proposal time: untrusted_source, instruction_like_text,
    # secret_redacted. Never text.
    warnings = models.JSONField(default=list, blank=True)
    status = models.CharField(
        max_length=16, choices=ChangeRequestStatus.choices, default=ChangeRequestStatus.OPEN
    )
    decided_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_comment = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            # Serves the review queue: open requests of a tenant, oldest first.
            models.Index(fields=["tenant", "status", "created_at"], name="change_request_queue"),
            # Serves a document's request history.
            models.Index(fields=["tenant", "document", "created_at"], name="change_request_doc"),
        ]
        triggers = [
            pgtrigger.Protect(
                name="change_request_proposal_immutable",
                operation=pgtrigger.Update,
                condition=pgtrigger.AnyChange(
                    "tenant",
                    "document",
                    "base_version",
                    "proposed_text",
                    "rationale",
                    "rollback_of_version",
                    "source",
                    "source_uri",
                    "warnings",
                    "created_at",
                ),
            ),
            pgtrigger.Protect(
                name="change_request_decided_once",
                operation=pgtrigger.Update,
                condition=pgtrigger.Q(old__status__in=["approved", "rejected", "stale"]),
            ),
            pgtrigger.Protect(name="change_request_no_delete", operation=pgtrigger.Delete),
        ]

    def __str__(self) -> str:
        return f"cr:{self.id}"

    @property
    def is_untrusted(self) -> bool:
        return self.source in UNTRUSTED_PROPOSAL_SOURCES
