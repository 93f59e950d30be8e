"""The deletion workflow's own stores (``memory.services.deletion``): each erases what a
request reaches in one place — record versions, re-derived records, summaries, cases,
decay scores, dead letters, idempotency answers, source links and the source events — and
finds what is left there, for the verifier."""

from __future__ import annotations

import uuid

from django.db.models import Q

from core.codes import ReasonCode
from memory.models import (
    DeadLetter,
    DeletionScope,
    IdempotencyKey,
    MemoryCase,
    MemoryDecay,
    MemoryRecord,
    MemorySource,
    MemoryStatus,
    SourceEvent,
    ThreadSummary,
)
from memory.services.derived_stores import ErasureTarget
from memory.services.erasure import (
    memory_lineage_erase,
    memory_records_erase,
    source_events_erase,
)


def _erase_records(t: ErasureTarget) -> int:
    assert t.actor is not None
    if t.scope == DeletionScope.EVENT:
        erased = memory_records_erase(
            actor=t.actor,
            tenant_id=t.tenant_id,
            record_ids=sorted(t.record_ids),
            reason_code=ReasonCode.SOURCE_DELETED,
            request_id=t.request_id,
        )
        return len(erased)
    count = 0
    for lineage_id in sorted(t.lineage_ids):
        count += len(
            memory_lineage_erase(
                actor=t.actor,
                tenant_id=t.tenant_id,
                lineage_id=lineage_id,
                reason_code=ReasonCode.DELETION_REQUESTED,
                request_id=t.request_id,
            )
        )
    return count


def _find_records(t: ErasureTarget) -> int:
    live = MemoryRecord.objects.filter(tenant_id=t.tenant_id).filter(
        ~Q(status=MemoryStatus.DELETED) | ~Q(statement="") | Q(value__isnull=False)
    )
    by_id = live.filter(id__in=t.record_ids).count()
    if t.whole_subject:
        by_id += live.filter(subject_id=t.subject_id).exclude(id__in=t.record_ids).count()
    return by_id


def _erase_weakened(t: ErasureTarget) -> int:
    """Re-derive records that keep other support: drop the erased event's links and
    recompute the evidence count from what remains."""
    count = 0
    for record_id in sorted(t.weakened_record_ids):
        MemorySource.objects.filter(
            tenant_id=t.tenant_id, record_id=record_id, event_id__in=t.event_ids
        ).delete()
        remaining = MemorySource.objects.filter(tenant_id=t.tenant_id, record_id=record_id).count()
        MemoryRecord.objects.filter(pk=record_id).update(evidence_count=max(1, remaining))
        count += 1
    return count


def _erase_links(t: ErasureTarget) -> int:
    deleted, _ = MemorySource.objects.filter(
        Q(record_id__in=t.record_ids) | Q(event_id__in=t.event_ids), tenant_id=t.tenant_id
    ).delete()
    return deleted


def _find_links(t: ErasureTarget) -> int:
    return MemorySource.objects.filter(
        Q(record_id__in=t.record_ids) | Q(event_id__in=t.event_ids), tenant_id=t.tenant_id
    ).count()


def _erase_events(t: ErasureTarget) -> int:
    assert t.actor is not None
    return source_events_erase(
        actor=t.actor,
        tenant_id=t.tenant_id,
        event_ids=sorted(t.event_ids),
        reason_code=ReasonCode.DELETION_REQUESTED,
        request_id=t.request_id,
    )


def _find_events(t: ErasureTarget) -> int:
    events = SourceEvent.objects.filter(tenant_id=t.tenant_id)
    n = events.filter(id__in=t.event_ids).count()
    if t.whole_subject:
        n += events.filter(subject_id=t.subject_id).exclude(id__in=t.event_ids).count()
    return n


def _erase_summaries(t: ErasureTarget) -> int:
    from memory.services.compression import thread_summarize

    summaries = ThreadSummary.objects.filter(tenant_id=t.tenant_id, subject_id=t.subject_id)
    if t.whole_subject:
        deleted, _ = summaries.delete()
        return deleted
    touched = summaries.filter(
        Q(source_event_ids__overlap=list(t.event_ids)) | Q(thread_id__in=t.thread_ids)
    )
    count = 0
    for summary in touched:
        # Rebuilt from the thread's remaining events (removed when none remain).
        thread_summarize(
            actor=t.actor,
            tenant_id=t.tenant_id,
            subject_id=t.subject_id,
            thread_id=summary.thread_id,
            exclude_event_ids=t.event_ids,
        )
        count += 1
    return count


def _find_summaries(t: ErasureTarget) -> int:
    summaries = ThreadSummary.objects.filter(tenant_id=t.tenant_id, subject_id=t.subject_id)
    if t.whole_subject:
        return summaries.count()
    return summaries.filter(source_event_ids__overlap=list(t.event_ids) or [uuid.uuid4()]).count()


