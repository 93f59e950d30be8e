"""What the console page and the metrics read: the latest run, the open findings with the
records they name, findings by kind over the recent runs, and each canary's Recall@k over
time. Reads only, in the caller's tenant context, always filtered by tenant."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from django.db.models import Max, OuterRef, Subquery

from memory.models import (
    CanaryResult,
    FindingKind,
    FindingStatus,
    InspectionRun,
    MemoryRecord,
    QualityFinding,
    RetrievalCanary,
)

from .actions import ACTIONS

RUNS_CHARTED = 14
RESULTS_CHARTED = 30
FINDINGS_SHOWN = 100


@dataclass
class FindingRow:
    finding: QualityFinding
    actions: tuple[str, ...]
    records: list[MemoryRecord] = field(default_factory=list)


def latest_run(tenant_id: uuid.UUID) -> InspectionRun | None:
    """The latest full inspection (runs around an index change measure canaries only)."""
    return (
        InspectionRun.objects.filter(tenant_id=tenant_id, finished_at__isnull=False)
        .exclude(trigger="index_change")
        .order_by("-started_at", "-id")
        .first()
    )


def open_findings(tenant_id: uuid.UUID) -> list[FindingRow]:
    findings = list(
        QualityFinding.objects.filter(tenant_id=tenant_id, status=FindingStatus.OPEN).order_by(
            "kind", "id"
        )[:FINDINGS_SHOWN]
    )
    records = MemoryRecord.objects.filter(tenant_id=tenant_id).in_bulk(
        [i for f in findings for i in f.record_ids[:10]]
    )
    return [
        FindingRow(
            f,
            ACTIONS.get(f.kind, ("dismiss",)),
            [records[i] for i in f.record_ids[:10] if i in records],
        )
        for f in findings
    ]


def finding_row(tenant_id: uuid.UUID, finding_id: int) -> FindingRow | None:
    finding = QualityFinding.objects.filter(tenant_id=tenant_id, pk=finding_id).first()
    if finding is None:
        return None
    records = MemoryRecord.objects.filter(tenant_id=tenant_id).in_bulk(finding.record_ids[:10])
    return FindingRow(
        finding,
        ACTIONS.get(finding.kind, ("dismiss",)),
        [records[i] for i in finding.record_ids[:10] if i in records],
    )


def findings_over_runs(tenant_id: uuid.UUID) -> tuple[list[InspectionRun], dict[str, list[int]]]:
    """The recent full runs, oldest first, and per kind the findings each run saw."""
    runs = list(
        InspectionRun.objects.filter(tenant_id=tenant_id, finished_at__isnull=False)
        .exclude(trigger="index_change")
        .order_by("-started_at", "-id")[:RUNS_CHARTED]
    )[::-1]
    series = {
        kind: [int((r.counts.get("findings") or {}).get(kind, 0)) for r in runs]
        for kind in FindingKind.values
    }
    return runs, {k: v for k, v in series.items() if any(v)}


def canaries_with_latest(tenant_id: uuid.UUID) -> list[RetrievalCanary]:
    latest = CanaryResult.objects.filter(canary=OuterRef("pk")).order_by("-measured_at", "-id")
    return list(
        RetrievalCanary.objects.filter(tenant_id=tenant_id)
        .annotate(
            latest_recall=Subquery(latest.values("recall_at_k")[:1]),
            latest_at=Max("results__measured_at"),
        )
        .order_by("created_at", "id")
    )


def canary_results_over_time(tenant_id: uuid.UUID) -> tuple[list, dict[str, list[float | None]]]:
    """The recent measurements (inspections and both sides of index changes), oldest
    first, and per canary its Recall@k at each (None where it was not measured)."""
    runs = list(
        InspectionRun.objects.filter(tenant_id=tenant_id, canary_results__isnull=False)
        .distinct()
        .order_by("-started_at", "-id")[:RESULTS_CHARTED]
    )[::-1]
    results = CanaryResult.objects.filter(tenant_id=tenant_id, run__in=runs).values_list(
        "run_id", "canary_id", "recall_at_k"
    )
    canaries = {c.id: c for c in RetrievalCanary.objects.filter(tenant_id=tenant_id)}
    position = {r.pk: i for i, r in enumerate(runs)}
    series: dict[str, list[float | None]] = {}
    names: dict[uuid.UUID, str] = {}
    for number, canary_id in enumerate(sorted(canaries, key=lambda c: canaries[c].created_at), 1):
        names[canary_id] = f"#{number} {canaries[canary_id].query[:30]}"
        series[names[canary_id]] = [None] * len(runs)
    for run_id, canary_id, value in results:
        if canary_id in names:
            series[names[canary_id]][position[run_id]] = round(value, 3)
    return runs, series
