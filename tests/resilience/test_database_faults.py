"""The embedded database heals itself, seen from outside: a real ``./dev run`` (front door,
two gunicorn workers, the embedded PostgreSQL) whose database is broken four ways — the
postmaster killed, an immediate stop, a backend crash, a server that cannot start — and,
with its data on a small tmpfs of its own, a full disk that makes PostgreSQL PANIC.

Each time: every request in the meantime gets a 503 in the API's shape with a
``Retry-After`` (never a 500), ``/healthz`` says what happened (and, when the server
cannot start, why), and service comes back without anyone acting (for the full disk, once
space is freed). The seconds each recovery took are printed (``-s`` shows them; the
closing notes quote them), not asserted: the machine is shared."""

from __future__ import annotations

import os
import signal
import subprocess
import time

import httpx
import psycopg
import pytest

from core.db import embedded_postgres as ep
from tests.helpers.dev_run import DevRun, mount_small_disk, unmount

RECOVERY_LIMIT = 120  # seconds a test waits before calling the recovery failed


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    base = tmp_path_factory.mktemp("faults")
    base.chmod(0o755)
    data_dir = base / "engram"
    small = os.geteuid() == 0 and mount_small_disk(data_dir, 320)
    run = DevRun(data_dir, env={"ENGRAM_INDEX_SWEEP_SECONDS": "5"})
    run.small_disk = small
    try:
        yield run.start()
    finally:
        run.stop()
        if small:
            unmount(data_dir)


def _outage_until_recall(run: DevRun) -> tuple[float, list[int], list[httpx.Response]]:
    """Recall until one succeeds; returns (seconds, statuses seen, the 503 answers)."""
    started = time.monotonic()
    statuses, unavailable = [], []
    while time.monotonic() - started < RECOVERY_LIMIT:
        try:
            r = run.recall(timeout=20)
        except httpx.TransportError:
            statuses.append(0)
            time.sleep(0.2)
            continue
        statuses.append(r.status_code)
        if r.status_code == 200:
            return time.monotonic() - started, statuses, unavailable
        unavailable.append(r)
        time.sleep(0.2)
    pytest.fail(
        f"no recall succeeded within {RECOVERY_LIMIT} s: {statuses[-10:]}\n{run.log_tail()}"
    )


def _assert_honest_503s(answers: list[httpx.Response]) -> None:
    for r in answers:
        assert r.status_code == 503, r.text
        body = r.json()
        assert set(body) == {"code", "message", "extra"}
        assert body["code"] == "database_unavailable"
        assert int(r.headers["Retry-After"]) == body["extra"]["retry_after_seconds"] >= 1
        assert "Retry" in body["message"] and "/healthz" in body["message"]


def _pg_ctl(run: DevRun, *args: str) -> None:
    user = ep.SYSTEM_USER if os.geteuid() == 0 else None
    subprocess.run(
        [str(ep.bin_dir() / "pg_ctl"), "-D", str(run.pgdata), *args],
        check=True,
        capture_output=True,
        user=user,
    )


def test_a_killed_postmaster_is_started_again(served):
    assert served.recall().status_code == 200
    restarts = served.supervisor().get("restarts", 0)
    os.kill(ep.running_pid(served.pgdata), signal.SIGKILL)
    seconds, statuses, unavailable = _outage_until_recall(served)
    print(f"\nkilled postmaster: recall back after {seconds:.2f} s ({statuses})")
    assert 500 not in statuses
    _assert_honest_503s(unavailable)
    status, health = served.healthz()
    assert status == 200
    assert health["database"]["embedded"]["restarts"] > restarts
    assert health["database"]["embedded"]["last_recovery_seconds"] is not None
    assert health["status"] == "degraded"  # this worker saw the start time change


def test_an_immediate_stop_is_recovered(served):
    restarts = served.supervisor().get("restarts", 0)
    _pg_ctl(served, "stop", "-m", "immediate")
    seconds, statuses, unavailable = _outage_until_recall(served)
    print(f"\npg_ctl stop -m immediate: recall back after {seconds:.2f} s ({statuses})")
    assert 500 not in statuses
    _assert_honest_503s(unavailable)
    assert served.supervisor()["restarts"] > restarts


def test_a_crashed_backend_is_reported(served):
    _, before = served.healthz()
    with served.superuser() as admin:
        victim = admin.execute(
            "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' "
            "AND pid <> pg_backend_pid() ORDER BY backend_start LIMIT 1"
        ).fetchone()
        if victim is None:  # no idle worker connection: make one
            extra = served.superuser()
            victim = (extra.info.backend_pid,)
        os.kill(victim[0], signal.SIGKILL)
    started = time.monotonic()
    seen = None
    while time.monotonic() - started < RECOVERY_LIMIT:
        answer = served.healthz()
        if (
            answer
            and answer[0] == 200
            and answer[1]["database"]["crashes_seen"] > (before["database"]["crashes_seen"])
        ):
            seen = answer[1]
            break
        time.sleep(0.3)
    assert seen is not None, f"no worker reported the crash: {served.healthz()}"
    print(f"\nbackend crash: reported after {time.monotonic() - started:.2f} s")
    database = seen["database"]
    # The postmaster did not restart: the same start time, yet the crash is reported.
    assert database["server_started_at"] == before["database"]["server_started_at"]
    assert database["crash_recovered_at"] > database["server_started_at"]
    assert seen["status"] == "degraded"
    assert served.recall().status_code == 200


