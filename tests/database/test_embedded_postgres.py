"""The embedded PostgreSQL's life cycle on throw-away data directories (never the shared
one): a first start by two processes at once, stop and status, a data directory left by
another user (the former package ran the server as its own system user), and a data
directory of another major version, which must be refused with the upgrade command rather
than started into a crash loop."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from core.db import embedded_postgres as ep

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def data_dir(tmp_path):
    tmp_path.chmod(0o755)  # under root the server runs as another user, who must traverse it
    pgdata = tmp_path / "pgdata"
    yield pgdata
    ep.stop_embedded_postgres(pgdata)


def _start_in_subprocess(pgdata: Path) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "core.db.embedded_postgres", "start", str(pgdata.parent)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_two_processes_starting_a_new_directory_at_once_both_get_one_server(data_dir):
    first, second = _start_in_subprocess(data_dir), _start_in_subprocess(data_dir)
    for proc in (first, second):
        out, err = proc.communicate(timeout=180)
        assert proc.returncode == 0, err
        assert "running on" in out
    pid = ep.running_pid(data_dir)
    assert pid is not None
    server = ep.ensure_embedded_postgres(data_dir)  # attaches, starts nothing new
    assert ep.running_pid(data_dir) == pid
    with psycopg.connect(host=server.socket_dir, user=server.user, dbname=server.database) as c:
        version = c.execute("SHOW server_version").fetchone()[0]
        c.execute("CREATE EXTENSION vector")
        distance = c.execute("SELECT '[1,2]'::vector <-> '[4,6]'::vector").fetchone()[0]
    assert int(version.split(".")[0]) == ep.bundled_major()
    assert distance == 5.0
    assert ep.stop_embedded_postgres(data_dir) is True
    assert ep.running_pid(data_dir) is None
    assert ep.stop_embedded_postgres(data_dir) is False


def test_status_command_says_stopped_or_running(data_dir):
    status = [sys.executable, "-m", "core.db.embedded_postgres", "status", str(data_dir.parent)]
    stopped = subprocess.run(status, cwd=ROOT, capture_output=True, text=True)
    assert stopped.returncode == 3 and "stopped" in stopped.stdout
    ep.ensure_embedded_postgres(data_dir)
    running = subprocess.run(status, cwd=ROOT, capture_output=True, text=True)
    assert running.returncode == 0 and "running (pid" in running.stdout


def test_another_major_version_is_refused_with_the_upgrade_command(data_dir):
    data_dir.mkdir()
    (data_dir / "PG_VERSION").write_text("17\n")
    with pytest.raises(ep.EmbeddedPostgresError) as refused:
        ep.ensure_embedded_postgres(data_dir)
    message = str(refused.value)
    assert "PostgreSQL 17" in message and f"PostgreSQL {ep.bundled_major()}" in message
    assert "pg_upgrade" in message and "embedded-postgres==17.*" in message
    assert ep.running_pid(data_dir) is None
    # Through settings, the process stops with that message instead of a traceback loop.
    done = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=ROOT,
        env={
            **{k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
            "ENGRAM_DATA_DIR": str(data_dir.parent),
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "cannot start its embedded PostgreSQL" in done.stderr and "pg_upgrade" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(
    os.name != "posix" or os.geteuid() != 0,
    reason="only under root does the server run as a separate system user whose data "
    "directory another package's user may own",
)
def test_data_directory_made_by_another_system_user_is_handed_over(data_dir):
    """The former package, run as root, initialised .engram/ as its own user; the server
    now runs as 'embedded_postgres' and must be able to open it."""
    from embedded_postgres.utils import ensure_user_exists

    legacy = ensure_user_exists("engram_legacy_pg")
    data_dir.mkdir(mode=0o700)
    os.chown(data_dir, legacy.pw_uid, legacy.pw_gid)
    subprocess.run(
        [str(ep.bin_dir() / "initdb"), "-D", str(data_dir), "-U", "postgres", "--auth=trust"],
        user=legacy.pw_uid,
        check=True,
        capture_output=True,
    )
    server = ep.ensure_embedded_postgres(data_dir)
    with psycopg.connect(host=server.socket_dir, user=server.user, dbname=server.database) as c:
        assert c.execute("SELECT 1").fetchone() == (1,)
    owner = (data_dir / "global" / "pg_control").stat().st_uid
    assert owner != legacy.pw_uid


@pytest.mark.parametrize(
    "stamps", [("16.001", "16.001"), ("16.001", "16.934"), ("16.998", "17.004")]
)
def test_why_a_start_failed_names_the_setting_whatever_the_timestamps(tmp_path, stamps):
    # The server's log prefix ('%m [%p]') carries milliseconds: the line that names the bad
    # setting and the FATAL line after it come from one pid but may differ in time (the CI
    # machine's did), and other processes' lines may come between.
    (tmp_path / "log").write_text(
        f"2026-12-07 20:19:{stamps[0]} UTC [4242] LOG:  invalid value for parameter "
        f'"shared_buffers": "plenty"\n'
        f"2026-12-07 20:19:{stamps[0]} UTC [4243] LOG:  something else\n"
        f'2026-12-07 20:19:{stamps[1]} UTC [4242] FATAL:  configuration file "/d/'
        f'postgresql.auto.conf" contains errors\n'
    )
    reason = ep._why_not_started(tmp_path, RuntimeError("pg_ctl failed"))
    assert "shared_buffers" in reason and "contains errors" in reason
    assert "something else" not in reason
