"""Derived indexes of governed records: the lexical search doc and the embeddings.

Both are views of ``MemoryRecord`` and can be rebuilt from it at any time (``reindex``,
``manage.py engram_reindex``). They are kept in step with the write path like this:

- the lexical doc is written synchronously, in the same transaction as the record
  (``record_indexed_on_write``): exact, lexical and trigram recall see a record as soon as
  it commits, and a rolled-back write leaves no doc behind;
- the embedding is computed after the commit, in batches, off the request
  (``EMBED_AFTER_COMMIT``): embedding costs more than the rest of a write and would cap
  the write rate (docs/performance.md). Until Celery runs ``index_pending_records`` from a task,
  one daemon thread per process drains a queue of committed record ids. While it lags,
  the exact, lexical and trigram routes still find a new record; recall never embeds on
  the read path, it reports how many found records lack a vector (``vector_pending``).

Derived stores catch up by themselves:

- each batch is committed on its own (what is stored stays stored if the process dies
  next), and embedded outside the transaction that reads and writes it;
- a batch that fails is tried again after a pause while the database is unavailable
  (``RETRY_DELAYS``: the embedded server is restarted within seconds), and otherwise
  item by item, so one record the embedder cannot take does not hold back the rest; such
  a record is left alone for ``FAILED_ITEM_SECONDS`` and then tried again;
- a periodic sweep (``index_sweep``) embeds whatever is still pending in every tenant:
  a queue lost with its process (a killed worker), a batch given up while the database
  was down. In the embedded default the indexing thread runs it every
  ``ENGRAM_INDEX_SWEEP_SECONDS``; with Celery, beat does (``memory.index_sweep``). One
  sweep runs at a time across processes (a PostgreSQL advisory lock).

``manage.py engram_reindex --pending`` does the same by hand, a committed batch at a
time, whatever the sizes of the statements (each costs at most one model window:
``memory.embedders``). ``index_lag`` gives the lag and the age of its oldest record, which
/ops/ and /metrics show.

Secrets and restricted records are never embedded. Quarantined and pending records are not
embedded either (they are held for review; recall never returns them); approving one writes
the accepted version through the write path, which embeds it like any new record.
"""

from __future__ import annotations

import fcntl
import logging
import threading
import time
import uuid
from collections.abc import Iterable, Sequence
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from accounts.models import Sensitivity
from core import jobs
from core.db.json_rows import rows_insert
from core.process_state import Cache
from core.tenancy import tenant_context, tenant_ids
from memory import lexical
from memory.content_rules import find_secrets
from memory.embedders import get_embedder
from memory.models import MemoryEmbedding, MemoryRecord, MemorySearchDoc, MemoryStatus
from memory.neighbourhood import Context, passage_text, preceding_turns
from memory.selectors import active_model_id, indexing_model_ids
from memory.services.background import BatchingThread
from memory.services.search_doc_rows import doc_row, doc_rows_insert

logger = logging.getLogger(__name__)


EMBED_BATCH = 32


BACKGROUND_BATCH = 8


# Pauses before trying a failed batch again (the background thread and the sweep; a
# Celery task has Celery's own retries). While the database is unavailable only these; for
# any other error, then each record alone.
RETRY_DELAYS = (1.0, 3.0, 10.0)


# What one embedding call (and one commit) may cover, in characters, each text counted at
# most WINDOW_CHARS: an English text of that length fills the model's window (memory.
# embedders.WINDOW_TOKENS), beyond it the rest is not read. About four windows.
WINDOW_CHARS = 2000


BATCH_TEXT_BUDGET = 4 * WINDOW_CHARS


# A record that failed alone is not tried again for this long (by this process).
FAILED_ITEM_SECONDS = 600.0


# The sweep: at most this many pending records per tenant and model per run.
SWEEP_LIMIT = 500


# pg_try_advisory_lock key of the sweep (one at a time across every process).
SWEEP_LOCK_KEY = 0x656E6772616D01  # "engram" + 1


# Statuses whose records are embedded: what recall can return now (active) or when asked
# about the past (known_at: superseded, retracted, expired, archived versions).
EMBEDDABLE_STATUSES = (
    MemoryStatus.ACTIVE,
    MemoryStatus.SUPERSEDED,
    MemoryStatus.RETRACTED,
    MemoryStatus.EXPIRED,
    MemoryStatus.ARCHIVED,
)


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


