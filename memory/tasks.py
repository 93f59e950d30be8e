"""Celery tasks: thin adapters that take ids, load, and call one service.

Every job:
- is enqueued by name through ``core.jobs`` (services never import this module), after
  the enqueuing transaction commits, so a worker never looks for rows that are not
  committed yet;
- runs inside ``tenant_context(tenant_id)`` (row-level security applies to workers);
- is idempotent by a key (``extract:<event id>``, ``deletion:<request id>``, …): a
  TaskRun row is written in the same transaction as the job's effects, so a redelivered
  or repeated message finds it succeeded and changes nothing;
- is acknowledged late (settings: a worker lost mid-job gets its message redelivered),
  retried with backoff up to ENGRAM_LIFECYCLE["MAX_RETRIES"] times, then written to the
  DeadLetter table (ids and the error class only).
Without a broker (CELERY_BROKER_URL unset) Celery runs these eagerly after commit.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import connection
from django.db.models import Exists, F, OuterRef
from django.utils import timezone

from core.actor import Actor
from core.tenancy import tenant_context
from memory.job_batch import run_jobs_together
from memory.models import DeadLetter, MemorySource, SourceEvent, TaskOutcome, TaskRun

logger = logging.getLogger(__name__)


# --- the job runner ---------------------------------------------------------------------


def _record_failure(tenant_id: str, task_name: str, key: str, exc: Exception) -> int:
    """Count a failed attempt (outside the rolled-back job transaction); returns attempts."""
    with tenant_context(tenant_id):
        run, _ = TaskRun.objects.select_for_update().get_or_create(
            tenant_id=tenant_id,
            task_name=task_name,
            key=key,
            defaults={"outcome": TaskOutcome.RETRYING},
        )
        run.attempts += 1
        run.outcome = TaskOutcome.RETRYING
        run.error_class = type(exc).__name__[:100]
        run.save(update_fields=["attempts", "outcome", "error_class"])
        return run.attempts


def _dead_letter(
    task: Any, tenant_id: str, key: str, object_ids: list[str], exc: Exception, attempts: int
) -> None:
    with tenant_context(tenant_id):
        TaskRun.objects.filter(tenant_id=tenant_id, task_name=task.name, key=key).update(
            outcome=TaskOutcome.DEAD, finished_at=timezone.now()
        )
        DeadLetter.objects.create(
            tenant_id=tenant_id,
            task_name=task.name,
            task_id=(task.request.id or "")[:64],
            object_ids=object_ids,
            error_class=type(exc).__name__[:100],
            attempts=attempts,
        )
    logger.error("task %s key %s dead-lettered after %s attempts", task.name, key, attempts)


def run_job(
    task: Any,
    *,
    tenant_id: str,
    key: str,
    object_ids: list[str],
    body: Callable[[], dict[str, Any] | None],
    fresh: bool = False,
) -> dict[str, Any] | None:
    """Run ``body`` once per key, in the tenant's context, with retries and dead-lettering.

    ``fresh``: the key is new (a UUID made for this run), so no row can exist for it yet:
    the first attempt runs ``body`` and writes its succeeded row in one ``INSERT``, instead
    of the locking read, the insert in a savepoint and the update (the same row, the start
    time taken before ``body`` as the reference's default is). A failed attempt leaves no
    row either way (its transaction is rolled back); from then on the reference path runs,
    on the row the failure recorded."""
    max_retries = settings.ENGRAM_LIFECYCLE["MAX_RETRIES"]
    while True:
        try:
            if fresh:
                fresh = False  # a retry finds the failure's row: the reference path
                started = timezone.now()
                with tenant_context(tenant_id):
                    result = body() or {}
                    TaskRun.objects.create(
                        tenant_id=tenant_id,
                        task_name=task.name,
                        key=key,
                        outcome=TaskOutcome.SUCCEEDED,
                        attempts=1,
                        error_class="",
                        result=result,
                        started_at=started,
                        finished_at=timezone.now(),
                    )
                    return result
            with tenant_context(tenant_id):
                run, _ = TaskRun.objects.select_for_update().get_or_create(
                    tenant_id=tenant_id,
                    task_name=task.name,
                    key=key,
                    defaults={"outcome": TaskOutcome.RUNNING},
                )
                if run.outcome in (TaskOutcome.SUCCEEDED, TaskOutcome.DEAD):
                    return None
                result = body() or {}
                TaskRun.objects.filter(pk=run.pk).update(
                    outcome=TaskOutcome.SUCCEEDED,
                    attempts=F("attempts") + 1,
                    error_class="",
                    result=result,
                    finished_at=timezone.now(),
                )
                return result
        except Exception as exc:
            # The job's transaction is gone; drop a broken connection (worker only).
            if not connection.in_atomic_block and not connection.is_usable():
                connection.close()
            logger.warning("task %s key %s failed: %s", task.name, key, type(exc).__name__)
            attempts = _record_failure(tenant_id, task.name, key, exc)
            if attempts > max_retries:
                _dead_letter(task, tenant_id, key, object_ids, exc, attempts)
                return None
            if task.request.is_eager:
                continue  # no broker to come back through: retry in place
            backoff = settings.ENGRAM_LIFECYCLE["RETRY_BACKOFF_SECONDS"] * 2 ** (attempts - 1)
            raise task.retry(exc=exc, countdown=backoff, max_retries=max_retries + 1) from exc


def _tenant_ids() -> list[str]:
    """All tenants, for the periodic fan-out (a SECURITY DEFINER lookup: ids only)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT id FROM engram_tenant_ids()")
        return [str(row[0]) for row in cursor.fetchall()]


def _period_key(prefix: str, tenant_id: str, seconds: int) -> str:
    bucket = int(timezone.now().timestamp()) // seconds
    return f"{prefix}:{tenant_id}:{bucket}"


# --- extraction, compression, indexing --------------------------------------------------


@shared_task(bind=True, name="memory.extract_events")
def extract_events(self, tenant_id: str, event_ids: list[str]) -> dict[str, int]:
    """Background extraction for appended events, one idempotent job per event (run
    together in one transaction), then the summaries of the threads they belong to."""
    from memory.services.extraction import ExtractionResult, event_extract, llm_ask, llm_wanted

    actor = Actor.system(uuid.UUID(tenant_id), "extractor")
    totals = {"events": 0, "records": 0}
    threads: dict[tuple[str, str], None] = {}  # (subject, thread), in order
    # The batch's events and which of them are already done, in two queries for all.
    with tenant_context(tenant_id):
        events = {
            str(e.id): e for e in SourceEvent.objects.filter(tenant_id=tenant_id, id__in=event_ids)
        }
        done = set(
            TaskRun.objects.filter(
                tenant_id=tenant_id,
                task_name=self.name,
                key__in=[f"extract:{e}" for e in event_ids],
                outcome__in=[TaskOutcome.SUCCEEDED, TaskOutcome.DEAD],
            ).values_list("key", flat=True)
        )
    bodies: dict[str, Callable[[], dict[str, Any]]] = {}
    batch = _EventReads(tenant_id, event_ids)
    for event_id in event_ids:
        llm = None
        event = events.get(str(event_id))
        pending = f"extract:{event_id}" not in done
        if event is not None and pending and llm_wanted(event):
            llm = llm_ask(event.id, event.content)  # outside any transaction

        def body(event_id: str = event_id, llm=llm) -> dict[str, Any]:
            event, used = batch.take(event_id)
            if event is _UNREAD:  # the reference: this job's own two reads
                event = SourceEvent.objects.filter(tenant_id=tenant_id, id=event_id).first()
                used = None
            if event is None:  # erased before we got to it
                return {"missing": 1}
            result = ExtractionResult()
            event_extract(
                actor=actor, event=event, result=result, llm=llm, used=used, savepoint=fewer
            )
            # Indexing of the records written here is queued by the write path itself.
            return result.as_json()

        bodies[f"extract:{event_id}"] = body
        if event is not None and event.thread_id:
            threads[(str(event.subject_id), event.thread_id)] = None
    # One transaction for the batch's jobs; a job that fails runs again alone (run_job).
    # ENGRAM_INGEST["EXTRACTION_FEWER_SAVEPOINTS"]: a job's savepoint only around its writes
    # (event_extract's), none for the many events that propose nothing.
    fewer = settings.ENGRAM_INGEST["EXTRACTION_FEWER_SAVEPOINTS"]
    results, failed = run_jobs_together(
        self,
        tenant_id=tenant_id,
        bodies=bodies,
        savepoints=not fewer,
        grouped_finish=settings.ENGRAM_INGEST["EXTRACTION_GROUPED_FINISH"],
    )
    for key in failed:
        results[key] = run_job(
            self, tenant_id=tenant_id, key=key, object_ids=[key.split(":", 1)[1]], body=bodies[key]
        )
    for result in results.values():
        totals["events"] += 1
        if result:
            totals["records"] += sum(result.get("operations", {}).values())
    # Each thread's summary once for the whole batch, after all its events are extracted
    # (a summary is rebuilt whole each time: once per event was the same work n times).
    for subject_id, thread_id in threads:
        summarize_thread(tenant_id, subject_id, thread_id)
    return totals


_UNREAD = object()


class _EventReads:
    """Each job of an extraction batch reads its event again and asks whether a memory
    already cites it: two round trips per event. With ``ENGRAM_WRITE_FEWER_ROUND_TRIPS``
    the first job to run reads both for the whole batch in one query, inside the batch's
    transaction (a job writes memories citing its own event only, so the batch's other
    jobs cannot change another's answer); each job takes its row once, and a job run
    again alone (``run_job``, after a failure) reads its own, as the reference does."""

    def __init__(self, tenant_id: str, event_ids: list[str]) -> None:
        self.tenant_id, self.event_ids = tenant_id, event_ids
        self.rows: dict[str, tuple[SourceEvent | None, bool]] | None = None
        self.enabled = bool(settings.ENGRAM_WRITE_BATCH.get("FEWER_ROUND_TRIPS"))

    def take(self, event_id: str) -> tuple[Any, bool | None]:
        if not self.enabled:
            return _UNREAD, None
        if self.rows is None:
            cited = MemorySource.objects.filter(tenant_id=self.tenant_id, event_id=OuterRef("pk"))
            found = SourceEvent.objects.filter(
                tenant_id=self.tenant_id, id__in=self.event_ids
            ).annotate(engram_cited=Exists(cited))
            self.rows = {str(e): (None, False) for e in self.event_ids}
            self.rows.update({str(e.id): (e, e.engram_cited) for e in found})
        return self.rows.pop(str(event_id), (_UNREAD, None))


@shared_task(bind=True, name="memory.summarize_thread")
def summarize_thread(self, tenant_id: str, subject_id: str, thread_id: str) -> None:
    from memory.services.compression import thread_summarize

    def body() -> dict[str, Any]:
        summary = thread_summarize(
            actor=Actor.system(uuid.UUID(tenant_id), "compression"),
            tenant_id=uuid.UUID(tenant_id),
            subject_id=uuid.UUID(subject_id),
            thread_id=thread_id,
        )
        return {"items": len(summary.items) if summary else 0}

    # Not keyed by content: a summary is rebuilt whenever asked (each run is complete).
    # ENGRAM_INGEST["SUMMARY_JOB_ONE_INSERT"]: the key is a fresh UUID, so its row is
    # written once, after the summary (run_job's ``fresh``).
    run_job(
        self,
        tenant_id=tenant_id,
        key=f"summarize:{subject_id}:{thread_id}:{uuid.uuid4()}",
        object_ids=[subject_id],
        body=body,
        fresh=settings.ENGRAM_INGEST["SUMMARY_JOB_ONE_INSERT"],
    )


@shared_task(bind=True, name="memory.index_records")
def index_records(self, tenant_id: str, record_ids: list[str]) -> None:
    """Hands new records to the retrieval indexer
    (memory.services.indexing.index_pending_records)."""
    from memory.services import indexing

    run_job(
        self,
        tenant_id=tenant_id,
        key=f"index:{uuid.uuid5(uuid.NAMESPACE_OID, ','.join(sorted(record_ids)))}",
        object_ids=record_ids,
        body=lambda: {"indexed": indexing.index_pending_records(record_ids) or 0},
    )


@shared_task(name="memory.index_sweep")
def index_sweep() -> int:
    """Embeds what is still pending in every tenant (beat, every minute): what a lost or
    failed ``memory.index_records`` left (memory.services.indexing.index_sweep)."""
    from memory.services import indexing

    return indexing.index_sweep()


# --- deletion ---------------------------------------------------------------------------


@shared_task(bind=True, name="memory.run_deletion")
def run_deletion(self, tenant_id: str, request_id: str) -> None:
    from memory.services.deletion import deletion_request_run

    def body() -> dict[str, Any]:
        request = deletion_request_run(
            tenant_id=uuid.UUID(tenant_id), request_id=uuid.UUID(request_id)
        )
        return {"status": request.status, "receipt": request.receipt}

    run_job(
        self, tenant_id=tenant_id, key=f"deletion:{request_id}", object_ids=[request_id], body=body
    )


# --- periodic (beat) jobs: fan out per tenant -------------------------------------------


def _run_periodic(task, tenant_id: str, name: str, period: int, service, actor_name: str) -> None:
    """One tenant's share of a periodic job, once per period (the key makes it idempotent)."""
    tid = uuid.UUID(tenant_id)
    run_job(
        task,
        tenant_id=tenant_id,
        key=_period_key(name, tenant_id, period),
        object_ids=[],
        body=lambda: service(actor=Actor.system(tid, actor_name), tenant_id=tid),
    )


@shared_task(bind=True, name="memory.decay_tenant")
def decay_tenant(self, tenant_id: str) -> None:
    from memory.services.forgetting import records_decay

    _run_periodic(self, tenant_id, "decay", 3600, records_decay, "forgetting")


@shared_task(bind=True, name="memory.expire_tenant")
def expire_tenant(self, tenant_id: str) -> None:
    from memory.services.forgetting import records_expire

    _run_periodic(self, tenant_id, "expire", 600, records_expire, "forgetting")


@shared_task(bind=True, name="memory.retention_tenant")
def retention_tenant(self, tenant_id: str) -> None:
    from memory.services.forgetting import events_retention_purge

    _run_periodic(self, tenant_id, "retention", 86400, events_retention_purge, "retention")


@shared_task(bind=True, name="memory.due_deletions_tenant")
def due_deletions_tenant(self, tenant_id: str) -> None:
    """A user's delayed deletions (undo window passed) that no delayed job ran yet."""
    from memory.services.deletion import deletion_requests_run_due

    _run_periodic(self, tenant_id, "due_deletions", 60, deletion_requests_run_due, "deletion")


@shared_task(bind=True, name="memory.consolidate_tenant")
def consolidate_tenant(self, tenant_id: str) -> None:
    from memory.models import MemoryRecord
    from memory.services.consolidation import subject_consolidate

    def body() -> dict[str, Any]:
        actor = Actor.system(uuid.UUID(tenant_id), "consolidation")
        subjects = (
            MemoryRecord.objects.active()
            .filter(tenant_id=tenant_id)
            .values_list("subject_id", flat=True)
            .distinct()
        )
        totals = {"folded": 0, "cases": 0}
        for subject_id in list(subjects):
            result = subject_consolidate(actor=actor, tenant_id=tenant_id, subject_id=subject_id)
            totals["folded"] += result["folded"]
            totals["cases"] += result["cases"]
        return totals

    run_job(
        self,
        tenant_id=tenant_id,
        key=_period_key("consolidate", tenant_id, 3600),
        object_ids=[],
        body=body,
    )


def _fan_out(task: Any) -> int:
    tenants = _tenant_ids()
    for tenant_id in tenants:
        task.delay(tenant_id)
    return len(tenants)


@shared_task(name="memory.decay_all")
def decay_all() -> int:
    return _fan_out(decay_tenant)


@shared_task(name="memory.expire_all")
def expire_all() -> int:
    return _fan_out(expire_tenant)


@shared_task(name="memory.retention_all")
def retention_all() -> int:
    return _fan_out(retention_tenant)


@shared_task(name="memory.due_deletions_all")
def due_deletions_all() -> int:
    return _fan_out(due_deletions_tenant)


@shared_task(name="memory.consolidate_all")
def consolidate_all() -> int:
    return _fan_out(consolidate_tenant)


# --- re-indexing (global: one index version spans every tenant) -------------------------


@shared_task(name="memory.build_index")
def build_index(model_id: str, switch: bool = False, max_drift: float | None = None) -> dict:
    """Build (or continue building) the index version for ``model_id``; with ``switch``,
    make it active when the golden-set drift allows. Idempotent and resumable: a
    redelivered message embeds only what is still missing. Each tenant's work runs in
    its own tenant context (inside the service)."""
    from memory.services.index_versions import (
        IndexVersionError,
        index_version_build,
        index_version_switch,
    )

    try:
        index = index_version_build(model_id)
    except IndexVersionError as e:  # e.g. a redelivery after the switch: nothing to do
        logger.warning("index version %s not built: %s", model_id, e.code)
        return {"model_id": model_id, "refused": e.code, "switched": False}
    result = {"model_id": model_id, "done": index.done, "total": index.total, "switched": False}
    if switch:
        try:
            index_version_switch(model_id, max_drift=max_drift)
            result["switched"] = True
        except IndexVersionError as e:
            logger.warning("index version %s not switched: %s", model_id, e.code)
            result["refused"] = e.code
    return result


# --- recall feedback into importance ----------------------------------------------------


@shared_task(bind=True, name="memory.recall_feedback_apply")
def recall_feedback_apply(self, tenant_id: str, trace_id: str) -> None:
    """Fold one recall's feedback into its memories' importance
    (memory.services.recall_feedback); once per trace, as its feedback is given once."""
    from memory.services.recall_feedback import recall_feedback_apply as apply

    tid = uuid.UUID(tenant_id)
    run_job(
        self,
        tenant_id=tenant_id,
        key=f"feedback:{trace_id}",
        object_ids=[trace_id],
        body=lambda: apply(
            actor=Actor.system(tid, "feedback"), tenant_id=tid, trace_id=uuid.UUID(trace_id)
        ),
    )


# --- working memory (memory/working/) ---------------------------------------------------


@shared_task(bind=True, name="memory.working_memory_purge_tenant")
def working_memory_purge_tenant(self, tenant_id: str) -> None:
    """Expired working memory rows of the PostgreSQL store (reads never return them;
    Redis expires its own keys)."""
    from memory.working.store import postgres_purge_expired

    _run_periodic(
        self,
        tenant_id,
        "working_memory_purge",
        600,
        lambda *, actor, tenant_id: postgres_purge_expired(tenant_id),
        "working_memory",
    )


@shared_task(name="memory.working_memory_purge_all")
def working_memory_purge_all() -> int:
    return _fan_out(working_memory_purge_tenant)


@shared_task(bind=True, name="memory.threads_idle_close_tenant")
def threads_idle_close_tenant(self, tenant_id: str) -> None:
    """Close the tenant's quiet threads (memory.services.thread_idle), once per period."""
    from memory.services.thread_idle import idle_threads_close

    _run_periodic(self, tenant_id, "threads_idle_close", 300, idle_threads_close, "threads")


@shared_task(name="memory.threads_idle_close_all")
def threads_idle_close_all() -> int:
    return _fan_out(threads_idle_close_tenant)


# --- quality inspection (memory/services/inspector) -------------------------------------


@shared_task(bind=True, name="memory.quality_inspect_tenant")
def quality_inspect_tenant(self, tenant_id: str) -> None:
    from memory.services.inspector import tenant_inspect

    tid = uuid.UUID(tenant_id)
    run_job(
        self,
        tenant_id=tenant_id,
        key=_period_key("quality", tenant_id, 86400),
        object_ids=[],
        body=lambda: (
            tenant_inspect(actor=Actor.system(tid, "quality"), tenant_id=tid, trigger="beat").counts
        ),
    )


@shared_task(name="memory.quality_inspect_all")
def quality_inspect_all() -> int:
    return _fan_out(quality_inspect_tenant)


@shared_task(name="memory.quality_vacuum")
def quality_vacuum() -> bool:
    """VACUUM (ANALYZE) the vector table, asked for by a bloat finding. Outside any
    transaction (VACUUM cannot run in one); PostgreSQL skips it with a warning when the
    connecting role does not own the table (then the operator runs it as the owner)."""
    from memory.services.inspector.index_health import vector_table_vacuum

    return vector_table_vacuum()
