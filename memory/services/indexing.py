"""Derived indexes of governed records: the lexical search doc and the embeddings.

Both are views of ``MemoryRecord`` and can be rebuilt from it at any time (``reindex``,
``manage.py engram_reindex``). They are kept in step with the write path like this:

- the lexical doc is written synchronously, in the same transaction as the record
  (``record_indexed_on_write``): exact, lexical and trigram recall see a record as soon as
  it commits, and a rolled-back write leaves no doc behind;
- the embedding is computed after the commit, in batches, off the request
  (``EMBED_AFTER_COMMIT``): embedding costs ~10 ms per text and would cap writes near
  100/s (docs/performance.md). Until Celery runs ``index_pending_records`` from a task,
  one daemon thread per process drains a queue of committed record ids. While it lags,
  the exact, lexical and trigram routes still find a new record; recall never embeds on
  the read path, it reports how many found records lack a vector (``vector_pending``). A queue
  lost with its process is repaired by ``manage.py engram_reindex --pending``.

Secrets and restricted records are never embedded. Quarantined and pending records are not
embedded either (they are held for review; recall never returns them); approving one writes
the accepted version through the write path, which embeds it like any new record.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import Sensitivity
from core import jobs
from core.tenancy import tenant_context
from memory import lexical
from memory.content_rules import find_secrets
from memory.embedders import get_embedder
from memory.models import MemoryEmbedding, MemoryRecord, MemorySearchDoc, MemoryStatus
from memory.neighbourhood import Context, preceding_turns
from memory.selectors import active_model_id, indexing_model_ids
from memory.services.background import BatchingThread

EMBED_BATCH = 32
BACKGROUND_BATCH = 8
# Statuses whose records are embedded: what recall can return now (active) or when asked
# about the past (known_at: superseded, retracted, expired, archived versions).
EMBEDDABLE_STATUSES = (
    MemoryStatus.ACTIVE,
    MemoryStatus.SUPERSEDED,
    MemoryStatus.RETRACTED,
    MemoryStatus.EXPIRED,
    MemoryStatus.ARCHIVED,
)


# --- lexical --------------------------------------------------------------------------


def _search_doc(record: MemoryRecord, context: Context | None = None) -> MemorySearchDoc:
    return MemorySearchDoc(
        record_id=record.id,
        tenant_id=record.tenant_id,
        subject_id=record.subject_id,
        segmented_text=lexical.document_text(
            statement=record.statement, predicate=record.predicate, value=record.value
        ),
        trigram_text=lexical.trigram_text(
            statement=record.statement, predicate=record.predicate, value=record.value
        ),
        context_text=" ".join(lexical.segment(context.text)) if context else "",
        context_event_id=context.event_id if context else None,
        indexed_at=timezone.now(),
    )


def search_docs_write(records: Sequence[MemoryRecord]) -> int:
    """Write (or rewrite) the lexical docs of ``records``, each with its conversation
    context (``memory.neighbourhood``); deleted ones get none."""
    live = [r for r in records if r.status != MemoryStatus.DELETED]
    contexts = preceding_turns([r.id for r in live])
    docs = [_search_doc(r, contexts.get(r.id)) for r in live]
    if docs:
        MemorySearchDoc.objects.bulk_create(
            docs,
            update_conflicts=True,
            unique_fields=["record"],
            update_fields=[
                "segmented_text",
                "trigram_text",
                "context_text",
                "context_event_id",
                "indexed_at",
            ],
        )
    return len(docs)


def record_indexed_on_write(record: MemoryRecord) -> None:
    """Called by the write path for every record it creates, inside its transaction."""
    search_docs_write([record])
    mode = settings.ENGRAM_RETRIEVAL["EMBED_AFTER_COMMIT"]
    if mode == "thread":
        key = (record.tenant_id, record.id)
        transaction.on_commit(lambda: _embed_queue.put(key))
    elif mode == "celery":
        _celery_batch_add(record)


def _celery_batch_add(record: MemoryRecord) -> None:
    """Collect this transaction's new records and enqueue one indexing task per tenant
    when it commits (a batch of 100 candidates is one task, not 100)."""
    batch = getattr(connection, "_engram_embed_batch", None)
    registered = batch is not None and any(
        func is batch["flush"] for _, func, _ in connection.run_on_commit
    )
    if not registered:  # first record of this transaction (or the last one rolled back)
        batch = {"ids": {}}

        def flush(batch=batch) -> None:
            for tenant_id, ids in batch["ids"].items():
                jobs.enqueue("memory.index_records", str(tenant_id), [str(i) for i in ids])

        batch["flush"] = flush
        connection._engram_embed_batch = batch
        transaction.on_commit(flush, robust=True)
    batch["ids"].setdefault(record.tenant_id, []).append(record.id)


# --- embeddings -----------------------------------------------------------------------


def embedding_text(record: MemoryRecord, context: Context | None = None) -> str:
    """The passage embedded for a record: its conversation context (the turn before it,
    ``memory.neighbourhood``) if any, its statement, and value words it lacks.

    On LoCoMo dev the turn before lifted the vector route's own Recall@10 from 0.51-0.59
    to 0.61-0.67 per conversation (margin ranking, the default model): a reply ("Yes,
    last week!") is found by the question it answers."""
    text = record.statement
    extra = lexical.value_text(record.value)
    if extra and extra not in record.statement:
        text = f"{text}\n{extra}"
    if context is not None:
        text = f"{context.text}\n{text}"
    return text


def is_embeddable(record: MemoryRecord) -> bool:
    if record.status not in EMBEDDABLE_STATUSES:
        return False
    if Sensitivity.rank(record.sensitivity) >= Sensitivity.rank(Sensitivity.RESTRICTED):
        return False
    return not find_secrets(embedding_text(record))


def _embeddable_with_context(record: MemoryRecord, context: Context | None) -> Context | None:
    """The context to embed ``record`` with: none if the context holds a secret."""
    if context is not None and find_secrets(context.text):
        return None
    return context


def index_pending_records(
    record_ids: Iterable[uuid.UUID],
    *,
    tenant_id: uuid.UUID | None = None,
    batch_size: int = EMBED_BATCH,
    model_ids: Sequence[str] | None = None,
) -> int:
    """Embed the given records where they still need it, for ``model_ids`` (default: the
    active index version's model, plus the one being built if a re-index runs); returns
    how many vectors were stored. Idempotent: safe to call twice, from a Celery task, the
    background thread or ``engram_reindex`` (the unique constraint absorbs races).
    With ``tenant_id`` it runs inside that tenant's context (callers without one, such as
    a task, pass it); without, the caller is already inside one."""
    if tenant_id is not None:
        with tenant_context(tenant_id):
            return index_pending_records(record_ids, batch_size=batch_size, model_ids=model_ids)
    ids = list(dict.fromkeys(record_ids))
    if not ids:
        return 0
    stored = 0
    for model_id in model_ids if model_ids is not None else indexing_model_ids():
        stored += _embed_for_model(ids, get_embedder(model_id), batch_size)
    return stored


def _embed_for_model(ids: list[uuid.UUID], embedder, batch_size: int) -> int:
    done = set(
        MemoryEmbedding.objects.filter(record_id__in=ids, model_id=embedder.model_id).values_list(
            "record_id", flat=True
        )
    )
    records = [
        r
        for r in MemoryRecord.objects.filter(id__in=[i for i in ids if i not in done])
        if is_embeddable(r)
    ]
    if records:
        _subjects_key_share([r.subject_id for r in records])
    stored = 0
    for start in range(0, len(records), batch_size):
        batch = records[start : start + batch_size]
        found = preceding_turns([r.id for r in batch])
        contexts = [_embeddable_with_context(r, found.get(r.id)) for r in batch]
        vectors = embedder.embed_passages(
            [embedding_text(r, c) for r, c in zip(batch, contexts, strict=True)]
        )
        MemoryEmbedding.objects.bulk_create(
            [
                MemoryEmbedding(
                    tenant_id=r.tenant_id,
                    subject_id=r.subject_id,
                    record_id=r.id,
                    model_id=embedder.model_id,
                    vector=v,
                    context_event_id=c.event_id if c else None,
                )
                for r, v, c in zip(batch, vectors, contexts, strict=True)
            ],
            ignore_conflicts=True,
        )
        # Index bookkeeping on the record (a mutable column): which model served by
        # recall indexed it (a version being built does not overwrite it).
        if embedder.model_id == active_model_id():
            _mark_indexed([r.id for r in batch], embedder.model_id)
        stored += len(batch)
    return stored


# Lock order with the write path, so that the indexer and a writer never deadlock. A
# writer locks the subject row (FOR NO KEY UPDATE), then that subject's records. Inserting
# a vector takes KEY SHARE locks on the rows it references (record, subject): KEY SHARE
# never conflicts with NO KEY UPDATE, and all the subjects are locked first, in id order,
# so the indexer never holds a record while waiting for a subject. The bookkeeping update
# skips records a writer holds (they are marked by the next index run) instead of waiting
# for them, so the indexer never waits for a writer while holding anything the writer
# needs.


def _subjects_key_share(subject_ids: Sequence[uuid.UUID]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT 1 FROM memory_subject WHERE id = ANY(%s) ORDER BY id FOR KEY SHARE",
            [sorted(set(subject_ids))],
        )


def _mark_indexed(record_ids: Sequence[uuid.UUID], model_id: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            """
            UPDATE memory_memoryrecord SET embedding_model = %(model)s
             WHERE id IN (SELECT id FROM memory_memoryrecord
                           WHERE id = ANY(%(ids)s) AND embedding_model <> %(model)s
                           ORDER BY id FOR NO KEY UPDATE SKIP LOCKED)
            """,
            {"ids": list(record_ids), "model": model_id},
        )


def unembedded_record_ids(scope: Q, *, model_id: str, limit: int) -> list[uuid.UUID]:
    """Up to ``limit`` embeddable-status records in ``scope`` without a vector for
    ``model_id`` (restricted ones are skipped here, secrets by index_pending_records)."""
    missing = ~Exists(MemoryEmbedding.objects.filter(record_id=OuterRef("pk"), model_id=model_id))
    return list(
        MemoryRecord.objects.filter(scope, status__in=EMBEDDABLE_STATUSES)
        .exclude(sensitivity=Sensitivity.RESTRICTED)
        .filter(missing)
        .order_by("-recorded_at")
        .values_list("id", flat=True)[:limit]
    )


# --- rebuild and erase ----------------------------------------------------------------


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
    """Embed every record of ``tenant_id`` missing a ``model_id`` vector, one short
    transaction per batch (resumable: a rerun starts where this one stopped)."""
    stored_total = 0
    while True:
        with tenant_context(tenant_id):
            pending = unembedded_record_ids(
                Q(tenant_id=tenant_id), model_id=model_id, limit=batch_size
            )
            stored = index_pending_records(pending, model_ids=[model_id]) if pending else 0
        stored_total += stored
        if stored == 0:
            # Nothing left, or only secret-bearing records, which are never embedded.
            return stored_total
        if on_batch is not None:
            on_batch(stored)


def derived_rows_erase(record_ids: Sequence[uuid.UUID]) -> int:
    """Delete every derived row of ``record_ids`` (embeddings, lexical docs). Called by
    erasure in the same transaction as the tombstone."""
    emb, _ = MemoryEmbedding.objects.filter(record_id__in=record_ids).delete()
    docs, _ = MemorySearchDoc.objects.filter(record_id__in=record_ids).delete()
    return emb + docs


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


# --- the after-commit embedding queue -------------------------------------------------


EMBED_THREAD_NICE = 15


def _embed_batch(batch: list[tuple[uuid.UUID, uuid.UUID]]) -> None:
    by_tenant: dict[uuid.UUID, list[uuid.UUID]] = {}
    for tenant_id, record_id in batch:
        by_tenant.setdefault(tenant_id, []).append(record_id)
    for tenant_id, ids in by_tenant.items():
        # Small batches: a recall waiting for the embedder waits < ~100 ms.
        index_pending_records(ids, tenant_id=tenant_id, batch_size=BACKGROUND_BATCH)


# One embedding thread per process, fed (tenant_id, record_id) after each write commits.
# A queue lost with its process is repaired by ``engram_reindex --pending``.
_embed_queue = BatchingThread(
    "engram-embedder", _embed_batch, nice=EMBED_THREAD_NICE, max_batch=100
)


def embed_queue_join() -> None:
    _embed_queue.join()


def index_lag(tenant_id) -> int:
    """Records of ``tenant_id`` still waiting for a vector from the model recall serves
    (the operations page shows it). Runs in the caller's tenant context."""
    model_id = active_model_id()
    missing = ~Exists(MemoryEmbedding.objects.filter(record_id=OuterRef("pk"), model_id=model_id))
    return (
        MemoryRecord.objects.filter(tenant_id=tenant_id, status__in=EMBEDDABLE_STATUSES)
        .exclude(sensitivity=Sensitivity.RESTRICTED)
        .filter(missing)
        .count()
    )
