"""The deletion workflow: erase one memory, one source event or a whole subject — and
everything derived from it — then prove it.

Read top to bottom:

1. ``deletion_request_create`` records a DeletionRequest and enqueues the job on commit.
2. ``deletion_request_run`` (the job; idempotent: a finished request is not run again)
   resolves the request into an ``ErasureTarget`` (which record versions and events go,
   which survive with less support), remembers the erased texts in memory only, then asks
   every registered **derived store** to erase its part, in registration order.
3. It then asks every store's ``find`` — and every text route — whether anything is still
   reachable. The receipt (store → rows erased: counted before and after, so a store
   emptied by another store's erasure still reports its rows) and the verification (route
   → rows still found, all zero when it worked) are stored on the request; ids and counts
   only.

Derived stores are small objects in a registry, listed below in the order they run (the
retrieval side's come from memory.services.derived_stores). Adding one at run time is::

    register_store(DerivedStore("exports", erase=my_erase, find=my_find))

``erase(target) -> int`` removes the store's rows for the target; ``find(target) -> int``
counts what is still there (by id, and for text stores by ``target.texts``). Both run
inside the job's tenant context and transaction.
"""

from __future__ import annotations

import logging
import uuid
from datetime import timedelta

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from core import jobs
from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction, ReasonCode
from core.db_router import subject_fence
from core.observability.metrics import observe_deletion
from memory.models import (
    DeletionRequest,
    DeletionScope,
    DeletionStatus,
    MemoryCase,
    MemoryRecord,
    MemorySource,
    MemoryStatus,
    SourceEvent,
    Subject,
    ThreadSummary,
)
from memory.services.derived_stores import RETRIEVAL_STORES, DerivedStore, ErasureTarget
from memory.services.erasure_stores import (
    _erase_cases,
    _erase_dead_letters,
    _erase_decay,
    _erase_events,
    _erase_idempotency_answers,
    _erase_links,
    _erase_records,
    _erase_session_summaries,
    _erase_summaries,
    _erase_thread_closures,
    _erase_weakened,
    _erase_working_memory,
    _find_cases,
    _find_dead_letters,
    _find_decay,
    _find_events,
    _find_idempotency_answers,
    _find_links,
    _find_records,
    _find_session_summaries,
    _find_summaries,
    _find_thread_closures,
    _find_working_memory,
)

logger = logging.getLogger(__name__)


_STORES: list[DerivedStore] = []


def register_store(store: DerivedStore) -> None:
    """Add a store to the workflow (replacing one of the same name)."""
    _STORES[:] = [s for s in _STORES if s.name != store.name]
    _STORES.append(store)


def registered_stores() -> list[DerivedStore]:
    return list(_STORES)


# --- resolving a request ----------------------------------------------------------------


def _lineage_records(tenant_id: uuid.UUID, lineage_ids: set[uuid.UUID]) -> set[uuid.UUID]:
    return set(
        MemoryRecord.objects.filter(tenant_id=tenant_id, lineage_id__in=lineage_ids).values_list(
            "id", flat=True
        )
    )


def _sole_support_events(tenant_id: uuid.UUID, record_ids: set[uuid.UUID]) -> set[uuid.UUID]:
    """Events linked to these records and to no other live record."""
    linked = set(
        MemorySource.objects.filter(tenant_id=tenant_id, record_id__in=record_ids).values_list(
            "event_id", flat=True
        )
    )
    shared = set(
        MemorySource.objects.filter(tenant_id=tenant_id, event_id__in=linked)
        .exclude(record_id__in=record_ids)
        .exclude(record__status=MemoryStatus.DELETED)
        .values_list("event_id", flat=True)
    )
    return linked - shared


