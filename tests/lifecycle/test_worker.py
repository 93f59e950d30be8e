"""The asynchronous paths on a real Celery worker (a subprocess, solo pool) against the real
Redis on 127.0.0.1:6379 and the test database: jobs are enqueued on commit, executed once
even when delivered twice, applied in order for a subject, survive a worker killed
mid-job (late acknowledgement), and deletion verification finds nothing afterwards.

The worker connects as the application role (row-level security applies) to the test
database, named through ENGRAM_DB_NAME; each run uses its own queue name."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest
from django.db import connection, transaction

from config.celery import app
from governance.models import AuditEvent
from governance.services import Actor
from memory.models import (
    DeletionRequest,
    DeletionStatus,
    MemoryRecord,
    SourceEvent,
    TaskRun,
)
from memory.services.deletion import deletion_request_create
from memory.tasks import extract_events
from tests.helpers.lifecycle import active, append

pytestmark = pytest.mark.django_db(transaction=True)

REDIS = ("127.0.0.1", 6379)
REDIS_DB = int(os.environ.get("ENGRAM_TEST_REDIS_DB", "11"))
QUEUE = f"engram-test-{uuid.uuid4().hex[:8]}"
BROKER = f"redis://{REDIS[0]}:{REDIS[1]}/{REDIS_DB}"
ROOT = Path(__file__).resolve().parents[2]


def wait_for(check: Callable[[], object], what: str, timeout: float = 60.0) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


class Worker:
    def __init__(self, log: Path) -> None:
        self.log = log
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "ENGRAM_DB_NAME": connection.settings_dict["NAME"],
            "CELERY_BROKER_URL": BROKER,
            "ENGRAM_CELERY_QUEUE": QUEUE,
            # Redeliver unacknowledged jobs quickly (a killed worker's job).
            "ENGRAM_CELERY_VISIBILITY_TIMEOUT": "2",
            "ENGRAM_CELERY_RESTORE_INTERVAL": "1",
            "ENGRAM_CELERY_RESTORE_THROTTLE": "1",
            "OMP_NUM_THREADS": "1",
            "DB_CONN_MAX_AGE": "0",
            # The application role, as config.settings.worker chooses for a worker.
            "ENGRAM_DB_CONNECT_AS": "app",
        }
        celery = Path(sys.executable).parent / "celery"
        self.proc = subprocess.Popen(
            [
                str(celery),
                "-A",
                "config",
                "worker",
                "--pool",
                "solo",
                "--queues",
                QUEUE,
                "--hostname",
                f"{QUEUE}-{uuid.uuid4().hex[:4]}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel",
                "INFO",
            ],
            cwd=ROOT,
            env=env,
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
        )
        wait_for(self.ready, "the worker to start", timeout=60)

    def ready(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError("worker exited:\n" + self.log.read_text()[-3000:])
        return " ready." in self.log.read_text()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def _reset_producer_pool() -> None:
    app._pool = None
    app.__dict__.get("amqp") and setattr(app.amqp, "_producer_pool", None)


@pytest.fixture
def broker() -> Iterator[None]:
    """Point this process's Celery app at Redis (jobs are published, not run eagerly)."""
    try:
        socket.create_connection(REDIS, timeout=1).close()
    except OSError:
        pytest.fail(
            "Worker tests need Redis on 127.0.0.1:6379 (./dev test starts it; or "
            "'apt-get install redis-server')."
        )
    saved = {k: app.conf[k] for k in ("task_always_eager", "broker_url", "task_default_queue")}
    app.conf.update(task_always_eager=False, broker_url=BROKER, task_default_queue=QUEUE)
    _reset_producer_pool()
    yield
    app.conf.update(saved)
    _reset_producer_pool()
    import redis

    # Leave nothing of this run's queue behind in Redis.
    client = redis.Redis(host=REDIS[0], port=REDIS[1], db=REDIS_DB)
    client.delete(QUEUE, f"_kombu.binding.{QUEUE}")
    client.close()


@pytest.fixture
def start_worker(broker, tmp_path) -> Iterator[Callable[[], Worker]]:
    workers: list[Worker] = []

    def start() -> Worker:
        worker = Worker(tmp_path / "worker.log")
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()


def done(key: str) -> Callable[[], bool]:
    return lambda: TaskRun.objects.filter(key=key, outcome="succeeded").exists()


def committed_event(agent, subject, text: str, **kw) -> SourceEvent:
    """Append in a transaction of its own: extraction is enqueued when it commits."""
    with transaction.atomic():
        return append(agent, subject, text, **kw)


def test_a_job_delivered_twice_changes_nothing_the_second_time(
    start_worker, write_agent, owner_subject
):
    start_worker()
    event = committed_event(write_agent, owner_subject, "Remember that I prefer aisle seats")
    wait_for(done(f"extract:{event.id}"), "extraction")
    # The same message again (a broker redelivery), then a sentinel queued behind it.
    extract_events.delay(str(event.tenant_id), [str(event.id)])
    sentinel = committed_event(write_agent, owner_subject, "ok")
    wait_for(done(f"extract:{sentinel.id}"), "the sentinel")

    [record] = active(owner_subject)
    assert record.statement == "I prefer aisle seats" and record.evidence_count == 1
    run = TaskRun.objects.get(key=f"extract:{event.id}")
    assert (run.outcome, run.attempts) == ("succeeded", 1)
    assert AuditEvent.objects.filter(request_id=f"extract:{event.id}").count() == 1


