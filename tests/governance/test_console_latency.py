"""The console home draws recall latency p50/p95 per day from RecallTrace.latency_ms:
the numbers in the chart's table are PostgreSQL's percentile_cont over the day's traces
of this tenant; traces without a latency (written before it was measured) are ignored."""

from __future__ import annotations

import re
from datetime import timedelta

from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from core.tenancy import tenant_context
from memory.models import RecallTrace


def _trace(subject, when, latency_ms, record_ids=None) -> None:
    with tenant_context(subject.tenant_id):
        RecallTrace.objects.create(
            tenant_id=subject.tenant_id,
            subject=subject,
            purpose="personalization",
            query_sha256="0" * 64,
            record_ids=record_ids or [],
            created_at=when,
            latency_ms=latency_ms,
        )


def _table_rows(html: str, chart_id: str) -> dict[str, list[str]]:
    figure = re.search(rf'id="chart-{chart_id}".*?</figure>', html, re.S)
    assert figure, f"no #chart-{chart_id}"
    rows = re.findall(r"<tr>(.*?)</tr>", figure.group(0), re.S)
    cells = [re.findall(r"<t[dh]>(.*?)</t[dh]>", row, re.S) for row in rows]
    return {row[0]: row[1:] for row in cells}


def test_home_draws_latency_p50_p95_per_day_ignoring_unmeasured_traces(
    tenant_admin, owner, other_tenant_user
):
    subject = owner[1]
    now = timezone.now()
    yesterday, two_days_ago = now - timedelta(days=1), now - timedelta(days=2)
    for ms in (10, 20, 30, 40, 50):
        _trace(subject, yesterday, ms)
    _trace(subject, yesterday, None)  # an old row: counted as a request, not as a latency
    for ms in (100, 200):
        _trace(subject, now, ms)
    _trace(subject, now, None)
    _trace(subject, two_days_ago, None)  # a day with requests but no measurement
    # Another tenant's slow recall is not this tenant's latency.
    _trace(other_tenant_user[1], now, 9999.0)

    client = Client()
    client.force_login(tenant_admin[0])
    html = client.get(reverse("governance:home")).content.decode()

    latency = _table_rows(html, "recall-latency")
    assert latency["Day"] == ["Median (p50)", "95th percentile (p95)"]
    # percentile_cont interpolates: p95 of 10..50 is 40 + 0.8 * 10.
    assert latency[date_format(yesterday.date(), "m/d")] == ["30", "48"]
    assert latency[date_format(now.date(), "m/d")] == ["150", "195"]
    assert latency[date_format(two_days_ago.date(), "m/d")] == ["—", "—"]
    assert 'id="chart-recall-latency"' in html and 'role="img"' in html
    assert "not stored per request" not in html

    volume = _table_rows(html, "recall-volume")
    assert volume[date_format(yesterday.date(), "m/d")] == ["6"]
    assert volume[date_format(now.date(), "m/d")] == ["3"]
    assert volume[date_format(two_days_ago.date(), "m/d")] == ["1"]


def test_latency_chart_is_translated(tenant_admin, owner):
    now = timezone.now()
    _trace(owner[1], now, 12.5)
    client = Client()
    client.force_login(tenant_admin[0])
    html = client.get(reverse("governance:home"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "每天的召回延迟（毫秒）" in html
    assert "开始记录延迟之前的旧请求不计入。" in html
    rows = _table_rows(html, "recall-latency")
    assert ["中位数（p50）", "第 95 百分位（p95）"] in rows.values()
    assert rows[date_format(now.date(), "m/d")] == ["12.50", "12.50"]


def test_home_without_any_latency_draws_an_empty_latency_chart(tenant_admin):
    client = Client()
    client.force_login(tenant_admin[0])
    html = client.get(reverse("governance:home")).content.decode()
    rows = _table_rows(html, "recall-latency")
    days = [k for k in rows if k != "Day"]
    assert len(days) == 14 and all(rows[d] == ["—", "—"] for d in days)