def _resolve(request: DeletionRequest) -> ErasureTarget:
    tenant_id = request.tenant_id
    target = ErasureTarget(tenant_id=tenant_id, subject_id=request.subject_id, scope=request.scope)
    records = MemoryRecord.objects.filter(tenant_id=tenant_id, subject_id=request.subject_id)
    if request.scope == DeletionScope.SUBJECT:
        target.whole_subject = True
        target.lineage_ids = set(records.values_list("lineage_id", flat=True))
        target.record_ids = set(records.values_list("id", flat=True))
        target.event_ids = set(
            SourceEvent.objects.filter(
                tenant_id=tenant_id, subject_id=request.subject_id
            ).values_list("id", flat=True)
        )
    elif request.scope == DeletionScope.MEMORY:
        lineage = records.filter(Q(id=request.target_id) | Q(lineage_id=request.target_id))
        target.lineage_ids = set(lineage.values_list("lineage_id", flat=True))
        target.record_ids = _lineage_records(tenant_id, target.lineage_ids)
        target.event_ids = _sole_support_events(tenant_id, target.record_ids)
    else:  # one source event: erase what depended solely on it, weaken the rest
        event_id = request.target_id
        target.event_ids = set(
            SourceEvent.objects.filter(
                tenant_id=tenant_id, subject_id=request.subject_id, id=event_id
            ).values_list("id", flat=True)
        )
        linked = set(
            MemorySource.objects.filter(tenant_id=tenant_id, event_id=event_id).values_list(
                "record_id", flat=True
            )
        )
        support = dict(
            MemorySource.objects.filter(tenant_id=tenant_id, record_id__in=linked)
            .values_list("record_id")
            .annotate(n=Count("event_id"))
        )
        target.record_ids = {r for r in linked if support.get(r, 0) <= 1}
        target.weakened_record_ids = linked - target.record_ids
    target.thread_ids = set(
        SourceEvent.objects.filter(tenant_id=tenant_id, id__in=target.event_ids)
        .exclude(thread_id="")
        .values_list("thread_id", flat=True)
    )
    target.texts = _texts(target)
    return target


def _texts(target: ErasureTarget) -> list[str]:
    """The erased texts, kept in memory for the text routes of verification."""
    texts = list(
        MemoryRecord.objects.filter(id__in=target.record_ids)
        .exclude(statement="")
        .values_list("statement", flat=True)
    )
    texts += list(
        SourceEvent.objects.filter(id__in=target.event_ids).values_list("content", flat=True)
    )
    # Short fragments ("ok") would match unrelated rows; they carry no personal data.
    return sorted({t.strip() for t in texts if len(t.strip()) >= 6})


def _find_texts(t: ErasureTarget) -> int:
    """The exact-text route: does any record, event, summary or case of this subject still
    contain an erased text verbatim? (Another person saying the same words is not theirs.)"""
    found = 0
    for text in t.texts:
        found += MemoryRecord.objects.filter(
            tenant_id=t.tenant_id, subject_id=t.subject_id, statement__icontains=text
        ).count()
        found += SourceEvent.objects.filter(
            tenant_id=t.tenant_id, subject_id=t.subject_id, content__icontains=text
        ).count()
        found += ThreadSummary.objects.filter(
            tenant_id=t.tenant_id, subject_id=t.subject_id, items__icontains=text
        ).count()
        found += MemoryCase.objects.filter(
            Q(problem__icontains=text) | Q(outcome__icontains=text),
            tenant_id=t.tenant_id,
            subject_id=t.subject_id,
        ).count()
    return found


def _texts_still_supported(t: ErasureTarget) -> None:
    """A text that a surviving record or event states too (the same fact said twice, one
    copy deleted) is not expected to vanish: drop it from the text route."""
    if t.scope == DeletionScope.SUBJECT:
        return
    survivors = MemoryRecord.objects.filter(tenant_id=t.tenant_id, subject_id=t.subject_id).exclude(
        id__in=t.record_ids
    )
    events = SourceEvent.objects.filter(tenant_id=t.tenant_id, subject_id=t.subject_id).exclude(
        id__in=t.event_ids
    )
    t.texts = [
        text
        for text in t.texts
        if not survivors.filter(statement__icontains=text).exists()
        and not events.filter(content__icontains=text).exists()
    ]


# Order matters: records first (so rebuilt cases no longer see them), then what is derived
# from records and events (rebuilt without them), the events themselves; the retrieval
# side's stores (indexes, traces) run after these and key on the same ids. Stores
# registered later run last.
for _store in (
    DerivedStore("record_versions", _erase_records, _find_records),
    DerivedStore("re_derived_records", _erase_weakened, lambda t: 0),
    DerivedStore("session_summaries", _erase_session_summaries, _find_session_summaries),
    DerivedStore("summaries", _erase_summaries, _find_summaries),
    DerivedStore("cases", _erase_cases, _find_cases),
    DerivedStore("decay_scores", _erase_decay, _find_decay),
    DerivedStore("dead_letters", _erase_dead_letters, _find_dead_letters),
    DerivedStore("idempotency_answers", _erase_idempotency_answers, _find_idempotency_answers),
    DerivedStore("memory_source_links", _erase_links, _find_links),
    DerivedStore("source_events", _erase_events, _find_events),
    *RETRIEVAL_STORES,
    DerivedStore("working_memory", _erase_working_memory, _find_working_memory),
    DerivedStore("thread_closures", _erase_thread_closures, _find_thread_closures),
):
    register_store(_store)