def test_a_server_that_cannot_start_says_why_and_starts_once_fixed(served):
    conf = served.pgdata / "postgresql.auto.conf"
    original = conf.read_text()
    conf.write_text(original + "\nshared_buffers = 'plenty'\n")
    try:
        os.kill(ep.running_pid(served.pgdata), signal.SIGKILL)
        started = time.monotonic()
        reason = None
        while time.monotonic() - started < RECOVERY_LIMIT:
            answer = served.healthz()
            if answer and answer[0] == 503:
                embedded = answer[1]["database"]["embedded"]
                if embedded["last_error"] and embedded["failed_starts"] >= 1:
                    reason = answer[1]
                    break
            time.sleep(0.3)
        assert reason is not None, served.healthz()
        embedded = reason["database"]["embedded"]
        assert "shared_buffers" in embedded["last_error"]
        assert embedded["running"] is False
        assert embedded["next_attempt_in_seconds"] >= 1
        r = httpx.get(served.url + "/healthz", timeout=5)
        assert r.status_code == 503 and int(r.headers["Retry-After"]) >= 1
        r = served.recall()
        assert r.status_code == 503
        assert r.json()["code"] == "database_unavailable"
        assert "shared_buffers" in served.log_tail(400)  # and in the log
    finally:
        conf.write_text(original)
    seconds, statuses, _ = _outage_until_recall(served)
    print(f"\nunstartable server fixed: recall back after {seconds:.2f} s")
    assert 500 not in statuses


def test_a_full_disk_panic_is_recovered_once_space_is_freed(served):
    if not served.small_disk:
        pytest.skip("needs root to mount a small tmpfs for the data directory")
    # Serving before the disk fills (waiting out any restart an earlier test left behind).
    _outage_until_recall(served)
    restarts_before = served.supervisor().get("restarts", 0)
    # The postmaster's start time (pg_postmaster_start_time(), the same whichever worker
    # answers; per-process restart counts are not).
    started_before = (served.healthz()[1].get("database") or {}).get("server_started_at")
    free = os.statvfs(served.data_dir)
    filler = served.data_dir / "filler"
    # Leave less than one WAL segment (16 MB) free: the next segment cannot be made, and a
    # WAL write that fails is a PANIC.
    keep = 8 * 1024 * 1024
    with open(filler, "wb") as out:
        out.truncate(0)
        out.write(b"\0" * max(0, free.f_bavail * free.f_frsize - keep))
    panicked = False
    try:
        try:
            with served.superuser() as admin:
                admin.execute("CREATE TABLE IF NOT EXISTS disk_filler (x text)")
                # WAL only, no table pages (a table page that cannot be added is a plain
                # ERROR, not a PANIC): 1 MB messages until a new WAL segment is needed and
                # cannot be made. 320 MB is more than the disk holds.
                for _ in range(320):
                    admin.execute(
                        "SELECT pg_logical_emit_message(false, 'engram-test', repeat('x', 1048576))"
                    )
        except psycopg.Error:
            panicked = True
        log = (served.pgdata / "log").read_text(errors="replace")
        assert panicked and ("PANIC" in log or "No space left" in log), log[-2000:]
        print(
            "\n"
            + "\n".join(
                line
                for line in log.splitlines()[-40:]
                if any(k in line for k in ("PANIC", "FATAL", "terminated", "shut down", "aborting"))
            )
        )
        # While the disk is full, either the postmaster gave up and cannot start again —
        # requests get 503s and /healthz says why — or PostgreSQL's crash recovery fitted
        # in what was left and it reinitialised in place, or the supervisor's restart of
        # the postmaster fitted: /healthz must report whichever happened. Which one
        # depends on how much WAL the recovery needs; all are checked.
        said = recovered = None
        deadline = time.monotonic() + 60
        while said is None and recovered is None and time.monotonic() < deadline:
            answer = served.healthz()
            database = (answer[1].get("database") or {}) if answer else {}
            embedded = database.get("embedded")
            if answer and answer[0] == 503 and "No space left" in (embedded["last_error"] or ""):
                said = embedded
            elif (
                answer
                and answer[0] == 200
                and (
                    database.get("crash_recovered_at")
                    or database.get("server_started_at") not in (None, started_before)
                )
            ):
                recovered = database
            time.sleep(0.3)
        assert said is not None or recovered is not None, served.healthz()
        if said is not None:
            assert said["running"] is False and said["next_attempt_in_seconds"] >= 1
            r = served.recall()
            assert r.status_code == 503
            _assert_honest_503s([r])
        else:
            print(f"back while the disk was full (reinitialised or restarted): {recovered}")
            assert answer[1]["status"] == "degraded"
    finally:
        filler.unlink()
    seconds, statuses, unavailable = _outage_until_recall(served)
    print(f"\ndisk-full PANIC: recall back {seconds:.2f} s after space was freed ({statuses[-5:]})")
    assert 500 not in statuses
    _assert_honest_503s(unavailable)
    with served.superuser() as admin:
        admin.execute("DROP TABLE IF EXISTS disk_filler")
    status, health = served.healthz()
    assert status == 200
    assert health["status"] == "degraded"
    # Whichever way the server went down — its postmaster gave up (recovery could not write
    # either) and was started again, or it reinitialised in place — it is reported.
    database = health["database"]
    restarted = served.supervisor().get("restarts", 0) > restarts_before
    print(
        f"postmaster started again: {restarted}; crash reinitialisations seen: "
        f"{database['crashes_seen']}; supervisor: {served.supervisor()}"
    )
    assert restarted or database["crash_recovered_at"]
