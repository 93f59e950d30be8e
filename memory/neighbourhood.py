"""A turn's neighbourhood: the turn said just before it in the same conversation.

A memory taken from one turn of a conversation often means little alone: "Yes, it was
last week, at the lake!" answers a question only next to the turn it replies to
("Did you go camping?"). The lexical doc and the embedding of such a memory therefore
carry the preceding turn as *context*: it helps the memory to be found, and it is never
returned — recall still answers with the memory's own statement.

The preceding turn is the source event just before the memory's (earliest) source event
in the same thread, in conversation order ``(occurred_at, received_at, id)`` — the events
API receives a batch in the order it is sent (``memory.services.events``). A turn is no
context when it is held back: the source of a memory that is quarantined, waiting for
confirmation or deleted, or of one more sensitive than the memory it would describe.

Derived rows built with a context remember its event (``context_event_id``), so erasing
that event rebuilds them without it (``memory.services.index_maintenance.context_rows_rebuild``).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import connection

# Context longer than this is cut: the model reads 512 tokens, the memory comes first.
CONTEXT_MAX_CHARS = 600

_HELD_BACK = ("quarantined", "pending_confirmation", "deleted")
_RANK_SQL = (
    "CASE {col} WHEN 'public' THEN 0 WHEN 'internal' THEN 1 WHEN 'confidential' THEN 2 ELSE 3 END"
)


@dataclass(frozen=True)
class Context:
    event_id: uuid.UUID
    text: str  # "Speaker: what they said"


def preceding_turns(record_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, Context]:
    """The context turn of each record that has one (see the module docstring)."""
    if not record_ids:
        return {}
    rank_prev = _RANK_SQL.format(col="held.sensitivity")
    rank_self = _RANK_SQL.format(col="r.sensitivity")
    sql = f"""
        SELECT first.record_id, prev.id, prev.speaker, prev.content
        FROM (
            SELECT DISTINCT ON (s.record_id) s.record_id, e.tenant_id, e.subject_id,
                   e.thread_id, e.occurred_at, e.received_at, e.id
            FROM memory_memorysource s
            JOIN memory_sourceevent e ON e.id = s.event_id
            WHERE s.record_id = ANY(%s)
            ORDER BY s.record_id, e.occurred_at, e.received_at, e.id
        ) first
        JOIN memory_memoryrecord r ON r.id = first.record_id
        JOIN LATERAL (
            SELECT p.id, p.speaker, p.content
            FROM memory_sourceevent p
            WHERE p.tenant_id = first.tenant_id
              AND p.subject_id = first.subject_id
              AND p.thread_id = first.thread_id
              AND (p.occurred_at, p.received_at, p.id)
                  < (first.occurred_at, first.received_at, first.id)
            ORDER BY p.occurred_at DESC, p.received_at DESC, p.id DESC
            LIMIT 1
        ) prev ON true
        WHERE first.thread_id <> ''
          AND prev.content <> ''
          AND NOT EXISTS (
              SELECT 1 FROM memory_memorysource hs
              JOIN memory_memoryrecord held ON held.id = hs.record_id
              WHERE hs.event_id = prev.id
                AND (held.status = ANY(%s) OR {rank_prev} > {rank_self})
          )
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, [list(record_ids), list(_HELD_BACK)])
        rows = cursor.fetchall()
    out = {}
    for record_id, event_id, speaker, content in rows:
        text = f"{speaker}: {content}" if speaker else content
        out[record_id] = Context(event_id=event_id, text=text[:CONTEXT_MAX_CHARS])
    return out
