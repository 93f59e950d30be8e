"""Governance fixtures on top of the global cast: a runbook, a second runbook, a
per-runbook reviewer, and helpers that run services inside the tenant context."""

from __future__ import annotations

import pytest
from guardian.shortcuts import assign_perm

from accounts.models import Role
from config.tenancy import tenant_context
from governance.models import ProceduralDocument, ProposalSource
from governance.services import Actor
from governance.services.procedures import (
    change_request_approve,
    change_request_propose,
    procedure_document_create,
)
from tests.conftest import _person


@pytest.fixture
def runbook(tenant, tenant_admin) -> ProceduralDocument:
    admin_user = tenant_admin[0]
    with tenant_context(tenant.id):
        return procedure_document_create(
            actor=Actor.user(admin_user.pk, tenant.id),
            user=admin_user,
            slug="refunds",
            title="Refund handling",
            kind="runbook",
            namespace="support-agent/refunds",
        )


@pytest.fixture
def other_runbook(tenant, tenant_admin) -> ProceduralDocument:
    admin_user = tenant_admin[0]
    with tenant_context(tenant.id):
        return procedure_document_create(
            actor=Actor.user(admin_user.pk, tenant.id),
            user=admin_user,
            slug="escalation",
            title="Escalation",
            kind="rule",
            namespace="support-agent/escalation",
        )


@pytest.fixture
def runbook_reviewer(tenant, runbook):
    """A plain member holding the object permission on ``runbook`` only."""
    user, subject = _person(tenant, "rudi", Role.MEMBER)
    assign_perm("governance.review_proceduraldocument", user, runbook)
    return user, subject


@pytest.fixture
def other_tenant_admin(other_tenant):
    return _person(other_tenant, "otto", Role.ADMIN)


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
        return change_request_approve(
            actor=Actor.user(user.pk, change_request.tenant_id),
            user=user,
            change_request_id=change_request.id,
            **kw,
        )


V1 = "1. Check the order is paid.\n2. Refund to the original payment method.\n3. Log the ticket."
V2 = "1. Check the order is paid.\n2. Refund to the original payment method within 7 days.\n3. Log the ticket."
