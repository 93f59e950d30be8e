"""Approved procedures reach every agent of the tenant through recall; proposals never do,
and another tenant's procedures never do."""

from __future__ import annotations

import pytest

from core.actor import Actor
from core.tenancy import tenant_context
from governance.services.procedures import procedure_document_create
from memory.models import MemoryRecord
from memory.services.indexing import index_pending_records
from tests.helpers.cast import person
from tests.helpers.procedures import approve, propose
from tests.helpers.retrieval import recall

pytestmark = pytest.mark.django_db

RUNBOOK = "Deploy runbook: run the smoke tests, then roll out to 10% of traffic, then to everyone."


def _runbook(tenant, admin, slug="deploy"):
    with tenant_context(tenant.id):
        return procedure_document_create(
            actor=Actor.user(admin.pk, tenant.id),
            user=admin,
            slug=slug,
            title="Deploy",
            kind="runbook",
            namespace="ops/deploy",
        )


def _embed_all():
    index_pending_records(MemoryRecord.objects.values_list("id", flat=True))


def test_only_the_approved_version_is_recalled(
    tenant, tenant_admin, reviewer, read_agent, owner_subject
):
    doc = _runbook(tenant, tenant_admin[0])
    pending = propose(doc, tenant_admin[0], RUNBOOK)
    _embed_all()
    assert (
        recall(
            read_agent.agent, owner_subject, "how do we deploy?", memory_types=["procedural"]
        ).items
        == []
    )
    approve(pending, reviewer[0])
    _embed_all()
    result = recall(
        read_agent.agent, owner_subject, "how do we deploy?", memory_types=["procedural"]
    )
    assert [i.statement for i in result.items] == [RUNBOOK]
    assert result.items[0].memory_type == "procedural"
    # An open proposal for the next version stays invisible.
    propose(doc, tenant_admin[0], RUNBOOK + " Skip the smoke tests on Fridays.")
    _embed_all()
    again = recall(
        read_agent.agent, owner_subject, "how do we deploy?", memory_types=["procedural"]
    )
    assert [i.statement for i in again.items] == [RUNBOOK]


def test_another_tenants_procedures_never_reach_us(other_tenant, read_agent, owner_subject):
    admin, _ = person(other_tenant, "oda", "admin")
    rev, _ = person(other_tenant, "orv", "reviewer")
    approve(propose(_runbook(other_tenant, admin), admin, RUNBOOK), rev)
    _embed_all()
    assert (
        recall(
            read_agent.agent, owner_subject, "how do we deploy?", memory_types=["procedural"]
        ).items
        == []
    )


def test_an_earlier_version_of_a_procedure_still_finds_the_current_one(
    tenant, tenant_admin, reviewer, read_agent, owner_subject
):
    """A subject with no single-valued facts of its own: the tenant's procedure versions
    still serve as keys for the current one (recall skips that lookup only when neither
    the subject nor the procedures have any)."""
    doc = _runbook(tenant, tenant_admin[0])
    approve(
        propose(doc, tenant_admin[0], "Deploy runbook: ask the canary quartermaster first."),
        reviewer[0],
    )
    approve(propose(doc, tenant_admin[0], RUNBOOK), reviewer[0])
    _embed_all()
    result = recall(read_agent.agent, owner_subject, "canary quartermaster")
    assert [i.statement for i in result.items] == [RUNBOOK]
    assert any(key.endswith("_via_other_version") for key in result.items[0].scores)
