"""The append-only audit log. Rows carry ids and reason codes, never memory text.

The table is still ``governance_auditevent``: the model moved here from ``governance``
without touching the database (see core/migrations/0001_initial.py).
"""

from __future__ import annotations

import pgtrigger
from django.db import models
from django.utils import timezone

from core.actor import ActorType


class _KeptIdProtect(pgtrigger.Protect):
    """A Protect trigger whose Postgres id is fixed to the one installed when the model
    lived in ``governance`` (pgtrigger derives the id from the app label; a new id would
    drop and re-create the trigger on every existing database)."""

    def __init__(self, *, pgid: str, **kwargs) -> None:
        self.pgid = pgid
        super().__init__(**kwargs)

    def get_pgid(self, model: models.Model) -> str:
        return self.pgid


class AuditEvent(models.Model):
    id = models.BigAutoField(primary_key=True)
    tenant = models.ForeignKey("accounts.Tenant", on_delete=models.PROTECT)
    occurred_at = models.DateTimeField(default=timezone.now)
    actor_type = models.CharField(max_length=8, choices=ActorType.choices)
    actor_id = models.CharField(max_length=64)
    # Dotted verb: "memory.write", "memory.read", "event.append", "apikey.revoke", …
    action = models.CharField(max_length=64)
    # Write-policy operation (ADD, CONFIRM, … REJECT, QUARANTINE) where one applies.
    operation = models.CharField(max_length=16, blank=True)
    reason_code = models.CharField(max_length=64, blank=True)
    subject_id = models.UUIDField(null=True, blank=True)
    record_id = models.UUIDField(null=True, blank=True)
    event_id = models.UUIDField(null=True, blank=True)
    request_id = models.CharField(max_length=64, blank=True)
    # Ids, counts and codes only. Never memory text, queries or secrets.
    extra = models.JSONField(default=dict, blank=True)

    class Meta:
        db_table = "governance_auditevent"
        indexes = [
            # Serves the audit viewer's default listing (newest first within a tenant).
            models.Index(fields=["tenant", "-occurred_at"], name="audit_tenant_time"),
            # Serves "everything that happened to this subject" (export, deletion receipt).
            models.Index(fields=["tenant", "subject_id", "occurred_at"], name="audit_subject"),
            # Serves "the history of this record".
            models.Index(fields=["tenant", "record_id"], name="audit_record"),
        ]
        triggers = [
            _KeptIdProtect(
                name="audit_append_only",
                operation=pgtrigger.Update | pgtrigger.Delete,
                pgid="pgtrigger_audit_append_only_c59aa",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.action}:{self.id}"
