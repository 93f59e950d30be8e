"""The vector route of a very large scope on a second connection (``memory.recall.side``):
the same answer as on the request's connection, read in the request's snapshot, role
and tenant — and never when that second connection could see something else.

The data must be committed for a second connection to see it at all: these tests run in
transactions of their own (``transaction=True``)."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from core.tenancy import tenant_context
from memory.embedders import embed_query_cached
from memory.models import MemoryEmbedding, MemoryRecord
from memory.recall import side
from memory.selectors import active_model_id
from tests.helpers.retrieval import BACKGROUND, ids, recall, remember

pytestmark = pytest.mark.django_db(transaction=True)

QUESTION = "Which programming language does the user prefer for data analysis?"


@pytest.fixture
def hnsw_path(settings):
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "VECTOR_EXACT_MAX": 0}


def _count(sql: str = "SELECT count(*) FROM memory_memoryembedding") -> int:
    with connection.cursor() as cursor:  # the calling thread's connection
        cursor.execute(sql)
        return cursor.fetchone()[0]


def test_recall_runs_the_hnsw_search_beside_and_answers_the_same(
    hnsw_path, read_agent, owner_subject, same_tenant_user, monkeypatch
):
    remember(same_tenant_user[1], QUESTION)  # the nearest vector, of someone else
    mine = remember(owner_subject, "User prefers Python with pandas for data analysis")
    for statement in BACKGROUND:
        remember(owner_subject, statement)
    questions = [QUESTION, "Where is the user's home these days?", "用户住在哪个城市？"]
    beside = []
    real_start = side.start
    monkeypatch.setattr(side, "start", lambda route: beside.append(real_start(route)) or beside[-1])
    with CaptureQueriesContext(connection) as run:
        answers = [ids(recall(read_agent.agent, owner_subject, q)) for q in questions]
    assert len(beside) == 3 and all(f is not None for f in beside)
    statements = [q["sql"] for q in run.captured_queries]
    assert sum("pg_export_snapshot" in s for s in statements) == 3
    assert not [s for s in statements if "hnsw.iterative_scan" in s]  # not on this connection
    assert answers[0][0] == mine.record_id
    monkeypatch.setattr(side, "start", lambda route: None)
    with CaptureQueriesContext(connection) as run:
        assert [ids(recall(read_agent.agent, owner_subject, q)) for q in questions] == answers
    assert [q["sql"] for q in run.captured_queries if "hnsw.iterative_scan" in q["sql"]]


def test_the_second_connection_reads_the_requests_snapshot(owner_subject):
    """A vector committed by someone else after the request's transaction exported its
    snapshot is not seen beside — as the request itself would not see it in that
    snapshot."""
    model_id = active_model_id()
    [first, second] = [
        remember(owner_subject, s, embed=False).record_id
        for s in ("User likes tea", "User likes chess")
    ]
    _, q = embed_query_cached("tea", model_id)

    def embed(rid):
        with tenant_context(owner_subject.tenant_id):
            MemoryEmbedding.objects.create(
                tenant_id=owner_subject.tenant_id,
                subject_id=owner_subject.id,
                record_id=rid,
                model_id=model_id,
                vector=q,
            )

    embed(first)
    go = threading.Event()
    # The second connection's thread is held up, so its transaction starts only after
    # the other commit below: what it sees then is the imported snapshot's.
    held_up = side._executor().submit(go.wait, 10)

    with tenant_context(owner_subject.tenant_id):
        future = side.start(_count)
        assert future is not None
        # Committed by another connection after the export.
        other = threading.Thread(target=lambda: (embed(second), connections.close_all()))
        other.start()
        other.join()
        go.set()
        assert held_up.result() is True
        assert side.result(future, lambda: -1) == 1
        assert _count() == 2  # a new statement here (READ COMMITTED) sees it


def test_the_second_connection_has_the_requests_role_and_tenant(owner_subject, other_tenant_user):
    remember(owner_subject, "User likes tea", embed=False)
    remember(other_tenant_user[1], "Mallory likes tea", embed=False)
    who = "SELECT current_user || ' ' || current_setting('engram.tenant_id', true)"
    with tenant_context(owner_subject.tenant_id):
        here = _count("SELECT count(*) FROM memory_memoryrecord")
        with connection.cursor() as cursor:
            cursor.execute(who)
            identity = cursor.fetchone()[0]
        future = side.start(
            lambda: (_count("SELECT count(*) FROM memory_memoryrecord"), _identity(who))
        )
        assert side.result(future, lambda: None) == (here, identity)
    assert here == MemoryRecord.objects.filter(tenant_id=owner_subject.tenant_id).count() > 0
    assert str(owner_subject.tenant_id) in identity


def _identity(sql):
    with connection.cursor() as cursor:
        cursor.execute(sql)
        return cursor.fetchone()[0]


def test_not_beside_a_transaction_that_has_written(owner_subject):
    """A second connection cannot see the request's own uncommitted changes: then the
    route runs on the request's connection."""
    with tenant_context(owner_subject.tenant_id):
        before = side.start(lambda: 0)
        assert side.result(before, lambda: -1) == 0
        remember(owner_subject, "User likes rain", embed=False)
        assert side.start(lambda: 0) is None
    assert side.start(lambda: 0) is None  # no transaction at all


def test_a_failure_beside_runs_the_route_on_the_request_connection(owner_subject):
    def broken():
        raise RuntimeError("the second connection is gone")

    with tenant_context(owner_subject.tenant_id):
        future = side.start(broken)
        assert side.result(future, lambda: "here") == "here"
        # and a statement that fails there does not touch this transaction
        future = side.start(lambda: _count("SELECT count(*) FROM no_such_table"))
        assert side.result(future, lambda: _count("SELECT 1")) == 1


def test_the_hnsw_search_beside_keeps_the_filters(hnsw_path, read_agent, owner_subject):
    """Another purpose's memory, nearest to the question, is not found beside either."""
    model_id, q = embed_query_cached(QUESTION, active_model_id())
    mine = remember(owner_subject, "User prefers Python with pandas for data analysis")
    hidden = remember(owner_subject, "User's billing note", purpose="billing", embed=False)
    with tenant_context(owner_subject.tenant_id):
        MemoryEmbedding.objects.create(
            tenant_id=owner_subject.tenant_id,
            subject_id=owner_subject.id,
            record_id=hidden.record_id,
            model_id=model_id,
            vector=np.asarray(q),
        )
    found = ids(recall(read_agent.agent, owner_subject, QUESTION))
    assert mine.record_id in found and hidden.record_id not in found


def test_a_request_never_waits_behind_a_route_still_running_beside(owner_subject):
    go = threading.Event()
    with tenant_context(owner_subject.tenant_id):
        slow = side.start(lambda: go.wait(10))
        assert slow is not None
        assert side.start(lambda: 0) is None  # runs here instead
        go.set()
        assert side.result(slow, lambda: False) is True
        again = side.start(lambda: 1)
        assert side.result(again, lambda: -1) == 1
