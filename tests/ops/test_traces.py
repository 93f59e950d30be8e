"""Optional OpenTelemetry traces: HTTP, recall stages, the write policy, database and Celery
spans in one trace; the caller's traceparent is continued and carried into task messages;
no span attribute holds memory text or a query. Off by default."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.db import connection

from core.observability import traces
from tests.helpers.cast import candidate
from tests.helpers.retrieval import PURPOSE, remember

pytestmark = pytest.mark.django_db

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
TRACEPARENT = f"00-{TRACE_ID}-00f067aa0ba902b7-01"


@pytest.fixture
def spans(tracing):
    connection.execute_wrappers.append(traces.db_wrapper)
    yield tracing
    connection.execute_wrappers.remove(traces.db_wrapper)


def test_tracing_is_off_by_default(monkeypatch):
    monkeypatch.delenv("ENGRAM_OTEL_ENABLED", raising=False)
    assert traces.configure() is False


def _texts(finished) -> str:
    return " ".join(
        f"{s.name} " + " ".join(str(v) for v in (s.attributes or {}).values()) for s in finished
    )


def test_a_recall_is_one_trace_continuing_the_callers(spans, read_agent, owner_subject):
    remember(owner_subject, "User keeps a bonsai juniper named Kuro")
    query = "what plant named Kuro does the user keep?"
    r = read_agent.client(owner_subject).post_json(
        "/api/v1/recall", {"query": query, "purpose": PURPOSE}, HTTP_TRACEPARENT=TRACEPARENT
    )
    assert r.status_code == 200 and r.json()["items"]
    finished = spans.get_finished_spans()
    ours = [s for s in finished if format(s.context.trace_id, "032x") == TRACE_ID]
    names = {s.name for s in ours}
    assert "HTTP POST api-recall" in names
    assert {"recall.scope", "recall.routes", "recall.rank", "recall.pack", "recall.trace"} <= names
    assert "db.query" in names
    # The embedding runs on a pool thread: its span exists, in a trace of its own.
    assert any(s.name == "recall.embed" for s in finished)
    blob = _texts(finished).lower()
    for word in ("bonsai", "juniper", "kuro", "plant"):
        assert word not in blob, word


def test_the_write_policy_gets_a_span_per_candidate(spans, api):
    r = api.post_json(
        "/api/v1/candidates",
        {
            "candidates": [
                candidate(statement="User likes hiking"),
                candidate(statement="User likes tea"),
            ]
        },
        HTTP_TRACEPARENT=TRACEPARENT,
    )
    assert r.status_code == 200
    policy = [s for s in spans.get_finished_spans() if s.name == "write.policy"]
    assert len(policy) == 2
    assert {format(s.context.trace_id, "032x") for s in policy} == {TRACE_ID}
    assert "hiking" not in _texts(spans.get_finished_spans()).lower()


def test_a_task_continues_the_trace_of_the_request_that_enqueued_it(spans):
    headers: dict = {}
    with traces.span("HTTP POST api-candidates"):
        traces.inject_headers(headers=headers)  # before_task_publish
    assert headers["traceparent"].split("-")[1]
    # The worker: Celery exposes message headers as request attributes.
    request = SimpleNamespace(traceparent=headers["traceparent"])
    traces.task_started("task-1", "memory.index_records", request)
    traces.task_finished("task-1", "SUCCESS")
    web, task = spans.get_finished_spans()[0], spans.get_finished_spans()[-1]
    assert task.name == "celery.run memory.index_records"
    assert task.context.trace_id == web.context.trace_id
    assert task.parent.span_id == web.context.span_id


def test_off_means_no_spans_and_no_headers(spans):
    traces._ENABLED.set(False)
    headers: dict = {}
    traces.inject_headers(headers=headers)
    with traces.span("nothing"):
        pass
    assert headers == {} and spans.get_finished_spans() == ()
