"""Appending raw source events: stored first, before any interpretation, so nothing an
agent sent is lost even if extraction or policy later rejects everything in it."""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from core import jobs
from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction
from core.db.json_rows import rows_insert
from memory.consent import events_after_consent_withdrawn
from memory.content_rules import redact_secrets
from memory.models import RetentionClass, SourceEvent, Subject


class ConsentWithdrawn(Exception):
    """The subject withdrew consent and the tenant's policy stores none of their events."""


@dataclass(frozen=True)
class EventInput:
    client_event_id: str
    kind: str
    role: str
    content: str
    thread_id: str = ""
    speaker: str = ""
    uri: str = ""
    occurred_at: datetime | None = None
    retention_class: str = "standard"
    metadata: dict[str, Any] | None = None


@dataclass(frozen=True)
class EventOutcome:
    client_event_id: str
    event_id: uuid.UUID | None
    created: bool
    error_code: str = ""
    error_message: str = ""
    redactions: int = 0


_MAX_METADATA_DEPTH = 64


def _redact_json(value: Any, depth: int = 0) -> tuple[Any, int]:
    """``value`` with every string (keys included) passed through ``redact_secrets``.
    Nesting deeper than any real metadata is not scanned but dropped, so nothing
    unscanned is ever stored."""
    if depth > _MAX_METADATA_DEPTH:
        return "[REDACTED]", 1
    if isinstance(value, str):
        return redact_secrets(value)
    if isinstance(value, dict):
        out, count = {}, 0
        for key, item in value.items():
            new_key, key_count = _redact_json(key) if isinstance(key, str) else (key, 0)
            new_item, item_count = _redact_json(item, depth + 1)
            if isinstance(item, str) and isinstance(key, str) and not item_count:
                # {"wifi_password": "k7Lm9pQ2"}: the key is the credential word.
                _, item_count = redact_secrets(f"{key.replace('_', ' ')}: {item}")
                new_item = "[REDACTED]" if item_count else item
            out[new_key] = new_item
            count += key_count + item_count
        return out, count
    if isinstance(value, list):
        items = [_redact_json(v, depth + 1) for v in value]
        return [v for v, _ in items], sum(c for _, c in items)
    return value, 0


def _fingerprint(item: EventInput, content: str) -> str:
    payload = {
        "kind": item.kind,
        "role": item.role,
        "content": content,
        "thread_id": item.thread_id,
        "speaker": item.speaker,
        "uri": item.uri,
        "occurred_at": item.occurred_at.isoformat() if item.occurred_at else None,
        "retention_class": item.retention_class,
        "metadata": item.metadata or {},
    }
    return hashlib.sha256(
        json.dumps(payload, sort_keys=True, ensure_ascii=False).encode()
    ).hexdigest()


def _consent_state(subject: Subject) -> tuple[datetime | None, dict]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT s.consent_withdrawn_at, t.policy FROM memory_subject s"
            " JOIN accounts_tenant t ON t.id = s.tenant_id"
            " WHERE s.id = %s FOR KEY SHARE OF s",
            [subject.pk],
        )
        withdrawn, policy = cursor.fetchone()
    if isinstance(policy, str):
        policy = json.loads(policy)
    return withdrawn, policy or {}


class EventIdConflict(Exception):
    """Events of this batch reuse a client_event_id this agent already used for this
    subject with other content. Nothing of the batch was stored."""

    def __init__(self, client_event_ids: list[str]) -> None:
        super().__init__("client_event_id reused with other content")
        self.client_event_ids = client_event_ids


