"""Fixtures shared by the browser tests of the pages (Alice, her memories, her page)."""

from __future__ import annotations

import pytest

from tests.helpers.browser import login
from tests.helpers.memories import agent_memory


@pytest.fixture
def memories(owner, write_agent):
    subject = owner[1]
    return {
        "seat": agent_memory(write_agent.agent, subject, "喜欢靠窗的座位 (window seat)"),
        "jazz": agent_memory(
            write_agent.agent,
            subject,
            "Likes jazz while coding",
            assertion_kind="agent_inference",
            confidence=0.7,
        ),
        "city": agent_memory(
            write_agent.agent, subject, "Lives in Shanghai", predicate="home_city"
        ),
        "trip": agent_memory(
            write_agent.agent,
            subject,
            "2025 年在杭州参加了 PyCon China",
            memory_type="episodic",
            namespace="events",
        ),
    }


@pytest.fixture
def alice_page(page, owner, memories):
    """Alice signed in. Any console error (a CSP violation, a broken script) fails the test."""
    errors: list[str] = []
    page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and not m.text.startswith("Failed to load resource")
            else None
        ),
    )
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(
        "response",
        lambda r: (
            errors.append(f"{r.status} {r.url}")
            if r.status >= 400 and not r.url.endswith("/favicon.ico")
            else None
        ),
    )
    login(page, "alice", "pw-alice")
    yield page
    assert errors == []
