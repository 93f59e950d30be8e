"""The "Manage my memories" pages in a real browser: sign in, search in Chinese and
English, open a detail, correct, delete, export, switch language, pause memory."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from django.conf import settings
from playwright.sync_api import expect

from memory.models import MemoryRecord
from tests.helpers.browser import login
from tests.helpers.cast import candidate
from tests.helpers.memories import agent_memory

SCREENSHOTS = Path(
    os.environ.get("ENGRAM_SCREENSHOT_DIR", settings.BASE_DIR / "build" / "screenshots")
)


def rows(page):
    return page.locator("#results article.memory")


def test_sign_in_search_in_chinese_and_english_and_open_detail(
    alice_page, same_tenant_user, write_agent
):
    page = alice_page
    agent_memory(write_agent.agent, same_tenant_user[1], "Bob 喜欢靠窗")
    page.goto("/")
    expect(page.get_by_role("heading", name="My memories")).to_be_visible()
    expect(rows(page)).to_have_count(4)

    search = page.get_by_label("Search")
    search.fill("靠窗")
    expect(rows(page)).to_have_count(1)
    expect(rows(page).first).to_contain_text("window seat")
    assert "q=" in page.url  # the search is in the address bar (shareable, back button)

    search.fill("JAZZ")
    expect(rows(page)).to_have_count(1)
    expect(rows(page).first).to_contain_text("Likes jazz")

    search.fill("zzqx-nothing-of-the-kind")
    expect(page.locator("#results")).to_contain_text("No memory matches")

    search.fill("")
    page.get_by_label("Type").select_option("episodic")
    expect(rows(page)).to_have_count(1)
    rows(page).first.get_by_role("link", name=re.compile("^2025")).click()
    expect(page.get_by_role("heading", name=re.compile("PyCon"))).to_be_visible()
    expect(page.locator("blockquote")).to_contain_text("PyCon China")  # the source turn
    expect(page.get_by_text("No agent has used this memory yet.")).to_be_visible()


def test_correct_inline_and_history_grows(alice_page, memories):
    page = alice_page
    page.goto("/?q=Shanghai")
    row = page.locator(f"#memory-{memories['city'].id}")
    row.get_by_role("link", name=re.compile("^Correct")).click()
    textarea = page.get_by_label("Corrected statement")
    expect(textarea).to_be_focused()
    textarea.fill("Lives in Hangzhou")
    page.get_by_role("button", name="Save correction").click()
    updated = page.locator("#results article.memory").first
    expect(updated).to_contain_text("Lives in Hangzhou")
    expect(updated).to_contain_text("You corrected this")

    updated.get_by_role("link", name="Lives in Hangzhou", exact=True).click()
    # What Engram believed when: newest change first, with who and why.
    history = page.locator("ol.history > li")
    expect(history).to_have_count(2)
    expect(history.nth(0)).to_contain_text("Lives in Hangzhou")
    expect(history.nth(0)).to_contain_text("Corrected")
    expect(history.nth(0)).to_contain_text("by You")
    expect(history.nth(1)).to_contain_text("Lives in Shanghai")
    # What is true: a correction says the old value was never right, so one period.
    expect(page.locator("#periods li")).to_have_count(1)
    expect(page.locator("#periods")).to_contain_text("Lives in Hangzhou")


def test_delete_with_confirmation_gone_from_list_and_agent_api(alice_page, memories, api):
    page = alice_page
    record = memories["jazz"]
    assert api.get(f"/api/v1/memories/{record.id}").status_code == 200
    before = api.post_json("/api/v1/recall", {"query": "jazz", "purpose": record.purpose}).json()
    assert str(record.id) in {i["id"] for i in before["items"]}
    page.goto("/")
    row = page.locator(f"#memory-{record.id}")
    row.get_by_role("link", name=re.compile("^Delete")).click()
    confirm = page.get_by_role("button", name="Yes, delete it")
    expect(confirm).to_be_focused()
    confirm.press("Enter")  # keyboard works
    # Inline (htmx swapped the row) or, if Enter beat htmx to the freshly swapped form, via
    # the plain form post and redirect: either way the user is told what was deleted.
    expect(page.get_by_text("Deleted “Likes jazz while coding”.")).to_be_visible()
    # Gone for agents at once, although the erasure waits for the undo time.
    assert api.get(f"/api/v1/memories/{record.id}").status_code == 404
    recalled = api.post_json("/api/v1/recall", {"query": "jazz", "purpose": record.purpose}).json()
    assert str(record.id) not in {i["id"] for i in recalled["items"]}
    page.goto("/")
    expect(page.locator("#counts")).to_contain_text("3 current memories")
    expect(page.locator("#results")).not_to_contain_text("Likes jazz")
    from django.utils import timezone

    from memory.models import DeletionRequest

    DeletionRequest.objects.filter(status="pending").update(run_after=timezone.now())
    page.reload()
    expect(page.locator("#deleting")).to_have_count(0)
    assert MemoryRecord.objects.get(pk=record.id).status == "deleted"


def test_without_javascript_correct_and_delete_still_work(browser, live_server, owner, memories):
    context = browser.new_context(
        base_url=live_server.url, locale="en-US", java_script_enabled=False
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    try:
        login(page, "alice", "pw-alice")
        page.goto("/")
        page.locator(f"#memory-{memories['seat'].id}").get_by_role(
            "link", name=re.compile("^Correct")
        ).click()
        page.get_by_label("Corrected statement").fill("喜欢靠过道的座位")
        page.get_by_role("button", name="Save correction").click()
        expect(page.get_by_role("heading", name="喜欢靠过道的座位")).to_be_visible()
        expect(page.locator(".messages")).to_contain_text("You corrected this")
        page.get_by_role("link", name="Delete").click()
        page.get_by_role("button", name="Yes, delete it").click()
        expect(page.locator("#receipt-summary")).to_contain_text("Deleted “喜欢靠过道的座位”.")
        page.goto("/")
        expect(page.locator("#results").get_by_text("靠过道")).to_have_count(0)
    finally:
        context.close()


def test_switch_language_to_chinese(alice_page, memories):
    page = alice_page
    page.goto("/")
    page.get_by_role("button", name="简体中文").click()
    expect(page.get_by_role("heading", name="我的记忆")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    expect(page.get_by_role("link", name="记住一件事").first).to_be_visible()
    page.get_by_label("搜索").fill("杭州")
    # The exact match first (the retrieval pipeline may add what it also holds to answer).
    expect(rows(page).first).to_contain_text("PyCon")
    expect(page.locator("#results")).not_to_contain_text("window seat")
    page.get_by_role("button", name="English").click()
    expect(page.get_by_role("heading", name="My memories")).to_be_visible()


def test_export_json_download(alice_page, memories, same_tenant_user, write_agent):
    agent_memory(write_agent.agent, same_tenant_user[1], "Bob likes chess")
    page = alice_page
    page.goto("/")
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Export for other programs (JSON)").click()
    download = download_info.value
    assert download.suggested_filename.endswith(".json")
    data = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    statements = {r["statement"] for r in data["records"]}
    assert "Likes jazz while coding" in statements and "Bob likes chess" not in statements
    assert data["consent"]["memory_paused"] is False
    assert any("PyCon" in e["content"] for e in data["source_events"])


def test_pause_memory_then_agent_write_is_refused(alice_page, api):
    page = alice_page
    page.get_by_role("link", name="Memory settings").click()
    page.get_by_role("button", name="Pause memory").click()
    expect(page.locator("#memory-state")).to_contain_text("Paused")
    result = api.post_json("/api/v1/candidates", {"candidates": [candidate()]}).json()
    assert result["results"][0]["reason_code"] == "memory_paused"
    page.goto("/")
    expect(page.get_by_text("Memory is paused")).to_be_visible()


def test_screenshots_of_main_pages(alice_page, memories):
    page = alice_page
    page.set_viewport_size({"width": 1100, "height": 900})
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.goto("/")
    expect(rows(page)).to_have_count(4)
    page.screenshot(path=str(SCREENSHOTS / "my-memories.png"), full_page=True)
    page.goto(f"/memories/{memories['city'].id}")
    page.screenshot(path=str(SCREENSHOTS / "memory-detail.png"), full_page=True)
    page.goto("/settings/memory")
    page.screenshot(path=str(SCREENSHOTS / "memory-settings.png"), full_page=True)
    page.goto("/")
    page.get_by_role("button", name="简体中文").click()
    expect(page.get_by_role("heading", name="我的记忆")).to_be_visible()
    page.screenshot(path=str(SCREENSHOTS / "my-memories-zh.png"), full_page=True)
    assert (SCREENSHOTS / "my-memories.png").stat().st_size > 0


def test_remember_this_refuses_a_secret_with_the_reason_then_remembers(alice_page):
    page = alice_page
    page.get_by_role("link", name="Remember something").first.click()
    page.get_by_label("What should be remembered?").fill("My password is hunter2x!")
    page.get_by_role("button", name="Remember this").click()
    expect(page.get_by_role("alert")).to_contain_text("Secrets are never remembered")
    page.get_by_label("What should be remembered?").fill("我喜欢安静的酒店房间")
    page.get_by_label("What is it about?").select_option(label="Travel")
    page.get_by_role("button", name="Remember this").click()
    expect(page.get_by_role("heading", name="我喜欢安静的酒店房间")).to_be_visible()
    expect(page.locator(".facts").first).to_contain_text("You said this")
    expect(page.locator(".facts").first).to_contain_text("Travel")
    expect(page.locator(".messages")).to_contain_text("Remembered.")
