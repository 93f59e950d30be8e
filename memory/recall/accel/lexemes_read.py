"""The lexical route's first two reads as one (``ENGRAM_RECALL_LEXEMES_WITH_STATISTICS``).

Before its BM25 statement the lexical route asks PostgreSQL for the question's lexemes
(``to_tsvector``, ``routes.lexical._lexemes``) and, when no route has asked yet, for the
scope's statistics (how many lexical docs, their mean length: ``routes.common.
scope_statistics``), two round trips one after the other while the question is embedded.
Neither depends on the other: here one statement returns both, each computed by the same
SQL as the reference's (the lexemes' query as it is, the statistics' compiled template
as a subquery), and the statistics are then what ``RouteQuery.statistics`` gives for the
rest of the request. A large scope's statistics kept a while (``common.kept_a_while``)
are used as they are and only the lexemes are read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from memory.recall.accel import prepared
from memory.recall.routes import common
from memory.recall.routes.lexical import LEXEMES_SQL, MAX_LEXEMES

if TYPE_CHECKING:
    from memory.recall.routes.route_query import RouteQuery


def lexemes_and_statistics(q: RouteQuery, terms: list[str]) -> list[str]:
    """``routes.lexical._lexemes(terms)``, reading the scope's statistics in the same
    statement when ``q`` has not read them yet (then ``q.statistics`` holds them)."""
    if q.statistics_known() or common.statistics_kept(q.scope.tenant_id, q.subject_ids):
        return _sorted(_lexemes_only(terms))
    stats_sql, stats_params = common.statistics_sql(q.scope.tenant_id, q.subject_ids)
    with prepared.cursor() as cursor:
        cursor.execute(
            f"SELECT ARRAY({LEXEMES_SQL}), s.size, s.mean"
            f" FROM (SELECT 1) one LEFT JOIN ({stats_sql}) s (size, mean) ON true",
            [" ".join(terms), *stats_params],
        )
        lexemes, size, mean = cursor.fetchone()
    q.know_statistics(common.statistics_counted(q.scope.tenant_id, q.subject_ids, size, mean))
    return _sorted(lexemes)


def _lexemes_only(terms: list[str]) -> list[str]:
    with prepared.cursor() as cursor:
        cursor.execute(LEXEMES_SQL, [" ".join(terms)])
        return [lexeme for (lexeme,) in cursor.fetchall()]


def _sorted(lexemes: list[str]) -> list[str]:
    return sorted(lexemes[:MAX_LEXEMES])
