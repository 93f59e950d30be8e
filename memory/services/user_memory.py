"""What a signed-in end user does with their own memories: remember, correct, delete,
export, pause and withdraw consent.

Every memory change goes through the write path (``candidates_submit``) as an explicit
user statement, so the write policy judges the user's own additions exactly as it judges
an agent's (a secret typed into "remember this" is still refused). Deletion is an
``Intent.FORGET`` candidate naming any version the user can see, which the write path turns
into ``memory_lineage_erase`` of the whole memory.
Subject settings (pause, consent) are mutable columns written here with an audit event;
the write policy reads them under the subject's row lock.

Callers pass the user's own ``Subject`` (``memory.selectors.subject_for_user``) and
records they have already looked up through it; nothing here trusts an id from a form.
"""

from __future__ import annotations

import csv
import io
import logging
import uuid
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction, Operation, ReasonCode
from core.models import AuditEvent
from memory.models import (
    AssertionKind,
    ConsentBasis,
    DeletionStatus,
    MemoryRecord,
    MemorySource,
    MemoryStatus,
    SourceEvent,
    Subject,
)
from memory.services.writes import WriteOutcome, candidates_submit
from memory.write_policy import Candidate, Intent

logger = logging.getLogger(__name__)

DEFAULT_NAMESPACE = "personal"
DEFAULT_PURPOSE = "personalization"
EXPORT_FORMAT_VERSION = 1


def reason_text(code: str) -> str:
    return str(ReasonCode(code).label) if code in ReasonCode.values else code.replace("_", " ")


@dataclass(frozen=True)
class UserWriteResult:
    """What the page tells the user after a change."""

    operation: str
    reason_code: str
    record_id: uuid.UUID | None = None
    findings: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.operation not in (Operation.REJECT, Operation.QUARANTINE)

    @property
    def needs_confirmation(self) -> bool:
        return self.reason_code == ReasonCode.SENSITIVE_NEEDS_CONFIRMATION

    @property
    def message(self) -> str:
        return reason_text(self.reason_code)

    @classmethod
    def from_outcome(cls, outcome: WriteOutcome) -> UserWriteResult:
        return cls(outcome.operation, outcome.reason_code, outcome.record_id, outcome.findings)


def user_actor(*, user, subject: Subject) -> Actor:
    return Actor.user(user.pk, subject.tenant_id)


def _submit(*, user, subject: Subject, candidate: Candidate) -> UserWriteResult:
    [outcome] = candidates_submit(
        actor=user_actor(user=user, subject=subject),
        subject=subject,
        candidates=[candidate],
        user_id=user.pk,
        request_id=uuid.uuid4().hex,
    )
    return UserWriteResult.from_outcome(outcome)


def memory_remember(
    *,
    user,
    subject: Subject,
    statement: str,
    memory_type: str,
    namespace: str = DEFAULT_NAMESPACE,
    purpose: str = DEFAULT_PURPOSE,
    confirm_sensitive: bool = False,
) -> UserWriteResult:
    """ "Remember this": an explicit user statement, judged by the write policy.

    Sensitive personal data is held as *pending confirmation* by the policy unless the
    user ticked the explicit confirmation. The held copy is deleted at once (nothing
    unconfirmed lingers) and the page asks the user to tick the confirmation and submit
    again; only then is the memory written.
    """
    candidate = Candidate(
        memory_type=memory_type,
        namespace=namespace or DEFAULT_NAMESPACE,
        statement=statement.strip(),
        assertion_kind=AssertionKind.USER_EXPLICIT,
        confidence=1.0,
        purpose=purpose or DEFAULT_PURPOSE,
        consent_basis=ConsentBasis.EXPLICIT_CONSENT,
        user_confirmed_sensitive=confirm_sensitive,
    )
    result = _submit(user=user, subject=subject, candidate=candidate)
    if result.needs_confirmation and result.record_id is not None:
        _drop_pending(user=user, subject=subject, record_id=result.record_id)
    return result


