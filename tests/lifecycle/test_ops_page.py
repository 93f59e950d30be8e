"""The operations page: staff and tenant admins only (404 for everyone else), one
tenant's figures, English and Chinese."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from memory.models import DeadLetter, DeletionRequest, TaskRun

pytestmark = pytest.mark.django_db


@pytest.fixture
def figures(tenant, other_tenant, owner_subject):
    TaskRun.objects.create(
        tenant=tenant, task_name="memory.extract_events", key="a", outcome="succeeded", attempts=3
    )
    TaskRun.objects.create(
        tenant=tenant, task_name="memory.extract_events", key="b", outcome="dead", attempts=4
    )
    DeadLetter.objects.create(
        tenant=tenant,
        task_name="memory.extract_events",
        object_ids=["evt-acme-1"],
        error_class="OperationalError",
        attempts=4,
    )
    DeadLetter.objects.create(
        tenant=other_tenant,
        task_name="memory.run_deletion",
        object_ids=["evt-globex-1"],
        error_class="KeyError",
        attempts=4,
    )
    DeletionRequest.objects.create(
        tenant=tenant,
        scope="subject",
        subject_id=owner_subject.id,
        target_id=owner_subject.id,
        requested_by_type="system",
        requested_by_id="t",
        status="done",
        receipt={"source_events": 7},
        verification={"exact_text": 0},
    )


def client_for(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_tenant_admin_sees_their_tenants_figures_only(figures, tenant_admin):
    r = client_for(tenant_admin[0]).get("/ops/")
    assert r.status_code == 200
    html = r.content.decode()
    assert "evt-acme-1" in html and "evt-globex-1" not in html
    assert "OperationalError" in html
    # The receipt in one line, the per-store counts in a collapsible list.
    assert "7 items removed from 1 place." in html and "Checked: nothing left." in html
    assert "Conversation snippets and tool results: 7" in html
    assert "eager mode" in html
    for chart in ("task-outcomes", "queue-depth"):
        assert f'id="chart-{chart}"' in html
    # Index lag: this tenant's embeddable records still without a vector (tests embed
    # nothing in the background), counted under the tenant's row-level security.
    from core.tenancy import tenant_context
    from memory.services.index_maintenance import index_lag

    tenant_id = tenant_admin[0].memberships.first().tenant_id
    with tenant_context(tenant_id):
        lag = index_lag(tenant_id)
    assert f"<strong>{lag}</strong>" in html
    assert ("records not yet indexed" if lag else "every record is indexed") in html
    assert 'id="chart-index-lag"' in html


def test_staff_may_look(figures, tenant, owner):
    user = owner[0]
    user.is_staff = True
    user.save()
    assert client_for(user).get("/ops/").status_code == 200


@pytest.mark.parametrize("who", ["owner", "reviewer", "other_tenant_user"])
def test_everyone_else_gets_404(figures, request, who):
    user = request.getfixturevalue(who)[0]
    r = client_for(user).get("/ops/")
    assert r.status_code == 404
    assert "evt-acme-1" not in r.content.decode()


def test_admin_of_another_tenant_sees_only_theirs(figures, other_tenant):
    from accounts.models import Role
    from accounts.services.tenants import membership_set
    from core.actor import Actor

    user = User.objects.create_user("gina", password="pw-gina")
    membership_set(
        actor=Actor.system(other_tenant.id), tenant=other_tenant, user=user, role=Role.ADMIN
    )
    html = client_for(user).get("/ops/").content.decode()
    assert "evt-globex-1" in html and "evt-acme-1" not in html


def test_anonymous_is_sent_to_sign_in(figures):
    r = Client().get("/ops/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]


def test_htmx_refresh_returns_the_fragment(figures, tenant_admin):
    r = client_for(tenant_admin[0]).get("/ops/", HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert r.status_code == 200 and html.lstrip().startswith('<div id="ops-stats">')
    assert "<html" not in html


def test_page_speaks_chinese(figures, tenant_admin):
    r = client_for(tenant_admin[0]).get("/ops/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    html = r.content.decode()
    assert "运维" in html and "死信" in html and "删除回执" in html
