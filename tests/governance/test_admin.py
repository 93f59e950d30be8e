"""The Django admin is registered for operators; governed memory is read-only there."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from accounts.models import Role
from accounts.services.tenants import membership_set
from core.actor import Actor
from tests.helpers.procedures import V1, approve, propose


@pytest.fixture
def operator(tenant) -> Client:
    """A platform operator. Row-level security applies to the admin too: an operator sees
    the tenant they are a member of (switchable on the console home), nothing else."""
    client = Client()
    user = User.objects.create_superuser("op", password="pw-op")
    membership_set(actor=Actor.system(tenant.id), tenant=tenant, user=user, role=Role.ADMIN)
    client.force_login(user)
    return client


def test_operator_without_membership_sees_no_tenant_data(db, runbook, owner, reviewer):
    approval = approve(propose(runbook, owner[0], V1), reviewer[0])
    client = Client()
    client.force_login(User.objects.create_superuser("outsider", password="x"))
    page = client.get(reverse("admin:memory_memoryrecord_changelist"))
    assert page.status_code == 200 and str(approval.record_id).encode() not in page.content


@pytest.mark.parametrize(
    "model",
    [
        "accounts_tenant",
        "accounts_membership",
        "accounts_agent",
        "accounts_apikey",
        "memory_subject",
        "memory_memoryrecord",
        "memory_sourceevent",
        "core_auditevent",
        "governance_proceduraldocument",
        "governance_proceduralversion",
        "governance_changerequest",
    ],
)
def test_changelists_render(operator, runbook, write_agent, model):
    assert operator.get(reverse(f"admin:{model}_changelist")).status_code == 200


def test_memory_and_history_are_read_only(operator, runbook, owner, reviewer):
    approval = approve(propose(runbook, owner[0], V1), reviewer[0])
    url = reverse("admin:memory_memoryrecord_change", args=[approval.record_id])
    page = operator.get(url)
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert operator.post(url, {"statement": "tampered"}).status_code == 403
    assert operator.get(reverse("admin:memory_memoryrecord_add")).status_code == 403
    assert operator.get(reverse("admin:governance_proceduralversion_add")).status_code == 403


def test_api_key_hash_is_not_shown(operator, write_agent):
    from accounts.models import ApiKey

    key = ApiKey.objects.get(agent=write_agent.agent)
    page = operator.get(reverse("admin:accounts_apikey_change", args=[key.id]))
    assert page.status_code == 200 and key.secret_hash.encode() not in page.content


def test_staff_without_superuser_is_refused(db):
    client = Client()
    client.force_login(User.objects.create_user("member", password="x"))
    assert client.get(reverse("admin:memory_memoryrecord_changelist")).status_code == 302
