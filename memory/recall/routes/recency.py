"""The recency route: the latest experiences, for questions that ask for them."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.db.models import QuerySet

from memory import lexical
from memory.models import MemoryRecord, MemoryType
from memory.recall.routes.common import queryset_of
from memory.recall.scope import RecallRequest
from memory.recall.ties import TIME_ORDER

if TYPE_CHECKING:
    from memory.recall.routes.route_query import Hits, RouteQuery


def route_recency(
    eligible: QuerySet[MemoryRecord] | Callable[[], QuerySet[MemoryRecord]],
    request: RecallRequest,
    n: int,
) -> list[tuple[uuid.UUID, float]]:
    """The latest experiences (episodic memory), for questions that ask about the latest
    ones ("what happened last time?", "上次…"): for other questions, recent is not
    relevant."""
    if request.memory_types and MemoryType.EPISODIC not in request.memory_types:
        return []
    if not lexical.asks_for_recent(request.query):
        return []
    rows = (
        queryset_of(eligible)
        .filter(memory_type=MemoryType.EPISODIC)
        .order_by(*TIME_ORDER)
        .values_list("id", flat=True)[: max(3, n // 5)]
    )
    return [(rid, 1.0) for rid in rows]


def search(q: RouteQuery) -> Hits:
    """The route for ``q``."""
    return route_recency(lambda: q.records, q.request, q.n)
