"""Settings modules have no side effects: importing one (as ``python -c "import
config.settings.web"`` does) starts no PostgreSQL, no thread and opens no socket, and
returns quickly. The embedded server is started on the first connection instead
(core.db.backends.embedded), by manage.py, or by hand. Each module also picks its
process's database role."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = ["base", "web", "worker", "test"]

PROBE = """
import json, os, sys, threading
import config.settings.{module} as s
def link(fd):
    try:
        return os.readlink(f"/proc/self/fd/{{fd}}")
    except OSError:  # the descriptor listdir itself had open
        return ""
sockets = [fd for fd in os.listdir("/proc/self/fd") if link(fd).startswith("socket:")]
db = s.DATABASES["default"]
print(json.dumps({{"threads": threading.active_count(), "sockets": len(sockets),
                  "engine": db["ENGINE"], "user": db["USER"], "host": db["HOST"],
                  "assume_app_role": s.ENGRAM["DB_ASSUME_APP_ROLE"],
                  "django_configured": "django.conf" in sys.modules
                  and sys.modules["django.conf"].settings.configured}}))
"""


def _postgres_processes_on(data_dir: Path) -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = (Path("/proc") / pid / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"postgres" in cmdline and str(data_dir).encode() in cmdline:
            found.append(cmdline.decode(errors="replace"))
    return found


def _env(data_dir: Path, **extra: str) -> dict[str, str]:
    """This environment without any database or settings choice, on ``data_dir``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DATABASE_", "ENGRAM_DB_", "DJANGO_SETTINGS_MODULE"))
    }
    # The web and worker modules refuse the development key (tests/security/
    # test_production_settings.py): these probes run them with a key of their own.
    key = "probe-" + "k" * 60
    return {**env, "DJANGO_SECRET_KEY": key, "ENGRAM_DATA_DIR": str(data_dir), **extra}


def _import(module: str, data_dir: Path, **extra: str) -> tuple[dict, float]:
    env = _env(data_dir, **extra)
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(module=module)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1]), elapsed


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="reads /proc (Linux)")
@pytest.mark.parametrize("module", MODULES)
def test_importing_settings_starts_nothing(module, tmp_path):
    data_dir = tmp_path / "engram"
    report, elapsed = _import(module, data_dir)
    assert report["engine"] == "core.db.backends.embedded"
    assert report["host"] == ""  # filled in by the first connection, not by the import
    assert not (data_dir / "pgdata").exists()  # no initdb, no server, no socket
    assert _postgres_processes_on(data_dir) == []
    assert report["threads"] == 1
    assert report["sockets"] == 0
    assert report["django_configured"] is False  # importing is not setting Django up
    assert elapsed < 20, f"import took {elapsed:.1f} s"


@pytest.mark.parametrize(
    ("module", "user", "assume_app_role"),
    [
        ("base", "postgres", True),
        ("test", "postgres", True),
        ("web", "engram_app", False),
        ("worker", "engram_app", False),
    ],
)
def test_each_settings_module_picks_its_database_role(module, user, assume_app_role, tmp_path):
    """manage.py and tests connect as the owner (and SET ROLE to the application role per
    transaction); web and worker processes log in as the application role."""
    report, _ = _import(module, tmp_path / "engram")
    assert (report["user"], report["assume_app_role"]) == (user, assume_app_role)


def test_an_explicit_role_overrides_the_module_choice(tmp_path):
    report, _ = _import("worker", tmp_path / "engram", ENGRAM_DB_CONNECT_AS="owner")
    assert report["user"] == "postgres"


CONNECT = """
import django
django.setup()
from django.db import connection
connection.ensure_connection()
with connection.cursor() as cursor:
    cursor.execute("SELECT current_database(), current_user")
    print(*cursor.fetchone(), connection.settings_dict["HOST"])
"""


def test_the_first_connection_starts_the_embedded_server(tmp_path):
    """The lazy half: nothing at import, and the backend starts (or attaches to) the
    server when a connection opens, and says where it listens."""
    from core.db import embedded_postgres as ep

    tmp_path.chmod(0o755)  # under root the server runs as another user
    data_dir = tmp_path / "engram"
    env = _env(data_dir, DJANGO_SETTINGS_MODULE="config.settings.base")
    try:
        done = subprocess.run(
            [sys.executable, "-c", CONNECT],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert done.returncode == 0, done.stderr
        database, user, host = done.stdout.split()
        assert (database, user) == ("engram", "postgres")
        assert ep.running_pid(data_dir / "pgdata") is not None
        assert host == ep.ensure_embedded_postgres(data_dir / "pgdata").socket_dir
    finally:
        ep.stop_embedded_postgres(data_dir / "pgdata")


def test_a_refused_start_is_a_failed_connection_with_the_reason(tmp_path):
    """A data directory of another major version: the connection fails (an
    OperationalError, which the start-up self-test and /healthz report) with the
    refusal's own message, and no server is started."""
    pgdata = tmp_path / "engram" / "pgdata"
    pgdata.mkdir(parents=True)
    (pgdata / "PG_VERSION").write_text("17\n")
    env = _env(pgdata.parent, DJANGO_SETTINGS_MODULE="config.settings.web")
    done = subprocess.run(
        [sys.executable, "-c", CONNECT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "OperationalError" in done.stderr
    assert "cannot start its embedded PostgreSQL" in done.stderr and "pg_upgrade" in done.stderr
    assert not (pgdata / "postmaster.pid").exists()
