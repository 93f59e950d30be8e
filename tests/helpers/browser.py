"""Real-browser fixtures: Playwright driving Debian's Chromium (never a downloaded build).

Registered for the whole suite with ``pytest_plugins`` in tests/conftest.py; ``login`` is a
plain helper (``from tests.helpers.browser import login``).
"""

from __future__ import annotations

import os
import shutil

import pytest

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# Playwright's sync API runs an event loop in the test thread; Django's ORM refuses to run
# in a thread with a running loop unless told this is deliberate (tests only).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def chromium_path() -> str:
    path = os.environ.get("ENGRAM_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(path):
        raise RuntimeError(
            "Browser tests need Debian's Chromium: run 'apt-get install -y chromium' "
            "(./dev test does this when run as root) or set ENGRAM_CHROMIUM."
        )
    return path


@pytest.fixture(scope="module")
def browser():
    # Per module, not per session: Playwright's sync API keeps an event loop running in the
    # main thread while it is open, and tests elsewhere (the async client, MCP) call
    # asyncio.run(), which refuses to run inside one.
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        instance = p.chromium.launch(
            executable_path=chromium_path(), headless=True, args=CHROMIUM_FLAGS
        )
        yield instance
        instance.close()


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(base_url=live_server.url, locale="en-US")
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


def login(page, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/accounts/login" not in url)