def search_docs_write(records: Sequence[MemoryRecord], citing: set | None = None) -> int:
    """Write (or rewrite) the lexical docs of ``records``, each with its conversation
    context (``memory.neighbourhood``); deleted ones get none. ``citing``: the ids of those
    that cite an event, when the caller knows (the others have no context: not looked up)."""
    live = [r for r in records if r.status != MemoryStatus.DELETED]
    contexts = preceding_turns([r.id for r in live if citing is None or r.id in citing])
    batch = settings.ENGRAM_WRITE_BATCH
    if live and batch.get("PLAIN_DOC_ROWS", True) and batch.get("JSON_INSERTS", True):
        doc_rows_insert([doc_row(r, contexts.get(r.id)) for r in live])
        return len(live)
    docs = [_search_doc(r, contexts.get(r.id)) for r in live]
    if docs:
        rows_insert(
            MemorySearchDoc,
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


def record_indexed_on_write(record: MemoryRecord, citing: set | None = None) -> None:
    """Called by the write path for every record it creates, inside its transaction."""
    records_indexed_on_write([record], citing)


def records_indexed_on_write(records: Sequence[MemoryRecord], citing: set | None = None) -> None:
    """``record_indexed_on_write`` for several records at once: one context lookup and one
    insert for their lexical docs and one for their entity mentions (the batched write
    path, memory/services/write_batch.py)."""
    from memory.services.mentions import mentions_write

    search_docs_write(records, citing)
    mentions_write(records, new=True)
    mode = settings.ENGRAM_RETRIEVAL["EMBED_AFTER_COMMIT"]
    for record in records:
        if mode == "thread":
            key = (record.tenant_id, record.id)
            transaction.on_commit(lambda key=key: _embed_queue.put(key))
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


def embedding_text(record: MemoryRecord, context: Context | None = None) -> str:
    """The passage embedded for a record: its conversation context (the turn before it,
    ``memory.neighbourhood``) if any, its statement, and value words it lacks.

    On LoCoMo dev the turn before lifted the vector route's own Recall@10 from 0.51-0.59
    to 0.61-0.67 per conversation (margin ranking, the default model): a reply ("Yes,
    last week!") is found by the question it answers."""
    return passage_text(record.statement, record.value, context.text if context else None)


def is_embeddable(record: MemoryRecord) -> bool:
    if record.status not in EMBEDDABLE_STATUSES:
        return False
    if Sensitivity.rank(record.sensitivity) >= Sensitivity.rank(Sensitivity.RESTRICTED):
        return False
    return not find_secrets(embedding_text(record))


def _embeddable_with_context(record: MemoryRecord, context: Context | None) -> Context | None:
    """The context to embed ``record`` with: none if the context holds a secret."""
    return embeddable_context(context)


def embeddable_context(context: Context | None) -> Context | None:
    """``context``, or none if it holds a secret (a secret is never embedded)."""
    if context is not None and find_secrets(context.text):
        return None
    return context


def index_pending_records(
    record_ids: Iterable[uuid.UUID],
    *,
    tenant_id: uuid.UUID | None = None,
    batch_size: int = EMBED_BATCH,
    model_ids: Sequence[str] | None = None,
    retry_delays: Sequence[float] = (),
) -> int:
    """Embed the given records where they still need it, for ``model_ids`` (default: the
    active index version's model, plus the one being built if a re-index runs); returns
    how many vectors were stored. Idempotent: safe to call twice, from a Celery task, the
    background thread or ``engram_reindex`` (the unique constraint absorbs races).

    With ``tenant_id``, each batch is its own short transaction in that tenant's context
    (callers without one, such as a task, pass it); without, the caller is already inside
    one and each batch is a savepoint. A failed batch is retried after ``retry_delays``,
    then record by record (module docstring); failures are logged, never raised."""
    ids = list(dict.fromkeys(record_ids))
    if not ids:
        return 0
    if model_ids is None:
        if tenant_id is not None:
            with tenant_context(tenant_id):
                model_ids = indexing_model_ids()
        else:
            model_ids = indexing_model_ids()
    stored = 0
    for model_id in model_ids:
        embedder = get_embedder(model_id)
        for start in range(0, len(ids), batch_size):
            batch = ids[start : start + batch_size]
            stored += _embed_resilient(batch, embedder, tenant_id, retry_delays)
    return stored


def _embed_resilient(ids, embedder, tenant_id, retry_delays: Sequence[float]) -> int:
    from core.database import is_unavailable

    error: Exception | None = None
    for delay in (0.0, *retry_delays):
        if delay:
            time.sleep(delay)
        try:
            return _embed_batch(ids, embedder, tenant_id)
        except Exception as exc:  # noqa: BLE001 - logged; the sweep catches up
            error = exc
            logger.warning(
                "embedding a batch of %d records failed (%s)", len(ids), type(exc).__name__
            )
            if not is_unavailable(exc):
                break  # not the database: try each record alone
    if error is not None and is_unavailable(error):
        logger.error(
            "gave up on a batch of %d records while the database is unavailable; the "
            "sweep embeds them once it is back",
            len(ids),
        )
        return 0
    stored = 0
    for record_id in ids:
        try:
            stored += _embed_batch([record_id], embedder, tenant_id)
        except Exception as exc:  # noqa: BLE001
            if is_unavailable(exc):
                logger.error("the database went away; the sweep embeds the rest later")
                return stored
            _failed_item(record_id)
            logger.error(
                "record could not be embedded (%s); retried in %d s",
                type(exc).__name__,
                int(FAILED_ITEM_SECONDS),
                extra={"record_id": str(record_id)},
            )
    return stored


# Records that failed alone: this process leaves them alone for FAILED_ITEM_SECONDS.
_failed: Cache[uuid.UUID, bool] = Cache(
    "indexing.failed_records", max_items=10_000, seconds=FAILED_ITEM_SECONDS
)


def _failed_item(record_id: uuid.UUID) -> None:
    _failed.put(record_id, True)


def _failing_now() -> list[uuid.UUID]:
    return list(_failed)


def _atomic(tenant_id: uuid.UUID | None):
    return tenant_context(tenant_id) if tenant_id is not None else transaction.atomic()


def _chunks_by_budget(texts: Sequence[str], budget: int) -> list[range]:
    """Consecutive index ranges whose texts together stay under ``budget`` characters,
    each text counted at most ``WINDOW_CHARS`` (what the model reads of it): one call to
    the embedder, and one commit, costs at most about ``budget / WINDOW_CHARS`` windows."""
    ranges, start, used = [], 0, 0
    for i, text in enumerate(texts):
        cost = min(len(text), WINDOW_CHARS)
        if i > start and used + cost > budget:
            ranges.append(range(start, i))
            start, used = i, 0
        used += cost
    if start < len(texts):
        ranges.append(range(start, len(texts)))
    return ranges


def _embed_batch(ids: list[uuid.UUID], embedder, tenant_id: uuid.UUID | None) -> int:
    """Read, embed and store one batch: the texts are read in one transaction, embedded
    outside any (seconds of CPU hold no locks), and stored in another, for the records
    still there and still embeddable — a few long texts at a time (``BATCH_TEXT_BUDGET``),
    each part committed on its own, so a batch of long statements makes steady progress
    and never holds the CPU long between commits."""
    with _atomic(tenant_id):
        done = set(
            MemoryEmbedding.objects.filter(
                record_id__in=ids, model_id=embedder.model_id
            ).values_list("record_id", flat=True)
        )
        records = [
            r
            for r in MemoryRecord.objects.filter(id__in=[i for i in ids if i not in done])
            if is_embeddable(r)
        ]
        if not records:
            return 0
        found = preceding_turns([r.id for r in records])
        contexts = [_embeddable_with_context(r, found.get(r.id)) for r in records]
        texts = [embedding_text(r, c) for r, c in zip(records, contexts, strict=True)]
    stored = 0
    for part in _chunks_by_budget(texts, BATCH_TEXT_BUDGET):
        with _background_cpu():
            vectors = embedder.embed_passages([texts[i] for i in part])
        stored += _store_vectors(
            [records[i] for i in part],
            vectors,
            [contexts[i] for i in part],
            embedder.model_id,
            tenant_id,
        )
    return stored


def _store_vectors(records, vectors, contexts, model_id: str, tenant_id) -> int:
    with _atomic(tenant_id):
        # Erased or changed meanwhile: stored only for records still embeddable.
        still = set(
            MemoryRecord.objects.filter(
                id__in=[r.id for r in records], status__in=EMBEDDABLE_STATUSES
            ).values_list("id", flat=True)
        )
        rows = [
            (r, v, c) for r, v, c in zip(records, vectors, contexts, strict=True) if r.id in still
        ]
        if not rows:
            return 0
        _subjects_key_share([r.subject_id for r, _, _ in rows])
        MemoryEmbedding.objects.bulk_create(
            [
                MemoryEmbedding(
                    tenant_id=r.tenant_id,
                    subject_id=r.subject_id,
                    record_id=r.id,
                    model_id=model_id,
                    vector=v,
                    context_event_id=c.event_id if c else None,
                )
                for r, v, c in rows
            ],
            ignore_conflicts=True,
        )
        # Index bookkeeping on the record (a mutable column): which model served by
        # recall indexed it (a version being built does not overwrite it).
        if model_id == active_model_id():
            _mark_indexed([r.id for r, _, _ in rows], model_id)
    return len(rows)


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


def _pending(scope: Q, model_id: str):
    missing = ~Exists(MemoryEmbedding.objects.filter(record_id=OuterRef("pk"), model_id=model_id))
    return (
        MemoryRecord.objects.filter(scope, status__in=EMBEDDABLE_STATUSES)
        .exclude(sensitivity=Sensitivity.RESTRICTED)
        .filter(missing)
    )


def unembedded_record_ids(
    scope: Q,
    *,
    model_id: str,
    limit: int,
    after: uuid.UUID | None = None,
    skip: Sequence[uuid.UUID] = (),
) -> list[uuid.UUID]:
    """Up to ``limit`` embeddable-status records in ``scope`` without a vector for
    ``model_id`` (restricted ones are skipped here, secrets by index_pending_records):
    newest first, or in id order after ``after`` (a re-index paging through them);
    ``skip``: ids to leave out."""
    pending = _pending(scope, model_id)
    if skip:
        pending = pending.exclude(id__in=list(skip))
    if after is not None:
        pending = pending.filter(id__gt=after).order_by("id")
    else:
        pending = pending.order_by("-recorded_at")
    return list(pending.values_list("id", flat=True)[:limit])


EMBED_THREAD_NICE = 15


# The embedding thread's work (its queue and its sweep) marks itself here, so that its
# embedding calls take the machine-wide background slot (``_background_cpu``).
_in_background = threading.local()


@contextmanager
def _background_cpu():
    """At most one process of this machine embeds in the background at a time (a file
    lock in the data directory): with two web workers on two cores, one core always stays
    for requests, so a batch of long statements slows a recall's question only by the
    other core's share (docs/deployment.md). Embedding elsewhere (a request, a Celery
    worker on its own host, a command) is not gated."""
    if not getattr(_in_background, "active", False):
        yield
        return
    path = Path(settings.ENGRAM_DATA_DIR) / "run" / "background-embedding.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@contextmanager
def _as_background():
    _in_background.active = True
    try:
        yield
    finally:
        _in_background.active = False


def _embed_batch_of_queue(batch: list[tuple[uuid.UUID, uuid.UUID]]) -> None:
    by_tenant: dict[uuid.UUID, list[uuid.UUID]] = {}
    for tenant_id, record_id in batch:
        by_tenant.setdefault(tenant_id, []).append(record_id)
    with _as_background():
        for tenant_id, ids in by_tenant.items():
            index_pending_records(
                ids, tenant_id=tenant_id, batch_size=BACKGROUND_BATCH, retry_delays=RETRY_DELAYS
            )


def index_sweep(*, limit: int = SWEEP_LIMIT, retry_delays: Sequence[float] = ()) -> int:
    """Embed what is still pending in every tenant, newest first, at most ``limit``
    records per tenant and model per run; returns how many vectors were stored. One sweep
    at a time across processes: another one running makes this one return 0 at once."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [SWEEP_LOCK_KEY])
        if not cursor.fetchone()[0]:
            return 0
    try:
        stored = 0
        skip = _failing_now()
        for tenant_id in tenant_ids():
            with tenant_context(tenant_id):
                work = [
                    (
                        m,
                        unembedded_record_ids(
                            Q(tenant_id=tenant_id), model_id=m, limit=limit, skip=skip
                        ),
                    )
                    for m in indexing_model_ids()
                ]
            for model_id, ids in work:
                if ids:
                    stored += index_pending_records(
                        ids,
                        tenant_id=tenant_id,
                        batch_size=BACKGROUND_BATCH,
                        model_ids=[model_id],
                        retry_delays=retry_delays,
                    )
        if stored:
            logger.info("index sweep embedded %d pending records", stored)
        return stored
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s)", [SWEEP_LOCK_KEY])


def _sweep_in_thread() -> None:
    from core.database import is_unavailable

    try:
        with _as_background():
            index_sweep(retry_delays=RETRY_DELAYS)
    except Exception as exc:  # noqa: BLE001 - the next sweep tries again
        level = logging.WARNING if is_unavailable(exc) else logging.ERROR
        logger.log(level, "index sweep failed (%s); the next one tries again", type(exc).__name__)


# One embedding thread per process, fed (tenant_id, record_id) after each write commits,
# and sweeping every ENGRAM_INDEX_SWEEP_SECONDS for what was lost or given up.
_embed_queue = BatchingThread(
    "engram-embedder",
    _embed_batch_of_queue,
    nice=EMBED_THREAD_NICE,
    max_batch=100,
    periodic=_sweep_in_thread,
    period_seconds=lambda: settings.ENGRAM_RETRIEVAL["INDEX_SWEEP_SECONDS"],
)


def background_indexing_start() -> None:
    """Start the embedding thread (and so its sweep) now, if settings choose it. Called
    by each web worker after it forks (config/gunicorn.py): a worker that restarted after
    being killed mid-batch then sweeps up what its predecessor lost, without a write."""
    if settings.ENGRAM_RETRIEVAL["EMBED_AFTER_COMMIT"] == "thread":
        _embed_queue.start()


def embed_queue_join() -> None:
    _embed_queue.join()
