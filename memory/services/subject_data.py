"""A user's memories as a whole: importing them, pausing and consent, erasing
everything, and the export (JSON and CSV)."""

from __future__ import annotations

import csv
import io
import logging
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction, Operation, ReasonCode
from core.models import AuditEvent
from memory.models import (
    AssertionKind,
    ConsentBasis,
    DeletionStatus,
    MemoryMention,
    MemoryRecord,
    MemorySource,
    MemoryStatus,
    SourceEvent,
    Subject,
)
from memory.services.writes import candidates_submit
from memory.write_policy import Candidate

logger = logging.getLogger(__name__)


DEFAULT_PURPOSE = "personalization"


EXPORT_FORMAT_VERSION = 1


def reason_text(code: str) -> str:
    return str(ReasonCode(code).label) if code in ReasonCode.values else code.replace("_", " ")


def user_actor(*, user, subject: Subject) -> Actor:
    return Actor.user(user.pk, subject.tenant_id)


IMPORT_NAMESPACE = "imported"


IMPORT_SOURCE_URI = "import:{source}"


@dataclass(frozen=True)
class ImportedItem:
    """One imported line and what the write policy did with it."""

    statement: str
    operation: str
    reason_code: str
    record_id: uuid.UUID | None = None

    @property
    def kept(self) -> bool:
        return self.operation in (Operation.ADD, Operation.CONFIRM, Operation.SUPERSEDE)

    @property
    def waiting(self) -> bool:
        return self.operation == Operation.QUARANTINE

    @property
    def reason(self) -> str:
        return reason_text(self.reason_code)


def memories_import(
    *, user, subject: Subject, items: list, source: str, purpose: str = DEFAULT_PURPOSE
) -> list[ImportedItem]:
    """Import memories from another assistant (``memory.importers``): each item is a
    candidate the user vouches for by importing it (``user_confirmed``), judged by the
    write policy like any other — secrets and passing states are refused, sensitive
    details wait for the user's confirmation on their list, duplicates only confirm what
    is already remembered. Items keep their topic and dates when the export had them
    (else the topic "Imported"); the source says where they came from. One audit event
    with the counts, besides each write's own."""
    candidates = [
        Candidate(
            memory_type=item.memory_type,
            namespace=item.namespace or IMPORT_NAMESPACE,
            statement=item.statement[: settings.ENGRAM["MAX_TEXT_CHARS"]],
            predicate=item.predicate,
            assertion_kind=AssertionKind.USER_CONFIRMED,
            confidence=1.0,
            purpose=purpose,
            consent_basis=ConsentBasis.EXPLICIT_CONSENT,
            valid_from=item.valid_from,
            valid_to=item.valid_to,
            source_uri=IMPORT_SOURCE_URI.format(source=source),
        )
        for item in items
    ]
    actor = user_actor(user=user, subject=subject)
    results: list[ImportedItem] = []
    batch = settings.ENGRAM["MAX_BATCH_ITEMS"]
    for start in range(0, len(candidates), batch):
        chunk = candidates[start : start + batch]
        outcomes = candidates_submit(
            actor=actor,
            subject=subject,
            candidates=chunk,
            user_id=user.pk,
            request_id=uuid.uuid4().hex,
        )
        results += [
            ImportedItem(c.statement, o.operation, o.reason_code, o.record_id)
            for c, o in zip(chunk, outcomes, strict=True)
        ]
    audit_record(
        actor=actor,
        action=AuditAction.SUBJECT_IMPORT,
        subject_id=subject.pk,
        extra={
            "source": source,
            "items": len(results),
            "kept": sum(r.kept for r in results),
            "waiting": sum(r.waiting for r in results),
        },
    )
    return results


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
    # Working memory is not kept past a withdrawal, whatever the user chose for memories.
    from memory.working.service import working_subject_drop_on_withdrawal

    working_subject_drop_on_withdrawal(tenant_id=subject.tenant_id, subject_id=subject.pk)
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


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value else None


