"""The trigram route in one statement (``ENGRAM_RECALL_ONE_TRIGRAM_READ``): the same hits
as ``routes.trigram.route_trigram``, the reference, for a scope below
``LEXICAL_INDEX_FROM`` docs (a large scope takes the reference's path through the
trigram index).

The reference runs up to two statements per token of the question (a name looked up as a
whole word, then, if no doc holds it, searched as a typo; an identifier searched as a
typo), each built and compiled by the ORM and each reading the eligible docs again. A
question naming people, places or titles the subject's memories do not hold ("Would
she enjoy the song "The Four Seasons" by Vivaldi?") makes eight: the slowest questions
of LoCoMo's (docs/performance.md). Here the eligible docs are read once (a compiled
template, ``core.sqltemplate``), and every token's two searches run over them in one
statement, each as the reference's query would run it:

- the whole word: the docs whose text matches ``\\mtoken\\M`` (the same regular
  expression), tested first for holding ``token`` at all (``strpos``: a doc that does not
  hold the token's characters cannot match the expression that spells them; ``CASE``
  keeps that order), the first ``n`` in ``DOC_ORDER`` (the shorter, then the text);
- the typo search, for an identifier, or for a name no doc holds as a word and that is no
  typo of a speaker's name (decided in Python, as the reference does): the docs holding
  one of the token's pieces (``routes.trigram.typo_pieces``; ``strpos`` is the substring
  test the reference's ``__contains`` makes with ``LIKE``), whose word similarity to the
  token reaches the floor (compared as float8, as the reference's parameter), the first
  ``n`` by similarity, then ``DOC_ORDER``. The similarity is computed once per doc, and only
  for a doc holding a piece (``CASE``; the reference computes it twice).

What the rows become (``credit_similar``, the best score per record, sorted) is the
reference's own code. The statement runs in the request's transaction and snapshot, under
row-level security, inside the same eligibility (``Eligible``: tenant, subject,
clearance, purpose, status, validity, supersession, deletion)."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from django.db.models import QuerySet

from core.sqltemplate import Placeholders, QueryTemplate
from memory import lexical
from memory.models import MemoryRecord, MemorySearchDoc
from memory.recall.accel import prepared
from memory.recall.routes.common import doc_scope_q, subject_values
from memory.recall.routes.trigram import (
    _ID_CANDIDATE_SIMILARITY,
    DOC_ORDER_SQL,
    best_first,
    credit_similar,
    trigram_tokens,
    typo_pieces,
    whole_word,
)
from memory.recall.scope import eligible_q

if TYPE_CHECKING:
    from memory.recall.routes.route_query import Hits, RouteQuery


def _eligible_docs(p: Placeholders, eligible_shape: tuple, subjects: int) -> QuerySet:
    """The eligible records' docs in the scope, as the reference reads them
    (``MemorySearchDoc`` of ``doc_scope`` whose record is in ``eligible``)."""
    eligible = MemoryRecord.objects.filter(*eligible_q(p, eligible_shape))
    return MemorySearchDoc.objects.filter(
        doc_scope_q(p, subjects), record__in=eligible
    ).values_list("record_id", "trigram_text", "valid_from", "recorded_at")


_ELIGIBLE_DOCS = QueryTemplate(_eligible_docs)

_SEARCHES = """
WITH d AS MATERIALIZED ({docs}),
t AS MATERIALIZED (
    SELECT * FROM unnest(%s::int[], %s::text[], %s::text[], %s::bool[], %s::bool[],
                         %s::float8[], %s::bool[])
        AS t(i, token, word, verbatim, typo, floor, unfiltered)
),
p AS MATERIALIZED (SELECT * FROM unnest(%s::int[], %s::text[]) AS p(i, piece)),
v AS MATERIALIZED (
    SELECT w.i, x.record_id, x.trigram_text, x.valid_from, x.recorded_at
    FROM (SELECT * FROM t WHERE t.verbatim) w CROSS JOIN LATERAL (
        SELECT d.record_id, d.trigram_text, d.valid_from, d.recorded_at FROM d
        WHERE CASE WHEN strpos(d.trigram_text, w.token) > 0 THEN d.trigram_text ~ w.word END
        ORDER BY {doc_order}
        LIMIT %s
    ) x
)
SELECT * FROM (
SELECT v.i, true AS whole, v.record_id, NULL::real AS sim, v.trigram_text, v.valid_from,
       v.recorded_at
FROM v
UNION ALL
SELECT y.i, false, y.record_id, y.sim, y.trigram_text, y.valid_from, y.recorded_at
FROM (
    SELECT * FROM t WHERE t.typo AND NOT EXISTS (SELECT 1 FROM v WHERE v.i = t.i)
) s CROSS JOIN LATERAL (
    SELECT s.i, c.record_id, c.sim, c.trigram_text, c.valid_from, c.recorded_at
    FROM (
        SELECT d.record_id, d.trigram_text, d.valid_from, d.recorded_at,
               CASE WHEN s.unfiltered OR EXISTS (
                   SELECT 1 FROM p WHERE p.i = s.i AND strpos(d.trigram_text, p.piece) > 0
               ) THEN word_similarity(s.token, d.trigram_text) END AS sim
        FROM d
        OFFSET 0
    ) c
    WHERE c.sim >= s.floor
    ORDER BY c.sim DESC, {sim_order}
    LIMIT %s
) y
) u
-- Each token's rows in the reference's order (its statements' ORDER BY): the hits of
-- equal score keep the order they were found in (``best_first``).
ORDER BY u.i, u.whole DESC, u.sim DESC, {u_order}
"""


def route_trigram_in_one_read(q: RouteQuery) -> Hits | None:
    """The trigram route's hits for ``q``, or None for a large scope (the reference's)."""
    tokens, identifiers = trigram_tokens(q.request.query, q.scope_names)
    if not tokens:
        return []
    if q.large_scope():
        return None
    threshold = q.weights.min_trigram_similarity
    columns: tuple[list, ...] = ([], [], [], [], [], [], [])
    piece_of: list[int] = []
    pieces: list[str] = []
    for i, token in enumerate(tokens):
        is_id = token in identifiers
        split = typo_pieces(token)
        row = (
            i,
            token,
            whole_word(token),
            not is_id,
            is_id or not lexical.misspells(token, q.scope_names),
            _ID_CANDIDATE_SIMILARITY if is_id else threshold,
            split is None,
        )
        for column, value in zip(columns, row, strict=True):
            column.append(value)
        for piece in split or ():
            piece_of.append(i)
            pieces.append(piece)
    values = {
        "tenant": q.scope.tenant_id,
        **subject_values(q.subject_ids),
        **q.eligible.values,
    }
    shape = (q.eligible.shape, len(q.subject_ids))
    docs_sql, docs_params = prepared.statement(_ELIGIBLE_DOCS, shape, values)
    params = [*docs_params, *columns, piece_of, pieces, q.n, q.n]
    with prepared.cursor() as cursor:
        cursor.execute(
            _SEARCHES.format(
                docs=docs_sql,
                doc_order=DOC_ORDER_SQL,
                sim_order=DOC_ORDER_SQL.replace("d.", "c."),
                u_order=DOC_ORDER_SQL.replace("d.", "u."),
            ),
            params,
        )
        rows = cursor.fetchall()
    verbatim: dict[int, list[uuid.UUID]] = {}
    similar: dict[int, list[tuple]] = {}
    for i, whole, rid, sim, text, _, _ in rows:
        if whole:
            verbatim.setdefault(i, []).append(rid)
        else:
            similar.setdefault(i, []).append((rid, sim, text))
    best: dict[uuid.UUID, float] = {}
    for i, token in enumerate(tokens):
        for rid in verbatim.get(i, ()):
            best[rid] = 1.0
        credit_similar(best, token, token in identifiers, similar.get(i, []), threshold)
    return best_first(best, q.n)
