"""The embedded default (no broker): jobs run eagerly right after the request commits,
and a failing job never turns the agent's request into an error."""

from __future__ import annotations

import pytest

from memory.models import DeadLetter, MemoryRecord, SourceEvent, TaskRun, ThreadSummary
from tests.helpers.lifecycle import active

pytestmark = pytest.mark.django_db(transaction=True)


def post_event(api, text: str, client_id: str):
    return api.post_json(
        "/api/v1/events",
        {
            "events": [
                {
                    "client_event_id": client_id,
                    "kind": "message",
                    "role": "user",
                    "content": text,
                    "thread_id": "chat-1",
                }
            ]
        },
    )


def test_appended_events_are_extracted_and_summarised_after_commit(api, owner_subject):
    r = post_event(api, "记住，我喜欢靠过道的座位。下一步：请预订周五的航班", "c1")
    assert r.status_code in (200, 201), r.content
    [record] = active(owner_subject)
    assert record.statement == "我喜欢靠过道的座位"
    summary = ThreadSummary.objects.get(subject=owner_subject, thread_id="chat-1")
    assert {i["kind"] for i in summary.items} == {"fact", "task"}
    # A retried request (same client_event_id) stores nothing new and extracts nothing again.
    assert post_event(
        api, "记住，我喜欢靠过道的座位。下一步：请预订周五的航班", "c1"
    ).status_code in (200, 201)
    assert TaskRun.objects.filter(task_name="memory.extract_events").count() == 1
    assert MemoryRecord.objects.get().evidence_count == 1


def test_a_failing_job_is_dead_lettered_and_the_request_still_succeeds(
    api, owner_subject, settings, monkeypatch
):
    from memory.services import extraction

    def broken(*args, **kwargs):
        raise RuntimeError("extractor bug")

    monkeypatch.setattr(extraction, "event_extract", broken)
    r = post_event(api, "Remember that I prefer aisle seats", "c2")
    assert r.status_code in (200, 201), r.content
    assert SourceEvent.objects.count() == 1  # the event itself is safely stored
    [dead] = DeadLetter.objects.all()
    assert dead.error_class == "RuntimeError"
    assert dead.attempts == settings.ENGRAM_LIFECYCLE["MAX_RETRIES"] + 1
    assert not MemoryRecord.objects.exists()
