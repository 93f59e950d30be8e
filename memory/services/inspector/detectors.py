"""The memory detectors: near-duplicates worded differently, stale values, and low-value
density. Each reads one tenant's records (the caller runs it in that tenant's context and
passes the tenant id, which every query also filters on) and returns ``Found`` items; none
writes anything. Each is bounded: at most ``SUBJECTS_PER_RUN`` subjects, the newest
``DUPLICATE_RECORDS_PER_SUBJECT`` records of each for the pairwise comparison, and at most
``FINDINGS_PER_KIND`` findings of a kind (``run.py`` counts the rest)."""

from __future__ import annotations

import uuid
from collections import defaultdict
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection
from django.db.models import Count, F, Max, OuterRef, Q, Subquery

from core.codes import ReasonCode
from memory.models import (
    Cardinality,
    FindingKind,
    FindingSeverity,
    MemoryRecord,
    MemoryStatus,
)
from memory.predicates import canonical_predicate
from memory.selectors import active_model_id
from memory.services.consolidation import similarity, tokens
from memory.write_policy.decision import rank

from .findings import Found, conf


def subjects_to_inspect(tenant_id: uuid.UUID) -> list[uuid.UUID]:
    """The tenant's subjects with active records, most recently written first, bounded."""
    return list(
        MemoryRecord.objects.active()
        .filter(tenant_id=tenant_id)
        .values("subject_id")
        .annotate(latest=Max("recorded_at"))
        .order_by("-latest", "subject_id")
        .values_list("subject_id", flat=True)[: conf("SUBJECTS_PER_RUN")]
    )


# --- near-duplicates --------------------------------------------------------------------

_CLOSE_PAIRS = """
SELECT a.record_id, b.record_id, 1 - (a.vector <=> b.vector)
  FROM memory_memoryembedding a
  JOIN memory_memoryembedding b
    ON b.subject_id = a.subject_id AND b.model_id = a.model_id AND a.record_id < b.record_id
 WHERE a.tenant_id = %s AND b.tenant_id = %s AND a.model_id = %s
   AND a.record_id = ANY(%s) AND b.record_id = ANY(%s)
   AND (a.vector <=> b.vector) <= %s
 ORDER BY 3 DESC, 1, 2
 LIMIT %s
"""


def _survivor_first(a: MemoryRecord, b: MemoryRecord) -> tuple[MemoryRecord, MemoryRecord]:
    """The record a merge keeps, then the one it folds in: the stronger source, then the
    older record (as consolidation chooses), so a merge never lets a weaker source stand
    in for a stronger one."""
    key_a = (-rank(a.assertion_kind), a.recorded_at, str(a.id))
    key_b = (-rank(b.assertion_kind), b.recorded_at, str(b.id))
    return (a, b) if key_a <= key_b else (b, a)


