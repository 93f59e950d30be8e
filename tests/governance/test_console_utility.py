"""The console's memory utility page: per agent and day, the share of recalled memories
the agent reported using (from RecallTrace feedback), against the 60 % target line; for
tenant admins only, in English and Chinese."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from core.tenancy import tenant_context
from memory.models import RecallTrace
from tests.helpers.cast import agent_with_key

pytestmark = pytest.mark.django_db

URL = reverse("governance:utility")


def _trace(subject, agent, when, returned: int, used: int, *, feedback: bool = True) -> None:
    ids = [uuid.uuid4() for _ in range(returned)]
    with tenant_context(subject.tenant_id):
        RecallTrace.objects.create(
            tenant_id=subject.tenant_id,
            subject=subject,
            agent=agent,
            purpose="personalization",
            query_sha256="0" * 64,
            record_ids=ids,
            used_record_ids=ids[:used],
            feedback_at=when if feedback else None,
            created_at=when,
        )


def _rows(html: str) -> dict[str, list[str]]:
    figure = re.search(r'id="chart-utility-rate".*?</figure>', html, re.S)
    assert figure, "no #chart-utility-rate"
    rows = re.findall(r"<tr>(.*?)</tr>", figure.group(0), re.S)
    cells = [re.findall(r"<t[dh]>(.*?)</t[dh]>", row, re.S) for row in rows]
    return {row[0]: row[1:] for row in cells}


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_admin_sees_each_agents_daily_rate_against_the_target(
    tenant, other_tenant, tenant_admin, owner, other_tenant_user
):
    subject = owner[1]
    support = agent_with_key(tenant, "support-bot", ["read"]).agent
    travel = agent_with_key(tenant, "travel-bot", ["read"]).agent
    now = timezone.now()
    yesterday = now - timedelta(days=1)
    _trace(subject, support, yesterday, returned=4, used=3)
    _trace(subject, support, yesterday, returned=4, used=1)
    _trace(subject, support, yesterday, returned=5, used=0, feedback=False)  # not counted
    _trace(subject, travel, now, returned=5, used=4)
    stranger = agent_with_key(other_tenant, "support-bot", ["read"]).agent
    _trace(other_tenant_user[1], stranger, now, returned=10, used=0)  # another tenant's

    html = _client(tenant_admin[0]).get(URL).content.decode()
    rows = _rows(html)
    assert rows["Day"] == ["support-bot", "travel-bot", "Target (60 %)"]
    assert rows[date_format(yesterday.date(), "m/d")] == ["50%", "—", "60%"]
    assert rows[date_format(now.date(), "m/d")] == ["—", "80%", "60%"]
    agents = re.search(r'id="utility-agents".*?</table>', html, re.S).group(0)
    assert re.search(r"<td>support-bot</td><td>8</td><td>4</td><td>50.0 %</td>", agents)
    assert re.search(r"<td>travel-bot</td><td>5</td><td>4</td><td>80.0 %</td>", agents)
    assert 'role="img"' in html and 'aria-current="page"' in html


def test_the_page_is_in_chinese(tenant, tenant_admin, owner):
    _trace(owner[1], agent_with_key(tenant, "客服", ["read"]).agent, timezone.now(), 2, 1)
    html = _client(tenant_admin[0]).get(URL, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "记忆利用率" in html and "目标（60 %）" in html and "最近 14 天" in html
    assert "Memory utility" not in html and "Target (60 %)" not in html
    assert _rows(html)[date_format(timezone.now().date(), "m/d")] == ["50%", "60%"]


def test_without_feedback_the_page_says_so(tenant_admin):
    html = _client(tenant_admin[0]).get(URL).content.decode()
    assert 'id="utility-empty"' in html and "chart-utility-rate" not in html
    zh = _client(tenant_admin[0]).get(URL, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "还没有智能体报告" in zh


def test_only_tenant_admins_see_it(tenant_admin, reviewer, owner, other_tenant_admin):
    assert _client(reviewer[0]).get(URL).status_code == 403
    assert _client(owner[0]).get(URL).status_code == 403
    outsider = User.objects.create_user("nomad", password="pw-nomad")
    assert _client(outsider).get(URL).status_code == 404
    anonymous = Client().get(URL)
    assert anonymous.status_code == 302 and "login" in anonymous["Location"]
    # The nav names the page for admins only.
    home = reverse("governance:home")
    assert URL in _client(tenant_admin[0]).get(home).content.decode()
    assert URL not in _client(reviewer[0]).get(home).content.decode()
    # Another tenant's admin sees their own tenant's (empty) page, never this one's agents.
    assert _client(other_tenant_admin[0]).get(URL).status_code == 200


def test_posting_is_not_allowed(tenant_admin):
    assert _client(tenant_admin[0]).post(URL).status_code == 405
