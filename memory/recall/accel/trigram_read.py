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
  for a doc holding a piece (``CASE``; the reference computes it twice) and, with
  ``ENGRAM_RECALL_TRIGRAM_BOUND``, enough of the token's trigrams to reach the floor
  (``REACHABLE_SQL``: a bound every doc that reaches the floor meets). A name held
  nowhere whose pieces are short ("rome": "ro", "me") made most docs of a subject
  candidates, each scored: the slowest questions of LoCoMo's (docs/performance.md,
  issue 39, ninth round).

What the rows become (``credit_similar``, the best score per record, sorted) is the
reference's own code. The statement runs in the request's transaction and snapshot, under
row-level security, inside the same eligibility (``Eligible``: tenant, subject,
clearance, purpose, status, validity, supersession, deletion)."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from django.conf import settings
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

# The bound (``ENGRAM_RECALL_TRIGRAM_BOUND``). pg_trgm's word similarity of a token to a
# text is at most the share of the token's distinct trigrams the text holds: the best
# extent's shared trigrams over (the token's + the extent's - shared), the extent's at
# least the shared ones. So a doc reaches ``floor`` only if it holds at least
# ceil(floor x the token's trigrams) of them (less a margin for float4 rounding). For a
# token of ASCII only (decided in Python) every trigram is plain text ("  r", " ro",
# "rom", "me "), and a doc of lowercase ASCII (as ``lexical.trigram_text`` writes docs)
# holds one only if its text holds the trigram's letters without the padding ("r", "ro",
# "rom", "me") as a substring: counted that way (``strpos``), the count is never below
# the true one. Any other doc always passes: one with letters outside ASCII (pg_trgm
# hashes a trigram of several-byte letters into three bytes, which can equal a plain
# one), or with capitals (pg_trgm lowercases; ``strpos`` does not, and lowering each doc
# costs more than it saves). Every doc that can reach the floor is scored as the
# reference scores it; the rest are not scored at all (same hits).
GRAMS_SQL = "ARRAY(SELECT btrim(g) FROM unnest(show_trgm({token})) g)"
NEED_SQL = "ceil({floor} * cardinality(show_trgm({token})) * (1 - 1e-6) - 1e-9)"
REACHABLE_SQL = """(
    octet_length({text}) <> char_length({text}) OR {text} <> lower({text}) OR (
        SELECT count(*) FROM unnest({grams}) g WHERE strpos({text}, g) > 0
    ) >= {need}
)"""

_SEARCHES = """
WITH d AS MATERIALIZED ({docs}),
t AS MATERIALIZED (
    SELECT t0.*,
           CASE WHEN t0.bounded THEN {grams} END AS grams,
           CASE WHEN t0.bounded THEN {need} END AS need
    FROM unnest(%s::int[], %s::text[], %s::text[], %s::bool[], %s::bool[],
                %s::float8[], %s::bool[], %s::bool[])
        AS t0(i, token, word, verbatim, typo, floor, unfiltered, bounded)
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
               CASE WHEN NOT (s.unfiltered OR EXISTS (
                   SELECT 1 FROM p WHERE p.i = s.i AND strpos(d.trigram_text, p.piece) > 0
               )) THEN NULL
               WHEN s.bounded AND NOT {reachable} THEN NULL
               ELSE word_similarity(s.token, d.trigram_text) END AS sim
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
    bound = settings.ENGRAM_RETRIEVAL["TRIGRAM_BOUND"]
    columns: tuple[list, ...] = ([], [], [], [], [], [], [], [])
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
            bound and token.isascii(),
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
                grams=GRAMS_SQL.format(token="t0.token"),
                need=NEED_SQL.format(token="t0.token", floor="t0.floor"),
                reachable=REACHABLE_SQL.format(
                    text="d.trigram_text", grams="s.grams", need="s.need"
                ),
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
