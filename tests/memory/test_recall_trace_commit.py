"""A recall's trace commits without waiting for the disk (``ENGRAM_RECALL_ASYNC_TRACE_COMMIT``,
on by default); every write keeps waiting.

The trade (docs/configuration.md): a recall's trace and read-audit row are an access log;
a *database* crash may lose the last ~0.6 s of them. Memory writes, deletions and their
audit rows must stay fully synchronous, so these tests run requests as production does
(each one its own outermost transaction, ``transaction=True``) on one connection, and read
``synchronous_commit`` in the session at every statement that changes a row."""

from __future__ import annotations

import pytest
from django.conf import settings as django_settings
from django.db import connection

from tests.helpers.cast import candidate
from tests.helpers.retrieval import PURPOSE

pytestmark = pytest.mark.django_db(transaction=True)

_CHANGES = ("INSERT", "UPDATE", "DELETE", "WITH", "MERGE")


class SessionWatch:
    """``synchronous_commit`` as the session has it right after each changing statement,
    by request label."""

    def __init__(self) -> None:
        self.label = ""
        self.seen: dict[str, list[str]] = {}

    def __call__(self, execute, sql, params, many, context):
        result = execute(sql, params, many, context)
        if sql.lstrip().upper().startswith(_CHANGES):
            # The driver's connection itself: not through Django's wrappers (nor this one).
            [(value,)] = connection.connection.execute("SHOW synchronous_commit").fetchall()
            self.seen.setdefault(self.label, []).append(value)
        return result


def test_the_setting_is_on_by_default():
    assert django_settings.ENGRAM_RETRIEVAL["ASYNC_TRACE_COMMIT"] is True


def test_writes_and_deletions_wait_for_the_disk_between_recalls_that_do_not(
    write_agent, owner_subject
):
    """Write, recall, write, delete, recall, on one connection, in both languages: only the
    recalls' transactions run with ``synchronous_commit = off``; the write after a recall
    and the deletion are back to ``on`` (the recall's switch is transaction-local)."""
    client = write_agent.client(owner_subject)
    watch = SessionWatch()
    with connection.execute_wrapper(watch):
        watch.label = "write 1"
        r = client.post_json(
            "/api/v1/candidates",
            {"candidates": [candidate(statement="User keeps a kayak in the garage")]},
        )
        assert r.status_code == 200, r.content
        watch.label = "recall 1"
        r = client.post_json(
            "/api/v1/recall", {"query": "What is in the garage?", "purpose": PURPOSE}
        )
        assert r.status_code == 200, r.content
        watch.label = "write 2"
        r = client.post_json(
            "/api/v1/candidates",
            {"candidates": [candidate(statement="用户在车库里放着一个望远镜")]},
        )
        assert r.status_code == 200, r.content
        record_id = r.json()["results"][0]["record_id"]
        watch.label = "delete"
        r = client.delete_json(f"/api/v1/memories/{record_id}")
        assert r.status_code in (200, 202, 204), r.content
        watch.label = "recall 2"
        r = client.post_json("/api/v1/recall", {"query": "车库里有什么？", "purpose": PURPOSE})
        assert r.status_code == 200, r.content
    assert set(watch.seen) == {"write 1", "recall 1", "write 2", "delete", "recall 2"}
    for label in ("write 1", "write 2", "delete"):
        assert set(watch.seen[label]) == {"on"}, label
    for label in ("recall 1", "recall 2"):
        # The trace and audit row are inserted after the switch, while the question is
        # embedded: the insert sees it (the probe can tell the two apart).
        assert watch.seen[label][-1] == "off", label
    # Between requests the session is back to the server's default.
    [(value,)] = connection.connection.execute("SHOW synchronous_commit").fetchall()
    assert value == "on"


def test_off_every_recall_waits_too(read_agent, owner_subject, settings):
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "ASYNC_TRACE_COMMIT": False}
    watch = SessionWatch()
    watch.label = "recall"
    with connection.execute_wrapper(watch):
        r = read_agent.client(owner_subject).post_json(
            "/api/v1/recall", {"query": "What is in the garage?", "purpose": PURPOSE}
        )
    assert r.status_code == 200, r.content
    assert set(watch.seen["recall"]) == {"on"}


class Pipelined:
    """Each statement's text head and whether psycopg had a pipeline open when it ran."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, bool]] = []

    def __call__(self, execute, sql, params, many, context):
        status = connection.connection.pgconn.pipeline_status
        self.seen.append((sql.lstrip()[:40], bool(status)))
        return execute(sql, params, many, context)


def _rows(trace_id: str, tenant_id) -> tuple:
    from core.models import AuditEvent
    from core.tenancy import tenant_context
    from memory.models import RecallTrace

    with tenant_context(tenant_id):
        trace = RecallTrace.objects.filter(id=trace_id).values(
            "subject_id", "agent_id", "purpose", "query_sha256", "record_ids"
        )
        audit = AuditEvent.objects.filter(extra__trace_id=trace_id).values(
            "action", "operation", "subject_id", "extra"
        )
        return list(trace), [{**a, "extra": {**a["extra"], "trace_id": ""}} for a in audit]


@pytest.mark.parametrize("query", ["What is in the garage?", "车库里有什么？"])
def test_the_trace_goes_with_the_commit_and_is_the_same(read_agent, owner_subject, settings, query):
    """ENGRAM_RECALL_TRACE_WITH_COMMIT: the trace and audit row are inserted last, in the
    pipeline the COMMIT joins, and they are the rows the reference writes."""
    from tests.helpers.retrieval import remember

    remember(owner_subject, "User keeps a kayak in the garage")
    remember(owner_subject, "用户在车库里放着一个望远镜")
    client = read_agent.client(owner_subject)
    answers = {}
    for on in (False, True, True):
        settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "TRACE_WITH_COMMIT": on}
        watch = Pipelined()
        with connection.execute_wrapper(watch):
            r = client.post_json("/api/v1/recall", {"query": query, "purpose": PURPOSE})
        assert r.status_code == 200, r.content
        body = r.json()
        inserts = [(head, piped) for head, piped in watch.seen if head.startswith("WITH i0")]
        assert len(inserts) == 1
        assert inserts[0][1] is on  # in the pipeline only with the setting
        if on:
            assert watch.seen[-1] == inserts[0]  # the request's last statement
        assert not any(piped for head, piped in watch.seen if not head.startswith("WITH i0"))
        assert connection.connection.pgconn.pipeline_status == 0  # closed after the commit
        answers[on] = (
            [i["id"] for i in body["items"]],
            _rows(body["trace_id"], owner_subject.tenant_id),
        )
    assert answers[True] == answers[False]
    assert answers[True][0]  # the question finds something
    assert answers[True][1][0] and answers[True][1][1]  # both rows written


def test_a_recall_outside_an_api_request_writes_its_trace_at_once(read_agent, owner_subject):
    """Recall in another caller's transaction (``tenant_context``, not the request's):
    nothing waits for a commit it does not own."""
    from tests.helpers.retrieval import recall, remember

    remember(owner_subject, "User keeps a kayak in the garage")
    watch = Pipelined()
    with connection.execute_wrapper(watch):
        recall(read_agent.agent, owner_subject, "What is in the garage?")
    inserts = [piped for head, piped in watch.seen if head.startswith("WITH i0")]
    assert inserts == [False]
