"""What two Engram processes must agree on, tested with two real gunicorn servers on the
test database:

- sign-in throttling: failures count per (user name, client address) across processes —
  in PostgreSQL by default, in Redis when REDIS_URL is set; a locked name does not lock
  other users behind the same address, nor the same user from another address; the
  admin's sign-in is covered; the address comes from X-Forwarded-For only when the proxy
  is trusted; password reset is not offered;
- subject tokens: a token's lifetime is the one it was issued with, whichever process
  verifies it.
"""

from __future__ import annotations

import re
import time
import uuid

import httpx
import pytest
import redis
from django.contrib.auth.models import User
from django.db import connection

from tests.helpers.live_server import EngramServer, make_agent

pytestmark = pytest.mark.django_db(transaction=True)

TRUSTING = {
    "ENGRAM_CLIENT_ADDRESS_HEADER": "X-Forwarded-For",
    "ENGRAM_TRUSTED_PROXIES": "127.0.0.1/32",
    "ENGRAM_SKIP_WARM_UP": "1",
}
REDIS_URL = "redis://127.0.0.1:6379/12"


def _pair(tmp_path_factory, env: dict[str, str]):
    db_name = connection.settings_dict["NAME"]
    servers = [
        EngramServer(tmp_path_factory.mktemp("engram") / "gunicorn.log", db_name, env=env)
        for _ in range(2)
    ]
    for server in servers:
        server.start()
    return servers


@pytest.fixture(scope="module")
def pair(django_db_setup, django_db_blocker, tmp_path_factory):
    with django_db_blocker.unblock():
        servers = _pair(tmp_path_factory, TRUSTING)
    yield servers
    for server in servers:
        server.stop()


@pytest.fixture(scope="module")
def redis_pair(django_db_setup, django_db_blocker, tmp_path_factory):
    with django_db_blocker.unblock():
        servers = _pair(tmp_path_factory, {**TRUSTING, "REDIS_URL": REDIS_URL})
    yield servers
    for server in servers:
        server.stop()


@pytest.fixture(scope="module")
def untrusting(django_db_setup, django_db_blocker, tmp_path_factory):
    with django_db_blocker.unblock():
        db_name = connection.settings_dict["NAME"]
        server = EngramServer(
            tmp_path_factory.mktemp("engram") / "gunicorn.log",
            db_name,
            env={"ENGRAM_SKIP_WARM_UP": "1"},
        )
        server.start()
    yield server
    server.stop()


def _person(password: str = "right-horse-battery", *, staff: bool = False) -> str:
    name = f"user-{uuid.uuid4().hex[:8]}"
    User.objects.create_user(name, password=password, is_staff=staff, is_superuser=staff)
    return name


def _sign_in(
    server: EngramServer, username: str, password: str, address: str | None, path: str
) -> httpx.Response:
    headers = {"X-Forwarded-For": address} if address else {}
    with httpx.Client(base_url=server.url, headers=headers, timeout=30) as client:
        page = client.get(path)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
        return client.post(
            path,
            data={"username": username, "password": password, "csrfmiddlewaretoken": token},
            headers={"Referer": server.url + path},
        )


def _signed_in(r: httpx.Response) -> bool:
    return r.status_code == 302


LOGIN = "/accounts/login/"


@pytest.mark.parametrize("servers", ["pair", "redis_pair"])
def test_failures_count_across_processes_per_user_and_address(servers, request):
    if servers == "redis_pair":
        redis.Redis.from_url(REDIS_URL).flushdb()
    a, b = request.getfixturevalue(servers)
    alice, bob = _person(), _person()
    for server in (a, b, a, b):
        r = _sign_in(server, alice, "wrong", "10.0.0.1", LOGIN)
        assert r.status_code == 200 and "correct username and password" in r.text
    # The fifth failure, on either process, locks alice from 10.0.0.1 on both.
    r = _sign_in(a, alice, "wrong", "10.0.0.1", LOGIN)
    assert r.status_code == 429 and "Too many failed sign-in attempts" in r.text
    r = _sign_in(b, alice, "right-horse-battery", "10.0.0.1", LOGIN)
    assert r.status_code == 429 and not _signed_in(r)
    # Everyone else behind the same address still signs in; alice does from elsewhere.
    assert _signed_in(_sign_in(b, bob, "right-horse-battery", "10.0.0.1", LOGIN))
    assert _signed_in(_sign_in(a, alice, "right-horse-battery", "10.0.0.2", LOGIN))


def test_the_admin_sign_in_is_throttled_too(pair):
    a, b = pair
    carol = _person(staff=True)
    for server in (a, b, a, b, a):
        assert not _signed_in(_sign_in(server, carol, "wrong", "10.0.0.9", "/admin/login/"))
    r = _sign_in(b, carol, "right-horse-battery", "10.0.0.9", "/admin/login/")
    assert r.status_code == 429 and not _signed_in(r)
    # The same account signs in on the ordinary page from another address.
    assert _signed_in(_sign_in(a, carol, "right-horse-battery", "10.0.0.10", LOGIN))


def test_a_client_cannot_escape_the_lock_with_its_own_forwarded_header(untrusting):
    """Without a trusted proxy configured, X-Forwarded-For is the client's own claim."""
    dave = _person()
    for i in range(5):
        _sign_in(untrusting, dave, "wrong", f"10.1.0.{i}", LOGIN)
    r = _sign_in(untrusting, dave, "right-horse-battery", "10.1.0.99", LOGIN)
    assert r.status_code == 429


def test_password_reset_is_not_offered(pair):
    a, _ = pair
    for path in ("/accounts/password_reset/", "/accounts/reset/x/y/"):
        assert httpx.get(a.url + path, timeout=10).status_code == 404


def test_a_subject_token_keeps_the_lifetime_it_was_issued_with(tmp_path_factory):
    """One process issues 2-second tokens, the other 900-second ones; each process
    honours the lifetime written in the token, not its own setting."""
    db_name = connection.settings_dict["NAME"]
    short = EngramServer(
        tmp_path_factory.mktemp("engram") / "gunicorn.log",
        db_name,
        env={"ENGRAM_SUBJECT_TOKEN_MAX_AGE": "2", "ENGRAM_SKIP_WARM_UP": "1"},
    )
    long = EngramServer(
        tmp_path_factory.mktemp("engram") / "gunicorn.log",
        db_name,
        env={"ENGRAM_SUBJECT_TOKEN_MAX_AGE": "900", "ENGRAM_SKIP_WARM_UP": "1"},
    )
    short.start()
    long.start()
    try:
        keys = make_agent(f"tok-{uuid.uuid4().hex[:6]}")

        def token_from(server: EngramServer) -> str:
            r = httpx.post(
                server.url + "/api/v1/subject-tokens",
                json={"external_id": "end-user-1"},
                headers={"Authorization": f"Bearer {keys.admin_key}"},
                timeout=30,
            )
            assert r.status_code in (200, 201), r.text
            return r.json()["token"]

        def recall_on(server: EngramServer, token: str) -> httpx.Response:
            return httpx.post(
                server.url + "/api/v1/recall",
                json={"query": "anything", "purpose": "personalization"},
                headers={
                    "Authorization": f"Bearer {keys.read_key}",
                    "X-Engram-Subject-Token": token,
                },
                timeout=30,
            )

        brief, lasting = token_from(short), token_from(long)
        assert recall_on(long, brief).status_code == 200
        time.sleep(3)
        expired = recall_on(long, brief)
        assert expired.status_code == 401
        assert expired.json()["code"] == "expired_subject_token"
        assert recall_on(short, lasting).status_code == 200
    finally:
        short.stop()
        long.stop()