def memory_correct(
    *,
    user,
    subject: Subject,
    record: MemoryRecord,
    statement: str,
    confirm_sensitive: bool = False,
) -> UserWriteResult:
    """The user says ``record`` is wrong and gives the right statement.

    An ``Intent.CORRECT`` candidate: the old version is closed (kept in history) and the
    new one, an explicit user statement, supersedes it from the old start on. The old
    structured ``value`` is dropped: the user's words are the new truth and we do not
    guess a structured value from them.
    """
    candidate = Candidate(
        memory_type=record.memory_type,
        namespace=record.namespace,
        statement=statement.strip(),
        predicate=record.predicate,
        cardinality=record.cardinality,
        assertion_kind=AssertionKind.USER_EXPLICIT,
        confidence=1.0,
        purpose=record.purpose,
        consent_basis=ConsentBasis.EXPLICIT_CONSENT,
        importance=record.importance,
        intent=Intent.CORRECT,
        target_record_id=record.id,
        user_confirmed_sensitive=confirm_sensitive,
    )
    result = _submit(user=user, subject=subject, candidate=candidate)
    if result.needs_confirmation and result.record_id is not None:
        _drop_pending(user=user, subject=subject, record_id=result.record_id)
    return result


def memory_confirm_pending(*, user, subject: Subject, record: MemoryRecord) -> UserWriteResult:
    """The user confirms a sensitive detail an agent proposed (held as *pending
    confirmation*): it is written through the policy as confirmed by the user, and the
    held copy's record time is closed (it stays in history as ``superseded``)."""
    if record.status != MemoryStatus.PENDING_CONFIRMATION:
        return UserWriteResult(Operation.REJECT, ReasonCode.NOT_PENDING)
    candidate = replace(
        _candidate_from(record),
        assertion_kind=AssertionKind.USER_CONFIRMED,
        consent_basis=ConsentBasis.EXPLICIT_CONSENT,
        sensitivity=record.sensitivity,
        importance=record.importance,
        valid_from=record.valid_from,
        valid_to=record.valid_to,
        source_event_ids=tuple(record.source_events.values_list("id", flat=True)),
        source_uri=record.source_uri,
        user_confirmed_sensitive=True,
    )
    with transaction.atomic():
        result = _submit(user=user, subject=subject, candidate=candidate)
        if not result.ok:
            return result
        held = MemoryRecord.objects.select_for_update().get(pk=record.pk)
        held.close_record_time(MemoryStatus.SUPERSEDED, ReasonCode.CONFIRMED_BY_USER)
        audit_record(
            actor=user_actor(user=user, subject=subject),
            action=AuditAction.MEMORY_CONFIRM,
            subject_id=subject.pk,
            record_id=record.pk,
            extra={"confirmed_as": str(result.record_id) if result.record_id else None},
        )
    return result


def memory_forget(*, user, subject: Subject, record: MemoryRecord) -> UserWriteResult:
    """Delete one memory and all its versions, whichever version the user names (the
    current one, an old one, or one held for review or confirmation): an ``Intent.FORGET``
    candidate, which the write path turns into ``memory_lineage_erase``."""
    return _submit(user=user, subject=subject, candidate=_forget_candidate(record))


def _candidate_from(record: MemoryRecord) -> Candidate:
    """A candidate restating ``record`` as the user's own statement (sensitivity and
    importance at their defaults)."""
    return Candidate.from_record(record, assertion_kind=AssertionKind.USER_EXPLICIT, confidence=1.0)


def _forget_candidate(record: MemoryRecord) -> Candidate:
    return replace(_candidate_from(record), intent=Intent.FORGET, target_record_id=record.id)


def _drop_pending(*, user, subject: Subject, record_id: uuid.UUID) -> None:
    """Delete (through the write path) the copy the policy held for confirmation."""
    record = MemoryRecord.objects.filter(
        tenant_id=subject.tenant_id,
        subject=subject,
        id=record_id,
        status=MemoryStatus.PENDING_CONFIRMATION,
    ).first()
    if record is not None:
        _submit(user=user, subject=subject, candidate=_forget_candidate(record))


