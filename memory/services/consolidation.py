"""Consolidation: fewer, stronger memories.

- Exact repeats are already folded by the write path (CONFIRM raises ``evidence_count``).
  Here, **near-duplicates** — active statements of one subject, scope and type whose word
  (or, for Chinese, character-pair) sets are similar enough — become one record: the
  strongest, oldest one survives, gains the others' evidence and source links, and the
  others are closed with status ``superseded`` / reason ``consolidated`` (kept in history).
- **Cases**: similar episodes of one scope are grouped into a case "problem → actions →
  outcome → conditions" that lists its episodes. Cases are derived data: each run rebuilds
  them from the episodes that are still active, so a deleted episode drops out (and a case
  left with fewer than two episodes is removed).
"""

from __future__ import annotations

import re
import uuid
from collections import Counter
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction, ReasonCode
from memory.models import (
    MemoryCase,
    MemoryRecord,
    MemorySource,
    MemoryStatus,
    MemoryType,
    Subject,
)
from memory.write_policy import AUTHORITY

_WORD = re.compile(r"[a-z0-9]+")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_STOP = {"i", "the", "a", "an", "to", "and", "of", "my", "is", "be", "that", "it", "me", "user"}


def tokens(text: str) -> set[str]:
    """Lower-cased English words without stop words, plus Chinese character pairs."""
    lowered = text.casefold()
    words = {w for w in _WORD.findall(lowered) if w not in _STOP}
    han = "".join(_HAN.findall(lowered))
    pairs = {han[i : i + 2] for i in range(len(han) - 1)} or set(han)
    return words | pairs


def similarity(a: str, b: str) -> float:
    ta, tb = tokens(a), tokens(b)
    if not ta or not tb:
        return 0.0
    return len(ta & tb) / len(ta | tb)


def near_duplicates_merge(*, actor: Actor, tenant_id: uuid.UUID, subject_id: uuid.UUID) -> int:
    """Fold near-duplicate free statements into one record each; returns records folded."""
    threshold = settings.ENGRAM_LIFECYCLE["NEAR_DUPLICATE_SIMILARITY"]
    records = list(
        MemoryRecord.objects.active()
        .filter(
            tenant_id=tenant_id,
            subject_id=subject_id,
            predicate="",
            memory_type=MemoryType.SEMANTIC,
        )
        .order_by("recorded_at", "id")
    )
    # Strongest authority first, then oldest: the survivor of each group.
    records.sort(key=lambda r: (-AUTHORITY[r.assertion_kind], r.recorded_at, str(r.id)))
    folded = 0
    absorbed: set[uuid.UUID] = set()
    now = timezone.now()
    for i, keep in enumerate(records):
        if keep.id in absorbed:
            continue
        for other in records[i + 1 :]:
            if (
                other.id in absorbed
                or other.namespace != keep.namespace
                or AUTHORITY[other.assertion_kind] > AUTHORITY[keep.assertion_kind]
                or similarity(keep.statement, other.statement) < threshold
            ):
                continue
            absorbed.add(other.id)
            record_fold_into(actor=actor, keep=keep, other=other, now=now)
            folded += 1
    return folded


def record_fold_into(
    *, actor: Actor, keep: MemoryRecord, other: MemoryRecord, now: datetime | None = None
) -> None:
    """Supersede ``other`` into ``keep``: ``keep`` gains its evidence and source links,
    ``other``'s record time closes (status ``superseded``, reason ``consolidated``; kept
    in history). Content changes nowhere. Preconditions: both active, one subject, and
    ``keep`` is not the weaker source (the callers choose it by authority)."""
    events = list(MemorySource.objects.filter(record=other).values_list("event_id", flat=True))
    MemorySource.objects.bulk_create(
        [MemorySource(tenant_id=keep.tenant_id, record=keep, event_id=e) for e in events],
        ignore_conflicts=True,
    )
    MemoryRecord.objects.filter(pk=keep.pk).update(
        evidence_count=F("evidence_count") + other.evidence_count
    )
    MemoryRecord.objects.filter(pk=other.pk).close_record_time(
        MemoryStatus.SUPERSEDED, ReasonCode.CONSOLIDATED, now
    )
    audit_record(
        actor=actor,
        action=AuditAction.MEMORY_CONSOLIDATE,
        operation="CONFIRM",
        reason_code=ReasonCode.NEAR_DUPLICATE,
        subject_id=keep.subject_id,
        record_id=keep.id,
        extra={"absorbed": str(other.id)},
    )


