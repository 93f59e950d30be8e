"""Pure permission decisions for the governance console. No database access: callers
load the facts (membership role, object permissions) and ask here.

Who may do what (tenant-wide rights come from the Membership role; per-document review
rights are django-guardian object permissions ``governance.review_proceduraldocument``):

================================  ======  ========  =====================  =====
action                            member  reviewer  per-document reviewer  admin
================================  ======  ========  =====================  =====
read procedures, propose changes  yes     yes       yes                    yes
approve / reject a request        no      yes       that document only     yes
quarantine and conflict queues    no      yes       no                     yes
audit log and CSV export          no      yes       no                     yes
tenant administration, grants     no      no        no                     yes
================================  ======  ========  =====================  =====

Nobody approves their own proposal; untrusted-source and secret-bearing proposals are
never approvable; instruction-like text needs an explicit acknowledgement.
A user without a membership in the tenant gets a 404 everywhere (views), a member asking
for something their role does not allow gets a 403.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from accounts.models import Role
from core.codes import ReasonCode

REVIEWING_ROLES = (Role.REVIEWER, Role.ADMIN)


@dataclass(frozen=True)
class ConsoleAccess:
    """What one signed-in user may do in one tenant."""

    user_id: int
    tenant_id: uuid.UUID
    role: str
    # Documents this user may review through an object permission (per-runbook grants).
    reviewable_document_ids: frozenset[uuid.UUID] = field(default_factory=frozenset)

    @property
    def is_admin(self) -> bool:
        return self.role == Role.ADMIN

    @property
    def is_tenant_reviewer(self) -> bool:
        return self.role in REVIEWING_ROLES


def can_read_procedures(access: ConsoleAccess) -> bool:
    return True


def can_propose_change(access: ConsoleAccess) -> bool:
    return True


def can_review_document(access: ConsoleAccess, document_id: uuid.UUID) -> bool:
    return access.is_tenant_reviewer or document_id in access.reviewable_document_ids


def can_review_anything(access: ConsoleAccess) -> bool:
    return access.is_tenant_reviewer or bool(access.reviewable_document_ids)


def can_resolve_quarantine(access: ConsoleAccess) -> bool:
    return access.is_tenant_reviewer


def can_view_audit(access: ConsoleAccess) -> bool:
    return access.is_tenant_reviewer


def can_administer_tenant(access: ConsoleAccess) -> bool:
    return access.is_admin


# --- change requests --------------------------------------------------------------------

# Warnings that make a proposal impossible to approve, whoever reviews it.
BLOCKING_WARNINGS = ("untrusted_source", "secret_redacted")
# Warnings a reviewer must explicitly acknowledge before approving.
ACKNOWLEDGE_WARNINGS = ("instruction_like_text",)


def approval_blockers(
    *,
    proposer_user_id: int | None,
    approver_user_id: int,
    warnings: list[str] | tuple[str, ...],
    acknowledged: bool,
) -> list[str]:
    """Reason codes why this approval must not happen (empty: it may)."""
    blockers: list[str] = []
    if proposer_user_id is not None and proposer_user_id == approver_user_id:
        blockers.append("own_proposal")
    blockers.extend(w for w in warnings if w in BLOCKING_WARNINGS)
    if not acknowledged and any(w in ACKNOWLEDGE_WARNINGS for w in warnings):
        blockers.append("warnings_not_acknowledged")
    return blockers


def auto_approvable(*, warnings: list[str] | tuple[str, ...]) -> bool:
    """Whether a proposal could ever skip human review. Engram never auto-approves
    procedures: every change needs a reviewer. Kept as a named decision so a future
    auto-approval rule has one place to live — and flagged proposals stay excluded."""
    return False


# --- tenant administration --------------------------------------------------------------


def can_change_role(*, admin_count: int, current_role: str, new_role: str | None) -> bool:
    """The last admin of a tenant can neither be demoted nor removed (``new_role=None``)."""
    losing_admin = current_role == Role.ADMIN and new_role != Role.ADMIN
    return not (losing_admin and admin_count <= 1)


# --- quarantine and conflict queue ------------------------------------------------------

CONFLICT_REASONS = (ReasonCode.CONFLICT_EQUAL_AUTHORITY, ReasonCode.AMBIGUOUS_CONFLICT)


def quarantine_actions(*, status: str, reason_code: str, has_conflict: bool) -> tuple[str, ...]:
    """Resolve actions a reviewer may take on one held record.

    Sensitive data pending the user's confirmation is the user's to confirm (on their own
    pages); a reviewer may only reject it. Conflicts offer keep-existing, keep-new and
    keep-both (the new value under a narrower scope).
    """
    if status == "pending_confirmation":
        return ("reject",)
    if has_conflict and reason_code in CONFLICT_REASONS:
        return ("keep_existing", "keep_new", "keep_both")
    return ("accept", "accept_edited", "reject")


def can_see_held_text(*, status: str, sensitivity: str) -> bool:
    """Reviewers see what they must judge — but not sensitive personal data waiting for
    the user's own confirmation (or anything restricted): for those the queue shows only
    the reason, ids and source; the user sees the text on their own pages."""
    return status != "pending_confirmation" and sensitivity != "restricted"
