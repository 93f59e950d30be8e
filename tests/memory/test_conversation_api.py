"""``POST /api/v1/conversation``: one request appends a turn's messages, runs Engram's
extraction on them and returns the write policy's decisions. Each message is extracted
once (the background job queued by appending finds it done), secrets and passing remarks
are refused like any candidate, a retried request writes nothing twice, and every bad
request is a 4xx in the one shape."""

from __future__ import annotations

import pytest

from core.models import AuditEvent
from memory.models import MemoryRecord, SourceEvent, TaskRun
from tests.helpers.api import assert_error
from tests.helpers.cast import ApiClient

pytestmark = pytest.mark.django_db

URL = "/api/v1/conversation"


def msg(i: int, content: str, role: str = "user") -> dict:
    return {"client_event_id": f"m-{i}", "role": role, "content": content}


def test_a_turn_is_appended_extracted_and_decided(api, owner_subject):
    r = api.post_json(
        URL,
        {
            "thread_id": "t1",
            "messages": [
                msg(1, "Remember that I prefer green tea over coffee."),
                msg(2, "Noted, green tea it is.", role="assistant"),
                msg(3, "以后技术回答请先给结论，再给证据"),
            ],
        },
    )
    assert r.status_code == 200, r.content
    body = r.json()
    assert [e["created"] for e in body["events"]] == [True, True, True]
    decisions = body["decisions"]
    assert decisions, body
    # Only the user's own words are mined; the assistant's reply is context.
    assert {d["message_index"] for d in decisions} <= {0, 2}
    stored = [d for d in decisions if d["operation"] == "ADD"]
    assert stored and all(d["record_id"] for d in stored)
    assert {d["assertion_kind"] for d in decisions} == {"user_explicit"}
    records = MemoryRecord.objects.filter(subject=owner_subject, status="active")
    assert {str(r.id) for r in records} >= {d["record_id"] for d in stored}
    # Each new event's extraction is recorded as done, so the queued job skips it.
    events = SourceEvent.objects.filter(subject=owner_subject)
    assert (
        TaskRun.objects.filter(
            task_name="memory.extract_events", key__in=[f"extract:{e.id}" for e in events]
        ).count()
        == 3
    )


def test_each_message_is_extracted_once(api, owner_subject, django_capture_on_commit_callbacks):
    """The job appending queues (eager here: it runs on commit, in this process) finds the
    events extracted: one write decision per proposal, no second CONFIRM."""
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        api.post_json(URL, {"messages": [msg(1, "Remember that I prefer green tea.")]})
    assert callbacks  # the extraction job was queued and ran
    run = TaskRun.objects.get(task_name="memory.extract_events")
    assert run.result == {"inline": 1}  # written by the request, untouched by the job
    records = MemoryRecord.objects.filter(subject=owner_subject, status="active")
    assert records.count() >= 1 and {r.evidence_count for r in records} == {1}
    writes = AuditEvent.objects.filter(subject_id=owner_subject.id, action="memory.write")
    assert writes.count() == records.count()


def test_secrets_and_passing_remarks_are_refused(api, owner_subject):
    body = api.post_json(
        URL,
        {
            "messages": [
                msg(1, "Remember my password is hunter2!x9Q"),
                msg(2, "Remember that I am tired today"),
            ]
        },
    ).json()
    assert body["events"][0]["redactions"] >= 1
    assert not any(d["operation"] == "ADD" for d in body["decisions"] if d["message_index"] == 1)
    stored = MemoryRecord.objects.filter(subject=owner_subject, status="active")
    assert not any("hunter2" in r.statement for r in stored)


def test_retry_with_the_same_key_is_answered_from_the_first(api, owner_subject):
    turn = {"messages": [msg(1, "Remember that I live in Lisbon.")]}
    first = api.post_json(URL, turn, headers={"Idempotency-Key": "turn-1"})
    again = api.post_json(URL, turn, headers={"Idempotency-Key": "turn-1"})
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert MemoryRecord.objects.filter(subject=owner_subject).count() == len(
        [d for d in first.json()["decisions"] if d["record_id"]]
    )
    reused = api.post_json(
        URL, {"messages": [msg(2, "other")]}, headers={"Idempotency-Key": "turn-1"}
    )
    assert_error(reused, 422, "idempotency_key_reused")


def test_a_resend_without_a_key_stores_and_extracts_nothing_new(api, owner_subject):
    turn = {"messages": [msg(1, "Remember that I live in Lisbon.")]}
    api.post_json(URL, turn)
    before = MemoryRecord.objects.filter(subject=owner_subject).count()
    body = api.post_json(URL, turn).json()
    assert [e["created"] for e in body["events"]] == [False] and body["decisions"] == []
    assert MemoryRecord.objects.filter(subject=owner_subject).count() == before


@pytest.mark.parametrize(
    "body, field",
    [
        ({"messages": []}, "messages"),
        ({"messages": [{"role": "user", "content": "hi"}]}, "messages"),
        ({"messages": [msg(1, "hi", role="boss")]}, "messages"),
        ({"messages": [msg(1, "hi")], "user_id": "bob"}, "user_id"),
        ({"messages": [msg(1, "hi")], "thread_id": 5}, "thread_id"),
    ],
)
def test_bad_turns_are_400_and_store_nothing(api, owner_subject, body, field):
    error = assert_error(api.post_json(URL, body), 400, "invalid_input")
    assert field in error["extra"]["fields"]
    assert not SourceEvent.objects.filter(subject=owner_subject).exists()


def test_needs_a_write_key_and_a_subject(read_agent, write_agent, owner_subject):
    turn = {"messages": [msg(1, "Remember that I like jazz.")]}
    assert_error(read_agent.client(owner_subject).post_json(URL, turn), 403)
    assert_error(ApiClient(write_agent.key).post_json(URL, turn), 403, "subject_required")
    assert not SourceEvent.objects.exists()
