"""The inspector's rows in the deletion workflow (``memory.services.deletion``): findings
that name an erased memory, and canaries that expect one (a canary's question may name
the person), with their results and misses. Erasing a whole subject removes all of the
subject's. Findings hold ids only; they go anyway, so no id of an erased memory stays."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from memory.models import QualityFinding, RetrievalCanary
from memory.services.derived_stores import DerivedStore, ErasureTarget


def _canaries(t: ErasureTarget) -> QuerySet:
    canaries = RetrievalCanary.objects.filter(tenant_id=t.tenant_id)
    if t.whole_subject:
        return canaries.filter(subject_id=t.subject_id)
    if not t.record_ids:
        return canaries.none()
    return canaries.filter(expected_record_ids__overlap=list(t.record_ids))


def _findings(t: ErasureTarget, canary_ids: list[str]) -> QuerySet:
    findings = QualityFinding.objects.filter(tenant_id=t.tenant_id)
    q = Q(detail__canary_id__in=canary_ids) if canary_ids else Q(pk__in=[])
    if t.whole_subject:
        q |= Q(subject_id=t.subject_id)
    elif t.record_ids:
        q |= Q(record_ids__overlap=list(t.record_ids))
    return findings.filter(q)


def _erase(t: ErasureTarget) -> int:
    canaries = _canaries(t)
    canary_ids = [str(i) for i in canaries.values_list("id", flat=True)]
    findings, _ = _findings(t, canary_ids).delete()
    removed, _ = canaries.delete()  # their results go with them
    return findings + removed


def _find(t: ErasureTarget) -> int:
    canaries = _canaries(t)
    canary_ids = [str(i) for i in canaries.values_list("id", flat=True)]
    return canaries.count() + _findings(t, canary_ids).count()


QUALITY_STORE = DerivedStore("quality_inspector", _erase, _find)