# The quality inspector's findings and canaries that name erased memories.
from memory.services.inspector.erasure import QUALITY_STORE  # noqa: E402

register_store(QUALITY_STORE)

# The entity index's rows of erased memories.
from memory.services.mention_erasure import ENTITY_MENTIONS_STORE  # noqa: E402

register_store(ENTITY_MENTIONS_STORE)


# --- the workflow -----------------------------------------------------------------------


def deletion_request_create(
    *,
    actor: Actor,
    subject: Subject,
    scope: str,
    target_id: uuid.UUID,
    reason_code: str = ReasonCode.DELETION_REQUESTED,
    enqueue: bool = True,
    delay_seconds: int = 0,
    held: dict[str, list[str]] | None = None,
) -> DeletionRequest:
    """Record the request and start the job once the caller's transaction commits
    (``delay_seconds`` later: the job does nothing before ``run_after``)."""
    if scope not in DeletionScope.values:
        raise ValueError(f"scope must be one of {DeletionScope.values}")
    request = DeletionRequest.objects.create(
        tenant_id=subject.tenant_id,
        scope=scope,
        subject_id=subject.id,
        target_id=target_id,
        requested_by_type=actor.type,
        requested_by_id=actor.id,
        reason_code=reason_code,
        run_after=timezone.now() + timedelta(seconds=delay_seconds) if delay_seconds else None,
        held=held or {},
    )
    audit_record(
        actor=actor,
        action=AuditAction.DELETION_REQUEST,
        operation="DELETE",
        reason_code=reason_code,
        subject_id=subject.id,
        extra={"deletion_request_id": str(request.id), "scope": scope},
    )
    if enqueue:
        jobs.enqueue_on_commit(
            "memory.run_deletion",
            str(request.tenant_id),
            str(request.id),
            countdown=delay_seconds or None,
        )
    return request


# --- a user's delete, with a few seconds to undo it ---------------------------------------
#
# The memory leaves at once for every reader — its current versions are archived, which
# recall, the agent API and the user's list treat as not in force — but the erasure itself
# waits ``run_after``. Undo puts the versions back as they were. Whatever runs first after
# ``run_after`` erases it: the delayed job (with a broker), the periodic sweep, or the
# user's next page (``deletion_requests_run_due``; without a broker, jobs run at once and
# would find it not yet due).


def memory_deletion_schedule(
    *, actor: Actor, subject: Subject, lineage_id: uuid.UUID, delay_seconds: int
) -> DeletionRequest:
    """Delete one memory (every version of ``lineage_id``) after ``delay_seconds``, hiding
    it now. Preconditions: the caller holds the subject's row lock or its own transaction."""
    current = MemoryRecord.objects.filter(
        tenant_id=subject.tenant_id,
        subject_id=subject.id,
        lineage_id=lineage_id,
        status=MemoryStatus.ACTIVE,
        superseded_at__isnull=True,
    )
    held = {
        str(i): [status, reason]
        for i, status, reason in current.values_list("id", "status", "status_reason")
    }
    current.update(status=MemoryStatus.ARCHIVED, status_reason=ReasonCode.DELETION_PENDING)
    return deletion_request_create(
        actor=actor,
        subject=subject,
        scope=DeletionScope.MEMORY,
        target_id=lineage_id,
        delay_seconds=delay_seconds,
        held=held,
    )


def deletion_request_undo(*, actor: Actor, subject: Subject, request_id: uuid.UUID) -> bool:
    """Undo a delayed deletion that has not run: its versions come back as they were.
    False when it already ran (or was undone, or was never undoable)."""
    with transaction.atomic():
        request = (
            DeletionRequest.objects.select_for_update()
            .filter(tenant_id=subject.tenant_id, subject_id=subject.id, id=request_id)
            .first()
        )
        if request is None or request.status != DeletionStatus.PENDING or request.run_after is None:
            return False
        for record_id, (status, reason) in request.held.items():
            MemoryRecord.objects.filter(
                tenant_id=subject.tenant_id,
                id=record_id,
                status=MemoryStatus.ARCHIVED,
                status_reason=ReasonCode.DELETION_PENDING,
                superseded_at__isnull=True,
            ).update(status=status, status_reason=reason)
        request.status = DeletionStatus.CANCELLED
        request.completed_at = timezone.now()
        request.save(update_fields=["status", "completed_at"])
        audit_record(
            actor=actor,
            action=AuditAction.DELETION_CANCEL,
            subject_id=subject.id,
            extra={"deletion_request_id": str(request.id), "scope": request.scope},
        )
    return True


