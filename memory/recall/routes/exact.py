"""The exact route: a key lookup — a predicate the request or the question names, an
identifier from the question verbatim."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.db.models import BooleanField, Q, QuerySet
from django.db.models.expressions import RawSQL

from core.sqltemplate import uuid_array
from memory import lexical
from memory.models import MemoryRecord, MemorySearchDoc
from memory.recall.routes.common import docs_rows, queryset_of
from memory.recall.scope import SLOTS_MAX, RecallRequest
from memory.recall.ties import TIME_ORDER

if TYPE_CHECKING:
    from memory.recall.routes.route_query import Hits, RouteQuery


def route_exact(
    eligible: QuerySet[MemoryRecord] | Callable[[], QuerySet[MemoryRecord]],
    request: RecallRequest,
    n: int,
    predicates: tuple[str, ...] | None = None,
    large_scope: Callable[[], bool] = lambda: False,
    doc_scope: Q | None = None,
    subject_ids: list[uuid.UUID] | None = None,
) -> list[tuple[uuid.UUID, float]]:
    """Key lookup: records whose predicate the request names (``predicates``, or the
    query text spelling a predicate like ``home_city`` / "home city"), and records that
    contain an identifier from the query verbatim (order ids, error codes).

    ``predicates``: every predicate the subject's readable memories have, when the
    caller knows them all (``RecallContext.predicates``): the spelled ones are then found
    here, and a question that names no key costs no query. In a large scope
    (``large_scope()``) the docs holding an identifier are found through the trigram index
    (``docs_rows``), not by reading every doc of the subject."""
    query = request.query.lower()
    identifiers = lexical.identifiers(request.query)
    if predicates is not None and len(predicates) < SLOTS_MAX:
        spelled_names = [p for p in predicates if _spells(query, p)]
        if not (spelled_names or request.predicates or identifiers):
            return []
        match = Q(predicate__in=spelled_names) if spelled_names else Q(pk__in=[])
    else:
        # The query spells the predicate, as is ("home_city") or in words ("home city").
        spelled = RawSQL(
            '"memory_memoryrecord"."predicate" <> \'\' AND ('
            'strpos(%s, lower("memory_memoryrecord"."predicate")) > 0 OR '
            "strpos(%s, translate(lower(\"memory_memoryrecord\".\"predicate\"), '_.', '  ')) > 0)",
            [query, query],
            output_field=BooleanField(),
        )
        eligible = queryset_of(eligible).alias(spelled=spelled)
        match = Q(spelled=True)
    if request.predicates:
        match |= Q(predicate__in=request.predicates)
    through_index = bool(identifiers) and None not in (subject_ids, doc_scope) and large_scope()
    for ident in identifiers:
        if through_index:
            holding = docs_rows(
                MemorySearchDoc.objects.filter(doc_scope, trigram_text__contains=ident).values_list(
                    "record_id"
                ),
                ("engram_search_docs_regex(%s::uuid[], %s::text)", [re.escape(ident)]),
                subject_ids,
            )
            match |= Q(
                pk__in=RawSQL("SELECT unnest(%s::uuid[])", [uuid_array([r for (r,) in holding])])
            )
        else:
            match |= Q(search_doc__trigram_text__contains=ident)
    rows = (
        queryset_of(eligible).filter(match).order_by(*TIME_ORDER).values_list("id", flat=True)[:n]
    )
    return [(rid, 1.0) for rid in rows]


def _spells(query: str, predicate: str) -> bool:
    """The lowercased query spells ``predicate``, as is or in words (as the SQL above)."""
    name = predicate.lower()
    return bool(name) and (name in query or name.translate(_AS_WORDS) in query)


_AS_WORDS = str.maketrans("_.", "  ")


def search(q: RouteQuery) -> Hits:
    """The route for ``q``."""
    return route_exact(
        lambda: q.records,
        q.request,
        q.n,
        q.predicates if len(q.subject_ids) == 1 else None,
        large_scope=q.large_scope,
        doc_scope=q.doc_scope,
        subject_ids=q.subject_ids,
    )
