"""Resolving the quarantine and conflict queue.

A held record (status ``quarantined`` or ``pending_confirmation``) is never edited into
an active one: a resolution that keeps its content submits a fresh candidate through the
write path (``candidates_submit``) with ``review_approved=True``, and the held record
itself is closed with a final status (``superseded`` when its content was taken over,
``retracted`` when it was rejected). Both happen in one transaction, under the subject's
row lock, and the resolution is audited with ids and codes only.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, replace

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction, Operation, ReasonCode
from governance.policies import can_resolve_quarantine, quarantine_actions
from governance.selectors import QUARANTINE_STATUSES, console_access_get
from governance.services.errors import GovernanceError
from memory.models import MemoryRecord, MemorySource, MemoryStatus, Subject
from memory.services.writes import candidates_submit
from memory.write_policy import Candidate, Intent

SCOPE_RE = re.compile(r"^[\w.\-]+$")
KEEPING_OPERATIONS = (Operation.ADD, Operation.SUPERSEDE, Operation.CONFIRM)


@dataclass(frozen=True)
class QuarantineResolution:
    record_id: uuid.UUID
    resolution: str
    final_status: str
    new_record_id: uuid.UUID | None = None
    operation: str = ""


def _candidate_from(record: MemoryRecord) -> Candidate:
    """The held record as a reviewer-approved candidate: the whole of it (sensitivity,
    valid time, importance, retention, sources) kept."""
    return Candidate.from_record(
        record,
        sensitivity=record.sensitivity,
        valid_from=record.valid_from,
        valid_to=record.valid_to,
        importance=record.importance,
        expires_at=record.expires_at,
        source_event_ids=tuple(
            MemorySource.objects.filter(record=record).values_list("event_id", flat=True)
        ),
        source_uri=record.source_uri,
        review_approved=True,
    )


def quarantine_resolve(
    *,
    actor: Actor,
    user: User,
    record_id: uuid.UUID,
    resolution: str,
    edited_statement: str = "",
    scope: str = "",
    request_id: str = "",
) -> QuarantineResolution:
    access = console_access_get(user=user, tenant_id=actor.tenant_id)
    found = MemoryRecord.objects.filter(
        tenant_id=actor.tenant_id, id=record_id, status__in=QUARANTINE_STATUSES
    ).first()
    if access is None or found is None:
        raise GovernanceError("not_found", _("No such held memory."), status=404)
    if not can_resolve_quarantine(access):
        raise GovernanceError(
            "permission_denied", _("Only reviewers may resolve the quarantine queue."), status=403
        )
    with transaction.atomic():
        # Subject first, then the record: the same order as the write path.
        subject = Subject.objects.select_for_update().get(pk=found.subject_id)
        record = MemoryRecord.objects.select_for_update().get(pk=found.pk)
        if record.status not in QUARANTINE_STATUSES:
            raise GovernanceError("not_open", _("This memory was already resolved."), status=409)
        allowed = quarantine_actions(
            status=record.status,
            reason_code=record.status_reason,
            has_conflict=record.conflicts_with_id is not None,
        )
        if resolution not in allowed:
            raise GovernanceError(
                "invalid_resolution",
                _("That action is not available for this memory."),
                extra={"allowed": list(allowed)},
            )
        candidate = _resolution_candidate(record, resolution, edited_statement, scope)
        outcome = None
        if candidate is not None:
            [outcome] = candidates_submit(
                actor=actor,
                subject=subject,
                candidates=[candidate],
                user_id=user.pk,
                request_id=request_id,
            )
            if outcome.operation not in KEEPING_OPERATIONS:
                raise GovernanceError(
                    "write_policy_refused",
                    _("The memory write policy refused this resolution; nothing changed."),
                    extra={"operation": outcome.operation, "reason_code": outcome.reason_code},
                )
        final_status = MemoryStatus.SUPERSEDED if outcome else MemoryStatus.RETRACTED
        record.close_record_time(final_status, ReasonCode(f"review_{resolution}"))
        audit_record(
            actor=actor,
            action=AuditAction.QUARANTINE_RESOLVE,
            operation=outcome.operation if outcome else "",
            reason_code=ReasonCode(f"review_{resolution}"),
            subject_id=record.subject_id,
            record_id=record.id,
            request_id=request_id,
            extra={
                "held_reason": found.status_reason,
                "conflicts_with": str(record.conflicts_with_id)
                if record.conflicts_with_id
                else None,
                "new_record_id": str(outcome.record_id) if outcome and outcome.record_id else None,
            },
        )
    return QuarantineResolution(
        record_id=record.id,
        resolution=resolution,
        final_status=final_status,
        new_record_id=outcome.record_id if outcome else None,
        operation=outcome.operation if outcome else "",
    )


def _resolution_candidate(
    record: MemoryRecord, resolution: str, edited_statement: str, scope: str
) -> Candidate | None:
    if resolution in ("reject", "keep_existing"):
        return None
    candidate = _candidate_from(record)
    if resolution == "accept":
        return candidate
    if resolution == "accept_edited":
        statement = edited_statement.strip()
        if not statement or len(statement) > settings.ENGRAM["MAX_TEXT_CHARS"]:
            raise GovernanceError("invalid_statement", _("Write the corrected text (not empty)."))
        # The reviewer's text is the content now; a structured value would contradict it.
        return replace(candidate, statement=statement, value=None)
    if resolution == "keep_new":
        # The existing value was wrong; the held one replaces it (history is kept).
        return replace(candidate, intent=Intent.CORRECT, target_record_id=record.conflicts_with_id)
    if resolution == "keep_both":
        scope = scope.strip().strip("/")
        if not SCOPE_RE.match(scope):
            raise GovernanceError(
                "invalid_scope",
                _("Name the narrower scope for the new value (letters, digits, - _ .)."),
            )
        return replace(candidate, namespace=f"{record.namespace}/{scope}")
    raise AssertionError(resolution)
