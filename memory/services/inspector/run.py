"""One inspection of one tenant: every detector, the canaries, the findings stored with
the run's counts, one audit event. Called by the beat job (``memory.quality_inspect_all``
fans out per tenant), by ``manage.py engram_inspect`` and by the console."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction
from core.tenancy import tenant_context
from memory.models import (
    FindingKind,
    FindingSeverity,
    FindingStatus,
    InspectionRun,
    QualityFinding,
)

from . import detectors, index_health
from .canaries import canaries_run
from .findings import Found, conf

Progress = Callable[[str, int], None]
# The "action" of an open finding a later run no longer saw (fixed some other way).
CLOSED_BY_RERUN = "rerun"


def _canary_misses(results) -> list[Found]:
    floor = conf("CANARY_MIN_RECALL")
    return [
        Found(
            FindingKind.CANARY_MISS,
            FindingSeverity.WARNING,
            (),
            r.canary.subject_id,
            {
                "canary_id": str(r.canary_id),
                "recall_at_k": round(r.recall_at_k, 4),
                "found": r.found,
                "expected": r.expected,
                "k": r.canary.k,
                "model_id": r.model_id,
            },
        )
        for r in results
        if r.recall_at_k < floor
    ]


def tenant_inspect(
    *,
    actor: Actor,
    tenant_id: uuid.UUID,
    trigger: str = "",
    now: datetime | None = None,
    progress: Progress | None = None,
) -> InspectionRun:
    """Run every detector over ``tenant_id`` and store the findings. ``now`` moves the
    clock the age-based detectors read (tests, and "what would be stale in a month").

    A finding still open from an earlier run is not repeated: the same kind over the
    same records (or, for index-wide kinds, the same kind) keeps its first finding, and
    the earlier run's open findings it no longer sees are closed as dismissed-by-rerun
    (they were fixed some other way)."""
    now = now or timezone.now()
    with tenant_context(tenant_id):
        run = InspectionRun.objects.create(tenant_id=tenant_id, trigger=trigger, started_at=now)
        subjects = detectors.subjects_to_inspect(tenant_id)
        found: list[Found] = []
        steps: list[tuple[str, Callable[[], list[Found]]]] = [
            ("near_duplicates", lambda: detectors.near_duplicates(tenant_id, subjects)),
            ("stale", lambda: detectors.superseded_still_active(tenant_id, subjects, now)),
            ("slots", lambda: detectors.slot_conflicts(tenant_id, subjects, now)),
            ("low_value", lambda: detectors.low_value(tenant_id, subjects, now)),
            ("index_lag", lambda: index_health.index_lag(tenant_id, now)),
            ("old_model", lambda: index_health.old_model_vectors(tenant_id)),
            ("bloat", lambda: index_health.index_bloat()),
        ]
        for name, step in steps:
            batch = step()
            found.extend(batch)
            if progress:
                progress(name, len(batch))
        results = canaries_run(tenant_id=tenant_id, run=run)
        found.extend(_canary_misses(results))
        if progress:
            progress("canaries", len(results))
        stored = _store(run, found)
        counts = Counter(f.kind for f in found)
        run.counts = {
            "findings": dict(sorted(counts.items())),
            "new": stored,
            "subjects": len(subjects),
            "canaries": len(results),
        }
        run.finished_at = timezone.now()
        run.save(update_fields=["counts", "finished_at"])
        audit_record(
            actor=actor,
            action=AuditAction.QUALITY_INSPECT,
            extra={"run_id": run.pk, **run.counts},
        )
    return run


def _key(kind: str, record_ids, detail: dict) -> tuple:
    if kind == FindingKind.CANARY_MISS:
        return (kind, detail.get("canary_id"))
    return (kind, tuple(sorted(str(i) for i in record_ids)))


def _store(run: InspectionRun, found: list[Found]) -> int:
    """Store what is new; keep what is still open; close what was not seen again."""
    with transaction.atomic():
        open_before = {
            _key(f.kind, f.record_ids, f.detail): f
            for f in QualityFinding.objects.select_for_update().filter(
                tenant_id=run.tenant_id, status=FindingStatus.OPEN
            )
        }
        seen = set()
        new = []
        for f in found:
            key = _key(f.kind, f.record_ids, f.detail)
            seen.add(key)
            if key in open_before:
                continue
            new.append(
                QualityFinding(
                    tenant_id=run.tenant_id,
                    run=run,
                    kind=f.kind,
                    severity=f.severity,
                    subject_id=f.subject_id,
                    record_ids=list(f.record_ids),
                    detail=f.detail,
                )
            )
        QualityFinding.objects.bulk_create(new)
        gone = [f.pk for key, f in open_before.items() if key not in seen]
        if gone:
            QualityFinding.objects.filter(pk__in=gone).update(
                status=FindingStatus.DISMISSED, action=CLOSED_BY_RERUN, resolved_at=timezone.now()
            )
    return len(new)
