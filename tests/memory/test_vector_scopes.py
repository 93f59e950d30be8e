"""The vector route's two ways through a scope: an exact scan (subjects up to
VECTOR_EXACT_MAX vectors) and, above that, the HNSW index with pgvector's iterative
scans — which must not let the tenant/subject/eligibility filters starve the result."""

from __future__ import annotations

import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from core.tenancy import tenant_context
from memory.embedders import embed_query_cached
from memory.recall import QueryVector, RecallRequest, RecallScope
from memory.recall.accel import cached_scan
from memory.recall.routes import VectorScope, route_vector
from memory.recall.scope import Eligible
from memory.selectors import active_model_id
from tests.helpers.retrieval import (
    BACKGROUND,
    PURPOSE,
    embed_as,
    ids,
    recall,
    remember,
    remember_many,
)

QUERY = "Which seat does the user want on a plane?"


def _route_vector(
    eligible, vector_scope, query_vector, n, slot_keys=None, vectors=None, searchable=None
):
    """The reference's scan, or — given the scope's cached ``vectors`` — the cached route,
    with the searchable ids read ahead (``searchable``) or probed after ranking."""
    if vectors is None:
        return route_vector(eligible, vector_scope, query_vector, n, slot_keys)
    allowed = vectors.rows_of(searchable) if searchable is not None else None
    return cached_scan.route_vector_cached(
        eligible, vector_scope, query_vector, n, slot_keys, vectors, allowed
    )


@pytest.fixture
def hnsw_path(settings):
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "VECTOR_EXACT_MAX": 0}


def test_hnsw_iterative_scan_is_not_starved_by_the_scope_filter(
    hnsw_path, read_agent, owner_subject, same_tenant_user, other_tenant_user
):
    model_id, q = embed_query_cached(QUERY, active_model_id())
    rng = np.random.default_rng(7)
    # 300 vectors of other people, each (almost) exactly the query: the graph's nearest.
    for i, subject in enumerate((same_tenant_user[1], other_tenant_user[1])):
        others = remember_many(subject, [f"Someone else's note {i}-{j}" for j in range(150)])
        near = [q + rng.normal(0, 1e-3, q.shape) for _ in others]
        with tenant_context(subject.tenant_id):
            embed_as(others, near, model_id)
    # Ours are further away.
    mine = remember_many(owner_subject, [f"User's own note number {j}" for j in range(12)])
    embed_as(mine, [q + rng.normal(0, 0.05, q.shape) for _ in mine], model_id)

    agent = read_agent.agent
    scope = RecallScope(owner_subject.tenant_id, owner_subject.id, agent.id, agent.clearance)
    request = RecallRequest(query=QUERY, purpose=PURPOSE)
    now = timezone.now()
    with tenant_context(owner_subject.tenant_id):
        # No sorting allowed: the planner has to walk the HNSW index in distance order.
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_sort = off")
            cursor.execute(
                "EXPLAIN SELECT id FROM memory_memoryembedding "
                "ORDER BY vector <=> %s::vector LIMIT 10",
                [str(q.tolist())],
            )
            assert "memory_embedding_hnsw" in " ".join(r[0] for r in cursor.fetchall())
        eligible = Eligible.of(scope, request, as_of=now, now=now)
        query_vector = QueryVector.start(QUERY)
        vector_scope = VectorScope.of(scope, [owner_subject.id], query_vector.model_id)
        assert vector_scope.approximate
        hits, margins = _route_vector(eligible, vector_scope, query_vector, 10)
    assert len(hits) == 10
    assert {rid for rid, _ in hits} <= set(mine)
    # In margin order (the HNSW index orders by distance to the shifted query).
    assert [margins[rid] for rid, _ in hits] == sorted(margins.values(), reverse=True)
    assert set(margins) == {rid for rid, _ in hits}