def _record_json(
    r: MemoryRecord, sources: dict[uuid.UUID, list[str]], named: dict[uuid.UUID, list[dict]]
) -> dict[str, Any]:
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
        # The entity index's rows of this version (``memory.entities``).
        "entities": named.get(r.id, []),
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
        # In the order they were recorded (a memory's versions follow one another).
        MemoryRecord.objects.filter(tenant_id=subject.tenant_id, subject=subject).order_by(
            "recorded_at", "valid_from", "id"
        )
    )
    sources: dict[uuid.UUID, list[str]] = {}
    for record_id, event_id in MemorySource.objects.filter(
        tenant_id=subject.tenant_id, record__subject=subject
    ).values_list("record_id", "event_id"):
        sources.setdefault(record_id, []).append(str(event_id))
    named: dict[uuid.UUID, list[dict]] = {}
    for record_id, surface, norm, kind, alias_of in (
        MemoryMention.objects.filter(tenant_id=subject.tenant_id, subject=subject)
        .order_by("record_id", "id")
        .values_list("record_id", "surface", "norm", "kind", "alias_of")
    ):
        named.setdefault(record_id, []).append(
            {"name": surface, "normalised": norm, "kind": kind, "alias_of": alias_of}
        )
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
        "records": [_record_json(r, sources, named) for r in records],
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
    ("statement", _("Memory")),
    ("kind", _("Kind")),
    ("topic", _("Topic")),
    ("source", _("Where it comes from")),
    ("state", _("Status")),
    ("valid_from", _("True since")),
    ("valid_to", _("True until")),
    ("recorded_at", _("Recorded")),
    ("purpose", _("Used for")),
    ("confidence", _("Confidence")),
    ("id", _("Memory id")),
    ("lineage_id", _("Lineage id")),
    ("supersedes_id", _("Replaces version")),
)


def _readable_time(value: str | None) -> str:
    """An ISO time as "2025-09-15 09:00" in the active time zone: readable, and sorts."""
    if not value:
        return ""
    return timezone.localtime(datetime.fromisoformat(value)).strftime("%Y-%m-%d %H:%M")


def _readable_record(record: dict[str, Any]) -> dict[str, Any]:
    from memory.labels import purpose_label, topic_label
    from memory.models import MemoryType

    def label(choices, value: str) -> str:
        return str(choices(value).label) if value in choices.values else value

    now = timezone.now()
    ended = record["valid_to"] and datetime.fromisoformat(record["valid_to"]) <= now
    state = label(MemoryStatus, record["status"])
    if record["status"] == MemoryStatus.ACTIVE and ended:
        state = str(_("no longer true"))
    return {
        "statement": record["statement"],
        "kind": label(MemoryType, record["memory_type"]),
        "topic": topic_label(record["namespace"]),
        "source": label(AssertionKind, record["assertion_kind"]),
        "state": state,
        "valid_from": _readable_time(record["valid_from"]),
        "valid_to": _readable_time(record["valid_to"]),
        "recorded_at": _readable_time(record["recorded_at"]),
        "purpose": purpose_label(record["purpose"]),
        "confidence": f"{round(record['confidence'] * 100)}%",
        "id": record["id"],
        "lineage_id": record["lineage_id"],
        "supersedes_id": record["supersedes_id"] or "",
    }


def _csv_cell(value: Any) -> str:
    if value is None:
        return ""
    text = str(value)
    # A spreadsheet would run a cell starting with = + - @ as a formula (CSV injection).
    if text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        text = "'" + text
    return text


def subject_export_csv(*, user, subject: Subject) -> str:
    """The user's memories as a spreadsheet: one row per version that is not deleted,
    newest first, in the pages' words, ids in the last columns. It is for people: the
    same records as ``subject_export`` (the machine format the API also serves and the
    import reads), ordered as the list page orders them, without deleted memories."""
    data = subject_export(user=user, subject=subject)
    records = [r for r in data["records"] if r["status"] != MemoryStatus.DELETED]
    records.sort(key=lambda r: (r["recorded_at"] or "", r["id"]), reverse=True)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([str(title) for _key, title in CSV_COLUMNS])
    for record in records:
        row = _readable_record(record)
        writer.writerow([_csv_cell(row[key]) for key, _title in CSV_COLUMNS])
    return buffer.getvalue()
