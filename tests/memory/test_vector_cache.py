"""The vectors recall keeps in process memory (``memory.recall.accel.vector_cache``): used only
when the database holds exactly those rows for the scope, brought up to date by fetching
only what changed, never ranking a deleted or replaced vector, bounded in size and time,
and never carried into a forked child."""

from __future__ import annotations

import os
import uuid

import numpy as np
import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.tenancy import tenant_context
from memory.embedders import embed_query_cached
from memory.models import MemoryEmbedding
from memory.recall import QueryVector, RecallRequest, RecallScope
from memory.recall.accel import cached_scan
from memory.recall.accel.cached_scan import route_vector_cached, scope_vectors
from memory.recall.accel.vector_cache import ScopeVectors, VectorCache, cache
from memory.recall.routes import VectorScope, route_vector
from memory.recall.scope import Eligible
from memory.selectors import active_model_id
from tests.helpers.lifecycle import erase
from tests.helpers.retrieval import PURPOSE, embed_as, ids, recall, remember_many

QUERY = "Which seat does the user want on a plane?"


def _statements(run, table="memory_memoryembedding"):
    return [q["sql"] for q in run.captured_queries if table in q["sql"]]


def _vector_hits(subject, model_id, vectors, n=10):
    """The vector route's hits from ``vectors`` (in the subject's tenant)."""
    scope = RecallScope(subject.tenant_id, subject.id, None, "internal")
    now = timezone.now()
    eligible = Eligible.of(scope, RecallRequest(query=QUERY, purpose=PURPOSE), as_of=now, now=now)
    vector_scope, query_vector = _vector_scope(subject, model_id), QueryVector.start(QUERY)
    if vectors is None:  # not cached whole: the reference's scan
        hits, _ = route_vector(eligible, vector_scope, query_vector, n)
    else:
        hits, _ = route_vector_cached(eligible, vector_scope, query_vector, n, None, vectors)
    return [rid for rid, _ in hits]


def _vector_scope(subject, model_id):
    scope = RecallScope(subject.tenant_id, subject.id, None, "internal")
    return VectorScope.of(scope, [subject.id], model_id)


@pytest.fixture
def seats(owner_subject):
    """Five memories with known vectors around the question, nearest first."""
    model_id, q = embed_query_cached(QUERY, active_model_id())
    rng = np.random.default_rng(21)
    rids = remember_many(owner_subject, [f"User's seat note {i}" for i in range(5)])
    vectors = [q + rng.normal(0, 0.02 * (i + 1), q.shape) for i in range(5)]
    embed_as(rids, [v / np.linalg.norm(v) for v in vectors], model_id)
    return model_id, q, rids


def test_a_second_recall_ranks_the_kept_vectors_without_reading_them(owner_subject, seats):
    model_id, _, rids = seats
    with tenant_context(owner_subject.tenant_id):
        with CaptureQueriesContext(connection) as first:
            cold = scope_vectors(_vector_scope(owner_subject, model_id))
        with CaptureQueriesContext(connection) as second:
            warm = scope_vectors(_vector_scope(owner_subject, model_id))
    assert sorted(cold.record_ids) == sorted(rids)
    # Cold: the rows themselves, once. Warm: only their ids, which match.
    assert ["SELECT id, record_id, vector_send(vector)" in s for s in _statements(first)][-1]
    [check] = [s for s in _statements(second) if "int8send" in s]
    assert not [s for s in _statements(second) if "SELECT id, record_id, vector_send(vector)" in s]
    assert warm is cold and check


def test_a_new_vector_is_fetched_alone_and_found(owner_subject, seats, monkeypatch):
    model_id, q, rids = seats
    with tenant_context(owner_subject.tenant_id):
        scope_vectors(_vector_scope(owner_subject, model_id))
    [newest] = remember_many(owner_subject, ["User's newest seat note"])
    embed_as([newest], [q], model_id)  # the question itself: the best match
    fetched = []
    original = cached_scan._rows

    def spy(sql, params):
        rows = original(sql, params)
        if "SELECT id, record_id, vector_send(vector)" in sql:
            fetched.append([rid for _, rid, _ in rows])
        return rows

    monkeypatch.setattr(cached_scan, "_rows", spy)
    with tenant_context(owner_subject.tenant_id):
        vectors = scope_vectors(_vector_scope(owner_subject, model_id))
    assert fetched == [[newest]]
    assert set(vectors.record_ids) == {*rids, newest}
    with tenant_context(owner_subject.tenant_id):
        assert _vector_hits(owner_subject, model_id, vectors)[0] == newest


