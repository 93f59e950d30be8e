"""The job runner: idempotency keys, retry cap, dead letters with ids only; the worker
check and delete-subject commands."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from celery import shared_task
from django.core.management import CommandError, call_command

from memory.models import DeadLetter, DeletionRequest, MemoryRecord, SourceEvent, TaskRun
from memory.tasks import run_job
from tests.helpers.lifecycle import active, append, extract

pytestmark = pytest.mark.django_db
calls: list[str] = []


@shared_task(bind=True, name="tests.lifecycle.flaky")
def flaky(self, tenant_id: str, key: str, failures: int) -> None:
    def body():
        calls.append(key)
        if calls.count(key) <= failures:
            raise ValueError("boom: alice prefers green tea")  # text must never be stored
        return {"ok": 1}

    run_job(self, tenant_id=tenant_id, key=key, object_ids=[key], body=body)


def test_a_failing_job_is_retried_then_succeeds(tenant):
    flaky.apply(args=(str(tenant.id), "k-retry", 2)).get()
    run = TaskRun.objects.get(key="k-retry")
    assert (run.outcome, run.attempts, run.result) == ("succeeded", 3, {"ok": 1})
    assert not DeadLetter.objects.exists()


def test_retries_are_capped_then_dead_lettered_with_ids_only(tenant, settings):
    flaky.apply(args=(str(tenant.id), "k-dead", 99)).get()
    max_retries = settings.ENGRAM_LIFECYCLE["MAX_RETRIES"]
    assert calls.count("k-dead") == max_retries + 1
    [dead] = DeadLetter.objects.all()
    assert (dead.task_name, dead.object_ids, dead.error_class) == (
        "tests.lifecycle.flaky",
        ["k-dead"],
        "ValueError",
    )
    assert dead.attempts == max_retries + 1 and dead.tenant_id == tenant.id
    assert "green tea" not in json.dumps([dead.object_ids, dead.error_class])
    assert TaskRun.objects.get(key="k-dead").outcome == "dead"
    # A redelivered dead job does not run again.
    flaky.apply(args=(str(tenant.id), "k-dead", 0)).get()
    assert calls.count("k-dead") == max_retries + 1


def test_worker_check_in_eager_mode_explains_itself():
    out = StringIO()
    call_command("engram_worker_check", stdout=out)
    assert "eagerly" in out.getvalue()


def test_delete_subject_command_prints_a_clean_receipt(
    write_agent, owner_subject, same_tenant_user
):
    extract(append(write_agent, owner_subject, "Remember that I prefer aisle seats"))
    extract(append(write_agent, same_tenant_user[1], "Remember that I prefer window seats"))
    out = StringIO()
    call_command("engram_delete_subject", tenant="acme", subject="user:alice", stdout=out)
    report = json.loads(out.getvalue())
    assert report["status"] == "done"
    assert set(report["verification"].values()) == {0}
    assert report["receipt"]["record_versions"] == 1 and report["receipt"]["source_events"] == 1
    assert DeletionRequest.objects.get().scope == "subject"
    assert not SourceEvent.objects.filter(subject=owner_subject).exists()
    assert len(active(same_tenant_user[1])) == 1
    assert MemoryRecord.objects.filter(subject=owner_subject, statement="").count() == 1


@pytest.mark.parametrize(
    ("tenant_slug", "subject"),
    [
        ("nope", "user:alice"),
        ("acme", "user:nobody"),
        ("acme", "not-a-uuid"),
        ("globex", "user:alice"),
    ],
)
def test_delete_subject_command_refuses_unknown_targets(
    owner_subject, other_tenant, tenant_slug, subject
):
    with pytest.raises(CommandError):
        call_command(
            "engram_delete_subject", tenant=tenant_slug, subject=subject, stdout=StringIO()
        )


def test_every_beat_entry_names_a_registered_task(settings):
    from config.celery import app

    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks, entry


def test_embedded_default_runs_eagerly_and_production_settings_are_late_ack(settings):
    assert settings.CELERY_TASK_ALWAYS_EAGER and settings.CELERY_TASK_EAGER_PROPAGATES
    assert settings.CELERY_TASK_ACKS_LATE and settings.CELERY_TASK_REJECT_ON_WORKER_LOST
    assert settings.CELERY_WORKER_PREFETCH_MULTIPLIER == 1
