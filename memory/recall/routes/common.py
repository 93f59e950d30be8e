"""What several routes share: the records a route may find (``SEARCHABLE``), a derived
row's scope, the scope's lexical statistics, and the docs that a trigram-indexed function
finds for a large scope (``docs_rows``)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db.models import Avg, Count, F, Func, Q, QuerySet

from core.process_state import Cache
from core.sqltemplate import Placeholders, QueryTemplate, pk_in_array, read_connection, uuid_array
from memory.models import MemoryRecord, MemorySearchDoc
from memory.recall.scope import eligible_q


def searchable_records(p: Placeholders, eligible_shape: tuple, with_keys: bool) -> QuerySet:
    """The records the lexical and vector routes may find: ``eligible``, and other
    versions of single-valued facts (slot keys)."""
    records = MemoryRecord.objects.filter(*eligible_q(p, eligible_shape))
    if with_keys:
        records = MemoryRecord.objects.filter(Q(pk__in=records) | pk_in_array(p, "slot_keys"))
    return records


def searchable_query(p: Placeholders, eligible_shape: tuple, with_keys: bool) -> QuerySet:
    return searchable_records(p, eligible_shape, with_keys).values("id")


SEARCHABLE = QueryTemplate(searchable_query)

# From this many lexical docs in a scope, the word routes find their docs through the
# full-text and trigram indexes (functions that apply the tenant condition themselves:
# row-level security keeps PostgreSQL from using those indexes on its own); below it, the
# scope's own docs are read.
LEXICAL_INDEX_FROM = 2000


def queryset_of(eligible: QuerySet | Callable[[], QuerySet]) -> QuerySet:
    """A route's eligible records: the queryset, or built now by the callable a route's
    ``search`` passes (``lambda: q.records``) so that a route that queries nothing for
    a question never builds it."""
    return eligible() if callable(eligible) else eligible


def subject_values(subject_ids: list[uuid.UUID]) -> dict[str, uuid.UUID]:
    return {f"scope_subject{i}": sid for i, sid in enumerate(subject_ids)}


def doc_scope_q(p: Placeholders, subjects: int) -> Q:
    """A derived row's scope: the tenant and the scope's subjects (the request's subject,
    and the procedures subject when the request may read procedures)."""
    return Q(
        tenant_id=p.uuid("tenant"),
        subject_id__in=[p.uuid(f"scope_subject{i}") for i in range(subjects)],
    )


# A large scope's statistics move slowly: kept a while, from this many docs or vectors.
# Counting a scope of tens of thousands costs more than a route; a few seconds' lag in a
# document frequency or in which side of a size threshold the scope is changes no answer.
STATISTICS_KEPT_FROM = 2000
STATISTICS = Cache("recall.scope_statistics", max_items=10_000, seconds=30.0)


def kept_a_while(key: tuple, count: Callable[[], Any], size: Callable[[Any], int]) -> Any:
    """``count()``, or — a speed-up, ``ENGRAM_RECALL_SCOPE_COUNTS`` — what it gave for
    ``key`` lately (``STATISTICS``' seconds) when that was a large scope's (``size`` of it
    at least ``STATISTICS_KEPT_FROM``)."""
    if not settings.ENGRAM_RETRIEVAL["SCOPE_COUNTS"]:
        return count()
    held = STATISTICS.get(key)
    if held is not None:
        return held
    value = count()
    if size(value) >= STATISTICS_KEPT_FROM:
        STATISTICS.put(key, value)
    return value


def scope_statistics(tenant_id: uuid.UUID, subject_ids: list[uuid.UUID]) -> tuple[int, float]:
    """(how many lexical docs the scope holds, their mean length in lexemes), for BM25's
    word weights and length normalisation; a large scope's kept a while (``kept_a_while``),
    a small scope's counted every time."""

    def count() -> tuple[int, float]:
        rows = _STATISTICS_SQL.rows(
            (len(subject_ids),), {"tenant": tenant_id, **subject_values(subject_ids)}
        )
        size, mean = rows[0] if rows else (0, 0.0)  # grouped by tenant: no docs, no row
        return size or 0, float(mean or 0.0)

    return kept_a_while(_statistics_key(tenant_id, subject_ids), count, lambda v: v[0])


def statistics_kept(tenant_id: uuid.UUID, subject_ids: list[uuid.UUID]) -> bool:
    """Whether ``scope_statistics`` would answer from ``STATISTICS`` without a query."""
    return settings.ENGRAM_RETRIEVAL["SCOPE_COUNTS"] and (
        STATISTICS.get(_statistics_key(tenant_id, subject_ids)) is not None
    )


def statistics_sql(tenant_id: uuid.UUID, subject_ids: list[uuid.UUID]) -> tuple[str, list]:
    """The SQL ``scope_statistics`` counts with (a row of size and mean, none without docs)."""
    return _STATISTICS_SQL.sql_with_params(
        (len(subject_ids),), {"tenant": tenant_id, **subject_values(subject_ids)}
    )


def statistics_counted(
    tenant_id: uuid.UUID, subject_ids: list[uuid.UUID], size: Any, mean: Any
) -> tuple[int, float]:
    """What ``scope_statistics`` gives for the row ``statistics_sql`` read (both None
    without docs), kept as it keeps a large scope's."""
    value = (size or 0, float(mean or 0.0))
    if settings.ENGRAM_RETRIEVAL["SCOPE_COUNTS"] and value[0] >= STATISTICS_KEPT_FROM:
        STATISTICS.put(_statistics_key(tenant_id, subject_ids), value)
    return value


def _statistics_key(tenant_id: uuid.UUID, subject_ids: list[uuid.UUID]) -> tuple:
    return ("docs", tenant_id, *sorted(subject_ids))


def _statistics_query(p: Placeholders, subjects: int) -> QuerySet:
    return (
        MemorySearchDoc.objects.filter(doc_scope_q(p, subjects))
        .values("tenant_id")
        .annotate(size=Count("pk"), mean=Avg(Func(F("search_vector"), function="length")))
        .values_list("size", "mean")
    )


_STATISTICS_SQL = QueryTemplate(_statistics_query)

# The docs table's name as the ORM's SQL names it (unqualified).
DOCS_TABLE = MemorySearchDoc._meta.db_table


def docs_from(sql: str, params: list, function: str, function_params: list) -> tuple[str, list]:
    """``sql`` (an ORM query of the lexical docs) reading the rows ``function`` returns
    (a call, its parameters ``function_params``) in place of the docs table: a common
    table expression of the table's name comes first, and PostgreSQL resolves the
    query's unqualified references to it (the SQL itself is not edited). The function's
    rows have the doc columns the query reads."""
    return (
        f'WITH "{DOCS_TABLE}" AS (SELECT * FROM {function}) {sql}',
        [*function_params, *params],
    )


def docs_rows(
    queryset: QuerySet, docs_from_function: tuple[str, list], subject_ids: list[uuid.UUID] | None
) -> list[tuple]:
    """The rows (tuples) of ``queryset`` (a ``values_list`` query of the lexical docs);
    with ``subject_ids``, read from the docs of those subjects that the function finds
    through the trigram index — ``engram_search_docs_regex`` (the docs whose text
    matches a regular expression) or ``engram_search_docs_similar`` (those holding a word
    at least this similar to the token: pg_trgm's ``<%``). They apply row-level
    security's condition themselves (the transaction's tenant): under the policy,
    PostgreSQL reads and matches every doc of the subject (migration 0016)."""
    if subject_ids is None:
        return list(queryset)
    sql, params = queryset.query.sql_with_params()
    function, function_params = docs_from_function
    sql, params = docs_from(
        sql, list(params), function, [uuid_array(subject_ids), *function_params]
    )
    with read_connection().cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()
