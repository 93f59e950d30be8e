"""Procedural memory: documents, change requests, review, versions.

The lifecycle of a change request: ``open`` → ``approved`` | ``rejected`` | ``stale``.
Approval is the only way text reaches recall: it locks the document, checks the request
was written against the current version, writes the text into governed memory through
the write path (``candidates_submit``, as a procedural record on the tenant's ``org``
subject with ``review_approved=True``), appends the immutable version and moves the
document's pointer — all in one transaction. A second approval against the same base
version finds the pointer moved and marks its request ``stale`` instead of overwriting.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction, Operation, ReasonCode
from governance.models import (
    UNTRUSTED_PROPOSAL_SOURCES,
    ChangeRequest,
    ChangeRequestStatus,
    ProceduralDocument,
    ProceduralVersion,
    ProcedureKind,
    ProposalSource,
)
from governance.policies import (
    approval_blockers,
    can_administer_tenant,
    can_review_document,
)
from governance.selectors import console_access_get
from governance.services.errors import GovernanceError
from memory import content_rules
from memory.models import (
    TENANT_PROCEDURES_EXTERNAL_ID,
    AssertionKind,
    Cardinality,
    ConsentBasis,
    MemoryRecord,
    MemoryType,
    Subject,
    SubjectKind,
)
from memory.services.subjects import subject_get_or_create
from memory.services.writes import candidates_submit
from memory.write_policy import Candidate, Intent

# The subject that owns a tenant's procedural memory (decision: procedures are the
# organisation's, not any end user's; recall for any user of the tenant reads them here).
PROCEDURE_SUBJECT_EXTERNAL_ID = TENANT_PROCEDURES_EXTERNAL_ID
PROCEDURE_PURPOSE = "agent_procedure"
SLUG_RE = re.compile(r"^[-a-z0-9_]{1,100}$")
NAMESPACE_RE = re.compile(r"^[\w.\-]+(/[\w.\-]+)*$")

# Authority the approved text is written with, by where the proposal came from. A person
# in the tenant reviewed it, so a user's or an agent's proposal is "user confirmed" (and
# one version can supersede the previous one at equal authority). Tool and external
# sources map to kinds the write policy refuses for procedures — defence in depth: the
# approval policy already blocks them.
SOURCE_ASSERTION_KIND = {
    ProposalSource.USER: AssertionKind.USER_CONFIRMED,
    ProposalSource.AGENT: AssertionKind.USER_CONFIRMED,
    ProposalSource.TOOL: AssertionKind.TOOL_CONFIRMED,
    ProposalSource.EXTERNAL: AssertionKind.EXTERNAL_UNTRUSTED,
}


def procedure_subject(*, tenant_id: uuid.UUID) -> Subject:
    return subject_get_or_create(
        tenant_id=tenant_id,
        kind=SubjectKind.ORG,
        external_id=PROCEDURE_SUBJECT_EXTERNAL_ID,
        display_name="Tenant procedures",
    )


def procedure_predicate(document: ProceduralDocument) -> str:
    return f"procedure:{document.slug}"


def proposal_warnings(*, text: str, source: str, secrets_redacted: int) -> list[str]:
    warnings: list[str] = []
    if source in UNTRUSTED_PROPOSAL_SOURCES:
        warnings.append("untrusted_source")
    warnings.extend(content_rules.find_injection(text))
    if secrets_redacted:
        warnings.append("secret_redacted")
    return warnings


def _require_admin(user: User, tenant_id: uuid.UUID) -> None:
    access = console_access_get(user=user, tenant_id=tenant_id)
    if access is None:
        raise GovernanceError("not_found", _("No such tenant."), status=404)
    if not can_administer_tenant(access):
        raise GovernanceError("permission_denied", _("Only tenant admins may do this."), status=403)


def procedure_document_create(
    *,
    actor: Actor,
    user: User,
    slug: str,
    title: str,
    kind: str,
    namespace: str,
) -> ProceduralDocument:
    """A new, empty document (version 0). Text arrives through a change request."""
    _require_admin(user, actor.tenant_id)
    if not SLUG_RE.match(slug) or not title.strip() or not NAMESPACE_RE.match(namespace):
        raise GovernanceError(
            "invalid_input",
            _("Give a slug (a-z, 0-9, -), a title and a namespace like team/topic."),
        )
    if kind not in ProcedureKind.values:
        raise GovernanceError("invalid_kind", _("Kind must be runbook, skill or rule."))
    if ProceduralDocument.objects.filter(tenant_id=actor.tenant_id, slug=slug).exists():
        raise GovernanceError("duplicate_slug", _("A procedure with this slug exists."), status=409)
    document = ProceduralDocument.objects.create(
        tenant_id=actor.tenant_id, slug=slug, title=title, kind=kind, namespace=namespace
    )
    audit_record(
        actor=actor,
        action=AuditAction.PROCEDURE_CREATE,
        extra={"document_id": str(document.id), "kind": kind},
    )
    return document


def change_request_propose(
    *,
    actor: Actor,
    document: ProceduralDocument,
    proposed_text: str,
    base_version: int,
    source: str,
    rationale: str = "",
    source_uri: str = "",
    proposer_user: User | None = None,
    proposer_agent_id: uuid.UUID | None = None,
    rollback_of_version: int | None = None,
    request_id: str = "",
) -> ChangeRequest:
    """Record a proposal. Secrets are redacted before storage (and block approval);
    untrusted sources and instruction-like text are flagged. Nothing reaches recall."""
    if document.tenant_id != actor.tenant_id:
        raise GovernanceError("not_found", _("No such procedure."), status=404)
    if source not in ProposalSource.values:
        raise GovernanceError("invalid_source", _("Unknown proposal source."))
    if proposer_user is None and proposer_agent_id is None:
        raise GovernanceError("no_proposer", _("A change request needs a proposer."))
    text = proposed_text.strip()
    if not text:
        raise GovernanceError("empty_text", _("The proposed text is empty."))
    if len(text) > settings.ENGRAM["MAX_TEXT_CHARS"]:
        raise GovernanceError(
            "text_too_long",
            _("The proposed text is too long."),
            extra={"max_chars": settings.ENGRAM["MAX_TEXT_CHARS"]},
        )
    if base_version != document.current_version:
        raise GovernanceError(
            "stale_base_version",
            _("The procedure changed since you read it; propose against the current version."),
            status=409,
            extra={"current_version": document.current_version},
        )
    text, redacted = content_rules.redact_secrets(text)
    current = ProceduralVersion.objects.filter(
        document=document, number=document.current_version
    ).first()
    if current is not None and current.text == text:
        raise GovernanceError("no_change", _("The proposed text equals the current version."))
    change_request = ChangeRequest.objects.create(
        tenant_id=document.tenant_id,
        document=document,
        base_version=base_version,
        proposed_text=text,
        rationale=rationale.strip(),
        rollback_of_version=rollback_of_version,
        proposer_user=proposer_user,
        proposer_agent_id=proposer_agent_id,
        source=source,
        source_uri=source_uri,
        warnings=proposal_warnings(text=text, source=source, secrets_redacted=redacted),
    )
    audit_record(
        actor=actor,
        action=AuditAction.PROCEDURE_PROPOSE,
        request_id=request_id,
        extra={
            "change_request_id": str(change_request.id),
            "document_id": str(document.id),
            "base_version": base_version,
            "source": source,
            "warnings": change_request.warnings,
            "rollback_of_version": rollback_of_version,
        },
    )
    return change_request


def change_request_rollback_propose(
    *, actor: Actor, document: ProceduralDocument, to_version: int, user: User, rationale: str
) -> ChangeRequest:
    """Rollback is an ordinary change request proposing an earlier version's text."""
    document.refresh_from_db(fields=["current_version", "current_record_id"])
    version = ProceduralVersion.objects.filter(document=document, number=to_version).first()
    if version is None or to_version >= document.current_version:
        raise GovernanceError("no_such_version", _("Pick an earlier approved version."), status=404)
    return change_request_propose(
        actor=actor,
        document=document,
        proposed_text=version.text,
        base_version=document.current_version,
        source=ProposalSource.USER,
        rationale=rationale,
        proposer_user=user,
        rollback_of_version=to_version,
    )


