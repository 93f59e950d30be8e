"""The inspector's figures for Prometheus, read at scrape time (``config/metrics.py``):
open findings per kind, the canaries' latest Recall@k (lowest and mean), and how long
ago the least recently inspected tenant was inspected. Totals over tenants: no label
carries a tenant id, and none carries anything but a finding kind."""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Iterable

from django.db.models import Count, Max, OuterRef, Subquery
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily

from core.observability import metrics
from core.tenancy import tenant_context
from memory.models import (
    CanaryResult,
    FindingKind,
    FindingStatus,
    InspectionRun,
    QualityFinding,
    RetrievalCanary,
)


def quality_metric_families(tenant_ids: Iterable[uuid.UUID]) -> list[GaugeMetricFamily]:
    findings = GaugeMetricFamily(
        "engram_quality_findings_open",
        "Open quality-inspector findings by kind (summed over tenants).",
        labels=["kind"],
    )
    recall_min = GaugeMetricFamily(
        "engram_quality_canary_recall_min",
        "The lowest latest Recall@k of any retrieval canary (1 with no canaries).",
    )
    recall_mean = GaugeMetricFamily(
        "engram_quality_canary_recall_mean",
        "The mean latest Recall@k of the retrieval canaries (1 with no canaries).",
    )
    canaries = GaugeMetricFamily("engram_quality_canaries", "Retrieval canaries saved.")
    age = GaugeMetricFamily(
        "engram_quality_inspection_age_seconds",
        "Seconds since the least recently inspected tenant's latest inspection finished "
        "(0 with none inspected yet).",
    )
    by_kind: Counter[str] = Counter()
    latest_recalls: list[float] = []
    oldest_age = 0.0
    now = timezone.now()
    latest = CanaryResult.objects.filter(canary=OuterRef("pk")).order_by("-measured_at", "-id")
    for tenant_id in tenant_ids:
        with tenant_context(tenant_id):
            for row in (
                QualityFinding.objects.filter(tenant_id=tenant_id, status=FindingStatus.OPEN)
                .values("kind")
                .annotate(n=Count("id"))
            ):
                by_kind[row["kind"]] += row["n"]
            latest_recalls.extend(
                value
                for value in RetrievalCanary.objects.filter(tenant_id=tenant_id)
                .annotate(r=Subquery(latest.values("recall_at_k")[:1]))
                .values_list("r", flat=True)
                if value is not None
            )
            finished = InspectionRun.objects.filter(
                tenant_id=tenant_id, finished_at__isnull=False
            ).aggregate(at=Max("finished_at"))["at"]
            if finished is not None:
                oldest_age = max(oldest_age, (now - finished).total_seconds())
    for kind in FindingKind.values:
        findings.add_metric([metrics.code(kind)], by_kind.get(kind, 0))
    recall_min.add_metric([], min(latest_recalls, default=1.0))
    recall_mean.add_metric([], sum(latest_recalls) / len(latest_recalls) if latest_recalls else 1.0)
    canaries.add_metric([], len(latest_recalls))
    age.add_metric([], round(oldest_age, 1))
    return [findings, recall_min, recall_mean, canaries, age]
