"""Writing audit events. Callers pass ids and codes; this module never takes text.

One event is written elsewhere: a recall's read event goes into the same statement as its
trace (``memory.recall.trace.record_recall``), each column prepared by the model's field as
here. A rule added to every audit event belongs there too."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Iterable
from typing import Any

from django.db import connections, router

from core.actor import Actor
from core.db.json_rows import rows_insert
from core.models import AuditEvent


def audit_record(
    *,
    actor: Actor,
    action: str,
    operation: str = "",
    reason_code: str = "",
    subject_id: uuid.UUID | None = None,
    record_id: uuid.UUID | None = None,
    event_id: uuid.UUID | None = None,
    request_id: str = "",
    extra: dict[str, Any] | None = None,
) -> AuditEvent:
    return AuditEvent.objects.create(
        tenant_id=actor.tenant_id,
        actor_type=actor.type,
        actor_id=actor.id,
        action=action,
        operation=operation,
        reason_code=reason_code,
        subject_id=subject_id,
        record_id=record_id,
        event_id=event_id,
        request_id=request_id,
        extra=extra or {},
    )


def audit_record_many(events: Iterable[AuditEvent]) -> None:
    rows_insert(AuditEvent, list(events))


# The columns ``audit_rows_insert`` writes: every concrete column but the serial id.
AUDIT_COLUMNS = (
    "tenant_id",
    "occurred_at",
    "actor_type",
    "actor_id",
    "action",
    "operation",
    "reason_code",
    "subject_id",
    "record_id",
    "event_id",
    "request_id",
    "extra",
)


def _plain(value):
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, dt.datetime) and value.tzinfo is not None:
        return value.isoformat()
    raise TypeError(f"not a plain audit value: {type(value).__name__}")


def audit_rows_insert(rows: list[tuple]) -> None:
    """``audit_record_many`` for rows given as tuples in ``AUDIT_COLUMNS``' order (ids,
    codes, an aware time and a JSON ``extra``), never built as ``AuditEvent`` instances:
    the statement ``core.db.json_rows`` sends (``json_populate_recordset`` against the
    table's row type), the document encoded from the tuples directly."""
    if not rows:
        return
    connection = connections[router.db_for_write(AuditEvent)]
    q = connection.ops.quote_name
    table = q(AuditEvent._meta.db_table)
    cols = ", ".join(q(c) for c in AUDIT_COLUMNS)
    payload = json.dumps(
        [dict(zip(AUDIT_COLUMNS, row, strict=True)) for row in rows],
        default=_plain,
        allow_nan=False,
        ensure_ascii=False,
        separators=(",", ":"),
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({cols}) SELECT {cols} "
            f"FROM json_populate_recordset(NULL::{table}, %s::json)",
            [payload],
        )