def test_the_hnsw_path_answers_like_the_exact_scan_and_keeps_the_filters(
    settings, read_agent, owner_subject, same_tenant_user
):
    question = "Which programming language does the user prefer for data analysis?"
    remember(same_tenant_user[1], question)  # the nearest vector, of someone else
    mine = remember(owner_subject, "User prefers Python with pandas for data analysis")
    old = remember(owner_subject, "User lives in Shanghai", predicate="home_city", value="Shanghai")
    remember(owner_subject, "User moved to Hangzhou", predicate="home_city", value="Hangzhou")
    for statement in BACKGROUND:
        remember(owner_subject, statement)
    questions = [question, "Where is the user's home these days?", "用户住在哪个城市？"]

    def answers():
        return [ids(recall(read_agent.agent, owner_subject, q)) for q in questions]

    exact = answers()
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "VECTOR_EXACT_MAX": 0}
    assert answers() == exact
    assert exact[0] == [mine.record_id] and exact[1] and exact[2]
    assert not {old.record_id} & {i for answer in exact for i in answer}


@pytest.mark.parametrize("path", ["cached-ids-read-ahead", "cached-probed", "scanned"])
def test_the_exact_scan_finds_the_best_searchable_even_behind_many_that_are_not(
    read_agent, owner_subject, monkeypatch, path
):
    """The exact scan ranks the scope's vectors first and checks only the best few against
    ``eligible``: when those are all out of reach (another purpose), it checks every
    record, so the answer is still the best searchable by margin and nothing out of reach
    comes back — in SQL (scanned), and ranked in process from the cached vectors, with the
    searchable ids read ahead or probed in rank order after ranking."""
    from memory.recall.routes import vector as routes

    model_id, q = embed_query_cached(QUERY, active_model_id())
    rng = np.random.default_rng(11)
    # Ten memories written for another purpose: the nearest to the question.
    hidden = [
        remember(owner_subject, f"Window seat note {i}", purpose="billing", embed=False).record_id
        for i in range(10)
    ]
    embed_as(hidden, [q + rng.normal(0, 1e-3, q.shape) for _ in hidden], model_id)
    # Two of this purpose, further away, one nearer than the other.
    near, far = remember_many(owner_subject, ["User's aisle seat note", "User's bus seat note"])
    embed_as(
        [near, far], [q + rng.normal(0, 0.03, q.shape), q + rng.normal(0, 0.3, q.shape)], model_id
    )
    monkeypatch.setattr(routes, "_VECTOR_FIRST", 2)
    if path == "cached-probed":
        monkeypatch.setattr(cached_scan, "SEARCHABLE_READ_AHEAD_MAX", 0)
    scope = RecallScope(
        owner_subject.tenant_id, owner_subject.id, read_agent.agent.id, read_agent.agent.clearance
    )
    now = timezone.now()
    with tenant_context(owner_subject.tenant_id):
        eligible = Eligible.of(
            scope, RecallRequest(query=QUERY, purpose=PURPOSE), as_of=now, now=now
        )
        query_vector = QueryVector.start(QUERY)
        vector_scope = VectorScope.of(scope, [owner_subject.id], query_vector.model_id)
        assert not vector_scope.approximate and vector_scope.size == 12
        vectors = cached_scan.scope_vectors(vector_scope) if path != "scanned" else None
        searchable = cached_scan.searchable_ids(eligible, vector_scope) if vectors else None
        if path == "cached-ids-read-ahead":
            assert searchable == {near, far}
        else:
            assert searchable is None

        def scan():
            return _route_vector(eligible, vector_scope, query_vector, 2, None, vectors, searchable)

        # First look: the best 8 (4 × n) are all of another purpose; then every record.
        with CaptureQueriesContext(connection) as scans:
            hits, margins = scan()
        assert [rid for rid, _ in hits] == [near, far]
        assert margins[near] > margins[far]
        statements = [s["sql"] for s in scans.captured_queries]
        assert len([s for s in statements if "memory_memoryembedding" in s]) == (
            2 if path == "scanned" else 0
        )
        assert len([s for s in statements if "WITH ORDINALITY" in s]) == (
            2 if path == "cached-probed" else 0
        )
        if path != "scanned":
            return  # probed: the best 8 (4 × n), then the next 32: every one
        # With room for all in the first look, the same answer in one statement.
        monkeypatch.setattr(routes, "_VECTOR_FIRST", 50)
        with CaptureQueriesContext(connection) as scans:
            assert scan()[0] == hits
        assert len(scans.captured_queries) == 1