def test_a_deleted_vector_is_never_ranked_and_leaves_the_cache(read_agent, owner_subject, seats):
    """The best memory is erased through the deletion workflow after a recall kept the
    scope's vectors: the next recall neither ranks nor keeps its vector, and the
    workflow's receipt lists this process's cache."""
    model_id, _, rids = seats
    best = rids[0]
    assert ids(recall(read_agent.agent, owner_subject, QUERY))[0] == best
    key = (owner_subject.tenant_id, (owner_subject.id,), model_id)
    assert best in cache.get(key).record_ids
    request = erase(owner_subject, "memory", best)
    assert request.verification["recall_vector_cache"] == 0
    assert request.receipt["recall_vector_cache"] == 5  # this process's copy, dropped
    assert cache.get(key) is None
    # Kept again by the next recall, without the erased one.
    answer = recall(read_agent.agent, owner_subject, QUERY)
    assert best not in ids(answer) and ids(answer)
    assert best not in cache.get(key).record_ids


def test_a_vector_deleted_behind_the_cache_is_dropped_at_the_next_use(owner_subject, seats):
    """Another process deleted a row (here: directly, as another worker's erasure would):
    this one's kept copy no longer matches the scope's ids, so its rows are dropped."""
    model_id, q, rids = seats
    with tenant_context(owner_subject.tenant_id):
        scope_vectors(_vector_scope(owner_subject, model_id))
        MemoryEmbedding.objects.filter(record_id=rids[0]).delete()
        vectors = scope_vectors(_vector_scope(owner_subject, model_id))
        assert rids[0] not in vectors.record_ids and len(vectors) == 4
        hits = _vector_hits(owner_subject, model_id, vectors)
    assert rids[0] not in hits and len(hits) == 4


def test_a_replaced_vector_is_a_new_row_and_the_new_one_is_ranked(owner_subject, seats):
    """A re-embedded memory (its context erased, say) gets a new row: the kept copy of the
    old one is not used, whatever the record."""
    model_id, q, rids = seats
    worst = rids[-1]
    with tenant_context(owner_subject.tenant_id):
        before = scope_vectors(_vector_scope(owner_subject, model_id))
        MemoryEmbedding.objects.filter(record_id=worst).delete()
        embed_as([worst], [q], model_id)
        after = scope_vectors(_vector_scope(owner_subject, model_id))
    row = after.record_ids.index(worst)
    assert np.allclose(after.vectors[row], q) and not np.allclose(
        before.vectors[before.record_ids.index(worst)], q
    )


@pytest.mark.parametrize("field", ["vector", "record_id"])
def test_the_database_refuses_to_change_a_rows_vector_or_record(owner_subject, seats, field):
    model_id, q, rids = seats
    row = MemoryEmbedding.objects.get(record_id=rids[0])
    change = {"vector": -q} if field == "vector" else {"record_id": rids[1]}
    with pytest.raises(DatabaseError, match="never change"), transaction.atomic():
        MemoryEmbedding.objects.filter(pk=row.pk).update(**change)
    assert np.allclose(MemoryEmbedding.objects.get(pk=row.pk).vector, row.vector)
    # Bookkeeping on the row may change.
    MemoryEmbedding.objects.filter(pk=row.pk).update(context_event_id=uuid.uuid4())


def test_a_cold_scope_fills_over_several_recalls_and_answers_alike(
    owner_subject, seats, monkeypatch
):
    """With at most two rows fetched per recall, five vectors take three recalls to keep
    whole; until then the route scans in SQL — the same answer every time."""
    model_id, _, rids = seats
    monkeypatch.setattr(cached_scan, "VECTOR_FETCH_MAX", 2)
    answers = []
    for expected_whole in (False, False, True, True):
        with tenant_context(owner_subject.tenant_id):
            vectors = scope_vectors(_vector_scope(owner_subject, model_id))
            assert (vectors is not None) == expected_whole
            answers.append(_vector_hits(owner_subject, model_id, vectors))
    assert answers[0] == answers[1] == answers[2] == answers[3] == rids


def test_another_tenants_transaction_sees_none_of_the_kept_vectors(
    owner_subject, seats, other_tenant_user
):
    model_id, _, _ = seats
    with tenant_context(owner_subject.tenant_id):
        mine = _vector_scope(owner_subject, model_id)
        assert len(scope_vectors(mine)) == 5
    # The same scope asked for inside another tenant's transaction: row-level security
    # shows no ids, so nothing kept is used — and the kept copy goes.
    with tenant_context(other_tenant_user[1].tenant_id):
        assert _vector_scope(owner_subject, model_id).size == 0
        assert scope_vectors(_vector_scope(owner_subject, model_id)) is None
        forged = VectorScope(mine.tenant_id, mine.subject_ids, mine.model_id, False, 5)
        assert not scope_vectors(forged)
    assert cache.get((mine.tenant_id, mine.subject_ids, mine.model_id)) is None


def test_the_cache_off_or_too_small_scans_in_sql(owner_subject, seats, settings):
    model_id, _, _ = seats
    for size in (0, 4):
        settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "VECTOR_CACHE_SIZE": size}
        with tenant_context(owner_subject.tenant_id):
            assert scope_vectors(_vector_scope(owner_subject, model_id)) is None


