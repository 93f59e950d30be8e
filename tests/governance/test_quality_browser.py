"""Real browser (Playwright + Debian Chromium): a tenant administrator opens the quality
page, sees the charts and a near-duplicate finding, merges it with htmx (the card says
what happened without a page load), then saves a canary."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core.actor import Actor
from core.tenancy import tenant_context
from memory.models import FindingStatus, MemoryRecord, MemoryStatus, QualityFinding
from memory.services.inspector import tenant_inspect
from tests.helpers.browser import login
from tests.helpers.retrieval import BACKGROUND, remember

SCREENSHOT = Path(os.environ.get("ENGRAM_SCREENSHOT_DIR", "/tmp")) / "quality-console.png"
DUPLICATE = (
    "User prefers Python scripts for data work",
    "For data work, the user likes writing Python scripts",
)


@pytest.fixture(autouse=True)
def _no_installation_bloat(settings):
    """The vector table's dead rows are the whole test database's (every rolled-back test
    leaves some): findings here must come from what each test plants. The bloat detector
    is tested with planted statistics."""
    settings.ENGRAM_QUALITY = {**settings.ENGRAM_QUALITY, "BLOAT_MIN_DEAD": 10**12}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_admin_merges_a_duplicate_and_adds_a_canary(page, tenant, owner_subject, tenant_admin):
    ids = [remember(owner_subject, s).record_id for s in (*BACKGROUND[:4], *DUPLICATE)]
    tenant_inspect(actor=Actor.system(tenant.id, "test"), tenant_id=tenant.id, trigger="test")
    with tenant_context(tenant.id):
        finding = QualityFinding.objects.get(tenant=tenant)

    login(page, "ada", "pw-ada")
    page.goto("/console/quality/")
    page.wait_for_function("() => window.htmx !== undefined")
    assert page.locator('[data-chart="findings-by-kind"]').is_visible()
    card = page.locator(f"#finding-{finding.pk}")
    assert DUPLICATE[1] in card.inner_text()
    page.screenshot(path=str(SCREENSHOT), full_page=True)
    url = page.url
    card.get_by_role("button", name="Merge").click()
    page.locator(f"#finding-{finding.pk} .outcome").wait_for()
    assert "Merged" in page.locator(f"#finding-{finding.pk}").inner_text()
    assert page.url == url  # swapped in place by htmx, no navigation

    with tenant_context(tenant.id):
        finding.refresh_from_db()
        folded = MemoryRecord.objects.get(pk=finding.detail["fold"])
    assert finding.status == FindingStatus.APPLIED and folded.status == MemoryStatus.SUPERSEDED

    page.get_by_label("Question").fill("which seat does the user like on flights?")
    page.get_by_label("Expected memory ids").fill(str(ids[1]))
    page.get_by_role("button", name="Add canary").click()
    page.get_by_text("Canary saved.").wait_for()
    assert "which seat does the user like on flights?" in page.locator("#canaries").inner_text()