def _episode_parts(record: MemoryRecord) -> dict[str, Any]:
    """An episode's problem/actions/outcome/conditions: from a structured value when the
    writer gave one, else the statement is the problem."""
    value = record.value if isinstance(record.value, dict) else {}
    actions = value.get("actions") or []
    conditions = value.get("conditions") or []
    return {
        "problem": str(value.get("problem") or record.statement),
        "actions": [str(a) for a in actions] if isinstance(actions, list) else [str(actions)],
        "outcome": str(value.get("outcome") or ""),
        "conditions": (
            [str(c) for c in conditions] if isinstance(conditions, list) else [str(conditions)]
        ),
    }


def cases_rebuild(*, tenant_id: uuid.UUID, subject_id: uuid.UUID, namespace: str) -> int:
    """Regroup the active episodes of one scope into cases; returns the number of cases."""
    threshold = settings.ENGRAM_LIFECYCLE["CASE_SIMILARITY"]
    episodes = list(
        MemoryRecord.objects.active()
        .filter(
            tenant_id=tenant_id,
            subject_id=subject_id,
            namespace=namespace,
            memory_type=MemoryType.EPISODIC,
        )
        .order_by("recorded_at", "id")
    )
    parts = {e.id: _episode_parts(e) for e in episodes}
    groups: list[list[MemoryRecord]] = []
    for episode in episodes:
        for group in groups:
            if similarity(parts[group[0].id]["problem"], parts[episode.id]["problem"]) >= threshold:
                group.append(episode)
                break
        else:
            groups.append([episode])
    MemoryCase.objects.filter(
        tenant_id=tenant_id, subject_id=subject_id, namespace=namespace
    ).delete()
    cases = []
    for group in groups:
        if len(group) < 2:
            continue
        members = [parts[e.id] for e in group]
        actions: list[str] = []
        conditions: list[str] = []
        for m in members:
            actions += [a for a in m["actions"] if a not in actions]
            conditions += [c for c in m["conditions"] if c not in conditions]
        outcomes = Counter(m["outcome"] for m in members if m["outcome"])
        cases.append(
            MemoryCase(
                tenant_id=tenant_id,
                subject_id=subject_id,
                namespace=namespace,
                problem=members[0]["problem"],
                actions=actions,
                outcome=outcomes.most_common(1)[0][0] if outcomes else "",
                conditions=conditions,
                episode_ids=[e.id for e in group],
            )
        )
    MemoryCase.objects.bulk_create(cases)
    return len(cases)


def subject_consolidate(*, actor: Actor, tenant_id: uuid.UUID, subject_id: uuid.UUID) -> dict:
    """Both passes for one subject (caller holds the tenant context)."""
    Subject.objects.select_for_update().get(pk=subject_id, tenant_id=tenant_id)
    folded = near_duplicates_merge(actor=actor, tenant_id=tenant_id, subject_id=subject_id)
    namespaces = set(
        MemoryRecord.objects.filter(
            tenant_id=tenant_id, subject_id=subject_id, memory_type=MemoryType.EPISODIC
        ).values_list("namespace", flat=True)
    ) | set(
        MemoryCase.objects.filter(tenant_id=tenant_id, subject_id=subject_id).values_list(
            "namespace", flat=True
        )
    )
    cases = sum(
        cases_rebuild(tenant_id=tenant_id, subject_id=subject_id, namespace=n)
        for n in sorted(namespaces)
    )
    return {"folded": folded, "cases": cases}
