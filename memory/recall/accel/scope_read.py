"""The vector scope's reads before the cached scan, in one statement
(``ENGRAM_RECALL_ONE_SCOPE_READ``, with ``ENGRAM_RECALL_VECTOR_CACHE``; on since
2026-12-06: about 1 ms of the request thread's and its backend's CPU a recall beside the
embedding, docs/performance.md).

The cached scan (``cached_scan.prepare``) reads three things while the question is
embedded, each a round trip: how many vectors the scope holds (``VectorScope.of``), the
scope's embedding ids (to check the kept vectors against) and the ids of the records the
vector route may return (``searchable_ids``). Here one statement reads all three, in one
snapshot, as the reference reads them apart: the count up to ``VECTOR_EXACT_MAX + 1``
(``_count_vectors``' statement), then — only when the scope is small enough for what
each is used for — the ids (``_SCOPE_IDS_SQL``) and the searchable ids (``SEARCHABLE``'s
SQL). A ``CASE`` around an uncorrelated subquery runs it only when its branch is taken
(PostgreSQL evaluates an init plan on first use), so a large scope pays for its count
only.

A large scope whose count is kept a while (``routes.common.kept_a_while``) is not read
here: the reference's reads run, with the kept count."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.conf import settings

from core.sqltemplate import uuid_array
from memory.recall.accel import prepared, vector_cache
from memory.recall.routes import common
from memory.recall.routes.vector_scope import VectorScope

_ONE_READ_SQL = """
WITH counted AS (
    SELECT count(*) AS n FROM (
        SELECT 1 FROM memory_memoryembedding
        WHERE tenant_id = %s AND subject_id = ANY(%s::uuid[]) AND model_id = %s
        LIMIT %s
    ) AS scope
)
SELECT
    counted.n,
    CASE WHEN counted.n BETWEEN 1 AND %s THEN (
        SELECT coalesce(string_agg(int8send(id), ''::bytea ORDER BY id), ''::bytea)
        FROM memory_memoryembedding
        WHERE tenant_id = %s AND subject_id = ANY(%s::uuid[]) AND model_id = %s
    ) END,
    CASE WHEN counted.n BETWEEN 1 AND %s THEN {searchable_ids} END
FROM counted
"""

# The searchable ids as uuids (the reference), or packed: each id's 16 bytes one after
# another (``ENGRAM_RECALL_PACKED_SEARCHABLE``), which numpy and ``bytes`` read as they
# are, where psycopg builds a ``uuid.UUID`` for each of a scope's hundreds of ids.
_SEARCHABLE_ARRAY = "ARRAY(SELECT searchable.id FROM ({searchable}) AS searchable)"
_SEARCHABLE_PACKED = (
    "(SELECT coalesce(string_agg(uuid_send(searchable.id), ''::bytea), ''::bytea)"
    " FROM ({searchable}) AS searchable)"
)


@dataclass(frozen=True)
class ScopeRead:
    """What one read found: the vector scope (its count as ``VectorScope.of`` gives it),
    the scope's embedding ids packed as ``_SCOPE_IDS_SQL`` returns them (None when the
    scope is too large to be kept), and the searchable record ids (None when the scope is
    too large to read them ahead: ``cached_scan.SEARCHABLE_READ_AHEAD_MAX``) or, with
    ``ENGRAM_RECALL_PACKED_SEARCHABLE``, ``searchable_packed`` instead: their 16 bytes
    each, one after another, in no order."""

    vector_scope: VectorScope
    packed_ids: bytes | None
    searchable: frozenset[uuid.UUID] | None
    searchable_packed: bytes | None = None


def enabled() -> bool:
    retrieval = settings.ENGRAM_RETRIEVAL
    return bool(retrieval["VECTOR_CACHE"] and retrieval["ONE_SCOPE_READ"])


def packs_searchable() -> bool:
    return bool(settings.ENGRAM_RETRIEVAL["PACKED_SEARCHABLE"])


def read(q, searchable_max: int) -> ScopeRead | None:
    """The one read for route query ``q``; None when the reference's reads should run
    (a large scope's count is kept a while)."""
    tenant_id, subject_ids = q.scope.tenant_id, list(q.subject_ids)
    model_id = q.query_vector.model_id
    exact_max = settings.ENGRAM_RETRIEVAL["VECTOR_EXACT_MAX"]
    key = ("vectors", tenant_id, model_id, exact_max, *sorted(subject_ids))
    if settings.ENGRAM_RETRIEVAL["SCOPE_COUNTS"] and common.STATISTICS.get(key) is not None:
        return None
    keys = q.slot_keys.ids if q.slot_keys else []
    searchable_sql, searchable_params = prepared.statement(
        common.SEARCHABLE,
        (q.eligible.shape, bool(keys)),
        {**q.eligible.values, "slot_keys": uuid_array(keys)},
    )
    scope_params = [tenant_id, uuid_array(subject_ids), model_id]
    packs = packs_searchable()
    searchable_ids = (_SEARCHABLE_PACKED if packs else _SEARCHABLE_ARRAY).format(
        searchable=searchable_sql
    )
    with prepared.cursor() as cursor:
        cursor.execute(
            _ONE_READ_SQL.format(searchable_ids=searchable_ids),
            [
                *scope_params,
                exact_max + 1,
                min(exact_max, vector_cache.cache.size()),
                *scope_params,
                min(exact_max, searchable_max),
                *searchable_params,
            ],
        )
        size, packed, searchable = cursor.fetchone()
    if settings.ENGRAM_RETRIEVAL["SCOPE_COUNTS"] and size >= common.STATISTICS_KEPT_FROM:
        common.STATISTICS.put(key, size)  # as ``kept_a_while`` keeps it
    vector_scope = VectorScope(tenant_id, tuple(subject_ids), model_id, size > exact_max, size)
    if packs:
        return ScopeRead(
            vector_scope,
            bytes(packed) if packed is not None else None,
            None,
            bytes(searchable) if searchable is not None else None,
        )
    return ScopeRead(
        vector_scope,
        bytes(packed) if packed is not None else None,
        frozenset(searchable) if searchable is not None else None,
    )
