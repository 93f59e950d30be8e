"""The audit rows of a write request: one per candidate, ids, codes and findings, never
the text (``writes._write_audit`` is the reference, one ``AuditEvent`` each).

With ``ENGRAM_WRITE_BATCH["PLAIN_AUDIT_ROWS"]`` (and ``JSON_INSERTS``) on, the rows go to
their insert as plain tuples (``core.audit.audit_rows_insert``), never built as model
instances only to be read back field by field; off: the instances through
``core.audit.audit_record_many``. The same rows either way
(tests/memory/test_write_plain_rows.py)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence

from django.conf import settings
from django.utils import timezone

from core.actor import Actor
from core.audit import audit_record_many, audit_rows_insert
from core.codes import AuditAction
from memory.write_policy import Candidate


def write_audits(
    actor: Actor,
    subject_id: uuid.UUID,
    request_id: str,
    candidates: Sequence[Candidate],
    outcomes: Sequence,
    reference: Callable,
) -> None:
    """Insert one audit row per decision, in the caller's transaction: one statement."""
    pairs = list(zip(candidates, outcomes, strict=True))
    batch = settings.ENGRAM_WRITE_BATCH
    if not (batch.get("PLAIN_AUDIT_ROWS", True) and batch.get("JSON_INSERTS", True)):
        audit_record_many(
            reference(actor, subject_id, request_id, index, candidate, outcome)
            for index, (candidate, outcome) in enumerate(pairs)
        )
        return
    head = (actor.tenant_id,)
    who = (actor.type, actor.id, AuditAction.MEMORY_WRITE)
    audit_rows_insert(
        [
            (
                *head,
                timezone.now(),  # as the model's default, row by row
                *who,
                outcome.operation,
                outcome.reason_code,
                subject_id,
                outcome.record_id,
                None,
                request_id,
                {
                    "index": index,
                    "target_id": str(outcome.target_id) if outcome.target_id else None,
                    "findings": list(outcome.findings),
                    "source_event_ids": [str(e) for e in candidate.source_event_ids],
                },
            )
            for index, (candidate, outcome) in enumerate(pairs)
        ]
    )