def events_append(
    *,
    actor: Actor,
    agent_id: uuid.UUID,
    subject: Subject,
    items: Sequence[EventInput],
    request_id: str = "",
    queue_extraction: bool = True,
    savepoint: bool = True,
) -> list[EventOutcome]:
    """Store a batch of events, idempotently by (agent, subject, client_event_id).

    A retry of an already stored event returns its id with ``created=False``. The same
    client id for this subject with a different payload is an error the caller must fix:
    ``EventIdConflict`` is raised and nothing of the batch is stored (the transaction is
    rolled back), so a corrected retry of the whole batch stores it once. Another
    subject's identical id is simply another event. Detected secrets are redacted before
    anything is written. ``queue_extraction=False``: the caller decides about the
    extraction job of the new events (``turn_append``). ``savepoint=False``: the caller's
    atomic block is the unit (its own savepoint is undone whole when this raises).
    """
    now = timezone.now()
    prepared: list[tuple[EventInput, str, str, int]] = []
    for item in items:
        # The same detectors as the write policy, before anything is stored: a secret the
        # policy would refuse as a memory never reaches the raw event either (its content,
        # its URI or any string in its metadata), nor the exports and indexes built from it.
        content, redactions = redact_secrets(item.content)
        uri, uri_redactions = redact_secrets(item.uri) if item.uri else ("", 0)
        metadata, metadata_redactions = _redact_json(item.metadata or {})
        item = replace(item, uri=uri, metadata=metadata)
        redactions += uri_redactions + metadata_redactions
        prepared.append((item, content, _fingerprint(item, content), redactions))

    client_ids = [p[0].client_event_id for p in prepared]
    with transaction.atomic(savepoint=savepoint):
        # Consent: read under KEY SHARE, which a concurrent withdrawal (FOR
        # UPDATE on the subject) waits for and which waits for it — never both at once.
        withdrawn, tenant_policy = _consent_state(subject)
        if withdrawn is not None:
            if events_after_consent_withdrawn(tenant_policy) == "refuse":
                raise ConsentWithdrawn()
            prepared = [
                (replace(item, retention_class=RetentionClass.SHORT), c, f, r)
                for item, c, f, r in prepared
            ]
        rows = [
            SourceEvent(
                id=uuid.uuid4(),
                tenant_id=subject.tenant_id,
                subject=subject,
                agent_id=agent_id,
                client_event_id=item.client_event_id,
                thread_id=item.thread_id,
                kind=item.kind,
                role=item.role,
                speaker=item.speaker,
                content=content,
                uri=item.uri,
                metadata=item.metadata or {},
                retention_class=item.retention_class,
                occurred_at=item.occurred_at or now,
                # One microsecond apart in the order submitted: turns of one session
                # often share ``occurred_at``, and a turn's place in its conversation
                # (``memory.neighbourhood``) is (occurred_at, received_at).
                received_at=now + timedelta(microseconds=position),
                payload_sha256=fingerprint,
            )
            for position, (item, content, fingerprint, _) in enumerate(prepared)
        ]
        # ON CONFLICT DO NOTHING: concurrent retries of the same event cannot both insert.
        # ENGRAM_INGEST["EVENTS_JSON_INSERT"]: the rows as one JSON document
        # (core/db/json_rows.py: the same rows as bulk_create, its reference).
        if settings.ENGRAM_INGEST["EVENTS_JSON_INSERT"]:
            rows_insert(SourceEvent, rows, ignore_conflicts=True)
        else:
            SourceEvent.objects.bulk_create(rows, ignore_conflicts=True)
        stored = {
            e.client_event_id: e
            for e in SourceEvent.objects.filter(
                tenant_id=subject.tenant_id,
                agent_id=agent_id,
                subject=subject,
                client_event_id__in=client_ids,
            ).only("id", "client_event_id", "payload_sha256", "subject_id")
        }
        outcomes: list[EventOutcome] = []
        conflicts: list[str] = []
        for (item, _content, fingerprint, redactions), row in zip(prepared, rows, strict=True):
            event = stored.get(item.client_event_id)
            if event is None:  # cannot happen after the insert above; be explicit anyway
                outcomes.append(
                    EventOutcome(
                        item.client_event_id,
                        None,
                        False,
                        "not_stored",
                        "The event could not be stored; retry it.",
                    )
                )
                continue
            if event.payload_sha256 != fingerprint:
                conflicts.append(item.client_event_id)
                continue
            # Our row won the insert only if the stored id is the one we generated.
            created = event.id == row.id
            outcomes.append(
                EventOutcome(item.client_event_id, event.id, created, redactions=redactions)
            )
        if conflicts:
            raise EventIdConflict(conflicts)  # rolls the whole batch back
        created_ids = [str(o.event_id) for o in outcomes if o.created]
        # Background extraction (memory.tasks) starts once this transaction commits.
        if created_ids and queue_extraction and settings.ENGRAM_LIFECYCLE["AUTO_EXTRACT"]:
            jobs.enqueue_on_commit("memory.extract_events", str(subject.tenant_id), created_ids)
        audit_record(
            actor=actor,
            action=AuditAction.EVENT_APPEND,
            subject_id=subject.id,
            request_id=request_id,
            extra={
                "created": created_ids,
                "replayed": sum(1 for o in outcomes if o.event_id and not o.created),
                "redactions": sum(o.redactions for o in outcomes),
            },
        )
    return outcomes
