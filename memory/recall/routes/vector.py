"""The vector route: the subject's memories that match the question more than they match
a typical question — an exact scan within the scope, or HNSW for a very large one."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

import numpy as np
from django.conf import settings
from django.db.models import FloatField, QuerySet
from django.db.models.expressions import RawSQL

from core.sqltemplate import Placeholders, QueryTemplate, read_connection, uuid_array
from memory.models import MemoryEmbedding
from memory.recall.query import QueryVector
from memory.recall.routes.common import (
    SEARCHABLE,
    doc_scope_q,
    searchable_records,
    subject_values,
)
from memory.recall.routes.slots import SlotKeys
from memory.recall.routes.vector_scope import VectorScope
from memory.recall.scope import Eligible

if TYPE_CHECKING:
    from memory.recall.routes.route_query import Hits, RouteQuery


def route_vector(
    eligible: Eligible,
    vector_scope: VectorScope,
    query_vector: QueryVector,
    n: int,
    slot_keys: SlotKeys | None = None,
) -> tuple[list[tuple[uuid.UUID, float]], dict[uuid.UUID, float]]:
    """The subject's embedded memories that match the query more than they match a
    typical question: hits ``(record id, cosine similarity)`` and each hit's margin, in
    margin order. Other versions of single-valued facts (``slot_keys``) are searched too.

    margin = cos(memory, query) - cos(memory, typical question of the query's language)
           = memory · (query - typical)                 (unit vectors; see
    ``memory.typical_questions``). A memory close to every question (a short profile
    line, or any memory in the question's script: multilingual-e5-small scores those
    ~0.05 higher) is no longer a candidate for every question; one that answers this
    question stands out. The margin needs no statistics over the scope, so it means the
    same for a subject with three memories and one with fifty thousand.

    An exact scan within (tenant, subject): per-subject scopes are small, and at that size
    an exact scan is both faster and exact where a filtered HNSW scan returns too few
    rows (docs/performance.md compares them). Only a scope holding more than VECTOR_EXACT_MAX vectors goes through HNSW
    with iterative scans (``approximate_scan``).

    ``memory.recall.accel.vector_cache`` ranks the same vectors in process, with the
    same answer, when the scope's vectors are cached (``ENGRAM_RECALL_VECTOR_CACHE``).

    The index may lag the write path (embedding runs after commit): recall never embeds
    on the request path (``run_routes`` counts the found memories without a vector as
    ``vector_pending``)."""
    embedded = query_vector.result()
    if embedded is None:
        return [], {}
    vector, typical = embedded
    shifted = vector - typical
    keys = slot_keys.ids if slot_keys else []
    values = {
        **eligible.values,
        **subject_values(list(vector_scope.subject_ids)),
        "model": vector_scope.model_id,
        "query_vector": vector_text(vector),
        "shifted": vector_text(shifted),
        "slot_keys": uuid_array(keys),
    }
    if vector_scope.approximate:
        rows = approximate_scan(
            (eligible.shape, len(vector_scope.subject_ids), bool(keys), n), values
        )
    else:
        # No index serves the inner product to a shifted query: an exact scan, as wanted.
        rows = _exact_scan(eligible, vector_scope, values, keys, n)
    return [(rid, sim) for rid, sim, _ in rows], {rid: m for rid, _, m in rows}


def _exact_scan(
    eligible: Eligible,
    vector_scope: VectorScope,
    values: dict,
    keys: list,
    n: int,
) -> list[tuple[uuid.UUID, float, float]]:
    """The scope's vectors in margin order, the best ``n`` that are searchable. The
    scope's vectors are ranked first and only the best ``_VECTOR_FIRST`` checked against
    ``eligible`` in the statement (one index probe each, not a scan of every record of
    the subject): if fewer than ``n`` of them are searchable, the scan is done again over
    the whole scope — so the answer is always the best ``n`` searchable by margin. Ranks,
    margins and similarities are computed for the scope's own vectors only (tenant,
    subjects and model)."""
    first = max(_VECTOR_FIRST, 4 * n)
    scope_params = [
        values["tenant"],
        uuid_array(list(vector_scope.subject_ids)),
        vector_scope.model_id,
    ]
    searchable, searchable_params = SEARCHABLE.sql_with_params(
        (eligible.shape, bool(keys)), {**eligible.values, "slot_keys": values["slot_keys"]}
    )
    sql = _VECTOR_SQL.format(searchable=searchable)
    with read_connection().cursor() as cursor:

        def scan(first: int | None) -> list[tuple[uuid.UUID, float, float]]:
            cursor.execute(
                sql,
                [
                    values["query_vector"],
                    values["shifted"],
                    *scope_params,
                    first,
                    *searchable_params,
                    n,
                ],
            )
            return cursor.fetchall()

        rows = scan(first)
        if len(rows) < n and vector_scope.size > first:
            rows = scan(None)  # LIMIT NULL: every vector of the scope
    return rows


# How many of the scope's best vectors are looked up in ``eligible`` first.
_VECTOR_FIRST = 200


# pgvector's <=> is the cosine distance, <#> the negative inner product. The similarity is
# computed for the best rows only.
_VECTOR_SQL = """
SELECT e.record_id, 1.0 - (e.vector <=> %s::vector) AS similarity, e.margin
FROM (
    SELECT v.record_id, v.vector, -(v.vector <#> %s::vector) AS margin
    FROM memory_memoryembedding v
    WHERE v.tenant_id = %s AND v.subject_id = ANY(%s::uuid[]) AND v.model_id = %s
    ORDER BY margin DESC, v.record_id
    LIMIT %s
) e
-- One primary-key probe per ranked vector, in rank order, until n are found: as
-- ``e.record_id IN (searchable)`` the planner hashed every searchable record of the
-- subject first, which costs more than the probes at every scope size measured.
CROSS JOIN LATERAL (
    SELECT 1 FROM ({searchable}) s WHERE s.id = e.record_id LIMIT 1
) AS searchable
ORDER BY e.margin DESC, e.record_id
LIMIT %s
"""


def _approximate_query(
    p: Placeholders, eligible_shape: tuple, subjects: int, with_keys: bool, n: int
) -> QuerySet:
    records = searchable_records(p, eligible_shape, with_keys)
    # pgvector's <=> is the cosine distance, <#> the negative inner product.
    similarity = RawSQL(
        '1.0 - ("memory_memoryembedding"."vector" <=> %s::vector)',
        [p.text("query_vector")],
        output_field=FloatField(),
    )
    margin = RawSQL(
        '-("memory_memoryembedding"."vector" <#> %s::vector)',
        [p.text("shifted")],
        output_field=FloatField(),
    )
    in_scope = MemoryEmbedding.objects.filter(
        doc_scope_q(p, subjects), model_id=p.text("model"), record__in=records
    ).annotate(similarity=similarity, margin=margin)
    # Memory vectors are unit length: ordering by cosine distance to the shifted query
    # orders by margin, and the cosine index serves it.
    order = RawSQL(
        '"memory_memoryembedding"."vector" <=> %s::vector',
        [p.text("shifted")],
        output_field=FloatField(),
    )
    return in_scope.order_by(order.asc()).values_list("record_id", "similarity", "margin")[:n]


_APPROXIMATE = QueryTemplate(_approximate_query)


def vector_text(vector: np.ndarray) -> str:
    """pgvector's text form of a float32 vector: nine significant digits give back every
    float32 exactly (tests/memory/test_vector_scopes.py)."""
    return "[" + ",".join(["%.9g"] * len(vector)) % tuple(vector.tolist()) + "]"


def approximate_scan(shape: tuple, values: dict) -> list[tuple[uuid.UUID, float, float]]:
    """The top ``n`` by margin of a very large scope through the HNSW index. Memory
    vectors are unit length, so ordering by cosine distance to the shifted query orders by
    margin, and the cosine index serves it. pgvector 0.8 iterative index scans keep the
    scan walking the graph until ``n`` rows pass the tenant, subject and eligibility
    filters (or ``hnsw.max_scan_tuples`` is reached), so the filters never starve the
    result. ``relaxed_order`` may return rows slightly out of order; they are re-sorted
    here. Settings are transaction-local."""
    with read_connection().cursor() as cursor:
        cursor.execute(
            "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true),"
            " set_config('hnsw.ef_search', %s, true)",
            [str(settings.ENGRAM_RETRIEVAL["HNSW_EF_SEARCH"])],
        )
    rows = list(_APPROXIMATE.rows(shape, values))
    return sorted(rows, key=lambda row: (-row[2], str(row[0])))


def search(q: RouteQuery) -> tuple[Hits, dict[uuid.UUID, float]]:
    """The route for ``q``."""
    return route_vector(q.eligible, q.vector_scope, q.query_vector, q.n, q.slot_keys)