# --- settings: pause and consent ---------------------------------------------------------


def subject_memory_pause_set(*, user, subject: Subject, paused: bool) -> Subject:
    """Pause (or resume) memory: agents may still read, nothing new is written."""
    with transaction.atomic():
        locked = Subject.objects.select_for_update().get(pk=subject.pk)
        if locked.memory_paused != paused:
            locked.memory_paused = paused
            locked.save(update_fields=["memory_paused"])
            audit_record(
                actor=user_actor(user=user, subject=subject),
                action=AuditAction.SUBJECT_MEMORY_PAUSED
                if paused
                else AuditAction.SUBJECT_MEMORY_RESUMED,
                subject_id=subject.pk,
            )
    return locked


def subject_consent_withdraw(*, user, subject: Subject, erase_everything: bool) -> int:
    """Withdraw consent to memory (the write policy then refuses every write), and, if the
    user chooses, delete every memory about them. Returns the number of memories deleted.
    """
    actor = user_actor(user=user, subject=subject)
    with transaction.atomic():
        locked = Subject.objects.select_for_update().get(pk=subject.pk)
        if locked.consent_withdrawn_at is None:
            locked.consent_withdrawn_at = timezone.now()
            locked.save(update_fields=["consent_withdrawn_at"])
        audit_record(
            actor=actor,
            action=AuditAction.SUBJECT_CONSENT_WITHDRAWN,
            subject_id=subject.pk,
            extra={"erase_everything": erase_everything},
        )
    if not erase_everything:
        return 0
    return subject_memories_erase_all(user=user, subject=locked)


def subject_consent_give(*, user, subject: Subject) -> Subject:
    """Give consent again: new memories may be written from now on."""
    with transaction.atomic():
        locked = Subject.objects.select_for_update().get(pk=subject.pk)
        if locked.consent_withdrawn_at is not None:
            locked.consent_withdrawn_at = None
            locked.save(update_fields=["consent_withdrawn_at"])
            audit_record(
                actor=user_actor(user=user, subject=subject),
                action=AuditAction.SUBJECT_CONSENT_GIVEN,
                subject_id=subject.pk,
            )
    return locked


def subject_memories_erase_all(*, user, subject: Subject) -> int:
    """Delete everything about the user through the subject-wide deletion workflow — the
    same one as the settings page's "delete everything" and the operator command: every
    memory, every raw event (also those that never became a memory), and everything
    derived, with a receipt and a verification. Returns the number of memories deleted."""
    from memory.services.deletion import subject_erase

    memories = (
        MemoryRecord.objects.filter(tenant_id=subject.tenant_id, subject=subject)
        .exclude(status=MemoryStatus.DELETED)
        .values("lineage_id")
        .distinct()
        .count()
    )
    request = subject_erase(actor=user_actor(user=user, subject=subject), subject=subject)
    if request.status != DeletionStatus.DONE:
        logger.error("erase-all %s for subject %s: %s", request.id, subject.pk, request.status)
    return memories


# --- export --------------------------------------------------------------------------------


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _record_json(r: MemoryRecord, sources: dict[uuid.UUID, list[str]]) -> dict[str, Any]:
    return {
        "id": str(r.id),
        "lineage_id": str(r.lineage_id),
        "supersedes_id": str(r.supersedes_id) if r.supersedes_id else None,
        "status": r.status,
        "status_reason": r.status_reason,
        "memory_type": r.memory_type,
        "namespace": r.namespace,
        "predicate": r.predicate,
        "statement": r.statement,
        "value": r.value,
        "cardinality": r.cardinality,
        "assertion_kind": r.assertion_kind,
        "confidence": r.confidence,
        "valid_from": _iso(r.valid_from),
        "valid_to": _iso(r.valid_to),
        "recorded_at": _iso(r.recorded_at),
        "superseded_at": _iso(r.superseded_at),
        "purpose": r.purpose,
        "sensitivity": r.sensitivity,
        "consent_basis": r.consent_basis,
        "expires_at": _iso(r.expires_at),
        "importance": r.importance,
        "evidence_count": r.evidence_count,
        "source_uri": r.source_uri,
        "source_event_ids": sources.get(r.id, []),
        "created_by_agent_id": str(r.created_by_agent_id) if r.created_by_agent_id else None,
        "created_by_user_id": r.created_by_user_id,
    }