def deletion_requests_run_due(
    *, tenant_id: uuid.UUID, subject_id: uuid.UUID | None = None, actor: Actor | None = None
) -> int:
    """Run the delayed deletions whose time has come (of one subject, or the tenant's).
    Returns how many ran. Idempotent, like the job."""
    due = DeletionRequest.objects.filter(
        tenant_id=tenant_id,
        status=DeletionStatus.PENDING,
        run_after__isnull=False,
        run_after__lte=timezone.now(),
    )
    if subject_id is not None:
        due = due.filter(subject_id=subject_id)
    ran = 0
    for request_id in list(due.order_by("run_after").values_list("id", flat=True)):
        deletion_request_run(tenant_id=tenant_id, request_id=request_id)
        ran += 1
    return ran


def subject_erase(*, actor: Actor, subject: Subject, run_now: bool = True) -> DeletionRequest:
    """Erase everything about ``subject`` — memories, raw events (including those that
    never became memories), summaries, cases, indexes, dead letters — with a receipt and a
    verification. The one workflow behind every erasure route: the settings page's
    "delete everything", withdrawing consent with erasure, and ``engram_delete_subject``.
    ``run_now`` runs it in this transaction (the caller sees the receipt); otherwise the
    job runs after commit."""
    request = deletion_request_create(
        actor=actor,
        subject=subject,
        scope=DeletionScope.SUBJECT,
        target_id=subject.id,
        enqueue=not run_now,
    )
    if run_now:
        request = deletion_request_run(tenant_id=subject.tenant_id, request_id=request.id)
    return request


def deletion_request_run(*, tenant_id: uuid.UUID, request_id: uuid.UUID) -> DeletionRequest:
    """Run one request to completion (caller holds the tenant context). Idempotent."""
    with transaction.atomic():
        request = DeletionRequest.objects.select_for_update().get(
            pk=request_id, tenant_id=tenant_id
        )
        if request.status in (DeletionStatus.DONE, DeletionStatus.CANCELLED):
            return request
        if request.run_after is not None and request.run_after > timezone.now():
            return request  # not yet due: it can still be undone
        actor = Actor.system(tenant_id, "deletion")
        target = _resolve(request)
        target.actor = actor
        target.request_id = f"deletion:{request.id}"
        # Subject-wide erasure also ends the subject's memory: nothing new is written.
        if target.whole_subject:
            Subject.objects.filter(pk=request.subject_id).update(
                memory_paused=True, display_name=""
            )
        # The receipt counts what each store lost, however it lost it: erasing a record
        # version also drops its vectors and lexical rows (memory.services.erasure), so
        # those stores' own erase finds nothing left. Each store is counted before and
        # after; it reports the larger of what it erased itself and what went.
        present = {store.name: store.find(target) for store in _STORES}
        erased = {store.name: store.erase(target) for store in _STORES}
        _texts_still_supported(target)
        verification = {store.name: store.find(target) for store in _STORES}
        receipt = {name: max(erased[name], present[name] - verification[name]) for name in erased}
        verification["exact_text"] = _find_texts(target)
        request.receipt = receipt
        request.verification = verification
        request.status = (
            DeletionStatus.DONE if not any(verification.values()) else DeletionStatus.FAILED
        )
        request.completed_at = timezone.now()
        request.save(update_fields=["receipt", "verification", "status", "completed_at"])
        subject_fence(tenant_id, request.subject_id)  # replica reads wait for this commit
        audit_record(
            actor=actor,
            action=AuditAction.DELETION_COMPLETE,
            operation="DELETE",
            reason_code=request.status,
            subject_id=request.subject_id,
            request_id=target.request_id,
            extra={"receipt": receipt, "verification": verification},
        )
    observe_deletion(request.scope, request.status)
    if request.status != DeletionStatus.DONE:
        logger.error("deletion %s verification found %s", request.id, verification)
    return request
