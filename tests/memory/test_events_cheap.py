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
