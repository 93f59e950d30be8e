"""The memory utility page in a real browser: a tenant admin reaches it from the console's
menu, and at phone and desktop widths, in English and Chinese, the chart's labels are
readable, its value axis even and the page never scrolls sideways."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from core.tenancy import tenant_context
from memory.models import RecallTrace
from tests.browser.test_flows import new_page
from tests.browser.test_pages_finished import no_sideways_scroll, sign_in
from tests.helpers.cast import agent_with_key


def _traces(tenant, subject) -> None:
    agents = [
        agent_with_key(tenant, name, ["read"]).agent
        for name in ("support-assistant-with-a-long-name", "旅行助手")
    ]
    now = timezone.now()
    with tenant_context(tenant.id):
        for day in range(14):
            for n, agent in enumerate(agents):
                ids = [uuid.uuid4() for _ in range(5)]
                RecallTrace.objects.create(
                    tenant_id=tenant.id,
                    subject=subject,
                    agent=agent,
                    purpose="personalization",
                    query_sha256="0" * 64,
                    record_ids=ids,
                    used_record_ids=ids[: (day + n) % 6],
                    feedback_at=now,
                    created_at=now - timedelta(days=day),
                )


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_utility_chart_reads_well_everywhere(
    browser, live_server, tenant, tenant_admin, owner, width, locale
):
    _traces(tenant, owner[1])
    context, page, errors = new_page(browser, live_server, locale=locale, width=width)
    try:
        sign_in(page, "ada", "pw-ada")
        page.goto("/console/")
        page.locator("nav.console-nav a[href='/console/utility/']").click()
        page.wait_for_url(lambda url: url.endswith("/console/utility/"))
        assert page.locator("#chart-utility-rate svg.chart-svg").count() == 1
        title = "记忆利用率" if locale == "zh-CN" else "Memory utility"
        assert page.locator("h1").inner_text() == title
        sizes = page.evaluate(
            "() => [...document.querySelectorAll('.chart text')]"
            ".map(e => parseFloat(getComputedStyle(e).fontSize))"
        )
        assert sizes and min(sizes) >= 12
        ticks = [
            float(re.sub(r"[^0-9.]", "", t))
            for t in page.locator(".tchart-axis text").all_text_contents()
        ]
        assert ticks[0] == 0 and ticks[-1] >= 60
        assert len({round(b - a, 6) for a, b in zip(ticks, ticks[1:], strict=False)}) == 1
        no_sideways_scroll(page, width, f"/console/utility/ ({locale})")
        assert errors == []
    finally:
        context.close()
