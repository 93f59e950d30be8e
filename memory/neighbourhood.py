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
from typing import Any

from django.db import connection

from memory.lexical import value_text

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


def passage_text(statement: str, value: Any = None, context: str | None = None) -> str:
    """The passage the index embeds for a memory (``memory.services.indexing.embedding_text``):
    its context turn if any, its statement, and the value's words the statement lacks. The
    learned detectors' embedding heads read the same passage (memory/detectors/learned)."""
    text = statement
    extra = value_text(value)
    if extra and extra not in statement:
        text = f"{text}\n{extra}"
    if context is not None:
        text = f"{context}\n{text}"
    return text


# The turn before a memory's earliest source event, and whether it is held back (a source
# of a held or deleted record, or of one more sensitive than the memory: ``{rank_self}``).
_PREVIOUS_SQL = """
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
                AND (held.status = ANY(%(held_back)s) OR {rank_prev} > {rank_self})
          )
"""


def _context(event_id: uuid.UUID, speaker: str, content: str) -> Context:
    text = f"{speaker}: {content}" if speaker else content
    return Context(event_id=event_id, text=text[:CONTEXT_MAX_CHARS])


def preceding_turn_of_events(
    event_ids: Sequence[uuid.UUID],
    sensitivity: str,
    *,
    tenant_id: uuid.UUID,
    subject_id: uuid.UUID,
) -> Context | None:
    """The context turn a memory citing ``event_ids`` with ``sensitivity`` would have if
    it were stored now (``preceding_turns``' rule, before the record exists): the write
    path embeds a candidate's passage with it before deciding (memory/services/
    write_vectors.py). None without one."""
    if not event_ids:
        return None
    previous = _PREVIOUS_SQL.format(
        rank_prev=_RANK_SQL.format(col="held.sensitivity"),
        rank_self=_RANK_SQL.format(col="%(sensitivity)s"),
    )
    sql = f"""
        SELECT prev.id, prev.speaker, prev.content
        FROM (
            SELECT e.tenant_id, e.subject_id, e.thread_id, e.occurred_at, e.received_at, e.id
            FROM memory_sourceevent e
            WHERE e.id = ANY(%(events)s) AND e.tenant_id = %(tenant)s
              AND e.subject_id = %(subject)s
            ORDER BY e.occurred_at, e.received_at, e.id
            LIMIT 1
        ) first
        {previous}
    """
    params = {
        "events": list(event_ids),
        "tenant": tenant_id,
        "subject": subject_id,
        "sensitivity": sensitivity,
        "held_back": list(_HELD_BACK),
    }
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return _context(*row) if row else None


def preceding_turns(record_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, Context]:
    """The context turn of each record that has one (see the module docstring)."""
    if not record_ids:
        return {}
    previous = _PREVIOUS_SQL.format(
        rank_prev=_RANK_SQL.format(col="held.sensitivity"),
        rank_self=_RANK_SQL.format(col="r.sensitivity"),
    )
    sql = f"""
        SELECT first.record_id, prev.id, prev.speaker, prev.content
        FROM (
            SELECT DISTINCT ON (s.record_id) s.record_id, e.tenant_id, e.subject_id,
                   e.thread_id, e.occurred_at, e.received_at, e.id
            FROM memory_memorysource s
            JOIN memory_sourceevent e ON e.id = s.event_id
            WHERE s.record_id = ANY(%(records)s)
            ORDER BY s.record_id, e.occurred_at, e.received_at, e.id
        ) first
        JOIN memory_memoryrecord r ON r.id = first.record_id
        {previous}
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, {"records": list(record_ids), "held_back": list(_HELD_BACK)})
        rows = cursor.fetchall()
    return {record_id: _context(*rest) for record_id, *rest in rows}
