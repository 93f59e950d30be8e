"""Governance fixtures on top of the global cast: a runbook, a second runbook, a
per-runbook reviewer (proposing and approving: tests/helpers/procedures.py)."""

from __future__ import annotations

import pytest
from guardian.shortcuts import assign_perm

from accounts.models import Role
from core.actor import Actor
from core.tenancy import tenant_context
from governance.models import ProceduralDocument
from governance.services.procedures import procedure_document_create
from tests.helpers.cast import person


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
    user, subject = person(tenant, "rudi", Role.MEMBER)
    assign_perm("governance.review_proceduraldocument", user, runbook)
    return user, subject


@pytest.fixture
def other_tenant_admin(other_tenant):
    return person(other_tenant, "otto", Role.ADMIN)
