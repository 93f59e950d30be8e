"""Engram on a PostgreSQL server it did not start, reached over TCP with passwords, as the
docs/database.md's recipe configures it: migrations ran as the owner role, the service and
these tests' requests run as the application role. ``./dev test`` runs this module and the
core of the suite (migrations, row-level security, write API, recall, deletion, the
self-test) against such a server: ``pytest -k external_postgres`` selects them all (see
tests/conftest.py). Without that server (ENGRAM_EXTERNAL_PGDATA unset) this module is
skipped: start one with ``python -m tests.external_postgres.server start DIR``."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from tests.external_postgres import server

if not os.environ.get("ENGRAM_EXTERNAL_PGDATA"):
    pytest.skip(
        "needs the external PostgreSQL of ./dev test's external stage "
        "(python -m tests.external_postgres.server start DIR)",
        allow_module_level=True,
    )

ROOT = Path(__file__).resolve().parents[2]
APP_URL = os.environ["DATABASE_URL"]
SUPERUSER_URL = os.environ["ENGRAM_EXTERNAL_SUPERUSER_URL"]
pytestmark = pytest.mark.django_db(transaction=True)


def test_external_postgres_is_reached_over_tcp_with_a_password():
    db = connection.settings_dict
    assert db["HOST"] == "127.0.0.1" and int(db["PORT"]) > 0
    assert db["USER"] == server.OWNER and db["PASSWORD"]
    # The application role cannot connect without its password.
    without_password = APP_URL.replace(APP_URL.split("@")[0].split("//")[1], server.APP)
    with pytest.raises(psycopg.OperationalError) as refused:
        psycopg.connect(without_password, connect_timeout=5).close()
    assert "password" in str(refused.value).lower()
    psycopg.connect(APP_URL, connect_timeout=5).close()


def test_external_postgres_roles_are_what_the_readme_says():
    with psycopg.connect(SUPERUSER_URL, autocommit=True) as conn:
        roles = dict(
            (name, (superuser, bypass))
            for name, superuser, bypass in conn.execute(
                "SELECT rolname, rolsuper, rolbypassrls FROM pg_roles WHERE rolname = ANY(%s)",
                [[server.OWNER, server.APP]],
            )
        )
    assert roles == {server.OWNER: (False, True), server.APP: (False, False)}
    with psycopg.connect(APP_URL) as app:
        owned = app.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND tableowner = %s",
            [server.APP],
        ).fetchone()[0]
        assert owned == 0
        # Without a tenant in the transaction every tenant table looks empty, and the
        # application role may not switch row-level security off.
        assert app.execute("SELECT count(*) FROM accounts_tenant").fetchone()[0] == 0
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            app.execute("ALTER TABLE memory_memoryrecord NO FORCE ROW LEVEL SECURITY")


def test_external_postgres_service_self_test_as_the_application_role():
    done = subprocess.run(
        [sys.executable, "manage.py", "engram_selftest"],
        cwd=ROOT,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.base",
            "ENGRAM_DB_CONNECT_AS": "app",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert f"connected as {settings.ENGRAM['DB_APP_ROLE']}" in done.stdout


def test_external_postgres_restart_shows_on_healthz():
    """A server restart (what a crashed backend causes) is reported, and serving resumes:
    the request that finds its connection gone gets a 503, the next ones are served."""
    client = Client(raise_request_exception=False)
    first = client.get("/healthz").json()
    assert first["database"]["ok"] is True
    seen_before = first["database"]["restarts_seen"]
    server.restart(Path(os.environ["ENGRAM_EXTERNAL_PGDATA"]))
    deadline = time.monotonic() + 60
    body, statuses = {}, []
    while time.monotonic() < deadline:
        response = client.get("/healthz")
        body = response.json()
        statuses.append(response.status_code)
        if response.status_code == 200 and body["database"]["restarts_seen"] > seen_before:
            break
        time.sleep(0.5)
    assert set(statuses) <= {200, 503}, statuses
    assert body["status"] == "degraded", body
    assert body["database"]["restarted_since_start"] is True
    assert body["database"]["server_started_at"] != first["database"]["server_started_at"]
    connection.close()
