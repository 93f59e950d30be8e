"""The asynchronous paths on a real Celery worker (a subprocess, solo pool) against the real
Redis on 127.0.0.1:6379 and the test database: jobs are enqueued on commit, executed once
even when delivered twice, applied in order for a subject, survive a worker killed
mid-job (late acknowledgement), and deletion verification finds nothing afterwards.

The worker connects as the application role (row-level security applies) to the test
database, named through ENGRAM_DB_NAME; each run uses its own queue name."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import psycopg
import pytest
from django.db import connection, transaction

from core.actor import Actor
from core.models import AuditEvent
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
from tests.helpers.worker import QUEUE, wait_for

pytestmark = pytest.mark.django_db(transaction=True)


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
