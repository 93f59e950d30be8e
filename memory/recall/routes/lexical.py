"""The lexical route: Chinese segmented and English stemmed full text, scored by Okapi
BM25 in one statement (``_bm25_sql``; ``memory.lexical.bm25`` is the same formula in
Python, the reference the tests hold it to)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.db.models import BigIntegerField, BooleanField, FloatField, Q, QuerySet
from django.db.models.expressions import RawSQL

from core.process_state import memoized
from core.sqltemplate import Placeholders, QueryTemplate, pk_in_array, read_connection, uuid_array
from memory import lexical
from memory.models import MemorySearchDoc
from memory.recall.accel import prepared
from memory.recall.routes import common
from memory.recall.routes.common import (
    SEARCHABLE,
    doc_scope_q,
    docs_from,
    scope_statistics,
    subject_values,
)
from memory.recall.routes.slots import SlotKeys
from memory.recall.scope import Eligible, eligible_q

if TYPE_CHECKING:
    from memory.recall.routes.route_query import Hits, RouteQuery


def route_lexical(
    eligible: Eligible,
    subject_ids: list[uuid.UUID],
    query: str,
    n: int,
    scope_names: frozenset[str] = frozenset(),
    context_weight: float = 1.0,
    slot_keys: SlotKeys | None = None,
    statistics: Callable[[], tuple[int, float]] | None = None,
    lexemes_of: Callable[[list[str]], list[str]] | None = None,
) -> tuple[list[tuple[uuid.UUID, float]], dict[uuid.UUID, float]]:
    """Full text over segmented text, scored by Okapi BM25: a word few of the subject's
    memories contain counts for more than one most of them contain, which PostgreSQL's
    own ranks do not know. A memory's conversation context (the turn before it,
    ``memory.neighbourhood``) counts as its words too, at ``context_weight``. Other
    versions of single-valued facts (``slot_keys``) are searched too.

    PostgreSQL scores the matches in one statement and returns the best ``n``
    (``_bm25_sql``; ``lexical.bm25`` is the same formula in Python, the reference the
    tests hold it to). The matches are the searchable docs of the scope: the doc's copies
    of its record's columns answer the eligibility filter (``_lexical_matches_query``), and the
    hits are checked against the records themselves. A lexeme's document frequency is
    counted over the matches; the scope's size and mean length come from
    ``scope_statistics``. Every match is scored by which query lexemes it holds (as if
    each occurred once: a conversation turn rarely repeats a word), and the best
    ``_BM25_EXACT`` of them again with their counts — so a subject with fewer matches than
    that is scored exactly, and one with thousands does not pay for counting the words of
    each. A question's first ``MAX_LEXEMES`` lexemes are searched (``lexemes_of``: what
    ``_lexemes`` gives, read another way).

    Also returns each hit's coverage: the share of the query's (stemmed) words the
    memory's own text contains — the relevance gate's evidence, never the context's."""
    terms = lexical.query_terms(query, scope_names)
    if not terms:
        return [], {}
    lexemes = (lexemes_of or _lexemes)(terms)
    if not lexemes:
        return [], {}
    keys = slot_keys.ids if slot_keys else []
    size, mean_length = (
        statistics() if statistics else scope_statistics(eligible.values["tenant"], subject_ids)
    )
    quoted = [_quoted(lexeme) for lexeme in lexemes]
    values = {
        **eligible.values,
        **subject_values(subject_ids),
        "slot_keys": uuid_array(keys),
        "tsquery": " | ".join(quoted),
        "context_weight": repr(float(context_weight)),
        **{f"lexeme{i}": q for i, q in enumerate(quoted)},
    }
    large = size >= common.LEXICAL_INDEX_FROM
    matches, matches_params = prepared.statement(
        _LEXICAL_MATCHES,
        (eligible.shape, len(subject_ids), len(lexemes), bool(keys), large),
        values,
    )
    if large:
        matches, matches_params = _from_matching_docs(
            matches, matches_params, subject_ids, values["tsquery"], quoted, float(context_weight)
        )
    searchable, searchable_params = prepared.statement(
        SEARCHABLE,
        (eligible.shape, bool(keys)),
        {**eligible.values, "slot_keys": values["slot_keys"]},
    )
    with prepared.cursor() as cursor:
        cursor.execute(
            _bm25_sql(len(lexemes), grouped=large).format(matches=matches, searchable=searchable),
            [
                *matches_params,
                size,
                mean_length or 1.0,
                float(context_weight),
                *[max(n, _BM25_EXACT)] * (2 if large else 1),
                lexemes,
                *searchable_params,
                lexemes,
                n,
            ],
        )
        rows = cursor.fetchall()
    return (
        [(rid, round(score, 4)) for rid, score, _ in rows],
        {rid: coverage for rid, _, coverage in rows},
    )


