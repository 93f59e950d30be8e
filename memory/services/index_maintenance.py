"""Keeping the index whole: rebuilding it (``reindex``, a model change or a repair), the
conversation-context rows of memories whose context turn was erased, and how far the
index lags the records."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from core import jobs
from core.tenancy import tenant_context
from memory.models import (
    MemoryEmbedding,
    MemoryMention,
    MemoryRecord,
    MemorySearchDoc,
    MemoryStatus,
)
from memory.selectors import active_model_id
from memory.services.indexing import (
    EMBED_BATCH,
    _pending,
    index_pending_records,
    search_docs_write,
    unembedded_record_ids,
)


@dataclass(frozen=True)
class ReindexResult:
    search_docs: int
    embeddings: int
    model_id: str


def reindex(
    *,
    tenant_id: uuid.UUID | None = None,
    lexical_docs: bool = True,
    embeddings: bool = True,
    batch_size: int = 500,
) -> ReindexResult:
    """Rebuild derived indexes from the records (all tenants, or one). Lexical docs are
    rewritten; embeddings are added for records missing one under the active index
    version's model (a model change is built side by side: ``index_versions``).
    Works tenant by tenant, one short transaction per batch, inside tenant_context."""
    from accounts.models import Tenant

    tenant_ids = [tenant_id] if tenant_id else list(Tenant.objects.values_list("id", flat=True))
    model_id = active_model_id()
    docs = vectors = 0
    for tid in tenant_ids:
        if lexical_docs:
            docs += _rewrite_search_docs(tid, batch_size)
            if embeddings:
                _drop_vectors_of_another_context(tid, model_id)
        if embeddings:
            vectors += _embed_missing(tid, model_id, batch_size)
    return ReindexResult(search_docs=docs, embeddings=vectors, model_id=model_id)


def _drop_vectors_of_another_context(tenant_id: uuid.UUID, model_id: str) -> int:
    """Vectors embedded with another conversation context than the lexical doc now has
    (built before contexts existed, or before a turn was erased) are dropped, so the
    re-index embeds them again with the right one."""
    with tenant_context(tenant_id), connection.cursor() as cursor:
        cursor.execute(
            """DELETE FROM memory_memoryembedding e
                 USING memory_memorysearchdoc d
                WHERE d.record_id = e.record_id AND e.tenant_id = %s AND e.model_id = %s
                  AND e.context_event_id IS DISTINCT FROM d.context_event_id""",
            [tenant_id, model_id],
        )
        return cursor.rowcount


def _rewrite_search_docs(tenant_id: uuid.UUID, batch_size: int) -> int:
    written = 0
    last: uuid.UUID | None = None
    while True:
        with tenant_context(tenant_id):
            qs = (
                MemoryRecord.objects.filter(tenant_id=tenant_id)
                .exclude(status=MemoryStatus.DELETED)
                .order_by("id")
            )
            page = list((qs.filter(id__gt=last) if last else qs)[:batch_size])
            if not page:
                return written
            written += search_docs_write(page)
        last = page[-1].id


def _embed_missing(
    tenant_id: uuid.UUID,
    model_id: str,
    batch_size: int,
    on_batch: Callable[[int], None] | None = None,
) -> int:
    """Embed every record of ``tenant_id`` missing a ``model_id`` vector, in id order,
    each batch of ``EMBED_BATCH`` committed on its own (resumable: a rerun starts where
    this one stopped; a record that cannot be embedded is passed, not waited on)."""
    stored_total = 0
    after = uuid.UUID(int=0)
    while True:
        with tenant_context(tenant_id):
            pending = unembedded_record_ids(
                Q(tenant_id=tenant_id), model_id=model_id, limit=batch_size, after=after
            )
        if not pending:
            return stored_total
        after = pending[-1]
        for start in range(0, len(pending), EMBED_BATCH):
            stored = index_pending_records(
                pending[start : start + EMBED_BATCH], tenant_id=tenant_id, model_ids=[model_id]
            )
            stored_total += stored
            if on_batch is not None and stored:
                on_batch(stored)


def derived_rows_erase(record_ids: Sequence[uuid.UUID]) -> int:
    """Delete every derived row of ``record_ids`` (embeddings, lexical docs, entity
    mentions). Called by erasure in the same transaction as the tombstone."""
    emb, _ = MemoryEmbedding.objects.filter(record_id__in=record_ids).delete()
    docs, _ = MemorySearchDoc.objects.filter(record_id__in=record_ids).delete()
    mentions, _ = MemoryMention.objects.filter(record_id__in=record_ids).delete()
    return emb + docs + mentions


def context_rows_rebuild(tenant_id: uuid.UUID, event_ids: Sequence[uuid.UUID]) -> int:
    """Erasing a turn also erases it as another memory's context: the lexical docs built
    with it are rewritten now (with the turn before it, if any, as the new context) and
    the vectors embedded with it are dropped and queued for embedding again (until then
    the memory is found by its words: ``vector_pending``). Called by erasure after the
    events are gone, in the same transaction; returns how many rows were rebuilt."""
    if not event_ids:
        return 0
    in_tenant = Q(tenant_id=tenant_id, context_event_id__in=list(event_ids))
    doc_ids = list(MemorySearchDoc.objects.filter(in_tenant).values_list("record_id", flat=True))
    vector_ids = set(MemoryEmbedding.objects.filter(in_tenant).values_list("record_id", flat=True))
    dropped, _ = MemoryEmbedding.objects.filter(in_tenant).delete()
    # Their words would otherwise wait for the rewrite below: blank them first.
    MemorySearchDoc.objects.filter(in_tenant).update(context_text="", context_event_id=None)
    rewritten = search_docs_write(list(MemoryRecord.objects.filter(id__in=doc_ids)))
    if vector_ids:
        ids = [str(i) for i in sorted(vector_ids)]
        transaction.on_commit(lambda: jobs.enqueue("memory.index_records", str(tenant_id), ids))
    return dropped + rewritten


@dataclass(frozen=True)
class IndexLag:
    records: int
    # recorded_at of the oldest record still waiting, or None
    oldest: datetime | None

    @property
    def age_seconds(self) -> float:
        """How long the oldest waiting record has waited (0 with none)."""
        if self.oldest is None:
            return 0.0
        return max(0.0, (timezone.now() - self.oldest).total_seconds())


def index_lag_of(tenant_id) -> IndexLag:
    """Records of ``tenant_id`` still waiting for a vector from the model recall serves,
    and the oldest one's record time. Runs in the caller's tenant context."""
    from django.db.models import Count, Min

    found = _pending(Q(tenant_id=tenant_id), active_model_id()).aggregate(
        n=Count("id"), oldest=Min("recorded_at")
    )
    return IndexLag(records=found["n"], oldest=found["oldest"])


def index_lag(tenant_id) -> int:
    """How many records of ``tenant_id`` still wait for a vector (``index_lag_of``)."""
    return index_lag_of(tenant_id).records