def subject_export(*, user=None, subject: Subject, actor: Actor | None = None) -> dict[str, Any]:
    """Everything remembered about the user, machine-readable: every version of every
    memory (deleted ones as id-only tombstones), the source events with their content,
    the consent state, and the ids of the audit events about them. Audited (ids only).
    ``actor`` names who asked when it is not the signed-in ``user`` (an agent through
    ``GET /api/v1/subject/export``: the same content as the page's JSON export)."""
    records = list(
        MemoryRecord.objects.filter(tenant_id=subject.tenant_id, subject=subject).order_by(
            "lineage_id", "recorded_at", "id"
        )
    )
    sources: dict[uuid.UUID, list[str]] = {}
    for record_id, event_id in MemorySource.objects.filter(
        tenant_id=subject.tenant_id, record__subject=subject
    ).values_list("record_id", "event_id"):
        sources.setdefault(record_id, []).append(str(event_id))
    events = SourceEvent.objects.filter(tenant_id=subject.tenant_id, subject=subject).order_by(
        "occurred_at", "id"
    )
    audit_ids = list(
        AuditEvent.objects.filter(tenant_id=subject.tenant_id, subject_id=subject.pk)
        .order_by("id")
        .values_list("id", flat=True)
    )
    audit_record(
        actor=actor or user_actor(user=user, subject=subject),
        action=AuditAction.SUBJECT_EXPORT,
        subject_id=subject.pk,
        extra={"records": len(records), "events": len(events)},
    )
    return {
        "format": "engram.subject_export",
        "format_version": EXPORT_FORMAT_VERSION,
        "exported_at": timezone.now().isoformat(),
        "subject": {
            "id": str(subject.pk),
            "tenant_id": str(subject.tenant_id),
            "kind": subject.kind,
            "external_id": subject.external_id,
            "display_name": subject.display_name,
        },
        "consent": {
            "memory_paused": subject.memory_paused,
            "consent_withdrawn_at": _iso(subject.consent_withdrawn_at),
        },
        "records": [_record_json(r, sources) for r in records],
        "source_events": [
            {
                "id": str(e.id),
                "kind": e.kind,
                "role": e.role,
                "speaker": e.speaker,
                "content": e.content,
                "thread_id": e.thread_id,
                "uri": e.uri,
                "occurred_at": _iso(e.occurred_at),
                "received_at": _iso(e.received_at),
            }
            for e in events
        ],
        "audit_event_ids": audit_ids,
    }


CSV_COLUMNS = (
    "id",
    "lineage_id",
    "supersedes_id",
    "status",
    "status_reason",
    "memory_type",
    "namespace",
    "predicate",
    "statement",
    "assertion_kind",
    "confidence",
    "valid_from",
    "valid_to",
    "recorded_at",
    "superseded_at",
    "purpose",
    "sensitivity",
    "consent_basis",
    "source_event_ids",
)


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        value = " ".join(value)
    text = str(value)
    # A spreadsheet would run a cell starting with = + - @ as a formula (CSV injection).
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        text = "'" + text
    return text


def subject_export_csv(*, user, subject: Subject) -> str:
    """The memory versions of ``subject_export`` as CSV, one row per version."""
    data = subject_export(user=user, subject=subject)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for record in data["records"]:
        writer.writerow([_csv_cell(record[c]) for c in CSV_COLUMNS])
    return buffer.getvalue()
