"""Helpers shared by the retrieval tests: write through the real write path, recall
through the real pipeline."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection

from accounts.models import Agent
from core.actor import Actor
from core.tenancy import tenant_context
from memory.models import MemoryEmbedding, MemoryRecord, Subject
from memory.recall import RecallRequest, RecallResult, RecallScope
from memory.recall import recall as recall_pipeline
from memory.services.indexing import index_pending_records
from memory.services.writes import WriteOutcome, candidates_submit
from memory.write_policy import Candidate

PURPOSE = "personalization"

# Unrelated memories for the subject, so that a query has something to beat.
BACKGROUND = [
    "User's laptop is a ThinkPad X1",
    "User prefers aisle seats on long flights",
    "User reads science fiction before bed",
    "User's team ships releases on Thursdays",
    "用户每天早上跑步五公里",
    "用户的孩子在读小学三年级",
    "User keeps meeting notes in Markdown",
    "User supports FC Barcelona",
]


def remember(
    subject: Subject, statement: str, *, embed: bool = True, **overrides: Any
) -> WriteOutcome:
    """Write through the real write path. ``embed``: also run the after-commit embedding
    (test transactions never commit, so the background queue never sees them)."""
    fields: dict[str, Any] = {
        "memory_type": "semantic",
        "namespace": "assistant/profile",
        "statement": statement,
        "assertion_kind": "user_explicit",
        "confidence": 1.0,
        "purpose": PURPOSE,
        "consent_basis": "explicit_consent",
    }
    fields.update(overrides)
    [outcome] = candidates_submit(
        actor=Actor.system(subject.tenant_id, "test"),
        subject=subject,
        candidates=[Candidate(**fields)],
    )
    if embed:
        # Every record the write created (incl. closed copies), as the queue would.
        index_pending_records(
            MemoryRecord.objects.filter(subject=subject).values_list("id", flat=True)
        )
    return outcome


def remember_many(subject: Subject, statements: list[str]) -> list:
    """Write many plain statements in one batch (one write transaction), not indexed (only a
    statement the learned heads read an embedding for keeps that vector from the write)."""
    outcomes = candidates_submit(
        actor=Actor.system(subject.tenant_id, "test"),
        subject=subject,
        candidates=[
            Candidate(
                memory_type="semantic",
                namespace="assistant/profile",
                statement=statement,
                assertion_kind="user_explicit",
                confidence=1.0,
                purpose=PURPOSE,
                consent_basis="explicit_consent",
            )
            for statement in statements
        ],
    )
    return [o.record_id for o in outcomes]


def embed_as(record_ids, vectors, model_id: str) -> None:
    """Derived rows with chosen vectors: what the index would hold for these records
    (in the caller's tenant transaction, or as the owner). They replace any vector the
    write stored itself (the learned heads' passage vector, memory/services/write_vectors.py)."""
    records = MemoryRecord.objects.in_bulk(record_ids)
    MemoryEmbedding.objects.filter(record_id__in=record_ids, model_id=model_id).delete()
    MemoryEmbedding.objects.bulk_create(
        MemoryEmbedding(
            tenant_id=records[rid].tenant_id,
            subject_id=records[rid].subject_id,
            record_id=rid,
            model_id=model_id,
            vector=v,
        )
        for rid, v in zip(record_ids, vectors, strict=True)
    )


def recall(
    agent: Agent,
    subject: Subject,
    query: str,
    *,
    weights: Any = None,
    record_trace: bool = True,
    **kw: Any,
) -> RecallResult:
    kw.setdefault("purpose", PURPOSE)
    return recall_pipeline(
        actor=Actor.agent(agent.id, agent.tenant_id),
        scope=RecallScope(
            tenant_id=subject.tenant_id,
            subject_id=subject.id,
            agent_id=agent.id,
            clearance=agent.clearance,
        ),
        request=RecallRequest(query=query, **kw),
        weights=weights,
        record_trace=record_trace,
    )


def weighed(agent: Agent, subject: Subject, query: str, weights: Any = None) -> RecallResult:
    """A recall of ten with ``weights`` (the levers' tests), leaving no trace."""
    return recall(agent, subject, query, weights=weights, record_trace=False, k=10)


def final(result: RecallResult, record_id) -> float:
    """The final score ``result`` gave ``record_id`` (0 when it was not returned)."""
    return next((i.scores["final"] for i in result.items if i.id == record_id), 0.0)


def ids(result: RecallResult) -> list:
    return [i.id for i in result.items]


@contextmanager
def in_tenant_recording(subject: Subject) -> Iterator[list[str]]:
    """In the subject's tenant; yields the list of SQL statements run inside."""
    statements: list[str] = []

    def record(execute, sql, *args):
        statements.append(sql)
        return execute(sql, *args)

    with tenant_context(subject.tenant_id), connection.execute_wrapper(record):
        yield statements


def trigram_route(
    agent: Agent,
    subject: Subject,
    question: str,
    *,
    large_scope: bool,
    scope_names: frozenset[str] = frozenset(),
) -> tuple[list, list[str]]:
    """The trigram route's hits for ``question`` in ``subject``'s scope (threshold 0.6,
    n = 30), on the index path when ``large_scope``; with the statements it ran."""
    from django.db.models import Q
    from django.utils import timezone

    from memory.recall.routes import route_trigram
    from memory.recall.scope import Eligible

    now = timezone.now()
    scope = RecallScope(subject.tenant_id, subject.id, agent.id, agent.clearance)
    request = RecallRequest(query=question, purpose=PURPOSE)
    eligible = Eligible.of(scope, request, as_of=now, now=now)
    with in_tenant_recording(subject) as statements:
        hits = route_trigram(
            eligible.queryset,
            Q(tenant_id=subject.tenant_id, subject_id__in=[subject.id]),
            question,
            30,
            0.6,
            scope_names,
            large_scope=lambda: large_scope,
            subject_ids=[subject.id],
        )
    return hits, statements