# Matches scored again with their word counts (see route_lexical).
_BM25_EXACT = 200


# The most lexemes of a question the lexical route searches (the first, in the question's
# order): each is a bit of the matches' masks (``_bm25_sql``), an int8's. A question of 62
# distinct content words is a long paragraph.
MAX_LEXEMES = 62


# A question's words as the full-text index holds them, in the order they first occur.
LEXEMES_SQL = (
    "SELECT u.lexeme FROM unnest(to_tsvector('english'::regconfig, %s)) u ORDER BY u.positions[1]"
)


def _lexemes(terms: list[str]) -> list[str]:
    """The distinct English-stemmed lexemes of ``terms``, as the full-text index holds
    them: the first ``MAX_LEXEMES`` in the terms' order (by where each first occurs),
    sorted as a tsvector holds them (the statement scoring them is built for their
    number)."""
    with read_connection().cursor() as cursor:
        cursor.execute(LEXEMES_SQL, [" ".join(terms)])
        lexemes = [lexeme for (lexeme,) in cursor.fetchall()]
    return sorted(lexemes[:MAX_LEXEMES])


def _quoted(lexeme: str) -> str:
    """A lexeme as a tsquery of itself (no stemming again)."""
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


_DOC = '"memory_memorysearchdoc".'


def _lexical_matches_query(
    p: Placeholders,
    eligible_shape: tuple,
    subjects: int,
    lexemes: int,
    with_keys: bool,
    through_index: bool = False,
) -> QuerySet:
    """The scope's docs that match any query lexeme and are searchable — by the doc's
    copies of its record's columns (``MemorySearchDoc``: ``eligible_q`` applies to them
    as to the record), or as another version of a single-valued fact (slot keys) — with
    which lexemes it holds in its own words (``own``: bit ``i`` for ``lexeme{i}``) and in
    its context (``ctx``), and its length in lexemes (a context lexeme counts
    ``context_weight``). ``through_index``: the docs are the rows of
    ``engram_search_docs_held`` (``_from_matching_docs``), which match and compute those
    three themselves."""
    searchable = Q(*eligible_q(p, eligible_shape))
    if with_keys:
        searchable |= pk_in_array(p, "slot_keys")
    if through_index:
        held = {
            name: RawSQL(f'{_DOC}"{name}"', [], output_field=output)
            for name, output in (
                ("own", BigIntegerField()),
                ("ctx", BigIntegerField()),
                ("len", FloatField()),
            )
        }
        docs = MemorySearchDoc.objects.filter(doc_scope_q(p, subjects), searchable)
        return docs.annotate(**held).values_list("record_id", "own", "ctx", "len")
    tsquery, weight = p.text("tsquery"), p.text("context_weight")
    match = RawSQL(
        f'({_DOC}"search_vector" @@ %s::tsquery OR {_DOC}"context_vector" @@ %s::tsquery)',
        [tsquery, tsquery],
        output_field=BooleanField(),
    )

    def mask(column: str) -> RawSQL:
        bits = [
            f'CASE WHEN {_DOC}"{column}" @@ %s::tsquery THEN {1 << i}::int8 ELSE 0 END'
            for i in range(lexemes)
        ]
        return RawSQL(
            "(" + " + ".join(bits) + ")",
            [p.text(f"lexeme{i}") for i in range(lexemes)],
            output_field=BigIntegerField(),
        )

    length = RawSQL(
        f'length({_DOC}"search_vector") + %s::float8 * coalesce(length({_DOC}"context_vector"), 0)',
        [weight],
        output_field=FloatField(),
    )
    return (
        MemorySearchDoc.objects.filter(doc_scope_q(p, subjects), searchable, match)
        .annotate(own=mask("search_vector"), ctx=mask("context_vector"), len=length)
        .values_list("record_id", "own", "ctx", "len")
    )


