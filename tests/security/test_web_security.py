"""Headers, cookies, CSRF, login throttling and per-agent rate limits."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from accounts.throttles import AgentRateThrottle
from tests.helpers.cast import candidate

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def test_security_headers_on_pages_and_api(api):
    for response in (Client().get("/accounts/login/"), api.get("/api/v1/nope")):
        csp = response["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "frame-ancestors 'none'" in csp
        assert response["X-Frame-Options"] == "DENY"
        assert response["X-Content-Type-Options"] == "nosniff"


def test_login_form_requires_csrf(owner):
    client = Client(enforce_csrf_checks=True)
    r = client.post("/accounts/login/", {"username": "alice", "password": "pw-alice"})
    assert r.status_code == 403


def test_login_works_then_failed_attempts_are_throttled(owner, same_tenant_user):
    client = Client()
    assert (
        client.post("/accounts/login/", {"username": "alice", "password": "pw-alice"}).status_code
        == 302
    )
    client = Client()
    for _ in range(4):
        r = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
        assert r.status_code == 200 and b"Please enter a correct username and password" in r.content
    # The fifth failure locks the name from this address, with a message saying what to do;
    # then even the right password is refused for a while.
    r = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert r.status_code == 429 and b"Too many failed sign-in attempts" in r.content
    r = client.post("/accounts/login/", {"username": "alice", "password": "pw-alice"})
    assert r.status_code == 429 and b"Too many failed sign-in attempts" in r.content
    assert "_auth_user_id" not in client.session


def test_agent_rate_limit_gives_429_in_the_error_shape(api, monkeypatch):
    monkeypatch.setattr(AgentRateThrottle, "THROTTLE_RATES", {"agent": "3/min"})
    for _ in range(3):
        assert api.post_json("/api/v1/candidates", {"candidates": [candidate()]}).status_code == 200
    r = api.post_json("/api/v1/candidates", {"candidates": [candidate()]})
    assert r.status_code == 429
    body = r.json()
    assert body["code"] == "rate_limited" and body["extra"]["retry_after_seconds"] > 0


def test_rate_limit_is_per_agent(api, read_agent, owner_subject, monkeypatch):
    monkeypatch.setattr(AgentRateThrottle, "THROTTLE_RATES", {"agent": "2/min"})
    for _ in range(2):
        api.post_json("/api/v1/candidates", {"candidates": [candidate()]})
    assert api.post_json("/api/v1/candidates", {"candidates": [candidate()]}).status_code == 429
    other = read_agent.client(owner_subject)
    assert other.get("/api/v1/memories/00000000-0000-0000-0000-000000000000").status_code == 404
