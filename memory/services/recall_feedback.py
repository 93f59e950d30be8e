"""Recall feedback: what agents report they used, as a utility rate and as a bounded,
asynchronous, audited nudge to importance.

Utility rate (memory.selectors.utility): per agent and day, the items agents reported
using ÷ the items returned by the recalls they reported on.

Importance feedback (the ``memory.recall_feedback_apply`` job, once per reported recall):
- a memory reported used gains ``STEP_UP`` importance, never above ``CAP``;
- a memory returned by ``UNUSED_AFTER`` reported recalls in a row without being used
  loses ``STEP_DOWN`` with each further such recall, never below ``FLOOR``;
- importance written outside [FLOOR, CAP] is left where it is (feedback never lowers a
  used memory or raises an unused one), so repeated feedback converges and stops;
- each change is an audit event (``memory.importance_feedback``) with the old and new
  value;
- benchmarks freeze it with the access statistics (``ENGRAM_RECALL_FREEZE_ACCESS``), and a
  tenant turns it off with policy ``{"recall_feedback": {"adjust_importance": false}}``.

Importance is a ranking signal only: recall checks permission, validity and the gates
before it ranks, so no amount of feedback can return a memory those checks leave out
(tests/memory/test_recall_feedback.py holds that for every state).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction

from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction
from core.jobs import enqueue_on_commit
from core.observability import metrics

APPLY_JOB = "memory.recall_feedback_apply"
POLICY_KEY = "recall_feedback"


def feedback_frozen() -> bool:
    return bool(settings.ENGRAM_RETRIEVAL["FREEZE_ACCESS"])


def recall_feedback_recorded(trace: Any) -> None:
    """After a recall's feedback is stored (in its transaction): count the items for
    Prometheus and start the importance job once the transaction commits."""
    used = len(trace.used_record_ids)
    unused = len(trace.record_ids) - used
    transaction.on_commit(lambda: metrics.observe_recall_feedback(used=used, unused=unused))
    if not feedback_frozen():
        enqueue_on_commit(APPLY_JOB, str(trace.tenant_id), str(trace.id))


def adjusts_importance(tenant_policy: dict[str, Any] | None) -> bool:
    """Whether the tenant lets feedback change importance (on unless turned off)."""
    given = (tenant_policy or {}).get(POLICY_KEY) or {}
    if not isinstance(given, dict):
        return True
    return given.get("adjust_importance", True) is not False


@dataclass(frozen=True)
class FeedbackSteps:
    up: float
    down: float
    cap: float
    floor: float
    unused_after: int

    @classmethod
    def from_settings(cls) -> FeedbackSteps:
        conf = settings.ENGRAM_FEEDBACK
        return cls(
            up=conf["STEP_UP"],
            down=conf["STEP_DOWN"],
            cap=conf["CAP"],
            floor=conf["FLOOR"],
            unused_after=conf["UNUSED_AFTER"],
        )


def importance_after(
    importance: float, *, used: bool, unused_streak: int, steps: FeedbackSteps
) -> float:
    """The importance after one reported recall that returned the memory. ``unused_streak``
    counts this recall. Rounded so that repeated steps land exactly on CAP and FLOOR."""
    if used:
        if importance >= steps.cap:
            return importance
        return round(min(steps.cap, importance + steps.up), 6)
    if unused_streak < steps.unused_after or importance <= steps.floor:
        return importance
    return round(max(steps.floor, importance - steps.down), 6)


def recall_feedback_apply(*, actor: Actor, tenant_id: uuid.UUID, trace_id: uuid.UUID) -> dict:
    """Fold one reported recall into its memories' counters and importance. Runs in the
    job's tenant transaction, once per trace (the job's key); rows are locked in id order
    so two jobs touching the same memories never deadlock."""
    from accounts.models import Tenant
    from memory.models import MemoryRecord, RecallTrace

    trace = RecallTrace.objects.filter(tenant_id=tenant_id, id=trace_id).first()
    if trace is None or trace.feedback_at is None:
        return {"changed": 0}
    if feedback_frozen():
        return {"changed": 0, "frozen": True}
    policy = Tenant.objects.filter(pk=tenant_id).values_list("policy", flat=True).first()
    if not adjusts_importance(policy):
        return {"changed": 0, "disabled": True}
    steps = FeedbackSteps.from_settings()
    used = set(trace.used_record_ids)
    records = (
        MemoryRecord.objects.select_for_update()
        .filter(tenant_id=tenant_id, id__in=trace.record_ids)
        .order_by("id")
        .only("id", "subject_id", "importance", "feedback_used_count", "feedback_unused_streak")
    )
    changed = 0
    for record in records:
        was_used = record.id in used
        if was_used:
            record.feedback_used_count += 1
            record.feedback_unused_streak = 0
        else:
            record.feedback_unused_streak += 1
        before = record.importance
        record.importance = importance_after(
            before, used=was_used, unused_streak=record.feedback_unused_streak, steps=steps
        )
        record.save(update_fields=["importance", "feedback_used_count", "feedback_unused_streak"])
        if record.importance != before:
            changed += 1
            audit_record(
                actor=actor,
                action=AuditAction.MEMORY_IMPORTANCE_FEEDBACK,
                reason_code="used" if was_used else "unused",
                subject_id=record.subject_id,
                record_id=record.id,
                extra={
                    "trace_id": str(trace.id),
                    "importance_before": before,
                    "importance_after": record.importance,
                },
            )
    return {"changed": changed}