def test_ids_are_read_ahead_only_for_an_exact_scan_of_a_small_scope(
    read_agent, owner_subject, monkeypatch, settings
):
    from memory.recall.routes import vector as routes

    remember_many(owner_subject, ["User likes tea", "User likes chess", "User likes rain"])
    scope = RecallScope(
        owner_subject.tenant_id, owner_subject.id, read_agent.agent.id, read_agent.agent.clearance
    )
    now = timezone.now()
    with tenant_context(owner_subject.tenant_id):
        eligible = Eligible.of(scope, RecallRequest(query="x", purpose=PURPOSE), as_of=now, now=now)
        small = routes.VectorScope(scope.tenant_id, (owner_subject.id,), "m", False, 3)
        assert len(cached_scan.searchable_ids(eligible, small)) == 3
        monkeypatch.setattr(cached_scan, "SEARCHABLE_READ_AHEAD_MAX", 2)
        assert cached_scan.searchable_ids(eligible, small) is None
        approximate = routes.VectorScope(scope.tenant_id, (owner_subject.id,), "m", True, 1)
        assert cached_scan.searchable_ids(eligible, approximate) is None


def test_the_query_vector_reaches_pgvector_exactly(db):
    """The query goes to PostgreSQL as text: every float32 comes back bit for bit, from
    the smallest to the largest magnitudes an embedding can hold."""
    from memory.recall.routes.vector import vector_text as _vector_text

    rng = np.random.default_rng(5)
    with connection.cursor() as cursor:
        for scale in (1e-8, 1e-3, 1.0, 1e3):
            v = (rng.normal(0, 1, 384) * scale).astype(np.float32)
            cursor.execute("SELECT %s::vector::real[]", [_vector_text(v)])
            assert np.array_equal(np.array(cursor.fetchone()[0], dtype=np.float32), v)


def test_the_scope_counts_only_its_own_vectors_up_to_the_threshold(
    read_agent, owner_subject, same_tenant_user, settings
):
    """The size that chooses the exact scan or HNSW: this subject's vectors of this
    model, not another subject's or model's, counted only up to VECTOR_EXACT_MAX + 1."""
    model_id = active_model_id()
    unit = np.ones(384, dtype=np.float32) / np.sqrt(384)
    mine = remember_many(owner_subject, [f"User note {i}" for i in range(5)])  # not embedded
    embed_as(mine, [unit] * 5, model_id)
    embed_as(mine[:3], [unit] * 3, "other/model")
    bobs = remember_many(same_tenant_user[1], [f"Bob's note {i}" for i in range(4)])
    embed_as(bobs, [unit] * 4, model_id)
    scope = RecallScope(
        owner_subject.tenant_id, owner_subject.id, read_agent.agent.id, read_agent.agent.clearance
    )
    with tenant_context(owner_subject.tenant_id):
        assert VectorScope.of(scope, [owner_subject.id], model_id).size == 5
        assert VectorScope.of(scope, [owner_subject.id], "other/model").size == 3
        both = [owner_subject.id, same_tenant_user[1].id]
        assert VectorScope.of(scope, both, model_id).size == 9
        settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "VECTOR_EXACT_MAX": 2}
        capped = VectorScope.of(scope, [owner_subject.id], model_id)
        assert capped.size == 3 and capped.approximate


def _scope_of(read_agent, subject, query: str = QUERY):
    now = timezone.now()
    scope = RecallScope(
        subject.tenant_id, subject.id, read_agent.agent.id, read_agent.agent.clearance
    )
    eligible = Eligible.of(scope, RecallRequest(query=query, purpose=PURPOSE), as_of=now, now=now)
    return scope, eligible


