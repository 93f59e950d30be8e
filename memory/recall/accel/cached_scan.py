"""The vector route over a scope's vectors kept in this process (``vector_cache``): the
same answer as the reference's SQL scan (``memory.recall.routes.vector``), ranked in
process, without a scan after the question is embedded.

On with ``ENGRAM_RECALL_VECTOR_CACHE`` (the default; docs/performance.md has what it
saves). ``tests/memory/test_recall_accel_equivalence.py`` holds it to the reference."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from core.sqltemplate import read_connection, uuid_array
from memory.recall.accel import scope_read, vector_cache
from memory.recall.accel.vector_cache import ScopeVectors
from memory.recall.query import QueryVector
from memory.recall.routes.common import SEARCHABLE
from memory.recall.routes.slots import SlotKeys
from memory.recall.routes.vector_scope import VectorScope
from memory.recall.scope import Eligible

if TYPE_CHECKING:
    from memory.recall.routes.route_query import Hits, RouteQuery


# Up to this many vectors in a scope, the ids of the records the vector route may return
# are read while the question is embedded (``searchable_ids``); above, the ranked records
# are looked up in ``eligible`` after ranking (``_searchable_in_order``).
SEARCHABLE_READ_AHEAD_MAX = 2000


# At most this many of a scope's vectors are fetched into the cache per recall
# (``scope_vectors``), while the question is embedded: a cold large scope fills over a few
# recalls, and is scanned by SQL until it is whole.
VECTOR_FETCH_MAX = 2000


_SCOPE_IDS_SQL = (
    "SELECT coalesce(string_agg(int8send(id), ''::bytea ORDER BY id), ''::bytea)"
    " FROM memory_memoryembedding"
    " WHERE tenant_id = %s AND subject_id = ANY(%s) AND model_id = %s"
)


# A vector arrives as pgvector's binary send form (``vector_send``: bytea), which numpy
# reads as it is, rather than as text to parse.
_SCOPE_ROWS_SQL = (
    "SELECT id, record_id, vector_send(vector) FROM memory_memoryembedding"
    " WHERE tenant_id = %s AND subject_id = ANY(%s) AND model_id = %s"
)


def scope_vectors(
    vector_scope: VectorScope, packed_ids: bytes | None = None
) -> ScopeVectors | None:
    """Every vector of an exact scan's scope, from this process's cache
    (``memory.recall.vector_cache``), read while the question is embedded; None if the
    scope is not cached whole (too large, approximate, empty, or still filling): the scan
    then runs in SQL.

    With nothing kept yet, the scope's rows are read (up to ``VECTOR_FETCH_MAX``, in
    pgvector's binary form). Otherwise the scope's embedding ids are read in this
    transaction (``_SCOPE_IDS_SQL``: one index-only scan of ``memory_embedding_scope``)
    and the kept rows are used only if they are exactly those; if not, rows the database
    no longer holds are dropped and up to ``VECTOR_FETCH_MAX`` missing ones fetched. An
    embedding row's vector never changes (``MemoryEmbedding``'s trigger), so the same ids
    are the same vectors. ``packed_ids``: those ids, already read in this transaction
    (``scope_read``)."""
    if vector_scope.approximate or not 0 < vector_scope.size <= vector_cache.cache.size():
        return None
    key = (vector_scope.tenant_id, vector_scope.subject_ids, vector_scope.model_id)
    params = [vector_scope.tenant_id, list(vector_scope.subject_ids), vector_scope.model_id]
    held = vector_cache.cache.get(key)
    if held is None:
        # Nothing kept: the scope's first rows by id, with their ids, in one statement.
        rows = _rows(_SCOPE_ROWS_SQL + " ORDER BY id LIMIT %s", [*params, VECTOR_FETCH_MAX + 1])
        whole = len(rows) <= VECTOR_FETCH_MAX
        rows, dropped = rows[:VECTOR_FETCH_MAX], False
    else:
        if packed_ids is None:
            [(packed_ids,)] = _rows(_SCOPE_IDS_SQL, params)
        packed = packed_ids
        ids = vector_cache.decode_ids(packed)
        if np.array_equal(held.embedding_ids, ids):
            return held
        kept_ids = held.embedding_ids[np.isin(held.embedding_ids, ids, assume_unique=True)]
        dropped = len(kept_ids) < len(held)
        missing = np.setdiff1d(ids, kept_ids, assume_unique=True)
        whole = len(missing) <= VECTOR_FETCH_MAX
        missing = missing[:VECTOR_FETCH_MAX]
        rows = (
            _rows(_SCOPE_ROWS_SQL + " AND id = ANY(%s)", [*params, missing.tolist()])
            if len(missing)
            else []
        )
    fetched = vector_cache.decode_vectors([blob for _, _, blob in rows])
    if fetched is None or (
        held is not None
        and len(held)
        and len(fetched)
        and fetched.shape[1] != held.vectors.shape[1]
    ):
        # One model, two dimensions: not ours to judge here; the scan copes.
        vector_cache.cache.discard(key)
        return None
    new_ids = np.array([i for i, _, _ in rows], np.int64)
    new_records = [rid for _, rid, _ in rows]
    if dropped:  # the database no longer holds some kept rows: keep only the others
        kept = held.kept(ids)
        vectors = vector_cache.ScopeVectors.build(
            np.concatenate([kept[0], new_ids]),
            [*kept[1], *new_records],
            np.vstack([kept[2], fetched]) if len(fetched) else kept[2],
        )
    elif held is not None and len(held):
        vectors = held.extended(new_ids, new_records, fetched)
    else:
        vectors = vector_cache.ScopeVectors.build(new_ids, new_records, fetched)
    vector_cache.cache.put(key, vectors)
    return vectors if whole else None


def searchable_ids(
    eligible: Eligible, vector_scope: VectorScope, slot_keys: SlotKeys | None = None
) -> frozenset[uuid.UUID] | None:
    """The ids of the records the vector route may return (``eligible`` and other versions
    of single-valued facts), for an exact scan of a scope of at most
    ``SEARCHABLE_READ_AHEAD_MAX`` vectors; None otherwise (the scan joins them itself, and
    a scope without vectors has nothing to scan)."""
    if vector_scope.approximate or not 0 < vector_scope.size <= SEARCHABLE_READ_AHEAD_MAX:
        return None
    keys = slot_keys.ids if slot_keys else []
    rows = SEARCHABLE.rows(
        (eligible.shape, bool(keys)), {**eligible.values, "slot_keys": uuid_array(keys)}
    )
    return frozenset(rid for (rid,) in rows)


def _searchable_in_order(
    eligible: Eligible, vectors: ScopeVectors, shifted: np.ndarray, n: int, keys: list
) -> np.ndarray:
    """The rows of ``vectors`` whose records are searchable, the best ``n`` by margin: the
    best 4n ranked are looked up in ``eligible`` in one statement (one primary-key probe
    each, in rank order until n are found); if fewer than ``n`` of them are searchable,
    the next ones, four times as many each time, until every row is — the same answer as
    ``_exact_scan``'s in SQL, which ranks deeper first because each of its looks is a
    scan, where each look here is a probe of the next ranks."""
    searchable, searchable_params = SEARCHABLE.sql_with_params(
        (eligible.shape, bool(keys)), {**eligible.values, "slot_keys": uuid_array(keys)}
    )
    sql = _PROBE_SQL.format(searchable=searchable)
    found: list[int] = []
    looked, first = 0, 4 * max(n, 1)
    with read_connection().cursor() as cursor:
        while len(found) < n and looked < len(vectors):
            order = vectors.ranking(shifted, first=looked + first)[looked:]
            ranked = [vectors.record_ids[i] for i in order.tolist()]
            cursor.execute(sql, [uuid_array(ranked), *searchable_params, n - len(found)])
            found += [int(order[position - 1]) for (position,) in cursor.fetchall()]
            looked += len(order)
            first *= 4
    return np.array(found, np.int64)


_PROBE_SQL = """
SELECT c.position
FROM unnest(%s::uuid[]) WITH ORDINALITY AS c(id, position)
CROSS JOIN LATERAL (
    SELECT 1 FROM ({searchable}) s WHERE s.id = c.id LIMIT 1
) AS searchable
ORDER BY c.position
LIMIT %s
"""


def _rows(sql: str, params: list) -> list[tuple]:
    with read_connection().cursor() as cursor:
        cursor.execute(sql, params)
        return [
            tuple(bytes(v) if isinstance(v, memoryview) else v for v in row)
            for row in cursor.fetchall()
        ]


def route_vector_cached(
    eligible: Eligible,
    vector_scope: VectorScope,
    query_vector: QueryVector,
    n: int,
    slot_keys: SlotKeys | None,
    vectors: ScopeVectors,
    allowed: np.ndarray | None = None,
) -> tuple[list[tuple[uuid.UUID, float]], dict[uuid.UUID, float]]:
    """``routes.vector.route_vector``'s answer from the scope's cached ``vectors``: ranked
    here in the scan's order, the best searchable found among them with the ids read
    ahead (``allowed``: their rows, small scopes) or one probe of ``eligible`` in rank
    order (``_searchable_in_order``)."""
    embedded = query_vector.result()
    if embedded is None or not len(vectors):
        return [], {}
    vector, typical = embedded
    shifted = vector - typical
    keys = slot_keys.ids if slot_keys else []
    if allowed is not None:
        order = vectors.ranking(shifted, allowed, n)
    else:
        order = _searchable_in_order(eligible, vectors, shifted, n, keys)
    rows = vectors.hits(vector, shifted, order)
    return [(rid, sim) for rid, sim, _ in rows], {rid: m for rid, _, m in rows}


def prepare(q: RouteQuery) -> Callable[[], tuple[Hits, dict[uuid.UUID, float]]] | None:
    """The cached vector route for ``q``, its reads done now (while the question is
    embedded): None when the scope is not cached whole (too large, approximate, empty or
    still filling), and the reference's scan answers instead."""
    one = scope_read.read(q, SEARCHABLE_READ_AHEAD_MAX) if scope_read.enabled() else None
    if one is not None:
        # The count, the ids and the searchable ids in one statement: the route query
        # keeps this vector scope, as if it had counted it itself.
        q.vector_scope = one.vector_scope
        vectors = scope_vectors(one.vector_scope, one.packed_ids)
        if vectors is None:
            return None
        if one.searchable_packed is not None:  # ENGRAM_RECALL_PACKED_SEARCHABLE
            allowed = vectors.rows_in(one.searchable_packed)
            return lambda: route_vector_cached(
                q.eligible, one.vector_scope, q.query_vector, q.n, q.slot_keys, vectors, allowed
            )
        searchable = one.searchable
        if searchable is None:  # not read ahead: the scope is too large for it
            searchable = searchable_ids(q.eligible, one.vector_scope, q.slot_keys)
        return _prepared(q, one.vector_scope, vectors, searchable)
    vector_scope = q.vector_scope
    vectors = scope_vectors(vector_scope)
    if vectors is None:
        return None
    searchable = searchable_ids(q.eligible, vector_scope, q.slot_keys)
    return _prepared(q, vector_scope, vectors, searchable)


def _prepared(
    q: RouteQuery,
    vector_scope: VectorScope,
    vectors: ScopeVectors,
    searchable: frozenset[uuid.UUID] | None,
) -> Callable[[], tuple[Hits, dict[uuid.UUID, float]]]:
    allowed = vectors.rows_of(searchable) if searchable is not None else None
    return lambda: route_vector_cached(
        q.eligible, vector_scope, q.query_vector, q.n, q.slot_keys, vectors, allowed
    )