def _vectors(n, seed=0):
    rng = np.random.default_rng(seed)
    return ScopeVectors.build(
        np.arange(1, n + 1) * 7, [uuid.uuid4() for _ in range(n)], rng.normal(0, 1, (n, 8))
    )


def test_the_cache_holds_at_most_its_size_dropping_the_least_recently_used(settings):
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "VECTOR_CACHE_SIZE": 10}
    kept = VectorCache()
    a, b, c = (("t", (uuid.uuid4(),), "m") for _ in range(3))
    kept.put(a, _vectors(4))
    kept.put(b, _vectors(4))
    assert kept.get(a) is not None  # a is now the most recent
    kept.put(c, _vectors(4))  # 12 > 10: b goes
    assert kept.get(b) is None and kept.get(a) and kept.get(c) and kept.held() == 8
    kept.put(b, _vectors(11))  # larger than the whole cache: not kept
    assert kept.get(b) is None and kept.held() == 8


def test_idle_scopes_are_swept(settings):
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "VECTOR_CACHE_SECONDS": 60.0}
    kept = VectorCache()
    key = ("t", (uuid.uuid4(),), "m")
    kept.put(key, _vectors(3))
    assert kept.sweep() == 0 and kept.get(key)
    from time import monotonic

    assert kept.sweep(now=monotonic() + 61) == 1
    assert kept.get(key) is None and kept.held() == 0


def test_a_forked_child_starts_with_nothing_kept():
    cache.put(("t", (uuid.uuid4(),), "m"), _vectors(3))
    assert cache.held() >= 3
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: no database, no threads of the parent
        os.write(write, str(cache.held()).encode())
        os._exit(0)
    os.waitpid(pid, 0)
    assert os.read(read, 32) == b"0"


def test_ranking_breaks_ties_by_record_id_and_matches_float64():
    """Equal vectors tie exactly and go by record id; the rough float32 preselection
    never changes the float64 order of the first rows."""
    rng = np.random.default_rng(4)
    matrix = rng.normal(0, 1, (300, 16))
    matrix[10] = matrix[20] = matrix[30] = matrix[5] * 3  # the best, tied
    records = [uuid.uuid4() for _ in range(300)]
    vectors = ScopeVectors.build(np.arange(300), records, matrix)
    shifted = matrix[5] / np.linalg.norm(matrix[5])
    exact = (matrix.astype(np.float32).astype(np.float64) @ shifted).astype(np.float32)
    tie = sorted(range(300), key=records.__getitem__)
    place = {row: i for i, row in enumerate(tie)}
    expected = sorted(range(300), key=lambda r: (-exact[r], place[r]))
    for first in (1, 4, 25, None):
        assert vectors.ranking(shifted, first=first).tolist() == expected[:first]
    tied = vectors.ranking(shifted, first=3).tolist()  # rows 10, 20, 30
    assert sorted(records[r] for r in tied) == [records[r] for r in tied]
    allowed = np.array([r for r in range(300) if r % 3], np.int64)
    assert vectors.ranking(shifted, allowed, 5).tolist() == [r for r in expected if r % 3][:5]


def test_new_rows_are_added_in_place_and_earlier_views_stay_as_they_were():
    base = _vectors(5)
    ids, records = base.embedding_ids.copy(), base.record_ids
    rng = np.random.default_rng(8)
    more = rng.normal(0, 1, (2, 8))
    grown = base.extended(np.array([100, 90]), [uuid.uuid4(), uuid.uuid4()], more)
    assert grown._rows is base._rows  # written past the earlier rows, not copied
    assert grown.embedding_ids.tolist() == [*ids.tolist(), 90, 100]
    assert np.allclose(grown.vectors[-2:], more[::-1].astype(np.float32))
    assert len(base) == 5 and base.embedding_ids.tolist() == ids.tolist()
    assert base.record_ids == records
    # A second growth of the same earlier view cannot write where the first did: copied.
    other = base.extended(np.array([200]), [uuid.uuid4()], rng.normal(0, 1, (1, 8)))
    assert other._rows is not base._rows
    assert grown.embedding_ids.tolist()[-2:] == [90, 100]  # untouched
    # Ids that do not come after the last: copied, and in id order.
    early = grown.extended(np.array([3]), [uuid.uuid4()], rng.normal(0, 1, (1, 8)))
    assert early._rows is not grown._rows
    assert early.embedding_ids.tolist() == sorted([*grown.embedding_ids.tolist(), 3])
    # The tie-break follows the record ids, however the rows came.
    order = sorted(range(len(early)), key=lambda i: early.record_ids[i])
    assert [int(early.tie[i]) for i in order] == list(range(len(early)))