def near_duplicates(tenant_id: uuid.UUID, subject_ids: list[uuid.UUID]) -> list[Found]:
    """Pairs of active records of one subject, scope and type whose vectors (the model
    recall serves) are within ``DUPLICATE_COSINE`` and whose words overlap by at least
    ``DUPLICATE_MIN_WORD_OVERLAP`` without being the same words (exact repeats are folded
    by the write path, close rewordings by consolidation). Two slot values are left to
    the slot detector: two values of one slot are a conflict, not a duplicate.

    The vectors tell that two statements say the same thing; the shared words keep two
    statements about one topic with nothing in common apart. Each record is in at most one
    pair (its closest), so one merge never undoes another."""
    model_id = active_model_id()
    cosine = conf("DUPLICATE_COSINE")
    min_overlap = conf("DUPLICATE_MIN_WORD_OVERLAP")
    per_subject = conf("DUPLICATE_RECORDS_PER_SUBJECT")
    limit = conf("FINDINGS_PER_KIND")
    found: list[Found] = []
    for subject_id in subject_ids:
        ids = list(
            MemoryRecord.objects.current()
            .filter(tenant_id=tenant_id, subject_id=subject_id)
            .order_by("-recorded_at", "id")
            .values_list("id", flat=True)[:per_subject]
        )
        if len(ids) < 2:
            continue
        with connection.cursor() as cursor:
            cursor.execute(
                _CLOSE_PAIRS, [tenant_id, tenant_id, model_id, ids, ids, 1 - cosine, per_subject]
            )
            pairs = cursor.fetchall()
        if not pairs:
            continue
        records = MemoryRecord.objects.in_bulk({i for p in pairs for i in p[:2]})
        paired: set[uuid.UUID] = set()
        for a_id, b_id, close in pairs:
            a, b = records.get(a_id), records.get(b_id)
            if a is None or b is None or a_id in paired or b_id in paired:
                continue
            if (
                a.namespace != b.namespace
                or a.memory_type != b.memory_type
                or a.lineage_id == b.lineage_id
                or a.content_key == b.content_key
                or (a.predicate and b.predicate)
            ):
                continue
            overlap = similarity(a.statement, b.statement)
            if overlap < min_overlap or overlap >= 1.0:
                continue
            keep, fold = _survivor_first(a, b)
            paired.update((a_id, b_id))
            found.append(
                Found(
                    FindingKind.NEAR_DUPLICATE,
                    FindingSeverity.INFO,
                    (keep.id, fold.id),
                    subject_id,
                    {
                        "keep": str(keep.id),
                        "fold": str(fold.id),
                        "cosine": round(float(close), 4),
                        "word_overlap": round(overlap, 4),
                        "model_id": model_id,
                    },
                )
            )
            if len(found) >= limit:
                return found
    return found


def _jaccard(a: set[str], b: set[str]) -> float:
    """consolidation.similarity on token sets already computed."""
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


# --- stale values -----------------------------------------------------------------------


def superseded_still_active(
    tenant_id: uuid.UUID, subject_ids: list[uuid.UUID], now: datetime
) -> list[Found]:
    """A value that was replaced (a newer version of its memory says something else) but
    is still current in another memory of the same subject: "Lives in Shanghai" was
    superseded by "Lives in Hangzhou", and a separate note "User lives in Shanghai" is
    still active. Matched by the replaced value's content key, or by its words (as
    consolidation matches near-duplicates)."""
    threshold = settings.ENGRAM_LIFECYCLE["NEAR_DUPLICATE_SIMILARITY"]
    limit = conf("FINDINGS_PER_KIND")
    per_subject = conf("DUPLICATE_RECORDS_PER_SUBJECT")
    successor = MemoryRecord.objects.filter(supersedes_id=OuterRef("pk")).exclude(
        status_reason=ReasonCode.VALIDITY_CLOSED
    )
    replaced = list(
        MemoryRecord.objects.filter(
            tenant_id=tenant_id,
            subject_id__in=subject_ids,
            status=MemoryStatus.SUPERSEDED,
        )
        .exclude(status_reason=ReasonCode.CONSOLIDATED)
        .annotate(
            successor_id=Subquery(successor.values("id")[:1]),
            successor_key=Subquery(successor.values("content_key")[:1]),
        )
        .filter(successor_id__isnull=False)
        .exclude(successor_key=F("content_key"))
        .order_by("-superseded_at", "id")[: limit * 10]
    )
    if not replaced:
        return []
    by_subject: dict[uuid.UUID, list[MemoryRecord]] = defaultdict(list)
    for old in replaced:
        by_subject[old.subject_id].append(old)
    found: list[Found] = []
    reported: set[uuid.UUID] = set()
    for subject_id, olds in by_subject.items():
        current = list(
            MemoryRecord.objects.current(now)
            .filter(tenant_id=tenant_id, subject_id=subject_id)
            .order_by("-recorded_at", "id")[:per_subject]
        )
        # Each statement's words once (consolidation's tokens), not once per comparison.
        words = {r.id: tokens(r.statement) for r in current}
        for old in olds:
            old_words = tokens(old.statement)
            for record in current:
                if record.id in reported or record.lineage_id == old.lineage_id:
                    continue
                if record.content_key != old.content_key and (
                    _jaccard(words[record.id], old_words) < threshold
                ):
                    continue
                reported.add(record.id)
                found.append(
                    Found(
                        FindingKind.STALE_SUPERSEDED,
                        FindingSeverity.WARNING,
                        (record.id,),
                        subject_id,
                        {
                            "stale": str(record.id),
                            "superseded": str(old.id),
                            "superseded_by": str(old.successor_id),
                        },
                    )
                )
                if len(found) >= limit:
                    return found
    return found


