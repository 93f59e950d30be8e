"""A session summary and its entity mentions in the deletion workflow and the export
(issue 34, "Done means"): the summary a closed thread leaves, and the entity index rows
of it, are exported with the subject's memories, and neither survives the erasure of a
source event of the thread or of the whole subject — receipt and verification say so."""

from __future__ import annotations

import pytest

from core.actor import Actor
from memory.models import DeletionStatus, MemoryMention, MemoryRecord, MemoryStatus
from memory.services.session_summary import SOURCE_URI_PREFIX
from memory.services.subject_data import subject_export
from tests.helpers.lifecycle import erase
from tests.working.test_thread_close import close, conversation_en, conversation_zh

pytestmark = pytest.mark.django_db


def _summary(api, thread: str) -> MemoryRecord:
    body = close(api, thread=thread).json()
    return MemoryRecord.objects.get(pk=body["summary"]["record_id"])


def _norms(record_id) -> set[str]:
    return set(MemoryMention.objects.filter(record_id=record_id).values_list("norm", flat=True))


@pytest.mark.parametrize(
    ("converse", "thread", "name"),
    [(conversation_en, "trip-1", "kyoto"), (conversation_zh, "读书-1", "三体")],
)
def test_the_export_holds_the_summary_with_its_entities(
    api, write_agent, owner_subject, converse, thread, name
):
    events = converse(write_agent, owner_subject, thread=thread)
    summary = _summary(api, thread)
    assert name in _norms(summary.id)  # the entity index holds the summary's names
    data = subject_export(subject=owner_subject, actor=Actor.system(owner_subject.tenant_id, "t"))
    [exported] = [r for r in data["records"] if r["id"] == str(summary.id)]
    assert exported["source_uri"].startswith(SOURCE_URI_PREFIX)
    assert exported["statement"] == summary.statement
    assert set(exported["source_event_ids"]) == {str(e.id) for e in events}
    assert name in {e["normalised"] for e in exported["entities"]}


@pytest.mark.parametrize(
    ("converse", "thread"), [(conversation_en, "trip-1"), (conversation_zh, "读书-1")]
)
def test_erasing_an_event_of_the_thread_erases_the_summary_and_its_mentions(
    api, write_agent, owner_subject, converse, thread
):
    events = converse(write_agent, owner_subject, thread=thread)
    summary = _summary(api, thread)
    assert _norms(summary.id)
    request = erase(owner_subject, "event", events[-1].id)
    assert request.status == DeletionStatus.DONE, request.verification
    assert request.receipt["session_summaries"] == 1
    assert request.verification["entity_mentions"] == 0
    assert _norms(summary.id) == set()
    summary.refresh_from_db()
    assert summary.status == MemoryStatus.DELETED and summary.statement == ""
    data = subject_export(subject=owner_subject, actor=Actor.system(owner_subject.tenant_id, "t"))
    [tombstone] = [r for r in data["records"] if r["id"] == str(summary.id)]
    assert tombstone["entities"] == [] and not tombstone["statement"]


def test_erasing_the_subject_leaves_no_summary_and_no_mention(api, write_agent, owner_subject):
    conversation_en(write_agent, owner_subject, thread="trip-1")
    conversation_zh(write_agent, owner_subject, thread="读书-1")
    summaries = [_summary(api, "trip-1"), _summary(api, "读书-1")]
    assert all(_norms(s.id) for s in summaries)
    request = erase(owner_subject, "subject", owner_subject.id)
    assert request.status == DeletionStatus.DONE, request.verification
    assert "entity_mentions" in request.receipt
    assert request.verification["entity_mentions"] == 0
    assert not MemoryMention.objects.filter(subject=owner_subject).exists()
    for s in summaries:
        s.refresh_from_db()
        assert s.status == MemoryStatus.DELETED and s.statement == ""