@dataclass(frozen=True)
class Approval:
    """``status`` is ``approved`` (with the new version) or ``stale``: another request was
    approved first, and this one was marked stale instead of overwriting it. Stale is a
    result, not an exception, so the stale marking commits with the caller's transaction."""

    status: str
    version: ProceduralVersion | None = None
    record_id: uuid.UUID | None = None
    current_version: int = 0


def _lock_for_review(
    *, actor: Actor, user: User, change_request_id: uuid.UUID
) -> tuple[ChangeRequest, ProceduralDocument]:
    """Lock the document, then the request (always in this order: two reviewers acting on
    the same document queue on the document row and cannot deadlock)."""
    found = ChangeRequest.objects.filter(tenant_id=actor.tenant_id, id=change_request_id).first()
    access = console_access_get(user=user, tenant_id=actor.tenant_id)
    if found is None or access is None:
        raise GovernanceError("not_found", _("No such change request."), status=404)
    if not can_review_document(access, found.document_id):
        raise GovernanceError(
            "permission_denied", _("You may not review changes to this procedure."), status=403
        )
    document = ProceduralDocument.objects.select_for_update().get(pk=found.document_id)
    change_request = ChangeRequest.objects.select_for_update().get(pk=found.pk)
    if change_request.status != ChangeRequestStatus.OPEN:
        raise GovernanceError(
            "not_open",
            _("This change request was already decided."),
            status=409,
            extra={"status": change_request.status},
        )
    return change_request, document


