"""The database self-test that every serving process runs at start, /healthz's database
state, and the 503 a request gets when its database connection dies mid-way — all against
the real embedded PostgreSQL: real extensions, a real backend killed with
pg_terminate_backend, a real database without Engram's migrations."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from django.core.signals import request_started
from django.db import OperationalError, connection
from django.test import Client

from core.database import SelfTestFailed, is_unavailable, self_test

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)


def _superuser_conn(dbname: str | None = None) -> psycopg.Connection:
    s = connection.settings_dict
    return psycopg.connect(
        host=s["HOST"],
        port=s["PORT"] or None,
        user=s["USER"],
        password=s["PASSWORD"] or None,
        dbname=dbname or s["NAME"],
        autocommit=True,
    )


def _manage(*args: str, db_name: str, connect_as: str = "owner") -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "ENGRAM_DB_NAME": db_name,
        "ENGRAM_DB_CONNECT_AS": connect_as,
    }
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_self_test_passes_on_a_migrated_database():
    report = self_test()
    assert report.checks == ["connect", "extensions", "vector", "trigram", "row_level_security"]
    assert set(report.extensions) == {"vector", "pg_trgm", "btree_gist"}
    major, minor = (int(x) for x in report.extensions["vector"].split(".")[:2])
    assert (major, minor) >= (0, 8)
    assert report.postmaster_started_at is not None


@pytest.mark.parametrize("connect_as", ["owner", "app"])
def test_selftest_command_as_each_role(connect_as):
    done = _manage(
        "engram_selftest", db_name=connection.settings_dict["NAME"], connect_as=connect_as
    )
    assert done.returncode == 0, done.stderr
    assert "Database self-test passed" in done.stdout
    expected_role = "engram_app" if connect_as == "app" else connection.settings_dict["USER"]
    assert f"connected as {expected_role}" in done.stdout


def test_self_test_names_missing_extensions_and_what_to_do():
    """An empty database (never migrated) fails at 'extensions' with the migrate command."""
    name = f"engram_selftest_{uuid.uuid4().hex[:8]}"
    with _superuser_conn("postgres") as admin:
        # From template0: an external server's template1 may carry the extensions.
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
    try:
        done = _manage("engram_selftest", db_name=name)
        assert done.returncode == 1
        assert "failed at 'extensions'" in done.stderr
        assert "vector" in done.stderr and "manage migrate" in done.stderr
        assert "Traceback" not in done.stderr
    finally:
        with _superuser_conn("postgres") as admin:
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


def test_self_test_fails_when_a_tenant_table_lost_row_level_security():
    with _superuser_conn() as admin:
        admin.execute("ALTER TABLE memory_memoryrecord NO FORCE ROW LEVEL SECURITY")
        try:
            with pytest.raises(SelfTestFailed) as failed:
                self_test()
        finally:
            admin.execute("ALTER TABLE memory_memoryrecord FORCE ROW LEVEL SECURITY")
    assert failed.value.check == "row_level_security"
    assert "memory_memoryrecord" in str(failed.value)
    assert "migrate" in str(failed.value)
    self_test()  # and passes again once restored


def test_self_test_fails_when_the_server_is_unreachable(settings):
    """A wrong host is named in the message, with what to do."""
    done = subprocess.run(
        [sys.executable, "manage.py", "engram_selftest"],
        cwd=ROOT,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": "postgres://nobody:nothing@127.0.0.1:9/engram",
            "DATABASE_OWNER_URL": "postgres://nobody:nothing@127.0.0.1:9/engram",
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert "failed at 'connect'" in done.stderr
    assert "127.0.0.1:9" in done.stderr and "DATABASE_URL" in done.stderr


def _kill_backend_when_the_request_starts(**_):
    """Let Django's own start-of-request handling run, then kill this thread's backend, as
    a crash of the database server would: the view's first query finds it gone."""
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    with _superuser_conn() as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    connection.health_check_done = True  # no reconnect before the view runs


@pytest.fixture
def backend_dies_mid_request():
    request_started.connect(_kill_backend_when_the_request_starts)
    yield
    request_started.disconnect(_kill_backend_when_the_request_starts)
    connection.close()


def test_api_request_whose_backend_dies_gets_503_with_retry_hint(
    backend_dies_mid_request, write_agent, owner_subject
):
    token_client = write_agent.client(owner_subject)
    token_client.raise_request_exception = False
    response = token_client.post_json("/api/v1/recall", {"query": "where do I live?"})
    assert response.status_code == 503
    body = response.json()
    assert body["code"] == "database_unavailable"
    assert body["extra"]["retry_after_seconds"] > 0
    assert set(body) == {"code", "message", "extra"}
    assert response["Retry-After"] == str(body["extra"]["retry_after_seconds"])


def test_page_request_whose_backend_dies_gets_503_page(backend_dies_mid_request, owner):
    user, _ = owner
    client = Client(raise_request_exception=False)
    client.force_login(user)
    response = client.get("/")
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert b"Reload" in response.content
    assert response["Retry-After"]


def test_next_request_after_the_crash_is_served(backend_dies_mid_request, owner):
    user, _ = owner
    client = Client(raise_request_exception=False)
    client.force_login(user)
    assert client.get("/").status_code == 503
    request_started.disconnect(_kill_backend_when_the_request_starts)
    assert client.get("/").status_code == 200


def test_errors_that_mean_the_database_went_away():
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    with _superuser_conn() as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [pid])
    with pytest.raises(OperationalError) as lost:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    assert is_unavailable(lost.value)
    connection.close()
    # A query that is merely wrong is not "unavailable".
    from django.db import DatabaseError

    with pytest.raises(DatabaseError) as wrong:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1/0")
    assert not is_unavailable(wrong.value)


def test_healthz_reports_the_database(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] in {"ok", "degraded"}
    assert body["database"]["ok"] is True
    assert body["database"]["server_started_at"]
    assert body["database"]["restarted_since_start"] in (True, False)


def test_ops_page_shows_the_database_state(tenant_admin):
    user, _ = tenant_admin
    client = Client()
    client.force_login(user)
    response = client.get("/ops/")
    assert response.status_code == 200
    stat = response.content.decode().split('id="stat-database"')[1].split("</div>")[0]
    assert "answering" in stat and "not answering" not in stat
    assert "no restart seen" in stat or "restarted" in stat