def test_two_corrections_delivered_out_of_order_leave_the_newest(
    start_worker, settings, write_agent, owner_subject, ago
):
    # Queue the jobs by hand, in the wrong order, instead of on commit.
    settings.ENGRAM_LIFECYCLE = {**settings.ENGRAM_LIFECYCLE, "AUTO_EXTRACT": False}
    base = committed_event(
        write_agent, owner_subject, "I live in Beijing", occurred_at=ago(hours=3)
    )
    older = committed_event(
        write_agent, owner_subject, "Actually, I live in Hangzhou", occurred_at=ago(hours=2)
    )
    newer = committed_event(
        write_agent, owner_subject, "Actually, I live in Shanghai", occurred_at=ago(hours=1)
    )
    start_worker()
    tenant = str(owner_subject.tenant_id)
    extract_events.delay(tenant, [str(base.id)])
    extract_events.delay(tenant, [str(newer.id)])  # the newer correction arrives first
    extract_events.delay(tenant, [str(older.id)])
    wait_for(done(f"extract:{older.id}"), "the late correction")

    [current] = active(owner_subject, predicate="home_city")
    assert current.value == "Shanghai"
    assert MemoryRecord.objects.filter(value="Hangzhou").count() == 0
    audit = AuditEvent.objects.get(request_id=f"extract:{older.id}")
    assert (audit.operation, audit.reason_code) == ("REJECT", "stale_change")


def test_a_worker_killed_mid_job_is_replaced_and_the_job_finishes_once(
    start_worker, write_agent, owner_subject
):
    worker = start_worker()
    dsn = {
        k: v
        for k, v in {
            "dbname": connection.settings_dict["NAME"],
            "user": connection.settings_dict["USER"],
            "host": connection.settings_dict["HOST"],
            "port": connection.settings_dict["PORT"] or None,
        }.items()
        if v
    }
    # Hold the subject's write lock: the job will block inside the write path, mid-job,
    # with its transaction open and its message unacknowledged. (NO KEY UPDATE still lets
    # this test insert the event that references the subject.)
    with psycopg.connect(**dsn) as blocker:
        blocker.execute(
            "SELECT 1 FROM memory_subject WHERE id = %s FOR NO KEY UPDATE", [owner_subject.id]
        )
        event = committed_event(write_agent, owner_subject, "Remember that I prefer aisle seats")

        def job_is_waiting() -> bool:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE usename = %s "
                    "AND wait_event_type = 'Lock'",
                    ["engram_app"],
                )
                return cursor.fetchone()[0] > 0

        wait_for(job_is_waiting, "the job to block on the subject lock")
        worker.kill()
        blocker.rollback()
    assert not TaskRun.objects.filter(key=f"extract:{event.id}").exists()

    start_worker()
    wait_for(done(f"extract:{event.id}"), "the redelivered job", timeout=90)
    [record] = active(owner_subject)
    assert record.evidence_count == 1
    assert TaskRun.objects.get(key=f"extract:{event.id}").attempts == 1
    assert AuditEvent.objects.filter(request_id=f"extract:{event.id}").count() == 1


def test_subject_erasure_on_a_worker_verifies_clean_and_spares_others(
    start_worker, write_agent, owner_subject, same_tenant_user
):
    """Seed case 6 (for the stores that exist in this tree): after erasure nothing of the
    subject is reachable; the other user's memories are untouched."""
    start_worker()
    bob = same_tenant_user[1]
    events = [
        committed_event(write_agent, owner_subject, "Remember that I prefer aisle seats"),
        committed_event(write_agent, owner_subject, "我现在住在杭州"),
        committed_event(write_agent, bob, "Remember that I prefer aisle seats"),
    ]
    for e in events:
        wait_for(done(f"extract:{e.id}"), "extraction")
    with transaction.atomic():
        request = deletion_request_create(
            actor=Actor.system(owner_subject.tenant_id, "test"),
            subject=owner_subject,
            scope="subject",
            target_id=owner_subject.id,
        )
    wait_for(
        lambda: (
            DeletionRequest.objects.filter(pk=request.pk)
            .exclude(status__in=[DeletionStatus.PENDING, DeletionStatus.RUNNING])
            .exists()
        ),
        "the deletion job",
    )
    request.refresh_from_db()
    assert request.status == DeletionStatus.DONE, request.verification
    assert set(request.verification.values()) == {0}
    assert request.receipt["source_events"] == 2 and request.receipt["record_versions"] == 2
    assert not active(owner_subject)
    assert not SourceEvent.objects.filter(subject=owner_subject).exists()
    assert [r.statement for r in active(bob)] == ["I prefer aisle seats"]
    assert SourceEvent.objects.filter(subject=bob).count() == 1


def test_queue_depth_and_worker_check_see_the_real_broker(start_worker, settings, tenant):
    from io import StringIO

    from django.core.management import CommandError, call_command

    from memory.ops_views import queue_depth

    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_TASK_DEFAULT_QUEUE = QUEUE
    missing = [str(uuid.uuid4()), str(uuid.uuid4())]
    for event_id in missing:
        extract_events.delay(str(tenant.id), [event_id])
    assert queue_depth() == 2
    with pytest.raises(CommandError, match="No worker answered"):
        call_command("engram_worker_check", timeout=0.5, stdout=StringIO())

    start_worker()
    for event_id in missing:
        wait_for(done(f"extract:{event_id}"), "the queued jobs")
    assert queue_depth() == 0
    out = StringIO()
    call_command("engram_worker_check", timeout=2, stdout=out)
    assert "0 waiting" in out.getvalue() and ": ok" in out.getvalue()
