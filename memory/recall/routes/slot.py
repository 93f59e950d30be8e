"""The slot route: the predicate whose name the question matches by meaning."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from django.db.models import QuerySet

from memory.embedders import predicate_labels
from memory.models import MemoryRecord
from memory.recall.query import QueryVector
from memory.recall.routes.common import queryset_of
from memory.recall.ties import TIME_ORDER
from memory.recall.weights import RecallWeights

if TYPE_CHECKING:
    from memory.recall.routes.route_query import Hits, RouteQuery

Hits = list[tuple[uuid.UUID, float]]


def route_slot(
    eligible: QuerySet[MemoryRecord] | Callable[[], QuerySet[MemoryRecord]],
    query_vector: QueryVector,
    predicates: tuple[str, ...],
    w: RecallWeights,
    n: int,
) -> Hits:
    """Slot lookup by meaning: the predicate whose name, read as words ("home city"),
    the question matches best, scored like the vector route (margin over a typical
    question); if it clears ``slot_min_margin``, that slot's eligible records. The exact
    route finds a slot the question names; this one finds it when the question says it
    in other words or in the other language. Every hit scores the slot's match."""
    if not predicates:
        return []
    embedded = query_vector.result()
    if embedded is None:
        return []
    vector, typical = embedded
    known, labels = predicate_labels(query_vector.model_id, predicates)
    if not known:
        return []
    scores = labels @ (vector - typical)
    best = int(np.argmax(scores))
    if scores[best] < w.slot_min_margin:
        return []
    score = round(float(scores[best]), 4)
    rows = (
        queryset_of(eligible)
        .filter(predicate=known[best])
        .order_by(*TIME_ORDER)
        .values_list("id", flat=True)[:n]
    )
    return [(rid, score) for rid in rows]


def search(q: RouteQuery) -> Hits:
    """The route for ``q``."""
    return route_slot(lambda: q.records, q.query_vector, q.predicates, q.weights, q.n)