def slot_conflicts(
    tenant_id: uuid.UUID, subject_ids: list[uuid.UUID], now: datetime
) -> list[Found]:
    """Two values in force at once in one single-valued slot (namespace and predicate,
    any spelling of the predicate: ``memory.predicates``). The database refuses two for
    one spelling; two spellings, or a single-valued slot also written as multi-valued,
    slip past it, and a key-value read (``memory_current_in_slots``) then shows only the
    latest start. The finding lists the values oldest start first; expiring applies to
    all but the last."""
    limit = conf("FINDINGS_PER_KIND")
    rows = (
        MemoryRecord.objects.in_force(now)
        .filter(tenant_id=tenant_id, subject_id__in=subject_ids)
        .exclude(predicate="")
        .exclude(Q(expires_at__lte=now))
        .order_by("valid_from", "recorded_at", "id")
        .only(
            "id",
            "subject_id",
            "namespace",
            "predicate",
            "cardinality",
            "value",
            "content_key",
            "valid_from",
            "recorded_at",
        )
    )
    slots: dict[tuple, list[MemoryRecord]] = defaultdict(list)
    for record in rows.iterator(chunk_size=500):
        slots[(record.subject_id, record.namespace, canonical_predicate(record.predicate))].append(
            record
        )
    found: list[Found] = []
    for (subject_id, _namespace, _predicate), records in slots.items():
        if len(records) < 2 or not any(r.cardinality == Cardinality.SINGLE for r in records):
            continue
        if len({r.content_key for r in records}) < 2:
            continue
        found.append(
            Found(
                FindingKind.SLOT_CONFLICT,
                FindingSeverity.WARNING,
                tuple(r.id for r in records),
                subject_id,
                {"values": len(records), "keep": str(records[-1].id)},
            )
        )
        if len(found) >= limit:
            break
    return found


# --- low-value density ------------------------------------------------------------------


def low_value(tenant_id: uuid.UUID, subject_ids: list[uuid.UUID], now: datetime) -> list[Found]:
    """Subjects where at least ``LOW_VALUE_SHARE`` of the current records (and at least
    ``LOW_VALUE_MIN_RECORDS``) are older than ``LOW_VALUE_DAYS``, were not recalled in
    that time (access statistics: ``memory.services.access_stats``) and have an importance
    of at most ``LOW_VALUE_IMPORTANCE``: noise that recall still has to rank past."""
    days = conf("LOW_VALUE_DAYS")
    since = now - timedelta(days=days)
    limit = conf("FINDINGS_PER_KIND")
    low_q = (
        Q(recorded_at__lte=since)
        & (Q(last_accessed_at__isnull=True) | Q(last_accessed_at__lte=since))
        & Q(importance__lte=conf("LOW_VALUE_IMPORTANCE"))
    )
    totals = (
        MemoryRecord.objects.current(now)
        .filter(tenant_id=tenant_id, subject_id__in=subject_ids)
        .values("subject_id")
        .annotate(total=Count("id"), low=Count("id", filter=low_q))
        .filter(low__gte=conf("LOW_VALUE_MIN_RECORDS"))
        .order_by("-low", "subject_id")
    )
    found: list[Found] = []
    for row in totals:
        share = row["low"] / row["total"]
        if share < conf("LOW_VALUE_SHARE"):
            continue
        ids = tuple(
            MemoryRecord.objects.current(now)
            .filter(low_q, tenant_id=tenant_id, subject_id=row["subject_id"])
            .order_by("importance", "recorded_at", "id")
            .values_list("id", flat=True)[:limit]
        )
        found.append(
            Found(
                FindingKind.LOW_VALUE,
                FindingSeverity.INFO,
                ids,
                row["subject_id"],
                {"low": row["low"], "total": row["total"], "share": round(share, 4), "days": days},
            )
        )
        if len(found) >= limit:
            break
    return found
