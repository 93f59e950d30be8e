"""Procedure helpers: propose and approve a change inside the tenant context, as the
services' callers do, and two versions of the refunds runbook."""

from __future__ import annotations

from core.actor import Actor
from core.tenancy import tenant_context
from governance.models import ProposalSource
from governance.services.errors import GovernanceError
from governance.services.procedures import change_request_approve, change_request_propose


def propose(document, user, text, *, source=ProposalSource.USER, base=None, **kw):
    with tenant_context(document.tenant_id):
        document.refresh_from_db()
        return change_request_propose(
            actor=Actor.user(user.pk, document.tenant_id),
            document=document,
            proposed_text=text,
            base_version=document.current_version if base is None else base,
            source=source,
            proposer_user=user,
            **kw,
        )


def approve(change_request, user, **kw):
    with tenant_context(change_request.tenant_id):
        try:
            return change_request_approve(
                actor=Actor.user(user.pk, change_request.tenant_id),
                user=user,
                change_request_id=change_request.id,
                **kw,
            )
        except GovernanceError as e:
            # A refusal names its reason in ``extra`` (e.g. the write policy's reason code),
            # which the message alone does not show in a test's traceback.
            e.add_note(f"{e.code}: {e.extra}")
            raise


V1 = "1. Check the order is paid.\n2. Refund to the original payment method.\n3. Log the ticket."
V2 = "1. Check the order is paid.\n2. Refund to the original payment method within 7 days.\n3. Log the ticket."
