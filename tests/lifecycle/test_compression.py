"""Conversation compression: goals, confirmed facts, open tasks, tool results and
constraints, each with its source event ids; rebuilt when an event goes."""

from __future__ import annotations

import pytest

from memory.models import ThreadSummary
from tests.helpers.lifecycle import append, extract

pytestmark = pytest.mark.django_db


def test_summary_keeps_each_kind_with_its_sources(write_agent, owner_subject):
    goal = append(write_agent, owner_subject, "I want to migrate our reports to PostgreSQL")
    fact = append(write_agent, owner_subject, "Remember that I prefer weekly status emails")
    task = append(write_agent, owner_subject, "下一步：请准备迁移清单。预算不能超过五万元")
    tool = append(
        write_agent, owner_subject, "42 tables, 3 with triggers", role="tool", kind="tool_result"
    )
    chat = append(write_agent, owner_subject, "thanks", thread="other")
    extract(goal, fact, task, tool, chat)
    summary = ThreadSummary.objects.get(subject=owner_subject, thread_id="t1")
    by_kind = {}
    for item in summary.items:
        by_kind.setdefault(item["kind"], []).append(item)
    assert by_kind["goal"][0]["source_event_ids"] == [str(goal.id)]
    assert by_kind["fact"][0]["text"] == "I prefer weekly status emails"
    assert by_kind["task"][0]["text"].startswith("下一步")
    assert by_kind["constraint"][0]["text"] == "预算不能超过五万元"
    assert by_kind["tool_result"][0]["source_event_ids"] == [str(tool.id)]
    assert set(map(str, summary.source_event_ids)) == {str(e.id) for e in (goal, fact, task, tool)}
    assert summary.event_count == 4


def test_a_task_reported_done_is_no_longer_open(write_agent, owner_subject):
    a = append(write_agent, owner_subject, "Please send the draft to finance")
    b = append(write_agent, owner_subject, "Done, it's sent")
    extract(a, b)
    summary = ThreadSummary.objects.get(subject=owner_subject)
    assert not [i for i in summary.items if i["kind"] == "task"]
