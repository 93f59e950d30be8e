"""Acting on a finding. Each action goes through the code that owns the change, never a
raw write of a memory's content:

- **merge** (near-duplicates): the weaker or newer record is superseded into the other by
  consolidation's ``record_fold_into`` (evidence and sources move, its record time
  closes, it stays in history) after the write policy's authority check;
- **expire** (stale values, slot conflicts): an ``Intent.EXPIRE`` candidate per record
  through ``candidates_submit``: the write policy decides (a paused or withdrawn subject,
  a stronger source, a value that has not started yet all refuse it) and audits it;
- **archive** (low value, stale values): the lifecycle's archive (as decay archives: the
  status only; the user still sees and can restore it), audited ``memory.archive``;
- **reindex** (index lag, old-model vectors, a canary miss): the tenant's lexical docs
  and missing vectors rebuilt (``index_maintenance.reindex``) and its vectors of models
  no longer served dropped, with every canary measured before and after;
- **vacuum** (vector table bloat): a background ``VACUUM (ANALYZE)`` of the vector table;
- **dismiss**: nothing changes but the finding.

Every action closes the finding and writes one ``quality.action`` audit event (ids and
counts) next to the audit events of the change itself. Who may act is the console's
decision (tenant administrators: ``governance.policies.can_administer_tenant``)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import jobs
from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction, Operation, ReasonCode
from memory.models import (
    FindingKind,
    FindingStatus,
    MemoryEmbedding,
    MemoryRecord,
    MemoryStatus,
    QualityFinding,
    Subject,
)
from memory.selectors import indexing_model_ids
from memory.write_policy import Candidate, Intent
from memory.write_policy.decision import rank

from .canaries import QualityError, canaries_around_index_change

K = FindingKind
# What each kind of finding offers, first the suggested one.
ACTIONS: dict[str, tuple[str, ...]] = {
    K.NEAR_DUPLICATE: ("merge", "dismiss"),
    K.STALE_SUPERSEDED: ("expire", "archive", "dismiss"),
    K.SLOT_CONFLICT: ("expire", "dismiss"),
    K.LOW_VALUE: ("archive", "dismiss"),
    K.INDEX_LAG: ("reindex", "dismiss"),
    K.OLD_MODEL_VECTORS: ("reindex", "dismiss"),
    K.INDEX_BLOAT: ("vacuum", "dismiss"),
    K.CANARY_MISS: ("reindex", "dismiss"),
}


@dataclass(frozen=True)
class ActionResult:
    finding: QualityFinding
    action: str
    # Records (or vectors) the action changed; refused: the write policy's refusals.
    changed: int = 0
    refused: int = 0


def finding_apply(
    *, actor: Actor, tenant_id: uuid.UUID, finding_id: int, action: str
) -> ActionResult:
    """Apply ``action`` to an open finding of ``tenant_id`` (in that tenant's context)."""
    with transaction.atomic():
        finding = (
            QualityFinding.objects.select_for_update()
            .filter(tenant_id=tenant_id, pk=finding_id)
            .first()
        )
        if finding is None:
            raise QualityError("not_found", _("No such finding."), 404)
        if finding.status != FindingStatus.OPEN:
            raise QualityError("already_resolved", _("This finding was already dealt with."), 409)
        if action not in ACTIONS.get(finding.kind, ()):
            raise QualityError("invalid_input", _("This action does not apply to this finding."))
        changed = refused = 0
        if action == "merge":
            changed = _merge(actor, finding)
        elif action == "expire":
            changed, refused = _expire(actor, finding)
        elif action == "archive":
            changed = _archive(actor, finding)
        elif action == "reindex":
            changed = _reindex(tenant_id, finding)
        elif action == "vacuum":
            jobs.enqueue_on_commit("memory.quality_vacuum")
        finding.status = FindingStatus.DISMISSED if action == "dismiss" else FindingStatus.APPLIED
        finding.action = action
        finding.resolved_at = timezone.now()
        finding.save(update_fields=["status", "action", "resolved_at"])
        audit_record(
            actor=actor,
            action=AuditAction.QUALITY_ACTION,
            subject_id=finding.subject_id,
            extra={
                "finding_id": finding.pk,
                "kind": finding.kind,
                "action": action,
                "record_ids": [str(i) for i in finding.record_ids],
                "changed": changed,
                "refused": refused,
            },
        )
    return ActionResult(finding, action, changed, refused)


def _current(finding: QualityFinding, ids) -> dict[uuid.UUID, MemoryRecord]:
    return MemoryRecord.objects.current().filter(tenant_id=finding.tenant_id).in_bulk(list(ids))


def _stale() -> QualityError:
    return QualityError(
        "stale_finding",
        _("These memories changed since the inspection; run it again."),
        409,
    )


def _merge(actor: Actor, finding: QualityFinding) -> int:
    from memory.services.consolidation import record_fold_into

    keep_id, fold_id = uuid.UUID(finding.detail["keep"]), uuid.UUID(finding.detail["fold"])
    # The subject's write lock, as the write path takes it: no write slips in between.
    Subject.objects.select_for_update(no_key=True).filter(pk=finding.subject_id).first()
    records = _current(finding, [keep_id, fold_id])
    keep, fold = records.get(keep_id), records.get(fold_id)
    if keep is None or fold is None or keep.subject_id != fold.subject_id:
        raise _stale()
    if rank(fold.assertion_kind) > rank(keep.assertion_kind):
        # The write policy's rule: a weaker source never stands in for a stronger one.
        raise QualityError(
            "outranked", _("The memory to keep is from a weaker source than the other one.")
        )
    record_fold_into(actor=actor, keep=keep, other=fold)
    return 1


def _expire_ids(finding: QualityFinding) -> list[uuid.UUID]:
    if finding.kind == FindingKind.SLOT_CONFLICT:
        keep = uuid.UUID(finding.detail["keep"])
        return [i for i in finding.record_ids if i != keep]
    return list(finding.record_ids)


def _expire(actor: Actor, finding: QualityFinding) -> tuple[int, int]:
    from memory.services.writes import candidates_submit

    records = _current(finding, _expire_ids(finding))
    if not records:
        raise _stale()
    subject = Subject.objects.get(tenant_id=finding.tenant_id, pk=finding.subject_id)
    # Each expiry restates its record with the record's own authority: the policy lets a
    # source end what it (or a weaker source) said, as a slot delete does.
    outcomes = candidates_submit(
        actor=actor,
        subject=subject,
        candidates=[
            Candidate.from_record(
                record,
                intent=Intent.EXPIRE,
                target_record_id=record.id,
                sensitivity=record.sensitivity,
            )
            for record in records.values()
        ],
    )
    changed = sum(1 for o in outcomes if o.operation == Operation.EXPIRE)
    return changed, len(outcomes) - changed


def _archive(actor: Actor, finding: QualityFinding) -> int:
    records = _current(finding, finding.record_ids)
    if not records:
        raise _stale()
    by_subject: dict[uuid.UUID, list[uuid.UUID]] = {}
    for record in records.values():
        by_subject.setdefault(record.subject_id, []).append(record.id)
    changed = 0
    for subject_id, ids in by_subject.items():
        Subject.objects.select_for_update(no_key=True).filter(pk=subject_id).first()
        # Lifecycle status only (as decay archives); the content is untouched and the
        # user can bring each memory back from their archive.
        n = (
            MemoryRecord.objects.current()
            .filter(tenant_id=finding.tenant_id, id__in=ids)
            .update(status=MemoryStatus.ARCHIVED, status_reason=ReasonCode.LOW_VALUE_ARCHIVED)
        )
        changed += n
        audit_record(
            actor=actor,
            action=AuditAction.MEMORY_ARCHIVE,
            reason_code=ReasonCode.LOW_VALUE_ARCHIVED,
            subject_id=subject_id,
            extra={"record_ids": [str(i) for i in ids], "finding_id": finding.pk},
        )
    return changed


def _reindex(tenant_id: uuid.UUID, finding: QualityFinding) -> int:
    """Rebuild the tenant's lexical docs and missing vectors, drop its vectors of models
    nothing serves or builds, with the canaries measured on each side."""
    from memory.services.index_maintenance import reindex

    canaries_around_index_change("before", [tenant_id])
    result = reindex(tenant_id=tenant_id)
    dropped, _ = (
        MemoryEmbedding.objects.filter(tenant_id=tenant_id)
        .exclude(model_id__in=indexing_model_ids())
        .delete()
    )
    canaries_around_index_change("after", [tenant_id])
    return result.embeddings + dropped