def _erase_cases(t: ErasureTarget) -> int:
    from memory.services.consolidation import cases_rebuild

    cases = MemoryCase.objects.filter(tenant_id=t.tenant_id, subject_id=t.subject_id)
    if t.whole_subject:
        deleted, _ = cases.delete()
        return deleted
    touched = cases.filter(episode_ids__overlap=list(t.record_ids) or [uuid.uuid4()])
    namespaces = set(touched.values_list("namespace", flat=True))
    count = touched.count()
    for namespace in sorted(namespaces):
        cases_rebuild(tenant_id=t.tenant_id, subject_id=t.subject_id, namespace=namespace)
    return count


def _find_cases(t: ErasureTarget) -> int:
    cases = MemoryCase.objects.filter(tenant_id=t.tenant_id, subject_id=t.subject_id)
    if t.whole_subject:
        return cases.count()
    return cases.filter(episode_ids__overlap=list(t.record_ids) or [uuid.uuid4()]).count()


def _erase_decay(t: ErasureTarget) -> int:
    deleted, _ = MemoryDecay.objects.filter(
        tenant_id=t.tenant_id, record_id__in=t.record_ids
    ).delete()
    return deleted


def _find_decay(t: ErasureTarget) -> int:
    return MemoryDecay.objects.filter(tenant_id=t.tenant_id, record_id__in=t.record_ids).count()


def _dead_letters(t: ErasureTarget):
    ids = [str(i) for i in (*t.record_ids, *t.event_ids)]
    if t.whole_subject:
        ids.append(str(t.subject_id))
    query = Q(pk__in=[])
    for value in ids:
        query |= Q(object_ids__contains=[value])
    return DeadLetter.objects.filter(query, tenant_id=t.tenant_id)


def _erase_dead_letters(t: ErasureTarget) -> int:
    deleted, _ = _dead_letters(t).delete()
    return deleted


def _find_dead_letters(t: ErasureTarget) -> int:
    return _dead_letters(t).count()


def _idempotency_answers(t: ErasureTarget):
    """Stored answers to ``POST /candidates`` with an Idempotency-Key: the whole subject's,
    or those that name a deleted record (they hold ids and codes, never text)."""
    rows = IdempotencyKey.objects.filter(tenant_id=t.tenant_id, subject_id=t.subject_id)
    if t.whole_subject:
        return rows
    query = Q(pk__in=[])
    for record_id in t.record_ids:
        query |= Q(response_body__results__contains=[{"record_id": str(record_id)}])
    return rows.filter(query)


def _erase_idempotency_answers(t: ErasureTarget) -> int:
    deleted, _ = _idempotency_answers(t).delete()
    return deleted


def _find_idempotency_answers(t: ErasureTarget) -> int:
    return _idempotency_answers(t).count()


def _erase_working_memory(t: ErasureTarget) -> int:
    """Working memory (``memory.working``: Redis or its UNLOGGED table) holds the subject's
    current task state, never cited by a memory or an event: erasing the subject drops
    all of it; narrower requests have nothing there to reach."""
    from memory.working.service import working_subject_drop

    if not t.whole_subject:
        return 0
    return working_subject_drop(tenant_id=t.tenant_id, subject_id=t.subject_id)


def _find_working_memory(t: ErasureTarget) -> int:
    from memory.working.service import working_subject_count

    if not t.whole_subject:
        return 0
    return working_subject_count(tenant_id=t.tenant_id, subject_id=t.subject_id)


def _thread_closures(t: ErasureTarget):
    """What closing a thread answered (ids and reason codes): the whole subject's, or
    those naming an erased record."""
    from memory.models import ThreadClosure

    rows = ThreadClosure.objects.filter(tenant_id=t.tenant_id, subject_id=t.subject_id)
    if t.whole_subject:
        return rows
    query = Q(pk__in=[])
    for record_id in t.record_ids:
        query |= Q(result__record_ids__contains=[str(record_id)])
    return rows.filter(query)


def _erase_thread_closures(t: ErasureTarget) -> int:
    return _thread_closures(t).delete()[0]


def _find_thread_closures(t: ErasureTarget) -> int:
    return _thread_closures(t).count()


def _session_summaries(t: ErasureTarget):
    """Session summaries (``memory.services.session_summary``) that cite an erased event
    and keep other support: they quote the thread's turns, so losing one event erases
    the whole summary (re-summarising is left to the next close)."""
    from memory.services.session_summary import SOURCE_URI_PREFIX

    return MemoryRecord.objects.filter(
        tenant_id=t.tenant_id,
        id__in=t.weakened_record_ids,
        source_uri__startswith=SOURCE_URI_PREFIX,
    ).exclude(status=MemoryStatus.DELETED, statement="")


def _erase_session_summaries(t: ErasureTarget) -> int:
    assert t.actor is not None
    ids = set(_session_summaries(t).values_list("id", flat=True))
    if not ids:
        return 0
    erased = memory_records_erase(
        actor=t.actor,
        tenant_id=t.tenant_id,
        record_ids=sorted(ids),
        reason_code=ReasonCode.SOURCE_DELETED,
        request_id=t.request_id,
    )
    # Later stores (links, indexes, traces) key on the erased ids.
    t.record_ids |= set(erased)
    return len(erased)


def _find_session_summaries(t: ErasureTarget) -> int:
    return _session_summaries(t).count()
