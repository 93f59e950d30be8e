"""The quality console page: only tenant administrators; findings acted on through HTMX
(a fragment) and without JavaScript (post/redirect/get); canaries added and removed with
bad input refused as 400; another tenant's finding is a 404; Chinese."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from core.actor import Actor
from core.models import AuditEvent
from core.tenancy import tenant_context
from memory.models import (
    FindingKind,
    FindingStatus,
    MemoryRecord,
    MemoryStatus,
    QualityFinding,
    RetrievalCanary,
)
from memory.services.inspector import tenant_inspect
from tests.helpers.retrieval import BACKGROUND, remember

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_installation_bloat(settings):
    """The vector table's dead rows are the whole test database's (every rolled-back test
    leaves some): findings here must come from what each test plants. The bloat detector
    is tested with planted statistics."""
    settings.ENGRAM_QUALITY = {**settings.ENGRAM_QUALITY, "BLOAT_MIN_DEAD": 10**12}


DUPLICATE = (
    "User prefers Python scripts for data work",
    "For data work, the user likes writing Python scripts",
)


@pytest.fixture
def inspected(tenant, owner_subject):
    """A tenant whose inspection found one pair of near-duplicates."""
    for statement in (*BACKGROUND[:4], *DUPLICATE):
        remember(owner_subject, statement)
    tenant_inspect(actor=Actor.system(tenant.id, "test"), tenant_id=tenant.id, trigger="test")
    with tenant_context(tenant.id):
        return QualityFinding.objects.get(tenant=tenant, kind=FindingKind.NEAR_DUPLICATE)


def _client(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


URL = "/console/quality/"


@pytest.mark.parametrize(
    ("who", "status"),
    [
        ("anonymous", 302),
        ("stranger", 404),
        ("owner", 403),
        ("reviewer", 403),
        ("other_tenant_user", 403),
        ("tenant_admin", 200),
    ],
)
def test_only_tenant_admins_see_the_page(who, status, request, inspected):
    if who == "anonymous":
        user = None
    elif who == "stranger":
        user = User.objects.create_user("stranger", password="pw")
    else:
        user = request.getfixturevalue(who)[0]
    assert reverse("governance:quality") == URL
    page = _client(user).get(URL)
    assert page.status_code == status
    apply = _client(user).post(
        reverse("governance:quality-finding-apply", args=[inspected.pk]), {"action": "merge"}
    )
    assert apply.status_code == (302 if status == 200 else status)
    with tenant_context(inspected.tenant_id):
        inspected.refresh_from_db()
    assert (inspected.status == FindingStatus.APPLIED) == (who == "tenant_admin")


def test_the_report_shows_findings_charts_and_nav(tenant_admin, inspected):
    page = _client(tenant_admin[0]).get(URL).content.decode()
    assert f'id="finding-{inspected.pk}"' in page
    assert DUPLICATE[1] in page  # the admin sees the statements to judge the merge
    assert page.count('<span class="badge">kept</span>') == 1  # and which one a merge keeps
    assert 'data-chart="findings-by-kind"' in page
    assert 'value="merge"' in page and 'value="dismiss"' in page
    assert 'href="/console/quality/"' in page and 'aria-current="page"' in page


def test_htmx_merge_returns_the_card_with_the_outcome(tenant, tenant_admin, inspected):
    url = reverse("governance:quality-finding-apply", args=[inspected.pk])
    response = _client(tenant_admin[0]).post(url, {"action": "merge"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith(
        f'<article class="held finding resolved" id="finding-{inspected.pk}"'
    )
    assert "<html" not in body and "Merged" in body
    with tenant_context(tenant.id):
        fold = MemoryRecord.objects.get(pk=inspected.detail["fold"])
        assert fold.status == MemoryStatus.SUPERSEDED
        [event] = AuditEvent.objects.filter(action="quality.action")
    assert event.actor_id == str(tenant_admin[0].pk) and event.extra["action"] == "merge"
    # Twice: 409 with the card saying why, nothing changes again.
    again = _client(tenant_admin[0]).post(url, {"action": "merge"}, HTTP_HX_REQUEST="true")
    assert again.status_code == 409 and 'role="alert"' in again.content.decode()


def test_a_wrong_action_is_a_400_and_another_tenants_finding_a_404(
    tenant_admin, inspected, other_tenant, other_tenant_user
):
    url = reverse("governance:quality-finding-apply", args=[inspected.pk])
    bad = _client(tenant_admin[0]).post(url, {"action": "archive"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400
    from tests.helpers.cast import person

    other_admin, _ = person(other_tenant, "otto", "admin")
    assert _client(other_admin).post(url, {"action": "merge"}).status_code == 404
    assert _client(other_admin).get(URL).content.decode().count('class="held finding') == 0


def test_inspect_now_posts_and_redirects(tenant, tenant_admin, owner_subject):
    remember(owner_subject, BACKGROUND[0])
    client = _client(tenant_admin[0])
    response = client.post(URL)
    assert response.status_code == 302 and response["Location"] == URL
    page = client.get(URL).content.decode()
    assert "Inspection finished: 0 findings." in page and "No open findings." in page


def test_canaries_are_added_and_removed(tenant, tenant_admin, owner_subject):
    record_id = remember(owner_subject, BACKGROUND[1]).record_id
    client = _client(tenant_admin[0])
    add = reverse("governance:quality-canary-add")
    response = client.post(
        add, {"query": "靠过道的座位", "expected": f"{record_id}", "k": "3"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and response.headers.get("HX-Redirect") == URL
    with tenant_context(tenant.id):
        canary = RetrievalCanary.objects.get(tenant=tenant)
    assert canary.expected_record_ids == [record_id] and canary.k == 3
    # Bad input: the form again, 400, nothing saved.
    for data in (
        {"query": "", "expected": str(record_id), "k": "3"},
        {"query": "q", "expected": "not an id", "k": "3"},
        {"query": "q", "expected": str(record_id), "k": "99"},
        {"query": "q", "expected": "00000000-0000-0000-0000-000000000000", "k": "3"},
    ):
        refused = client.post(add, data, HTTP_HX_REQUEST="true")
        assert refused.status_code == 400 and 'role="alert"' in refused.content.decode()
    with tenant_context(tenant.id):
        assert RetrievalCanary.objects.filter(tenant=tenant).count() == 1
    page = client.get(URL).content.decode()
    assert "靠过道的座位" in page and f'id="canary-{canary.id}"' in page
    remove = reverse("governance:quality-canary-remove", args=[canary.id])
    assert client.post(remove).status_code == 302
    assert client.post(remove).status_code == 404
    with tenant_context(tenant.id):
        assert not RetrievalCanary.objects.filter(tenant=tenant).exists()


def test_the_page_speaks_chinese(tenant_admin, inspected):
    page = _client(tenant_admin[0]).get(URL, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "记忆质量" in page and "检索哨兵" in page and "合并" in page
    assert "Memory quality" not in page