def change_request_approve(
    *,
    actor: Actor,
    user: User,
    change_request_id: uuid.UUID,
    comment: str = "",
    acknowledge_warnings: bool = False,
    request_id: str = "",
) -> Approval:
    with transaction.atomic():
        change_request, document = _lock_for_review(
            actor=actor, user=user, change_request_id=change_request_id
        )
        blockers = approval_blockers(
            proposer_user_id=change_request.proposer_user_id,
            approver_user_id=user.pk,
            warnings=change_request.warnings,
            acknowledged=acknowledge_warnings,
        )
        if blockers:
            raise GovernanceError(
                blockers[0],
                _BLOCKER_MESSAGES.get(blockers[0], _("This change request cannot be approved.")),
                status=403 if blockers[0] == "own_proposal" else 400,
                extra={"blockers": blockers},
            )
        if change_request.base_version != document.current_version:
            # Another request was approved first. Never overwrite it: this one is stale
            # and must be re-proposed or rebased explicitly.
            _decide(change_request, user, ChangeRequestStatus.STALE, comment)
            audit_record(
                actor=actor,
                action=AuditAction.PROCEDURE_STALE,
                reason_code=ReasonCode.STALE_BASE_VERSION,
                request_id=request_id,
                extra={
                    "change_request_id": str(change_request.id),
                    "document_id": str(document.id),
                    "base_version": change_request.base_version,
                    "current_version": document.current_version,
                },
            )
            return Approval(
                status=ChangeRequestStatus.STALE, current_version=document.current_version
            )
        return _write_approved_version(
            actor=actor,
            user=user,
            change_request=change_request,
            document=document,
            comment=comment,
            request_id=request_id,
        )


_BLOCKER_MESSAGES = {
    "own_proposal": _("You proposed this change; another reviewer must approve it."),
    "untrusted_source": _(
        "Text from tool output or external content can never become a procedure. Reject it, or write your own proposal."
    ),
    "secret_redacted": _(
        "The proposal contained a secret (redacted); reject it and ask for a version without secrets."
    ),
    "warnings_not_acknowledged": _(
        "This text reads like an instruction to the agent; confirm you checked it before approving."
    ),
}


