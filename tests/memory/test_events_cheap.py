"""Events are cheap: a batch of events extracted together rebuilds each thread's summary
once, after all of them, and the summary still holds every event's items."""

from __future__ import annotations

import pytest

from memory.models import TaskRun, ThreadSummary
from tests.helpers.lifecycle import append, extract

pytestmark = pytest.mark.django_db


def test_a_batch_rebuilds_each_thread_summary_once(settings, write_agent, owner_subject):
    settings.ENGRAM_LIFECYCLE = {**settings.ENGRAM_LIFECYCLE, "AUTO_EXTRACT": False}
    first = [
        append(write_agent, owner_subject, "I want to migrate our reports to PostgreSQL"),
        append(write_agent, owner_subject, "Remember that I prefer weekly status emails"),
        append(write_agent, owner_subject, "下一步：请准备迁移清单。预算不能超过五万元"),
    ]
    other = append(write_agent, owner_subject, "Please book the dentist", thread="t2")
    extract(*first, other)
    runs = TaskRun.objects.filter(
        task_name="memory.summarize_thread", key__contains=str(owner_subject.id)
    )
    assert runs.count() == 2  # t1 and t2, not once per event
    summary = ThreadSummary.objects.get(subject=owner_subject, thread_id="t1")
    assert summary.event_count == 3
    kinds = {item["kind"] for item in summary.items}
    assert {"goal", "fact", "task"} <= kinds
    assert ThreadSummary.objects.filter(subject=owner_subject, thread_id="t2").exists()


def test_an_event_whose_extraction_fails_does_not_hold_back_its_batch(
    settings, write_agent, owner_subject, monkeypatch
):
    """The batch's jobs share a transaction, each in a savepoint: one that fails is run
    again alone (retries, then the dead-letter queue) and the others stay done."""
    from memory.models import DeadLetter, TaskOutcome
    from memory.services import extraction

    settings.ENGRAM_LIFECYCLE = {**settings.ENGRAM_LIFECYCLE, "AUTO_EXTRACT": False}
    good = append(write_agent, owner_subject, "Remember that I prefer weekly status emails")
    bad = append(write_agent, owner_subject, "我想把报表迁移到PostgreSQL")
    later = append(write_agent, owner_subject, "I want to migrate our reports to PostgreSQL")
    original = extraction.event_extract

    def failing(*, event, **kw):
        if event.id == bad.id:
            raise RuntimeError("extractor broke")
        return original(event=event, **kw)

    monkeypatch.setattr(extraction, "event_extract", failing)
    extract(good, bad, later)
    outcomes = dict(
        TaskRun.objects.filter(task_name="memory.extract_events").values_list("key", "outcome")
    )
    assert outcomes[f"extract:{good.id}"] == TaskOutcome.SUCCEEDED
    assert outcomes[f"extract:{later.id}"] == TaskOutcome.SUCCEEDED
    assert outcomes[f"extract:{bad.id}"] == TaskOutcome.DEAD
    assert DeadLetter.objects.filter(object_ids=[str(bad.id)]).count() == 1
    assert ThreadSummary.objects.get(subject=owner_subject, thread_id="t1").event_count == 3
