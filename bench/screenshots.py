"""Refresh docs/screenshots/: every page at 1280 px and 390 px (phone), signed in as the
demo users that `./dev run` (engram_bootstrap) creates.

    ./dev run                                   # in another terminal: the demo server
    .venv/bin/python bench/screenshots.py       # or --base http://127.0.0.1:8765

Uses Debian's Chromium through Playwright (the same as the browser tests). Writes
<page>-1280.png and <page>-390.png; the English pages, and the list and a memory also in
Chinese (-zh). Only 127.0.0.1 / localhost targets are allowed.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
FLAGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
WIDTHS = (1280, 390)

# (name, user, path or callable finding the path on the page, full page?)
DEMO = ("demo", "engram-demo")
REVIEWER = ("reviewer", "engram-review")


def sign_in(page, base: str, user: tuple[str, str]) -> None:
    page.goto(f"{base}/accounts/login/")
    page.locator("#id_username").fill(user[0])
    page.locator("#id_password").fill(user[1])
    page.locator("form [type=submit]").last.click()
    page.wait_for_url(lambda url: "/accounts/login" not in url)


def first_href(page, base: str, start: str, selector: str) -> str:
    page.goto(f"{base}{start}")
    href = page.locator(selector).first.get_attribute("href")
    if not href:
        raise SystemExit(f"nothing matches {selector} on {start}: is the demo tenant seeded?")
    return href


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--base", default="http://" + os.environ.get("ENGRAM_BIND", "127.0.0.1:8000")
    )
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshots"))
    args = parser.parse_args()
    if urlparse(args.base).hostname not in ("127.0.0.1", "localhost"):
        raise SystemExit("screenshots are taken of a local server only (127.0.0.1)")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("ENGRAM_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    base = args.base.rstrip("/")
    taken = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=FLAGS)
        for width in WIDTHS:
            for lang in ("en", "zh-hans"):
                context = browser.new_context(
                    viewport={"width": width, "height": 844 if width < 600 else 900},
                    locale="zh-CN" if lang != "en" else "en-US",
                )
                page = context.new_page()
                page.set_default_timeout(15_000)
                shots: list[tuple[str, str]] = [("sign-in", "/accounts/login/")]
                page.goto(f"{base}/accounts/login/")
                page.screenshot(path=str(out / f"sign-in{_sfx(lang)}-{width}.png"))
                taken += 1
                sign_in(page, base, DEMO)
                detail = first_href(
                    page, base, "/?q=Hangzhou", "#results article.memory .statement a"
                )
                if lang != "en":
                    shots = [
                        ("my-memories", "/"),
                        ("memory-detail", detail),
                        ("settings", "/settings/memory"),
                        ("console-audit", "/console/audit/"),
                    ]
                else:
                    correct = re.sub(r"$", "/correct", detail)
                    shots = [
                        ("my-memories", "/"),
                        ("memory-detail", detail),
                        ("memory-correct", correct),
                        ("remember", "/memories/new"),
                        ("import", "/memories/import"),
                        ("settings", "/settings/memory"),
                        ("delete-everything", "/settings/memory/delete-everything"),
                        ("console-home", "/console/"),
                        ("console-procedures", "/console/procedures/"),
                        ("console-changes", "/console/changes/"),
                        ("console-quarantine", "/console/quarantine/"),
                        ("console-audit", "/console/audit/"),
                        ("console-agents", "/console/admin/agents"),
                        ("console-members", "/console/admin/members"),
                        ("console-policy", "/console/admin/policy"),
                        ("ops", "/ops/"),
                        ("not-found", "/no-such-page"),
                    ]
                for name, path in shots:
                    page.goto(f"{base}{path}")
                    page.screenshot(
                        path=str(out / f"{name}{_sfx(lang)}-{width}.png"), full_page=True
                    )
                    taken += 1
                if lang == "en":
                    context.clear_cookies()
                    sign_in(page, base, REVIEWER)
                    change = first_href(
                        page, base, "/console/changes/", "table.grid a[href*='/changes/']"
                    )
                    page.goto(f"{base}{change}")
                    page.screenshot(
                        path=str(out / f"console-change-diff-{width}.png"), full_page=True
                    )
                    taken += 1
                context.close()
        browser.close()
    print(f"{taken} screenshots in {out}")
    return 0


def _sfx(lang: str) -> str:
    return "" if lang == "en" else "-zh"


if __name__ == "__main__":
    sys.exit(main())
