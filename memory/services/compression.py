"""Conversation compression: one summary per thread that keeps what a later turn needs —
the user's goals, confirmed facts, open tasks, key tool results and constraints — each
item with the ids of the events it states. Rule-based and deterministic, so a summary can
be rebuilt exactly when one of its events is deleted.

A summary is rebuilt whole from the thread's events (in (occurred_at, received_at, id)
order) and the active memories citing them (each event's in (recorded_at, id) order).
``ENGRAM_INGEST_SUMMARY_ONE_READ`` (default on) reads both in one statement, as plain
rows, and writes the summary by one upsert: two round trips where the reference
(``false``) takes six (two reads, ``update_or_create``'s savepoint, locking read and
write). tests/memory/test_thread_summary_paths.py holds the two equal after any sequence
of appends, candidates, supersessions and deletions."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable
from typing import Any, NamedTuple

from django.conf import settings
from django.contrib.postgres.expressions import ArraySubquery
from django.db import connection
from django.db.models import OuterRef
from django.utils import timezone
from psycopg.types.json import Jsonb

from core.actor import Actor
from memory.clauses import split_clauses
from memory.models import EventRole, MemorySource, MemoryStatus, SourceEvent, ThreadSummary

MAX_ITEMS_PER_KIND = 10
MAX_ITEM_CHARS = 300

_GOAL = re.compile(
    r"\b(?:I\s+(?:want|need|would\s+like|'d\s+like)\s+to|my\s+goal|I'm\s+trying\s+to|help\s+me)\b"
    r"|我(?:想|需要|希望|打算)|目标是|帮我",
    re.IGNORECASE,
)
_TASK = re.compile(
    r"\b(?:todo|to-do|next\s+step|follow\s+up|remind\s+me|please\s+(?:send|prepare|draft|"
    r"check|book|schedule))\b|待办|下一步|跟进|提醒我|请(?:发送|准备|起草|检查|预订|安排)",
    re.IGNORECASE,
)
_DONE = re.compile(r"\b(?:done|finished|completed|resolved)\b|完成了|搞定了|已解决", re.IGNORECASE)
_CONSTRAINT = re.compile(
    r"\b(?:must(?:\s+not)?|never|don'?t|do\s+not|no\s+more\s+than|at\s+most|deadline|budget|"
    r"only|before)\b|必须|不要|不能|不得|最多|截止|预算|只能|之前",
    re.IGNORECASE,
)


def _item(kind: str, text: str, event_ids: Iterable[uuid.UUID]) -> dict[str, Any]:
    return {
        "kind": kind,
        "text": text[:MAX_ITEM_CHARS],
        "source_event_ids": sorted(str(e) for e in set(event_ids)),
    }


def summary_items(events: list[SourceEvent], confirmed: dict[uuid.UUID, list[str]]) -> list:
    """The summary of events in time order. ``confirmed`` maps an event id to the active
    memory statements it supports (facts the write policy accepted)."""
    goals, facts, tasks, tools, constraints = [], [], [], [], []
    for event in events:
        if event.role == EventRole.TOOL or event.kind == "tool_result":
            tools.append(_item("tool_result", event.content.strip(), [event.id]))
            continue
        if event.role != EventRole.USER:
            continue
        for statement in confirmed.get(event.id, []):
            facts.append(_item("fact", statement, [event.id]))
        for clause in split_clauses(event.content):
            if _DONE.search(clause) and tasks:
                tasks.pop()  # the most recent open task was reported done
            elif _TASK.search(clause):
                tasks.append(_item("task", clause, [event.id]))
            elif _GOAL.search(clause):
                goals.append(_item("goal", clause, [event.id]))
            elif _CONSTRAINT.search(clause):
                constraints.append(_item("constraint", clause, [event.id]))
    items = []
    for group in (goals, facts, tasks, tools, constraints):
        items += group[-MAX_ITEMS_PER_KIND:]
    return items


def thread_summarize(
    *,
    actor: Actor | None,
    tenant_id: uuid.UUID,
    subject_id: uuid.UUID,
    thread_id: str,
    exclude_event_ids: Iterable[uuid.UUID] = (),
) -> ThreadSummary | None:
    """(Re)build the summary of one thread; removes it when no events remain.
    Caller holds the tenant context."""
    if settings.ENGRAM_INGEST["SUMMARY_ONE_READ"]:
        return _summarize_one_read(tenant_id, subject_id, thread_id, exclude_event_ids)
    events = list(
        SourceEvent.objects.filter(tenant_id=tenant_id, subject_id=subject_id, thread_id=thread_id)
        .exclude(id__in=list(exclude_event_ids))
        .order_by("occurred_at", "received_at", "id")
    )
    existing = ThreadSummary.objects.filter(
        tenant_id=tenant_id, subject_id=subject_id, thread_id=thread_id
    )
    if not events:
        existing.delete()
        return None
    confirmed: dict[uuid.UUID, list[str]] = {}
    for event_id, statement in (
        MemorySource.objects.filter(
            tenant_id=tenant_id,
            event_id__in=[e.id for e in events],
            record__status=MemoryStatus.ACTIVE,
        )
        .order_by("record__recorded_at", "record_id")
        .values_list("event_id", "record__statement")
    ):
        confirmed.setdefault(event_id, []).append(statement)
    items = summary_items(events, confirmed)
    sources = sorted({e for item in items for e in item["source_event_ids"]})
    summary, _ = ThreadSummary.objects.update_or_create(
        tenant_id=tenant_id,
        subject_id=subject_id,
        thread_id=thread_id,
        defaults={
            "items": items,
            "source_event_ids": [uuid.UUID(s) for s in sources],
            "event_count": len(events),
            "built_at": timezone.now(),
        },
    )
    return summary


_UPSERT = f"""
    INSERT INTO {ThreadSummary._meta.db_table}
        (id, tenant_id, subject_id, thread_id, items, source_event_ids, event_count, built_at)
    VALUES (%s, %s, %s, %s, %s, %s::uuid[], %s, %s)
    ON CONFLICT ON CONSTRAINT thread_summary_unique DO UPDATE SET
        items = EXCLUDED.items, source_event_ids = EXCLUDED.source_event_ids,
        event_count = EXCLUDED.event_count, built_at = EXCLUDED.built_at
    RETURNING id"""


class _Event(NamedTuple):
    """The columns of an event ``summary_items`` reads."""

    id: uuid.UUID
    role: str
    kind: str
    content: str


def _summarize_one_read(
    tenant_id: uuid.UUID, subject_id: uuid.UUID, thread_id: str, exclude: Iterable[uuid.UUID]
) -> ThreadSummary | None:
    """``thread_summarize``'s reference, in two statements: the events with their active
    memories' statements (an array per event, in the reference's order), then one upsert
    on the (tenant, subject, thread) constraint."""
    statements = ArraySubquery(
        MemorySource.objects.filter(
            tenant_id=tenant_id, event_id=OuterRef("pk"), record__status=MemoryStatus.ACTIVE
        )
        .order_by("record__recorded_at", "record_id")
        .values("record__statement")
    )
    rows = (
        SourceEvent.objects.filter(tenant_id=tenant_id, subject_id=subject_id, thread_id=thread_id)
        .exclude(id__in=list(exclude))
        .order_by("occurred_at", "received_at", "id")
        .values_list("id", "role", "kind", "content", statements)
    )
    events, confirmed = [], {}
    for event_id, role, kind, content, confirms in rows:
        events.append(_Event(event_id, role, kind, content))
        if confirms:
            confirmed[event_id] = confirms
    if not events:
        ThreadSummary.objects.filter(
            tenant_id=tenant_id, subject_id=subject_id, thread_id=thread_id
        ).delete()
        return None
    items = summary_items(events, confirmed)
    sources = sorted({e for item in items for e in item["source_event_ids"]})
    summary = ThreadSummary(
        tenant_id=tenant_id,
        subject_id=subject_id,
        thread_id=thread_id,
        items=items,
        source_event_ids=[uuid.UUID(s) for s in sources],
        event_count=len(events),
        built_at=timezone.now(),
    )
    # bulk_create(update_conflicts=True) would leave a new id on the instance where the
    # row existed; RETURNING gives the row's own, as update_or_create does.
    with connection.cursor() as cursor:
        cursor.execute(
            _UPSERT,
            [
                summary.id,
                tenant_id,
                subject_id,
                thread_id,
                Jsonb(items),
                summary.source_event_ids,
                summary.event_count,
                summary.built_at,
            ],
        )
        summary.id = cursor.fetchone()[0]
    summary._state.adding = False  # the row exists: a later save() updates it
    return summary
