"""After recall: the trace (ids only), access statistics and the read's audit row; and the
agent's feedback on a trace."""

from __future__ import annotations

import hashlib
import uuid

from django.conf import settings
from django.db import connections, router
from django.utils import timezone

from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction
from core.db import with_commit as commit_queue
from core.models import AuditEvent
from core.sqltemplate import insert_new
from core.tenancy import tenant_context
from memory.content_rules import normalize_text
from memory.models import RecallTrace
from memory.recall.accel import prepared
from memory.recall.pack import RecallItem
from memory.recall.scope import RecallRequest, RecallScope
from memory.services.access_stats import access_recorded
from memory.services.recall_feedback import recall_feedback_recorded


def query_fingerprint(query: str) -> str:
    return hashlib.sha256(normalize_text(query).encode()).hexdigest()


def record_recall(
    *,
    actor: Actor,
    scope: RecallScope,
    request: RecallRequest,
    items: list[RecallItem],
    request_id: str,
    latency_ms: float | None = None,
    with_commit: bool = False,
) -> uuid.UUID:
    """The trace (ids only) and the read's audit event. ``with_commit``: the caller runs in
    the request's own transaction, scoped to the tenant until it commits (an API recall):
    the insert may go with that commit (``core.db.with_commit``)."""
    ids = [i.id for i in items]
    trace_id = uuid.uuid4()
    now = timezone.now()
    trace = RecallTrace(
        id=trace_id,
        tenant_id=scope.tenant_id,
        subject_id=scope.subject_id,
        agent_id=scope.agent_id,
        purpose=request.purpose,
        query_sha256=query_fingerprint(request.query),
        record_ids=ids,
        created_at=now,
        latency_ms=latency_ms,
    )
    audit = AuditEvent(
        tenant_id=actor.tenant_id,
        occurred_at=now,
        actor_type=actor.type,
        actor_id=actor.id,
        action=AuditAction.MEMORY_READ,
        operation="RECALL",
        subject_id=scope.subject_id,
        request_id=request_id,
        extra={
            "trace_id": str(trace_id),
            "purpose": request.purpose,
            "record_ids": [str(i) for i in ids],
        },
    )
    if settings.ENGRAM_RETRIEVAL["COMPILED_QUERIES"]:
        # Both rows in one statement whose SQL is written once (the ORM's insert is
        # built and compiled on every save).
        connection = connections[router.db_for_write(RecallTrace)]

        def write() -> None:
            insert_new([trace, audit], connection, cursor=_trace_cursor(connection))

        if not (
            with_commit and commit_queue.enabled() and commit_queue.at_commit(connection, write)
        ):
            write()
    else:
        trace.save(force_insert=True)
        audit.save(force_insert=True)
    # Access statistics are written off the request, after this transaction commits;
    # evaluation runs freeze them (ENGRAM_RECALL_FREEZE_ACCESS).
    if not settings.ENGRAM_RETRIEVAL["FREEZE_ACCESS"]:
        access_recorded(scope.tenant_id, ids, now)
    return trace_id


def _trace_cursor(connection):
    """With ``ENGRAM_RECALL_PREPARED_TRACE`` (and prepared statements on), the trace's
    insert prepared on its connection like recall's reads (``accel.prepared``): its
    values sent apart from its text, parsed and planned once per connection; the same
    statement and the same rows. Otherwise None: Django's cursor."""
    if not settings.ENGRAM_RETRIEVAL["PREPARED_TRACE"] or not prepared.enabled():
        return None
    return lambda: prepared.cursor(connection)


class RecallTraceNotFound(Exception):
    pass


class RecallFeedbackUnknownIds(Exception):
    """Used ids the trace never returned: the agent cannot report memories it did not get."""

    def __init__(self, record_ids: list[uuid.UUID]) -> None:
        super().__init__(record_ids)
        self.record_ids = record_ids


class RecallFeedbackConflict(Exception):
    """The trace already has different feedback: the first report stands."""


def recall_feedback_record(
    *,
    actor: Actor,
    scope: RecallScope,
    trace_id: uuid.UUID,
    used_record_ids: list[uuid.UUID],
    helpful: bool | None,
) -> RecallTrace:
    """The agent that recalled reports which of the recall's ids it used and whether they
    helped, once. The same report again changes nothing (a retry after a lost answer); a
    different one is refused (``RecallFeedbackConflict``), so the utility rate and the
    importance feedback count each recall once. Another subject's or another agent's
    recall is not found; an id the recall did not return is refused."""
    used = list(dict.fromkeys(used_record_ids))
    with tenant_context(scope.tenant_id):
        trace = (
            RecallTrace.objects.select_for_update()
            .filter(
                tenant_id=scope.tenant_id,
                subject_id=scope.subject_id,
                agent_id=scope.agent_id,
                id=trace_id,
            )
            .first()
        )
        if trace is None:
            raise RecallTraceNotFound(trace_id)
        returned = set(trace.record_ids)
        unknown = [i for i in used if i not in returned]
        if unknown:
            raise RecallFeedbackUnknownIds(unknown)
        if trace.feedback_at is not None:
            if set(trace.used_record_ids) == set(used) and trace.helpful == helpful:
                return trace
            raise RecallFeedbackConflict(trace_id)
        trace.used_record_ids = used
        trace.helpful = helpful
        trace.feedback_at = timezone.now()
        trace.save(update_fields=["used_record_ids", "helpful", "feedback_at"])
        audit_record(
            actor=actor,
            action=AuditAction.MEMORY_RECALL_FEEDBACK,
            subject_id=scope.subject_id,
            extra={
                "trace_id": str(trace.id),
                "used_record_ids": [str(i) for i in trace.used_record_ids],
                "helpful": helpful,
            },
        )
        recall_feedback_recorded(trace)
    return trace
