"""Retrieval canaries: test questions a tenant admin saves with the memories recall should
find for them. Each inspection runs every canary through the real recall pipeline and
stores its Recall@k; so does each side of an index change (``canaries_around_index_change``,
called by ``memory.services.index_versions`` before and after a switch, and by the
inspector's re-index action), so a drop shows up next to the change that caused it."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable

from django.db import transaction
from django.utils import timezone

from accounts.models import Sensitivity
from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction
from core.tenancy import tenant_context
from memory.models import (
    CanaryResult,
    EmbeddingIndex,
    EmbeddingIndexStatus,
    InspectionRun,
    MemoryRecord,
    MemoryStatus,
    RetrievalCanary,
)
from memory.selectors import active_model_id

from .findings import conf

logger = logging.getLogger(__name__)

MAX_QUERY_CHARS = 500
MAX_EXPECTED = 20


class QualityError(Exception):
    """A request the inspector refuses (``code`` is stable, ``message`` is for people)."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


def canary_add(
    *,
    actor: Actor,
    tenant_id: uuid.UUID,
    query: str,
    expected_record_ids: Iterable[uuid.UUID],
    k: int = 5,
    user_id: int | None = None,
) -> RetrievalCanary:
    """Save a canary. The expected memories must be current memories of this tenant and
    of one subject and purpose (recall answers for one subject and purpose); the canary
    recalls for that subject and purpose."""
    from django.utils.translation import gettext as _

    query = (query or "").strip()
    expected = list(dict.fromkeys(expected_record_ids))
    if not query or len(query) > MAX_QUERY_CHARS:
        raise QualityError("invalid_input", _("Write a question of at most 500 characters."))
    if not 1 <= k <= 50:
        raise QualityError("invalid_input", _("k must be between 1 and 50."))
    if not expected or len(expected) > MAX_EXPECTED:
        raise QualityError("invalid_input", _("Name between 1 and 20 expected memories."))
    records = list(
        MemoryRecord.objects.filter(
            tenant_id=tenant_id, id__in=expected, status=MemoryStatus.ACTIVE
        ).only("id", "subject_id", "purpose")
    )
    if len(records) != len(expected):
        # Another tenant's id reads exactly like a missing one.
        raise QualityError("not_found", _("An expected memory was not found."), 404)
    if len({(r.subject_id, r.purpose) for r in records}) != 1:
        raise QualityError(
            "invalid_input", _("The expected memories must belong to one person and purpose.")
        )
    with transaction.atomic():
        if RetrievalCanary.objects.filter(tenant_id=tenant_id).count() >= conf(
            "CANARIES_PER_TENANT"
        ):
            raise QualityError("too_many", _("This organisation has the most canaries allowed."))
        canary = RetrievalCanary.objects.create(
            tenant_id=tenant_id,
            subject_id=records[0].subject_id,
            purpose=records[0].purpose,
            query=query,
            expected_record_ids=expected,
            k=k,
            created_by_user_id=user_id,
        )
        audit_record(
            actor=actor,
            action=AuditAction.QUALITY_CANARY,
            subject_id=canary.subject_id,
            extra={"canary_id": str(canary.id), "change": "add", "expected": len(expected), "k": k},
        )
    return canary


def canary_remove(*, actor: Actor, tenant_id: uuid.UUID, canary_id: uuid.UUID) -> None:
    from django.utils.translation import gettext as _

    with transaction.atomic():
        canary = RetrievalCanary.objects.filter(tenant_id=tenant_id, pk=canary_id).first()
        if canary is None:
            raise QualityError("not_found", _("No such canary."), 404)
        subject_id = canary.subject_id
        canary.delete()
        audit_record(
            actor=actor,
            action=AuditAction.QUALITY_CANARY,
            subject_id=subject_id,
            extra={"canary_id": str(canary_id), "change": "remove"},
        )


def _active_index_version() -> int | None:
    return (
        EmbeddingIndex.objects.filter(status=EmbeddingIndexStatus.ACTIVE)
        .values_list("pk", flat=True)
        .first()
    )


def canary_recall(canary: RetrievalCanary) -> tuple[int, int]:
    """(expected memories found in the top k, expected memories) for one canary, through
    the recall pipeline an agent's recall runs (every route, the tenant's weights), with
    full clearance and no agent: a canary measures retrieval, not one agent's reach.
    Nothing is recorded as a recall (no trace, no access statistics). Expected memories
    count as found by lineage: a later version of one is the same memory."""
    from memory.recall import RecallRequest, RecallScope, recall

    result = recall(
        actor=Actor.system(canary.tenant_id, "quality"),
        scope=RecallScope(canary.tenant_id, canary.subject_id, None, Sensitivity.RESTRICTED),
        request=RecallRequest(
            query=canary.query, purpose=canary.purpose, k=canary.k, token_budget=10**6
        ),
        record_trace=False,
    )
    returned = [item.id for item in result.items][: canary.k]
    lineages = dict(
        MemoryRecord.objects.filter(
            tenant_id=canary.tenant_id, id__in=[*returned, *canary.expected_record_ids]
        ).values_list("id", "lineage_id")
    )
    wanted = {lineages.get(i, i) for i in canary.expected_record_ids}
    got = {lineages.get(i, i) for i in returned}
    return len(wanted & got), len(wanted)


def canaries_run(
    *, tenant_id: uuid.UUID, run: InspectionRun, phase: str = ""
) -> list[CanaryResult]:
    """Run every canary of the tenant (in the caller's tenant context) and store each one's
    Recall@k against ``run``."""
    model_id = active_model_id()
    version = _active_index_version()
    results = []
    canaries = RetrievalCanary.objects.filter(tenant_id=tenant_id).order_by("created_at", "id")
    for canary in canaries[: conf("CANARIES_PER_TENANT")]:
        found, expected = canary_recall(canary)
        results.append(
            CanaryResult(
                tenant_id=tenant_id,
                run=run,
                canary=canary,
                recall_at_k=found / expected if expected else 0.0,
                found=found,
                expected=expected,
                model_id=model_id,
                index_version=version,
                phase=phase,
            )
        )
    CanaryResult.objects.bulk_create(results)
    return results


def canaries_around_index_change(phase: str, tenant_ids: Iterable[uuid.UUID]) -> int:
    """Measure every canary of ``tenant_ids`` now, as one side (``phase``: "before" or
    "after") of an index change; returns the canaries measured. A failure is logged and
    never stops the change itself (the canaries measure it, they do not gate it)."""
    measured = 0
    for tenant_id in tenant_ids:
        try:
            with tenant_context(tenant_id):
                if not RetrievalCanary.objects.filter(tenant_id=tenant_id).exists():
                    continue
                run = InspectionRun.objects.create(
                    tenant_id=tenant_id, trigger="index_change", counts={"phase": phase}
                )
                measured += len(canaries_run(tenant_id=tenant_id, run=run, phase=phase))
                run.finished_at = timezone.now()
                run.save(update_fields=["finished_at"])
        except Exception as e:  # noqa: BLE001 - a measurement never blocks an index change
            logger.warning("canaries %s an index change failed: %s", phase, type(e).__name__)
    return measured