@pytest.mark.parametrize("read_ahead", [True, False], ids=["ids-read-ahead", "probed"])
def test_cached_vectors_rank_as_the_scan_does(read_agent, owner_subject, monkeypatch, read_ahead):
    """The cached vectors are ranked in process as the exact scan ranks them in
    PostgreSQL: the same records in the same order (ties by record id), the same margins
    and similarities to float precision, for every n."""

    if not read_ahead:
        monkeypatch.setattr(cached_scan, "SEARCHABLE_READ_AHEAD_MAX", 0)
    model_id, q = embed_query_cached(QUERY, active_model_id())
    rng = np.random.default_rng(3)
    records = remember_many(owner_subject, [f"User's seat note {i}" for i in range(40)])
    vectors = [q + rng.normal(0, 0.2, q.shape) for _ in records]
    vectors[5] = vectors[6] = vectors[7] = vectors[9]  # ties: broken by record id
    vectors = [v / np.linalg.norm(v) for v in vectors]
    embed_as(records, vectors, model_id)
    scope, eligible = _scope_of(read_agent, owner_subject)
    with tenant_context(owner_subject.tenant_id):
        query_vector = QueryVector.start(QUERY)
        vector_scope = VectorScope.of(scope, [owner_subject.id], query_vector.model_id)
        cached = cached_scan.scope_vectors(vector_scope)
        assert sorted(cached.record_ids) == sorted(records)
        searchable = cached_scan.searchable_ids(eligible, vector_scope)
        assert (searchable is not None) == read_ahead
        for n in (1, 4, 10, 40, 60):
            ranked = _route_vector(
                eligible, vector_scope, query_vector, n, None, cached, searchable
            )
            scanned = _route_vector(eligible, vector_scope, query_vector, n)
            assert [rid for rid, _ in ranked[0]] == [rid for rid, _ in scanned[0]]
            assert len(ranked[0]) == min(n, 40)
            for (rid, sim), (_, scan_sim) in zip(ranked[0], scanned[0], strict=True):
                assert sim == pytest.approx(scan_sim, abs=1e-5)
                assert ranked[1][rid] == pytest.approx(scanned[1][rid], abs=1e-5)
    tied = sorted(records[i] for i in (5, 6, 7, 9))
    order = [rid for rid, _ in ranked[0]]
    assert [rid for rid in order if rid in tied] == tied


def test_cached_vectors_are_the_stored_floats_of_this_scope_and_model_only(
    read_agent, owner_subject, same_tenant_user, other_tenant_user
):
    """The binary send form loses nothing (every float32 as stored), and the cache holds the
    vectors of the scope's subjects under its model only: not another subject's, another
    tenant's or another model's. Another purpose's vector is in the scope (its record is
    not searchable: the route's filter, not the cache, keeps it out)."""

    model_id, q = embed_query_cached(QUERY, active_model_id())
    rng = np.random.default_rng(9)
    mine = remember_many(owner_subject, ["User likes tea", "User likes chess", "User likes rain"])
    exact = [
        (rng.normal(0, 1, q.shape) * 10.0 ** rng.integers(-6, 3)).astype(np.float32) for _ in mine
    ]
    embed_as(mine, exact, model_id)
    billing = remember(owner_subject, "User pays by card", purpose="billing", embed=False)
    embed_as([billing.record_id], [q], model_id)
    embed_as(mine[:1], [q], "other/model")
    for subject in (same_tenant_user[1], other_tenant_user[1]):
        theirs = remember_many(subject, ["Someone likes tea"])
        with tenant_context(subject.tenant_id):
            embed_as(theirs, [q], model_id)
    scope, eligible = _scope_of(read_agent, owner_subject)
    with tenant_context(owner_subject.tenant_id):
        vector_scope = VectorScope.of(scope, [owner_subject.id], model_id)
        assert vector_scope.size == 4  # the billing memory's vector is in scope, not searchable
        cached = cached_scan.scope_vectors(vector_scope)
        assert cached_scan.searchable_ids(eligible, vector_scope) == set(mine)
    assert set(cached.record_ids) == {*mine, billing.record_id}
    by_id = dict(zip(cached.record_ids, cached.vectors, strict=True))
    for rid, stored in zip(mine, exact, strict=True):
        assert np.array_equal(by_id[rid], stored)
