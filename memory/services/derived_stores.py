"""What the deletion workflow (memory.services.deletion) erases: an ``ErasureTarget``, and
the ``DerivedStore`` shape every store has. Also the retrieval side's stores, which the
workflow runs after its own: embeddings, lexical/trigram index rows and recall traces. Each
``erase`` removes the store's rows for a deletion target; each ``find`` counts what is
left, for the verification step (it must be zero)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Q

from core.actor import Actor
from memory.models import MemoryEmbedding, MemorySearchDoc, RecallTrace
from memory.services.index_maintenance import context_rows_rebuild


@dataclass
class ErasureTarget:
    """What one deletion request removes. ``record_ids`` are the record versions erased,
    ``event_ids`` the source events erased; ``weakened_record_ids`` keep other support and
    lose only their links to the erased events. ``texts`` (never stored) are the erased
    statements and event texts, for the text routes of verification."""

    tenant_id: uuid.UUID
    subject_id: uuid.UUID
    scope: str
    whole_subject: bool = False
    record_ids: set[uuid.UUID] = field(default_factory=set)
    lineage_ids: set[uuid.UUID] = field(default_factory=set)
    event_ids: set[uuid.UUID] = field(default_factory=set)
    weakened_record_ids: set[uuid.UUID] = field(default_factory=set)
    thread_ids: set[str] = field(default_factory=set)
    texts: list[str] = field(default_factory=list)
    actor: Actor | None = None
    request_id: str = ""


@dataclass(frozen=True)
class DerivedStore:
    name: str
    erase: Callable[[ErasureTarget], int]
    find: Callable[[ErasureTarget], int]


def _rows_q(t: ErasureTarget) -> Q:
    q = Q(record_id__in=t.record_ids)
    if t.whole_subject:
        q |= Q(subject_id=t.subject_id)
    return Q(tenant_id=t.tenant_id) & q


def _erase_embeddings(t: ErasureTarget) -> int:
    return MemoryEmbedding.objects.filter(_rows_q(t)).delete()[0]


def _find_embeddings(t: ErasureTarget) -> int:
    return MemoryEmbedding.objects.filter(_rows_q(t)).count()


def _erase_search_docs(t: ErasureTarget) -> int:
    return MemorySearchDoc.objects.filter(_rows_q(t)).delete()[0]


def _find_search_docs(t: ErasureTarget) -> int:
    return MemorySearchDoc.objects.filter(_rows_q(t)).count()


def _erase_traces(t: ErasureTarget) -> int:
    """A trace holds ids only; the erased ids are taken out of it (the rest of the trace —
    which other memories reached which agent — stays). Erasing a whole subject removes
    their traces."""
    if t.whole_subject:
        return RecallTrace.objects.filter(tenant_id=t.tenant_id, subject_id=t.subject_id).delete()[
            0
        ]
    if not t.record_ids:
        return 0
    erased = list(t.record_ids)
    with connection.cursor() as cursor:
        cursor.execute(
            """UPDATE memory_recalltrace
                  SET record_ids = ARRAY(SELECT unnest(record_ids) EXCEPT SELECT unnest(%(ids)s::uuid[])),
                      used_record_ids = ARRAY(SELECT unnest(used_record_ids) EXCEPT SELECT unnest(%(ids)s::uuid[]))
                WHERE tenant_id = %(tenant)s AND (record_ids && %(ids)s::uuid[] OR used_record_ids && %(ids)s::uuid[])""",
            {"ids": erased, "tenant": t.tenant_id},
        )
        return cursor.rowcount


def _find_traces(t: ErasureTarget) -> int:
    traces = RecallTrace.objects.filter(tenant_id=t.tenant_id)
    if t.whole_subject:
        return traces.filter(subject_id=t.subject_id).count()
    erased = list(t.record_ids)
    return (
        traces.filter(Q(record_ids__overlap=erased) | Q(used_record_ids__overlap=erased)).count()
        if erased
        else 0
    )


def _erase_context(t: ErasureTarget) -> int:
    """Another memory's index rows built with an erased turn as its conversation context
    (``memory.neighbourhood``) are rebuilt without it."""
    return context_rows_rebuild(t.tenant_id, sorted(t.event_ids))


def _find_context(t: ErasureTarget) -> int:
    if not t.event_ids:
        return 0
    q = Q(tenant_id=t.tenant_id, context_event_id__in=list(t.event_ids))
    return MemoryEmbedding.objects.filter(q).count() + MemorySearchDoc.objects.filter(q).count()


def _erase_cached_vectors(t: ErasureTarget) -> int:
    """The vectors recall keeps in this process's memory for the subject's scopes
    (``memory.recall.accel.vector_cache``): verified here only. Other processes never rank
    a vector whose row is gone (each recall checks the scope's rows first) and drop it at
    their next recall for the subject, or within ``VectorCache.bound()`` of the deletion."""
    from memory.recall.accel.vector_cache import cache

    return cache.drop_subject(t.tenant_id, t.subject_id)


def _find_cached_vectors(t: ErasureTarget) -> int:
    from memory.recall.accel.vector_cache import cache

    return cache.holding(t.tenant_id, t.subject_id, None if t.whole_subject else t.record_ids)


# In the order the deletion workflow runs them, after its own stores.
RETRIEVAL_STORES = (
    DerivedStore("embeddings", _erase_embeddings, _find_embeddings),
    DerivedStore("lexical_trigram_index", _erase_search_docs, _find_search_docs),
    DerivedStore("conversation_context", _erase_context, _find_context),
    DerivedStore("recall_traces", _erase_traces, _find_traces),
    DerivedStore("recall_vector_cache", _erase_cached_vectors, _find_cached_vectors),
)