def _write_approved_version(
    *,
    actor: Actor,
    user: User,
    change_request: ChangeRequest,
    document: ProceduralDocument,
    comment: str,
    request_id: str,
) -> Approval:
    number = document.current_version + 1
    subject = procedure_subject(tenant_id=document.tenant_id)
    # Supersede the current record explicitly when it is still active; otherwise (first
    # version, or the record was erased) assert a new one.
    intent, target = Intent.ASSERT, None
    if (
        document.current_record_id is not None
        and MemoryRecord.objects.active()
        .filter(tenant_id=document.tenant_id, id=document.current_record_id)
        .exists()
    ):
        intent, target = Intent.SUPERSEDE, document.current_record_id
    candidate = Candidate(
        memory_type=MemoryType.PROCEDURAL,
        namespace=document.namespace,
        statement=change_request.proposed_text,
        predicate=procedure_predicate(document),
        value={
            "procedure": document.slug,
            "document_id": str(document.id),
            "kind": document.kind,
            "title": document.title,
            "version": number,
        },
        cardinality=Cardinality.SINGLE,
        assertion_kind=SOURCE_ASSERTION_KIND[change_request.source],
        confidence=1.0,
        purpose=PROCEDURE_PURPOSE,
        consent_basis=ConsentBasis.LEGITIMATE_INTEREST,
        intent=intent,
        target_record_id=target,
        # Valid from the approval (never parsed from words in the text like "next month").
        valid_from=timezone.now(),
        importance=0.8,
        source_uri=change_request.source_uri,
        review_approved=True,
    )
    [outcome] = candidates_submit(
        actor=actor,
        subject=subject,
        candidates=[candidate],
        user_id=user.pk,
        request_id=request_id,
    )
    if outcome.operation not in (Operation.ADD, Operation.SUPERSEDE) or outcome.record_id is None:
        # Rolls back the whole approval: no version, no pointer move, request stays open.
        raise GovernanceError(
            "write_policy_refused",
            _("The memory write policy refused this text; it was not approved."),
            extra={"operation": outcome.operation, "reason_code": outcome.reason_code},
        )
    version = ProceduralVersion.objects.create(
        tenant_id=document.tenant_id,
        document=document,
        number=number,
        text=change_request.proposed_text,
        change_request=change_request,
        approved_by=user,
        memory_record_id=outcome.record_id,
    )
    ProceduralDocument.objects.filter(pk=document.pk).update(
        current_version=number, current_record_id=outcome.record_id
    )
    document.current_version, document.current_record_id = number, outcome.record_id
    _decide(change_request, user, ChangeRequestStatus.APPROVED, comment)
    audit_record(
        actor=actor,
        action=AuditAction.PROCEDURE_APPROVE,
        operation=outcome.operation,
        reason_code=ReasonCode.REVIEW_APPROVED,
        subject_id=subject.id,
        record_id=outcome.record_id,
        request_id=request_id,
        extra={
            "change_request_id": str(change_request.id),
            "document_id": str(document.id),
            "version": number,
            "warnings": change_request.warnings,
        },
    )
    return Approval(
        status=ChangeRequestStatus.APPROVED,
        version=version,
        record_id=outcome.record_id,
        current_version=number,
    )


def change_request_reject(
    *,
    actor: Actor,
    user: User,
    change_request_id: uuid.UUID,
    comment: str = "",
    request_id: str = "",
) -> ChangeRequest:
    with transaction.atomic():
        change_request, document = _lock_for_review(
            actor=actor, user=user, change_request_id=change_request_id
        )
        _decide(change_request, user, ChangeRequestStatus.REJECTED, comment)
        audit_record(
            actor=actor,
            action=AuditAction.PROCEDURE_REJECT,
            reason_code=ReasonCode.REVIEW_REJECTED,
            request_id=request_id,
            extra={
                "change_request_id": str(change_request.id),
                "document_id": str(document.id),
                "warnings": change_request.warnings,
            },
        )
    return change_request


def change_request_rebase(
    *, actor: Actor, user: User, change_request_id: uuid.UUID
) -> ChangeRequest:
    """Explicit rebase of a stale request: a new open request with the same text, proposer
    and source against the current version (the reviewer then sees the new diff)."""
    with transaction.atomic():
        old = ChangeRequest.objects.filter(tenant_id=actor.tenant_id, id=change_request_id).first()
        access = console_access_get(user=user, tenant_id=actor.tenant_id)
        if old is None or access is None:
            raise GovernanceError("not_found", _("No such change request."), status=404)
        if not can_review_document(access, old.document_id) and old.proposer_user_id != user.pk:
            raise GovernanceError("permission_denied", _("You may not rebase this."), status=403)
        if old.status != ChangeRequestStatus.STALE:
            raise GovernanceError("not_stale", _("Only stale requests can be rebased."), status=409)
        document = ProceduralDocument.objects.select_for_update().get(pk=old.document_id)
        new = change_request_propose(
            actor=actor,
            document=document,
            proposed_text=old.proposed_text,
            base_version=document.current_version,
            source=old.source,
            rationale=old.rationale,
            source_uri=old.source_uri,
            proposer_user=old.proposer_user,
            proposer_agent_id=old.proposer_agent_id,
            rollback_of_version=old.rollback_of_version,
        )
        audit_record(
            actor=actor,
            action=AuditAction.PROCEDURE_REBASE,
            extra={"change_request_id": str(new.id), "rebased_from": str(old.id)},
        )
    return new


def _decide(change_request: ChangeRequest, user: User, status: str, comment: str) -> None:
    change_request.status = status
    change_request.decided_by = user
    change_request.decided_at = timezone.now()
    change_request.decision_comment = comment.strip()[:2000]
    change_request.save(update_fields=["status", "decided_by", "decided_at", "decision_comment"])