_LEXICAL_MATCHES = QueryTemplate(_lexical_matches_query)


def _from_matching_docs(
    sql: str,
    params: list,
    subject_ids: list[uuid.UUID],
    tsquery: str,
    lexemes: list[str],
    context_weight: float,
) -> tuple[str, list]:
    """``sql`` (a query of the lexical docs, ``through_index``) reading instead the docs of
    ``subject_ids`` that match ``tsquery``, as ``engram_search_docs_held`` finds them:
    under row-level security PostgreSQL never uses an index for ``@@`` (it is not
    leakproof, so it may not run before the policy), and a large subject's docs would all
    be read and matched one by one. The function applies
    the policy's condition itself — the transaction's tenant, nothing else — finds the
    matches through the full-text indexes, and returns which of ``lexemes`` (tsqueries of
    one lexeme each) each holds and its length rather than its text vectors, which a
    function's result would carry whole (migrations 0016, 0018)."""
    return docs_from(
        sql,
        params,
        "engram_search_docs_held(%s::uuid[], %s::tsquery, %s::tsquery[], %s::float8)",
        [uuid_array(subject_ids), tsquery, lexemes, context_weight],
    )


@memoized("recall.bm25_sql", maxsize=256)
def _bm25_sql(lexemes: int, grouped: bool) -> str:
    """BM25 (k1 = BM25_K1, b = BM25_B) of ``matches`` (``_lexical_matches_query``: a doc,
    the bits of the query's lexemes its own words and its context hold, its length): ``s``
    each lexeme's document frequency over the matches, the scope's size and mean length;
    ``approx`` the best matches by their score as if each lexeme they hold occurred once,
    with all that tie with the last (the random id decides nothing); ``t`` those — if their records are ``searchable`` — with each lexeme's
    count (a context occurrence counts ``context_weight``); then their scores, summed in
    the lexemes' order (a float sum in the rows' order differs in its last bits from doc
    to doc, and listed the same words in another order apart at random), and coverage
    (the share of the query's lexemes the doc's own text holds).

    ``grouped`` (a large scope's thousands of matches): that score is computed once per
    group of matches with the same bits and length (thousands of matches of a short question
    fall into a few dozen groups): ``g`` the groups, ``cut`` the best of them, those
    with fewer matches scoring above them than ``approx`` takes, which takes the best
    matches of those — the same matches as scoring each, without the formula for each. A
    small scope's few matches are scored each: there the groups cost more to plan than
    they save."""
    k1, b = lexical.BM25_K1, lexical.BM25_B

    def term(i: str, tf: str) -> str:
        return (
            f"ln(1 + (s.size - s.df[{i}] + 0.5) / (s.df[{i}] + 0.5)) * {tf} * {k1 + 1}"
            f" / ({tf} + {k1} * (1 - {b} + {b} * m.len / s.mean))"
        )

    lexeme_numbers = range(1, lexemes + 1)

    def held(mask: str, i: int) -> str:
        return f"(({mask} >> {i - 1}) & 1)::float8"

    def held_once(x: str) -> str:
        """The score of ``x`` (a match or a group) as if each lexeme it holds occurred
        once, without the constant factor k1 + 1 (the order is the same): per lexeme one
        product and division (its IDF computed once, in ``s``)."""
        return " + ".join(
            f"s.idf{i} * ({held(f'{x}.own', i)} + s.cw * {held(f'{x}.ctx', i)})"
            f" / (({held(f'{x}.own', i)} + s.cw * {held(f'{x}.ctx', i)})"
            f" + s.k_base + s.k_len * {x}.len)"
            for i in lexeme_numbers
        )

    def holds(x: str, i: int) -> str:
        return f"({x}.own | {x}.ctx) & {1 << (i - 1)} <> 0"

    if grouped:
        df = ", ".join(
            f"coalesce(sum(g.c) FILTER (WHERE {holds('g', i)}), 0)" for i in lexeme_numbers
        )
        counted = f"""g AS MATERIALIZED (
    SELECT m.own, m.ctx, m.len, count(*) AS c FROM m GROUP BY m.own, m.ctx, m.len
), s0 AS MATERIALIZED (
    SELECT ARRAY[{df}]::float8[] AS df,
           greatest(%s, coalesce(sum(g.c), 0), 1)::float8 AS size, %s::float8 AS mean,
           %s::float8 AS cw
    FROM g
)"""
        best = f"""cut AS MATERIALIZED (
    SELECT x.own, x.ctx, x.len, x.score FROM (
        SELECT y.*, sum(y.c) OVER (ORDER BY y.score DESC)
                    - sum(y.c) OVER (PARTITION BY y.score) AS above
        FROM (SELECT g.*, {held_once("g")} AS score FROM g CROSS JOIN s) y
    ) x
    WHERE x.above < %s
), approx AS MATERIALIZED (
    SELECT m.record_id, m.len
    FROM m JOIN cut ON cut.own = m.own AND cut.ctx = m.ctx AND cut.len = m.len
    -- (a cheap test first: the join's estimate is one row, so it loops)
    WHERE m.own = ANY(ARRAY(SELECT cut.own FROM cut))
      AND m.len = ANY(ARRAY(SELECT cut.len FROM cut))
    ORDER BY cut.score DESC
    FETCH FIRST %s ROWS WITH TIES
)"""
    else:
        df = ", ".join(f"count(*) FILTER (WHERE {holds('m', i)})" for i in lexeme_numbers)
        counted = f"""s0 AS MATERIALIZED (
    SELECT ARRAY[{df}]::float8[] AS df,
           greatest(%s, count(*), 1)::float8 AS size, %s::float8 AS mean, %s::float8 AS cw
    FROM m
)"""
        best = f"""approx AS MATERIALIZED (
    SELECT m.record_id, m.len
    FROM m CROSS JOIN s
    ORDER BY {held_once("m")} DESC
    FETCH FIRST %s ROWS WITH TIES
)"""
    idf = ", ".join(
        f"ln(1 + (s0.size - s0.df[{i}] + 0.5) / (s0.df[{i}] + 0.5)) AS idf{i}"
        for i in lexeme_numbers
    )
    return f"""
WITH m AS MATERIALIZED (
    {{matches}}
), {counted}, s AS MATERIALIZED (
    SELECT s0.*, {idf}, {k1 * (1 - b)}::float8 AS k_base, {k1 * b}::float8 / s0.mean AS k_len
    FROM s0
), {best}, t AS (
    SELECT m.record_id, m.len, d.trigram_text AS text, d.valid_from, d.recorded_at, x.lexeme,
           sum(x.tf) AS tf, bool_or(x.own) AS own
    FROM approx m
    JOIN memory_memorysearchdoc d ON d.record_id = m.record_id
    CROSS JOIN s
    CROSS JOIN LATERAL (
        SELECT u.lexeme, coalesce(array_length(u.positions, 1), 1)::float8 AS tf, true AS own
        FROM unnest(d.search_vector) u
        UNION ALL
        SELECT u.lexeme, s.cw * coalesce(array_length(u.positions, 1), 1), false
        FROM unnest(d.context_vector) u
    ) x
    WHERE x.lexeme = ANY(%s::text[])
      AND m.record_id IN ({{searchable}})
    GROUP BY m.record_id, m.len, d.trigram_text, d.valid_from, d.recorded_at, x.lexeme
), exact AS (
    SELECT t.record_id, t.len, t.text, t.valid_from, t.recorded_at, t.tf, t.own,
           array_position(%s::text[], t.lexeme) AS i
    FROM t
)
SELECT m.record_id,
       sum({term("m.i", "m.tf")} ORDER BY m.i) AS score,
       count(*) FILTER (WHERE m.own)::float8 / {lexemes} AS coverage
FROM exact m CROSS JOIN s
GROUP BY m.record_id, m.text, m.valid_from, m.recorded_at
ORDER BY score DESC, length(m.text), m.valid_from DESC, m.recorded_at DESC, m.text COLLATE "C",
         m.record_id
LIMIT %s
"""


def search(
    q: RouteQuery, lexemes_of: Callable[[list[str]], list[str]] | None = None
) -> tuple[Hits, dict[uuid.UUID, float]]:
    """The route for ``q`` (``lexemes_of``: see ``route_lexical``)."""
    return route_lexical(
        q.eligible,
        q.subject_ids,
        q.request.query,
        q.n,
        q.scope_names,
        q.weights.lexical_context,
        q.slot_keys,
        statistics=lambda: q.statistics,
        lexemes_of=lexemes_of,
    )
