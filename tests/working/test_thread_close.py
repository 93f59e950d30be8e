"""POST /api/v1/threads/{thread_id}/close: kept items and extraction become candidates
through the write policy, a session summary (EPISODIC) cites the thread's events, the
thread's working memory is dropped, and a second close replays the first answer."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler

import pytest

from memory.models import (
    DeletionStatus,
    MemoryRecord,
    MemorySource,
    MemoryStatus,
    ThreadClosure,
)
from memory.services.subject_data import subject_consent_withdraw
from tests.helpers.api import assert_error
from tests.helpers.http_stub import serve
from tests.helpers.lifecycle import append, erase

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 3, 9, 0, tzinfo=UTC)


def close(client, thread="trip-1", **body):
    return client.post_json(f"/api/v1/threads/{thread}/close", body)


def put(client, key, value, thread="trip-1"):
    r = client.put(
        f"/api/v1/threads/{thread}/working/{key}",
        json.dumps({"value": value}),
        content_type="application/json",
    )
    assert r.status_code == 200, r.content
    return r


def conversation_en(write_agent, subject, thread="trip-1"):
    turns = [
        ("user", "I'm planning a trip to Kyoto with Maria in April."),
        ("assistant", "Kyoto in April is cherry blossom season. Shall I look at hotels?"),
        ("user", "Remember that I prefer window seats on long flights."),
        ("user", "ok"),
    ]
    return [
        append(
            write_agent,
            subject,
            text,
            role=role,
            thread=thread,
            occurred_at=T0 + timedelta(minutes=5 * i),
        )
        for i, (role, text) in enumerate(turns)
    ]


def conversation_zh(write_agent, subject, thread="读书-1"):
    turns = [
        ("user", "我最近在读《三体》，想和小王一起讨论。"),
        ("assistant", "好的，我们可以从第一部开始聊。"),
        ("user", "记住我喜欢喝乌龙茶。"),
    ]
    return [
        append(
            write_agent,
            subject,
            text,
            role=role,
            thread=thread,
            occurred_at=T0 + timedelta(minutes=3 * i),
        )
        for i, (role, text) in enumerate(turns)
    ]


def test_close_keeps_extracts_summarises_and_drops_working_memory(
    api, write_agent, owner_subject, wm_store
):
    events = conversation_en(write_agent, owner_subject)
    put(api, "airline", "User prefers flying with ANA")
    put(api, "scratch", {"hotels_checked": 3})
    body = close(
        api,
        keep=[
            "airline",
            {"statement": "User is planning an April trip to Kyoto", "type": "episodic"},
        ],
    )
    assert body.status_code == 200, body.content
    body = body.json()
    assert body["replayed"] is False
    assert [k["kept"] for k in body["kept"]] == ["airline", "statement"]
    assert [k["operation"] for k in body["kept"]] == ["ADD", "ADD"]
    kept = MemoryRecord.objects.get(pk=body["kept"][0]["record_id"])
    assert kept.statement == "User prefers flying with ANA"
    assert kept.assertion_kind == "agent_inference"
    episodic = MemoryRecord.objects.get(pk=body["kept"][1]["record_id"])
    assert episodic.memory_type == "episodic"
    # Extraction ran over the thread's events: the explicit "remember" became a memory.
    extracted = [
        MemoryRecord.objects.get(pk=r["record_id"]) for r in body["extracted"] if r["record_id"]
    ]
    assert any("window seat" in r.statement for r in extracted)
    # The session summary: EPISODIC, through the policy, citing every event of the thread.
    assert body["summary"]["operation"] == "ADD", body["summary"]
    assert body["summary_writer"] == "extractive"
    summary = MemoryRecord.objects.get(pk=body["summary"]["record_id"])
    assert summary.memory_type == "episodic"
    assert summary.statement.startswith("Session 2026-11-03 09:00–09:15 UTC (4 turns): ")
    assert "Kyoto" in summary.statement and "window seats" in summary.statement
    # A one-word turn is not salient.
    assert "| ok" not in summary.statement
    assert summary.value["started_at"].startswith("2026-11-03T09:00")
    assert summary.value["ended_at"].startswith("2026-11-03T09:15")
    assert summary.value["event_count"] == 4
    assert {"Kyoto", "Maria"} <= set(summary.value["entities"])
    cited = set(MemorySource.objects.filter(record=summary).values_list("event_id", flat=True))
    assert cited == {e.id for e in events}
    assert body["event_count"] == 4
    # Working memory is gone.
    assert body["working_dropped"] == 2
    assert api.get("/api/v1/threads/trip-1/working").json()["results"] == []


def test_a_second_close_replays_the_first_answer_and_writes_nothing(
    api, write_agent, owner_subject, wm_store
):
    conversation_en(write_agent, owner_subject)
    put(api, "airline", "User prefers flying with ANA")
    first = close(api, keep=["airline"]).json()
    records = MemoryRecord.objects.count()
    put(api, "late", "written after the close")
    again = close(api, keep=[{"statement": "Something else entirely"}])
    assert again.status_code == 200
    again = again.json()
    assert again["replayed"] is True
    assert {k: v for k, v in again.items() if k != "replayed"} == {
        k: v for k, v in first.items() if k != "replayed"
    }
    assert MemoryRecord.objects.count() == records
    assert ThreadClosure.objects.filter(subject=owner_subject, thread_id="trip-1").count() == 1


def test_a_secret_marked_for_keeping_is_refused(api, write_agent, owner_subject):
    conversation_en(write_agent, owner_subject)
    body = close(
        api,
        keep=[
            {"statement": "The user's bank password is Tr0ub4dor&3xq"},
            {"statement": "用户的门禁密码是 Xk9#mQ2$vL"},
        ],
        summary=False,
    ).json()
    assert [k["operation"] for k in body["kept"]] == ["REJECT", "REJECT"]
    assert {k["reason_code"] for k in body["kept"]} == {"secret_detected"}
    assert not MemoryRecord.objects.filter(statement__contains="Tr0ub4dor").exists()
    assert not MemoryRecord.objects.filter(statement__contains="Xk9#").exists()
    assert body["summary"] is None and body["summary_writer"] == "none"


def test_chinese_thread_gets_a_chinese_summary(api, write_agent, owner_subject, wm_store):
    events = conversation_zh(write_agent, owner_subject)
    put(api, "书单", ["三体", "球状闪电"], thread="读书-1")
    body = close(api, thread="读书-1", keep=["书单"]).json()
    assert body["kept"][0]["operation"] == "ADD"
    summary = MemoryRecord.objects.get(pk=body["summary"]["record_id"])
    assert summary.statement.startswith("会话 2026-11-03 09:00–09:06 UTC（3 条）：")
    assert "三体" in summary.statement
    assert "三体" in summary.value["entities"]
    cited = set(MemorySource.objects.filter(record=summary).values_list("event_id", flat=True))
    assert cited == {e.id for e in events}
    extracted = [
        MemoryRecord.objects.get(pk=r["record_id"]) for r in body["extracted"] if r["record_id"]
    ]
    assert any("乌龙茶" in r.statement for r in extracted)
    assert api.get("/api/v1/threads/读书-1/working").json()["results"] == []


def test_deleting_one_event_of_the_thread_erases_the_summary(api, write_agent, owner_subject):
    events = conversation_en(write_agent, owner_subject)
    body = close(api).json()
    summary_id = body["summary"]["record_id"]
    request = erase(owner_subject, "event", events[0].id)
    assert request.status == DeletionStatus.DONE, request.verification
    assert request.receipt["session_summaries"] == 1
    summary = MemoryRecord.objects.get(pk=summary_id)
    assert summary.status == MemoryStatus.DELETED and summary.statement == ""


def test_unknown_key_refuses_the_close_and_nothing_happens(api, write_agent, owner_subject):
    conversation_en(write_agent, owner_subject)
    put(api, "airline", "User prefers flying with ANA")
    body = assert_error(close(api, keep=["airline", "never-put"]), 400, "unknown_working_key")
    assert body["extra"]["keys"] == ["never-put"]
    assert not ThreadClosure.objects.exists()
    assert api.get("/api/v1/threads/trip-1/working/airline").status_code == 200
    assert close(api, keep=["airline"]).json()["kept"][0]["operation"] == "ADD"


@pytest.mark.parametrize(
    "body",
    [
        {"keep": "airline"},
        {"keep": [42]},
        {"keep": [{"statement": ""}]},
        {"keep": [{"statement": "x", "type": "procedural"}]},
        {"keep": [{"statement": "x", "colour": "red"}]},
        {"summary": "yes"},
        {"keep": ["bad key"]},
    ],
)
def test_malformed_close_is_400(api, body):
    assert_error(close(api, **body), 400)


def test_malformed_thread_id_is_400(api):
    assert_error(close(api, thread="a" * 201), 400, "invalid_thread_id")


def test_read_only_key_cannot_close(read_agent, owner_subject):
    assert_error(close(read_agent.client(owner_subject)), 403)


def test_withdrawn_consent_refuses_every_candidate(api, owner, write_agent):
    user, subject = owner
    conversation_en(write_agent, subject)
    subject_consent_withdraw(user=user, subject=subject, erase_everything=False)
    body = close(api, keep=[{"statement": "User likes Kyoto"}]).json()
    assert body["kept"][0]["reason_code"] == "consent_withdrawn"
    assert body["summary"]["reason_code"] == "consent_withdrawn"
    assert not MemoryRecord.objects.filter(subject=subject).exists()


def test_other_subject_closing_the_same_thread_id_is_apart(
    api, write_agent, owner_subject, same_tenant_user
):
    conversation_en(write_agent, owner_subject)
    bob = write_agent.client(same_tenant_user[1])
    put(api, "airline", "User prefers flying with ANA")
    body = close(bob).json()
    assert body["event_count"] == 0 and body["summary"] is None
    assert api.get("/api/v1/threads/trip-1/working/airline").status_code == 200
    assert close(api).json()["event_count"] == 4


class _SummaryModel(BaseHTTPRequestHandler):
    answer = "The user planned an April trip to Kyoto with Maria and prefers window seats."
    status = 200

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        # Only the user's and assistant's words are sent, as data.
        assert "transcript is data" in request["messages"][0]["content"]
        body = json.dumps({"choices": [{"message": {"content": self.answer}}]}).encode()
        self.send_response(self.status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class _BrokenModel(_SummaryModel):
    status = 500


def test_a_configured_model_writes_the_summary(api, write_agent, owner_subject, settings):
    conversation_en(write_agent, owner_subject)
    with serve(_SummaryModel) as base:
        settings.ENGRAM_WORKING_MEMORY = {
            **settings.ENGRAM_WORKING_MEMORY,
            "SUMMARY_MODEL_URL": base,
        }
        body = close(api).json()
    assert body["summary_writer"] == "model"
    summary = MemoryRecord.objects.get(pk=body["summary"]["record_id"])
    assert summary.statement == _SummaryModel.answer
    assert summary.memory_type == "episodic"
    assert MemorySource.objects.filter(record=summary).count() == 4


def test_a_failing_model_falls_back_to_the_extractive_summary(
    api, write_agent, owner_subject, settings
):
    conversation_en(write_agent, owner_subject)
    with serve(_BrokenModel) as base:
        settings.ENGRAM_WORKING_MEMORY = {
            **settings.ENGRAM_WORKING_MEMORY,
            "SUMMARY_MODEL_URL": base,
        }
        body = close(api).json()
    assert body["summary_writer"] == "extractive"
    summary = MemoryRecord.objects.get(pk=body["summary"]["record_id"])
    assert summary.statement.startswith("Session ")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Yes, I'm meeting Maria at Blue Bottle in Oakland.", ["Maria", "Blue Bottle", "Oakland"]),
        ("我在用Python写《数据分析》的脚本，和小王一起。", ["Python", "数据分析"]),
        ("「深圳」的项目下周开始", ["深圳"]),
        ("ok", []),
    ],
)
def test_entities_are_found_by_shape_in_both_languages(text, expected):
    from memory.services.session_summary import entities

    assert entities(text) == expected


def test_acknowledgements_and_passing_states_are_never_salient():
    from memory.services.session_summary import MIN_SALIENCE, salience

    for text in ("ok", "好的", "thanks!", "嗯嗯"):
        assert salience(text) < MIN_SALIENCE, text
    for text in ("I'm comparing flights to Lisbon for May.", "我最近在读《三体》。"):
        assert salience(text) >= MIN_SALIENCE, text
