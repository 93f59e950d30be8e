"""Step 3 of recall: the routes. Each searches *inside* ``eligible`` (steps 1–2) and
returns its hits, best first: ``[(record id, score)]``. Equal scores break by id, so
answers are reproducible. ``run_routes`` runs them all and credits their hits to the
candidates (``signals.Candidates``).

- exact     key lookup: a predicate the request or the question names, an identifier
            from the question verbatim;
- slot      the predicate whose name the question matches by meaning;
- lexical   Chinese segmented + English stemmed full text;
- trigram   identifiers (with typos) and names;
- vector    an exact scan within the subject's scope (ranked in process from the
            vectors this process keeps, ``vector_cache``, when it has them; HNSW on a
            second connection for a very large scope, ``side``), scored by how much
            more a memory matches the question than a typical question;
- recency   the latest experiences, for questions that ask for them.

Recall writes nothing here: a found memory without a vector yet (the embedding queue
lags) is counted as ``vector_pending``, never embedded on the request path."""

from __future__ import annotations

import functools
import re
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from time import monotonic
from typing import Any

import numpy as np
from django.conf import settings
from django.contrib.postgres.search import TrigramWordSimilarity
from django.db.models import (
    Avg,
    BigIntegerField,
    BooleanField,
    Count,
    ExpressionWrapper,
    F,
    FloatField,
    Func,
    Q,
    QuerySet,
)
from django.db.models.expressions import RawSQL
from django.db.models.query import FlatValuesListIterable
from django.utils.functional import SimpleLazyObject

from accounts.models import Sensitivity
from core.sqltemplate import (
    Placeholders,
    QueryTemplate,
    binary_rows,
    pk_in_array,
    read_connection,
    uuid_array,
)
from memory import lexical
from memory.embedders import predicate_labels
from memory.models import Cardinality, MemoryEmbedding, MemoryRecord, MemorySearchDoc, MemoryType
from memory.recall import side, vector_cache
from memory.recall.query import QueryVector
from memory.recall.scope import SLOTS_MAX, Eligible, RecallRequest, RecallScope, eligible_q
from memory.recall.signals import Candidates, load_records
from memory.recall.vector_cache import ScopeVectors
from memory.recall.weights import RecallWeights
from memory.services.indexing import EMBEDDABLE_STATUSES

ROUTES = ("exact", "slot", "lexical", "trigram", "vector", "recency")

Hits = list[tuple[uuid.UUID, float]]


# --- other versions of a fact as matching keys ------------------------------------------


@dataclass
class SlotKeys:
    """Earlier (or later) versions of single-valued facts, as matching keys.

    "Where does the user live now?" is often worded closest to the *first* statement of
    the fact ("User lives in Singapore"), while the current version says "User now lives
    in Munich after moving from Seoul". The lexical and vector routes therefore also
    search the other versions of each single-valued slot, and a hit on one counts as a
    hit on the slot's eligible value — the one valid at ``as_of`` and believed at
    ``known_at``. The other version itself is never a candidate: the answer is always a
    record that passed the filters."""

    answers_of: dict[uuid.UUID, list[uuid.UUID]] = field(default_factory=dict)

    @property
    def ids(self) -> list[uuid.UUID]:
        return list(self.answers_of)


def slot_keys(scope_q: Q, filter_q: Q, history_q: Q) -> SlotKeys:
    rows = list(
        MemoryRecord.objects.filter(scope_q, filter_q | history_q)
        .filter(cardinality=Cardinality.SINGLE)
        .exclude(predicate="")
        .annotate(answer=ExpressionWrapper(filter_q, output_field=BooleanField()))
        .values_list("id", "subject_id", "namespace", "predicate", "answer")
    )
    answers: dict[tuple, list[uuid.UUID]] = defaultdict(list)
    for rid, subject_id, namespace, predicate, answer in rows:
        if answer:
            answers[(subject_id, namespace, predicate)].append(rid)
    keys = SlotKeys()
    for rid, subject_id, namespace, predicate, answer in rows:
        slot_answers = answers.get((subject_id, namespace, predicate))
        if not answer and slot_answers:
            keys.answers_of[rid] = slot_answers
    return keys


# --- the routes -----------------------------------------------------------------------


def run_routes(
    eligible: Eligible,
    scope: RecallScope,
    request: RecallRequest,
    weights: RecallWeights,
    subject_ids: list[uuid.UUID],
    query_vector: QueryVector,
    slot_keys: SlotKeys,
    predicates: tuple[str, ...] = (),
    scope_names: frozenset[str] = frozenset(),
    with_speakers: bool = False,
    while_embedding: Callable[[Iterable[MemoryRecord], Callable[[], bool]], None] | None = None,
) -> tuple[Candidates, int]:
    """Every route for ``request.query`` (the question as searched); the candidates and
    how many found memories have no vector yet (``vector_pending``).

    The routes that do not need the question's embedding run first, while it is being
    computed on another thread, and the records of what they found are loaded then
    (``load_records``; ``with_speakers``: with who said them); the vector and slot routes
    then wait for it. If it is still not done, ``while_embedding(records, done)`` uses
    the wait for work the answer needs later (``pack.judge_ahead``), until ``done()``."""
    n = weights.candidates_per_route
    # The eligible records as a queryset, built only if a route queries it: most questions
    # name no key, identifier or recent event (~0.7 ms of the request thread's CPU, which
    # the embedding beside it shares).
    records = SimpleLazyObject(lambda: eligible.queryset)
    # The lexical docs of the scope's subjects, named directly (not only through the join
    # to ``eligible``) so PostgreSQL narrows to them by index before matching any text.
    doc_scope = Q(tenant_id=scope.tenant_id, subject_id__in=subject_ids)
    # The subject's predicates are known (recall_context); the procedures subject's are not.
    # The scope's lexical statistics (BM25's, and whether the word routes search through
    # their indexes: ``_LEXICAL_INDEX_FROM``), counted only if a route asks, once.
    statistics = functools.cache(lambda: _scope_statistics(scope.tenant_id, subject_ids))

    def large_scope() -> bool:
        return statistics()[0] >= _LEXICAL_INDEX_FROM

    exact = route_exact(
        records,
        request,
        n,
        predicates if len(subject_ids) == 1 else None,
        large_scope=large_scope,
        doc_scope=doc_scope,
        subject_ids=subject_ids,
    )
    trigram = route_trigram(
        records,
        doc_scope,
        request.query,
        n,
        weights.min_trigram_similarity,
        scope_names,
        large_scope=large_scope,
        subject_ids=subject_ids,
    )
    recency = route_recency(records, request, n)
    vector_scope = VectorScope.of(scope, subject_ids, query_vector.model_id)

    def approximate_vector_route() -> tuple[tuple[Hits, dict], dict]:
        """The HNSW search, and the records of what it found."""
        hits = route_vector(eligible, vector_scope, query_vector, n, slot_keys)
        answers = {t for rid, _ in hits[0] for t in slot_keys.answers_of.get(rid, [rid])}
        return hits, load_records(
            list(answers), with_speakers=with_speakers, model_id=query_vector.model_id
        )

    # A very large scope's HNSW search runs on a second connection beside the lexical
    # route, which outlasts the embedding there (``memory.recall.side``).
    beside = side.start(approximate_vector_route) if vector_scope.approximate else None
    # The lexical and vector routes also match other versions of single-valued facts.
    lexical_hits, coverage = route_lexical(
        eligible,
        subject_ids,
        request.query,
        n,
        scope_names,
        weights.lexical_context,
        slot_keys,
        statistics=statistics,
    )
    found = {rid for hits in (exact, lexical_hits, trigram, recency) for rid, _ in hits}
    loaded = load_records(
        list({t for rid in found for t in slot_keys.answers_of.get(rid, [rid])}),
        with_speakers=with_speakers,
        model_id=query_vector.model_id,
    )
    # Found memories the embedding queue has not reached yet (restricted ones are never
    # embedded: not pending).
    pending = sum(
        1
        for r in loaded.values()
        if not r.has_vector
        and r.status in EMBEDDABLE_STATUSES
        and r.sensitivity != Sensitivity.RESTRICTED
    )
    if beside is not None:
        (vector, margins), found_beside = side.result(beside, approximate_vector_route)
        loaded = {**found_beside, **loaded}
    else:
        # The scope's vectors, from this process's cache, and (small scopes) what the
        # vector route may return, read now rather than scanned after the embedding.
        vectors = scope_vectors(vector_scope)
        searchable = searchable_ids(eligible, vector_scope, slot_keys) if vectors else None
        allowed = vectors.rows_of(searchable) if vectors and searchable is not None else None
        if while_embedding is not None and not query_vector.done():
            while_embedding(loaded.values(), query_vector.done)
        vector, margins = route_vector(
            eligible, vector_scope, query_vector, n, slot_keys, vectors, searchable, allowed
        )
    slot = route_slot(records, query_vector, predicates, weights, n)

    candidates = Candidates(slot_keys.answers_of)
    # A question about a slot in other words ("用户目前供职于哪家企业？" for ``employer``)
    # is a key lookup too: the slot's values join the exact ranking, after the hits it
    # found by name.
    exact_ids = {rid for rid, _ in exact}
    key_lookup = exact + [(rid, 1.0) for rid, _ in slot if rid not in exact_ids]
    rankings = {
        "exact": key_lookup,
        "lexical": lexical_hits,
        "trigram": trigram,
        "recency": recency,
        "vector": vector,
    }
    for ranking, hits in rankings.items():
        for rank, (rid, score) in enumerate(hits, start=1):
            candidates.credit(rid, ranking, score, rank)
    for rid, cov in coverage.items():
        candidates.credit(rid, "lexical_coverage", cov)
    for rid, margin in margins.items():
        candidates.credit(rid, "vector_margin", margin)
    for rid, score in slot:
        candidates.credit(rid, "slot_match", score)
    for rid, record in loaded.items():
        if rid in candidates:
            candidates[rid].record = record
    return candidates, pending


def route_exact(
    eligible: QuerySet[MemoryRecord],
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
    (``_trigram_rows``), not by reading every doc of the subject."""
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
        eligible = eligible.alias(spelled=spelled)
        match = Q(spelled=True)
    if request.predicates:
        match |= Q(predicate__in=request.predicates)
    through_index = bool(identifiers) and None not in (subject_ids, doc_scope) and large_scope()
    for ident in identifiers:
        if through_index:
            holding = _trigram_rows(
                MemorySearchDoc.objects.filter(doc_scope, trigram_text__contains=ident).values_list(
                    "record_id", flat=True
                ),
                ("engram_search_docs_regex(%s::uuid[], %s::text)", [re.escape(ident)]),
                subject_ids,
            )
            match |= Q(pk__in=RawSQL("SELECT unnest(%s::uuid[])", [uuid_array(holding)]))
        else:
            match |= Q(search_doc__trigram_text__contains=ident)
    rows = (
        eligible.filter(match)
        .order_by("-valid_from", "-recorded_at")
        .values_list("id", flat=True)[:n]
    )
    return [(rid, 1.0) for rid in rows]


def _spells(query: str, predicate: str) -> bool:
    """The lowercased query spells ``predicate``, as is or in words (as the SQL above)."""
    name = predicate.lower()
    return bool(name) and (name in query or name.translate(_AS_WORDS) in query)


_AS_WORDS = str.maketrans("_.", "  ")


def route_slot(
    eligible: QuerySet[MemoryRecord],
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
        eligible.filter(predicate=known[best])
        .order_by("-valid_from", "-recorded_at")
        .values_list("id", flat=True)[:n]
    )
    return [(rid, score) for rid in rows]


def route_lexical(
    eligible: Eligible,
    subject_ids: list[uuid.UUID],
    query: str,
    n: int,
    scope_names: frozenset[str] = frozenset(),
    context_weight: float = 1.0,
    slot_keys: SlotKeys | None = None,
    statistics: Callable[[], tuple[int, float]] | None = None,
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
    ``_scope_statistics``. Every match is scored by which query lexemes it holds (as if
    each occurred once: a conversation turn rarely repeats a word), and the best
    ``_BM25_EXACT`` of them again with their counts — so a subject with fewer matches than
    that is scored exactly, and one with thousands does not pay for counting the words of
    each. A question's first ``MAX_LEXEMES`` lexemes are searched.

    Also returns each hit's coverage: the share of the query's (stemmed) words the
    memory's own text contains — the relevance gate's evidence, never the context's."""
    terms = lexical.query_terms(query, scope_names)
    if not terms:
        return [], {}
    lexemes = _lexemes(terms)
    if not lexemes:
        return [], {}
    keys = slot_keys.ids if slot_keys else []
    size, mean_length = (
        statistics() if statistics else _scope_statistics(eligible.values["tenant"], subject_ids)
    )
    quoted = [_quoted(lexeme) for lexeme in lexemes]
    values = {
        **eligible.values,
        **_subject_values(subject_ids),
        "slot_keys": uuid_array(keys),
        "tsquery": " | ".join(quoted),
        "context_weight": repr(float(context_weight)),
        **{f"lexeme{i}": q for i, q in enumerate(quoted)},
    }
    large = size >= _LEXICAL_INDEX_FROM
    matches, matches_params = _LEXICAL_MATCHES.sql_with_params(
        (eligible.shape, len(subject_ids), len(lexemes), bool(keys), large), values
    )
    if large:
        matches, matches_params = _from_matching_docs(
            matches, matches_params, subject_ids, values["tsquery"], quoted, float(context_weight)
        )
    searchable, searchable_params = _SEARCHABLE.sql_with_params(
        (eligible.shape, bool(keys)), {**eligible.values, "slot_keys": values["slot_keys"]}
    )
    with read_connection().cursor() as cursor:
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


def _lexemes(terms: list[str]) -> list[str]:
    """The distinct English-stemmed lexemes of ``terms``, as the full-text index holds
    them: the first ``MAX_LEXEMES`` in the terms' order (by where each first occurs),
    sorted as a tsvector holds them (the statement scoring them is built for their
    number)."""
    with read_connection().cursor() as cursor:
        cursor.execute(
            "SELECT u.lexeme FROM unnest(to_tsvector('english'::regconfig, %s)) u"
            " ORDER BY u.positions[1]",
            [" ".join(terms)],
        )
        lexemes = [lexeme for (lexeme,) in cursor.fetchall()]
    return sorted(lexemes[:MAX_LEXEMES])


def _quoted(lexeme: str) -> str:
    """A lexeme as a tsquery of itself (no stemming again)."""
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def _searchable(p: Placeholders, eligible_shape: tuple, with_keys: bool) -> QuerySet:
    """The records the lexical and vector routes may find: ``eligible``, and other
    versions of single-valued facts (slot keys)."""
    records = MemoryRecord.objects.filter(*eligible_q(p, eligible_shape))
    if with_keys:
        records = MemoryRecord.objects.filter(Q(pk__in=records) | pk_in_array(p, "slot_keys"))
    return records


def _searchable_query(p: Placeholders, eligible_shape: tuple, with_keys: bool) -> QuerySet:
    return _searchable(p, eligible_shape, with_keys).values("id")


_SEARCHABLE = QueryTemplate(_searchable_query)

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
        docs = MemorySearchDoc.objects.filter(_doc_scope(p, subjects), searchable)
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
        MemorySearchDoc.objects.filter(_doc_scope(p, subjects), searchable, match)
        .annotate(own=mask("search_vector"), ctx=mask("context_vector"), len=length)
        .values_list("record_id", "own", "ctx", "len")
    )


_LEXICAL_MATCHES = QueryTemplate(_lexical_matches_query)

# From this many lexical docs in a scope, the matches are found through the full-text
# indexes (``_from_matching_docs``); below it, the scope's own docs are read.
_LEXICAL_INDEX_FROM = 2000
_DOCS_TABLE = 'FROM "memory_memorysearchdoc" WHERE'


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
    leakproof, so it may not run before the policy), and a 50,000-turn subject's docs were
    all read and matched one by one (30 ms of the statement's 39). The function applies
    the policy's condition itself — the transaction's tenant, nothing else — finds the
    matches through the full-text indexes, and returns which of ``lexemes`` (tsqueries of
    one lexeme each) each holds and its length rather than its text vectors, which a
    function's result would carry whole (migrations 0016, 0018)."""
    return _from_function(
        sql,
        params,
        "engram_search_docs_held(%s::uuid[], %s::tsquery, %s::tsquery[], %s::float8)",
        [uuid_array(subject_ids), tsquery, lexemes, context_weight],
    )


def _from_function(
    sql: str, params: list, function: str, function_params: list
) -> tuple[str, list]:
    """``sql`` (the ORM's query of the lexical docs) with the table replaced by
    ``function`` (a call returning doc rows, its parameters ``function_params``) under the
    table's name, so every column reference and filter applies to its rows."""
    at = sql.index(_DOCS_TABLE)
    before = sql[:at].count("%s")
    swapped = (
        sql[:at] + f'FROM {function} "memory_memorysearchdoc" WHERE' + sql[at + len(_DOCS_TABLE) :]
    )
    return swapped, [*params[:before], *function_params, *params[before:]]


@functools.cache
def _bm25_sql(lexemes: int, grouped: bool) -> str:
    """BM25 (k1 = BM25_K1, b = BM25_B) of ``matches`` (``_lexical_matches_query``: a doc,
    the bits of the query's lexemes its own words and its context hold, its length): ``s``
    each lexeme's document frequency over the matches, the scope's size and mean length;
    ``approx`` the best matches by their score as if each lexeme they hold occurred once,
    then by id; ``t`` those — if their records are ``searchable`` — with each lexeme's
    count (a context occurrence counts ``context_weight``); then their scores and coverage
    (the share of the query's lexemes the doc's own text holds).

    ``grouped`` (a large scope's thousands of matches): that score is computed once per
    group of matches with the same bits and length (at 50,000 turns, ~8,500 matches of a
    three-lexeme question fall into ~60): ``g`` the groups, ``cut`` the best of them, those
    with fewer matches scoring above them than ``approx`` takes, which takes the best
    matches of those — the same matches as scoring each, without the formula for each. A
    small scope's few matches are scored each: there the groups cost more to plan than
    they save (600 turns: 7.7 → 8.4 ms)."""
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
    ORDER BY cut.score DESC, m.record_id
    LIMIT %s
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
    ORDER BY {held_once("m")} DESC, m.record_id
    LIMIT %s
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
    SELECT m.record_id, m.len, x.lexeme, sum(x.tf) AS tf, bool_or(x.own) AS own
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
    GROUP BY m.record_id, m.len, x.lexeme
), exact AS (
    SELECT t.record_id, t.len, t.tf, t.own, array_position(%s::text[], t.lexeme) AS i FROM t
)
SELECT m.record_id,
       sum({term("m.i", "m.tf")}) AS score,
       count(*) FILTER (WHERE m.own)::float8 / {lexemes} AS coverage
FROM exact m CROSS JOIN s
GROUP BY m.record_id
ORDER BY score DESC, m.record_id
LIMIT %s
"""


def _subject_values(subject_ids: list[uuid.UUID]) -> dict[str, uuid.UUID]:
    return {f"scope_subject{i}": sid for i, sid in enumerate(subject_ids)}


def _doc_scope(p: Placeholders, subjects: int) -> Q:
    """A derived row's scope: the tenant and the scope's subjects (the request's subject,
    and the procedures subject when the request may read procedures)."""
    return Q(
        tenant_id=p.uuid("tenant"),
        subject_id__in=[p.uuid(f"scope_subject{i}") for i in range(subjects)],
    )


# A large scope's statistics move slowly: kept this long, from this many docs or vectors.
_STATISTICS_SECONDS = 30.0
_STATISTICS_KEPT_FROM = 2000
_kept: dict[tuple, tuple[float, Any]] = {}


def _kept_a_while(key: tuple, count: Callable[[], Any], size: Callable[[Any], int]) -> Any:
    """``count()``, or what it gave for ``key`` in the last ``_STATISTICS_SECONDS`` when
    that was a large scope's (``size`` of it at least ``_STATISTICS_KEPT_FROM``): counting
    a scope of 50,000 costs more than a route, and a few seconds' lag changes nothing."""
    now = monotonic()
    held = _kept.get(key)
    if held and now - held[0] < _STATISTICS_SECONDS:
        return held[1]
    value = count()
    if size(value) >= _STATISTICS_KEPT_FROM:
        if len(_kept) > 10_000:
            _kept.clear()
        _kept[key] = (now, value)
    return value


def _scope_statistics(tenant_id: uuid.UUID, subject_ids: list[uuid.UUID]) -> tuple[int, float]:
    """(how many lexical docs the scope holds, their mean length in lexemes), for BM25's
    word weights and length normalisation; a large scope's kept a while (``_kept_a_while``),
    a small scope's counted every time (about a millisecond at 600)."""

    def count() -> tuple[int, float]:
        rows = _STATISTICS.rows(
            (len(subject_ids),), {"tenant": tenant_id, **_subject_values(subject_ids)}
        )
        size, mean = rows[0] if rows else (0, 0.0)  # grouped by tenant: no docs, no row
        return size or 0, float(mean or 0.0)

    return _kept_a_while(("docs", tenant_id, *sorted(subject_ids)), count, lambda v: v[0])


def _statistics_query(p: Placeholders, subjects: int) -> QuerySet:
    return (
        MemorySearchDoc.objects.filter(_doc_scope(p, subjects))
        .values("tenant_id")
        .annotate(size=Count("pk"), mean=Avg(Func(F("search_vector"), function="length")))
        .values_list("size", "mean")
    )


_STATISTICS = QueryTemplate(_statistics_query)


def route_trigram(
    eligible: QuerySet[MemoryRecord],
    doc_scope: Q,
    query: str,
    n: int,
    threshold: float,
    scope_names: frozenset[str] = frozenset(),
    large_scope: Callable[[], bool] = lambda: False,
    subject_ids: list[uuid.UUID] | None = None,
) -> list[tuple[uuid.UUID, float]]:
    """Fuzzy match of identifier-like tokens (ids, error codes, versions) and names
    (capitalised Latin words) against the raw text: tolerant of typos and partial ids.

    One mistyped digit changes most of a short id's trigrams ("KL1712" and "KL1412" share
    4 of 10), so identifiers are matched in two steps: trigram similarity finds a wider
    set of candidates, then the edit distance to the closest identifier in the memory
    decides — one edit per six characters is a typo; the score is 1 − edits / length.

    A name is looked up verbatim first; only one held nowhere as a word is searched for
    as a typo — unless it is a typo of a speaker's name (``scope_names``), which, like the
    name itself, says whose memory is asked about rather than what.

    In a large scope (``large_scope()``: ``_LEXICAL_INDEX_FROM`` docs or more) the docs
    that can match are found through the trigram index (``_trigram_rows``), which
    row-level security keeps PostgreSQL from using on its own."""
    identifiers = [t.lower() for t in lexical.identifiers(query)]
    names = [t.lower() for t in lexical.names(query, scope_names) if t.lower() not in identifiers]
    tokens = list(dict.fromkeys(identifiers + names))[:8]
    if not tokens:
        return []
    best: dict[uuid.UUID, float] = {}
    docs = MemorySearchDoc.objects.filter(doc_scope, record__in=eligible)
    through_index = subject_ids is not None and large_scope()
    for token in tokens:
        is_id = token in identifiers
        if not is_id:
            # A name the subject's memories hold as a word needs no typo search: those
            # memories match it fully (word similarity 1), and a cheap word match finds
            # them where word_similarity over every doc cost ~17 ms per name at 600.
            word = rf"\m{re.escape(token)}\M"
            verbatim = _trigram_rows(
                docs.filter(trigram_text__regex=word)
                .order_by("record_id")
                .values_list("record_id", flat=True)[:n],
                ("engram_search_docs_regex(%s::uuid[], %s::text)", [word]),
                subject_ids if through_index else None,
            )
            if verbatim:
                for rid in verbatim:
                    best[rid] = 1.0
                continue
            if lexical.misspells(token, scope_names):
                # A speaker's name mistyped ("Carolin", held nowhere as a word): like the
                # name, it says whose memory is asked about, not what. As a typo search
                # it matched every turn of that speaker (0.7–0.8 s at 50,000 turns).
                continue
        floor = _ID_CANDIDATE_SIMILARITY if is_id else threshold
        rows = _trigram_rows(
            docs.filter(_typo_candidates(token))
            .annotate(sim=TrigramWordSimilarity(token, "trigram_text"))
            .filter(sim__gte=floor)
            .order_by("-sim", "record_id")
            .values_list("record_id", "sim", "trigram_text")[:n],
            ("engram_search_docs_similar(%s::uuid[], %s::text, %s::real)", [token, floor]),
            subject_ids if through_index else None,
        )
        for rid, sim, text in rows:
            if is_id:
                # An id matches itself or a typo of itself. Sharing a prefix with another
                # id ("ORD-2023-63805" for "ORD-2023-65769") is no match; a part of one
                # ("65719" in "ORD-2023-65719") scores high as a whole word.
                typo = lexical.closest_identifier_score(token, text)
                sim = typo if typo else (sim if sim >= _ID_PART_SIMILARITY else 0.0)
                if sim < threshold:
                    continue
            best[rid] = max(best.get(rid, 0.0), sim)
    return sorted(best.items(), key=lambda kv: (-kv[1], str(kv[0])))[:n]


def _typo_candidates(token: str) -> Q:
    """Docs that can hold ``token`` or a typo of it: cut into one piece more than the
    edits a typo may make (one per six characters, at least one), a typo leaves at least
    one piece whole (pigeonhole), so a doc holding none of the pieces is no match. A
    substring test per piece is cheap; word similarity over every doc of a subject is not
    (~17 ms per token at 600 memories, ~120 ms at 5,000)."""
    parts = max(1, len(token) // 6) + 1
    size = -(-len(token) // parts)
    pieces = [token[i : i + size] for i in range(0, len(token), size)]
    if min(len(p) for p in pieces) < 2:
        return Q()
    match = Q()
    for piece in pieces:
        match |= Q(trigram_text__contains=piece)
    return match


def _trigram_rows(
    queryset: QuerySet, docs_from: tuple[str, list], subject_ids: list[uuid.UUID] | None
) -> list:
    """The rows of ``queryset`` (a query of the lexical docs); with ``subject_ids``, read
    from the docs of those subjects that ``docs_from`` finds through the trigram index —
    ``engram_search_docs_regex`` (the docs whose text matches a regular expression) or
    ``engram_search_docs_similar`` (those holding a word at least this similar to the
    token: pg_trgm's ``<%``). Like ``engram_search_docs_matching`` for full text, they
    apply row-level security's condition themselves (the transaction's tenant): with the
    policy, PostgreSQL reads and matches every doc of the subject (70 ms for a word, ~0.8 s
    for word similarity at 50,000; migration 0016)."""
    if subject_ids is None:
        return list(queryset)
    sql, params = queryset.query.get_compiler(queryset.db).as_sql()
    function, function_params = docs_from
    sql, params = _from_function(
        sql, list(params), function, [uuid_array(subject_ids), *function_params]
    )
    flat = getattr(queryset, "_iterable_class", None) is FlatValuesListIterable
    with read_connection().cursor() as cursor:
        cursor.execute(sql, params)
        return [row[0] for row in cursor.fetchall()] if flat else cursor.fetchall()


# Identifier candidates for the edit-distance check (see route_trigram), and the
# similarity at which a query identifier counts as part of a longer one.
_ID_CANDIDATE_SIMILARITY = 0.3
_ID_PART_SIMILARITY = 0.8


@dataclass(frozen=True)
class VectorScope:
    """Whose vectors the vector route reads (the tenant, the scope's subjects, the model)
    and whether so many that it goes through the HNSW index instead of an exact scan."""

    tenant_id: uuid.UUID
    subject_ids: tuple[uuid.UUID, ...]
    model_id: str
    approximate: bool
    # How many vectors the scope holds, counted up to VECTOR_EXACT_MAX + 1.
    size: int = 0

    @classmethod
    def of(cls, scope: RecallScope, subject_ids: list[uuid.UUID], model_id: str) -> VectorScope:
        """Counted up to the threshold only, while the question is still being embedded;
        a large scope's count is kept a while (``_kept_a_while``): near the threshold
        either path returns the right memories."""
        exact_max = settings.ENGRAM_RETRIEVAL["VECTOR_EXACT_MAX"]
        size = _kept_a_while(
            ("vectors", scope.tenant_id, model_id, exact_max, *sorted(subject_ids)),
            lambda: _count_vectors(scope.tenant_id, subject_ids, model_id, exact_max + 1),
            lambda v: v,
        )
        return cls(scope.tenant_id, tuple(subject_ids), model_id, size > exact_max, size)


def _count_vectors(
    tenant_id: uuid.UUID, subject_ids: list[uuid.UUID], model_id: str, up_to: int
) -> int:
    """How many vectors of ``model_id`` the subjects hold, counted up to ``up_to``."""
    with read_connection().cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM (SELECT 1 FROM memory_memoryembedding"
            " WHERE tenant_id = %s AND subject_id = ANY(%s::uuid[]) AND model_id = %s"
            " LIMIT %s) AS scope",
            [tenant_id, uuid_array(subject_ids), model_id, up_to],
        )
        return cursor.fetchone()[0]


def route_vector(
    eligible: Eligible,
    vector_scope: VectorScope,
    query_vector: QueryVector,
    n: int,
    slot_keys: SlotKeys | None = None,
    vectors: ScopeVectors | None = None,
    searchable: frozenset[uuid.UUID] | None = None,
    allowed: np.ndarray | None = None,
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
    rows (docs/performance.md: 10k vectors per scope, exact 18 ms and recall 1.0 vs HNSW 28 ms
    and 0.79). Only a scope holding more than VECTOR_EXACT_MAX vectors goes through HNSW
    with iterative scans (``approximate_scan``).

    ``vectors``: the scope's vectors, whole, from this process's cache (``scope_vectors``):
    ranked here in the scan's order, and the best searchable found among them with the
    ids read ahead (``searchable``, small scopes; ``allowed``: their rows, if the caller
    has them already) or one probe of ``eligible`` in rank order
    (``_searchable_in_order``) — no scan after the embedding.

    The index may lag the write path (embedding runs after commit): recall never embeds
    on the request path (``run_routes`` counts the found memories without a vector as
    ``vector_pending``)."""
    embedded = query_vector.result()
    if embedded is None:
        return [], {}
    vector, typical = embedded
    shifted = vector - typical
    keys = slot_keys.ids if slot_keys else []
    if vectors is not None:
        if not len(vectors):
            return [], {}
        if allowed is None and searchable is not None:
            allowed = vectors.rows_of(searchable)
        if allowed is not None:
            order = vectors.ranking(shifted, allowed, n)
        else:
            order = _searchable_in_order(eligible, vectors, shifted, n, keys)
        rows = vectors.hits(vector, shifted, order)
        return [(rid, sim) for rid, sim, _ in rows], {rid: m for rid, _, m in rows}
    values = {
        **eligible.values,
        **_subject_values(list(vector_scope.subject_ids)),
        "model": vector_scope.model_id,
        "query_vector": _vector_text(vector),
        "shifted": _vector_text(shifted),
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


# Up to this many vectors in a scope, the ids of the records the vector route may return
# are read while the question is embedded (``searchable_ids``); above, the ranked records
# are looked up in ``eligible`` after ranking (``_searchable_in_order``).
SEARCHABLE_READ_AHEAD_MAX = 2000
# At most this many of a scope's vectors are fetched into the cache per recall
# (``scope_vectors``): a cold scope of 5,000 fills in three recalls, each fetch ~6 ms per
# 1,000 while the question is embedded, and is scanned by SQL until it is whole.
VECTOR_FETCH_MAX = 2000
_SCOPE_IDS_SQL = (
    "SELECT coalesce(string_agg(int8send(id), ''::bytea ORDER BY id), ''::bytea)"
    " FROM memory_memoryembedding"
    " WHERE tenant_id = %s AND subject_id = ANY(%s) AND model_id = %s"
)
_SCOPE_ROWS_SQL = (
    "SELECT id, record_id, vector FROM memory_memoryembedding"
    " WHERE tenant_id = %s AND subject_id = ANY(%s) AND model_id = %s"
)


def scope_vectors(vector_scope: VectorScope) -> ScopeVectors | None:
    """Every vector of an exact scan's scope, from this process's cache
    (``memory.recall.vector_cache``), read while the question is embedded; None if the
    scope is not cached whole (too large, approximate, empty, or still filling): the scan
    then runs in SQL.

    With nothing kept yet, the scope's rows are read (up to ``VECTOR_FETCH_MAX``, in
    PostgreSQL's binary form). Otherwise the scope's embedding ids are read in this
    transaction (``_SCOPE_IDS_SQL``: one index-only scan of ``memory_embedding_scope``)
    and the kept rows are used only if they are exactly those; if not, rows the database
    no longer holds are dropped and up to ``VECTOR_FETCH_MAX`` missing ones fetched. An
    embedding row's vector never changes (``MemoryEmbedding``'s trigger), so the same ids
    are the same vectors."""
    if vector_scope.approximate or not 0 < vector_scope.size <= vector_cache.cache.size():
        return None
    key = (vector_scope.tenant_id, vector_scope.subject_ids, vector_scope.model_id)
    params = [vector_scope.tenant_id, list(vector_scope.subject_ids), vector_scope.model_id]
    held = vector_cache.cache.get(key)
    if held is None:
        # Nothing kept: the scope's first rows by id, with their ids, in one statement.
        rows = binary_rows(
            _SCOPE_ROWS_SQL + " ORDER BY id LIMIT %s", [*params, VECTOR_FETCH_MAX + 1]
        )
        whole = len(rows) <= VECTOR_FETCH_MAX
        rows, dropped = rows[:VECTOR_FETCH_MAX], False
    else:
        [(packed,)] = binary_rows(_SCOPE_IDS_SQL, params)
        ids = vector_cache.decode_ids(packed)
        if np.array_equal(held.embedding_ids, ids):
            return held
        kept_ids = held.embedding_ids[np.isin(held.embedding_ids, ids, assume_unique=True)]
        dropped = len(kept_ids) < len(held)
        missing = np.setdiff1d(ids, kept_ids, assume_unique=True)
        whole = len(missing) <= VECTOR_FETCH_MAX
        missing = missing[:VECTOR_FETCH_MAX]
        rows = (
            binary_rows(_SCOPE_ROWS_SQL + " AND id = ANY(%s)", [*params, missing.tolist()])
            if len(missing)
            else []
        )
    fetched = vector_cache.decode_vectors([blob for _, _, blob in rows])
    if fetched is None or (
        held is not None
        and len(held)
        and len(fetched)
        and fetched.shape[1] != held.vectors.shape[1]
    ):
        # One model, two dimensions: not ours to judge here; the scan copes.
        vector_cache.cache.discard(key)
        return None
    new_ids = np.array([i for i, _, _ in rows], np.int64)
    new_records = [rid for _, rid, _ in rows]
    if dropped:  # the database no longer holds some kept rows: keep only the others
        kept = held.kept(ids)
        vectors = vector_cache.ScopeVectors.build(
            np.concatenate([kept[0], new_ids]),
            [*kept[1], *new_records],
            np.vstack([kept[2], fetched]) if len(fetched) else kept[2],
        )
    elif held is not None and len(held):
        vectors = held.extended(new_ids, new_records, fetched)
    else:
        vectors = vector_cache.ScopeVectors.build(new_ids, new_records, fetched)
    vector_cache.cache.put(key, vectors)
    return vectors if whole else None


def searchable_ids(
    eligible: Eligible, vector_scope: VectorScope, slot_keys: SlotKeys | None = None
) -> frozenset[uuid.UUID] | None:
    """The ids of the records the vector route may return (``eligible`` and other versions
    of single-valued facts), for an exact scan of a scope of at most
    ``SEARCHABLE_READ_AHEAD_MAX`` vectors; None otherwise (the scan joins them itself, and
    a scope without vectors has nothing to scan)."""
    if vector_scope.approximate or not 0 < vector_scope.size <= SEARCHABLE_READ_AHEAD_MAX:
        return None
    keys = slot_keys.ids if slot_keys else []
    rows = _SEARCHABLE.rows(
        (eligible.shape, bool(keys)), {**eligible.values, "slot_keys": uuid_array(keys)}
    )
    return frozenset(rid for (rid,) in rows)


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
    searchable, searchable_params = _SEARCHABLE.sql_with_params(
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


def _searchable_in_order(
    eligible: Eligible, vectors: ScopeVectors, shifted: np.ndarray, n: int, keys: list
) -> np.ndarray:
    """The rows of ``vectors`` whose records are searchable, the best ``n`` by margin: the
    best 4n ranked are looked up in ``eligible`` in one statement (one primary-key probe
    each, in rank order until n are found); if fewer than ``n`` of them are searchable,
    the next ones, four times as many each time, until every row is — the same answer as
    ``_exact_scan``'s in SQL, which ranks deeper first because each of its looks is a
    scan, where each look here is a probe of the next ranks."""
    searchable, searchable_params = _SEARCHABLE.sql_with_params(
        (eligible.shape, bool(keys)), {**eligible.values, "slot_keys": uuid_array(keys)}
    )
    sql = _PROBE_SQL.format(searchable=searchable)
    found: list[int] = []
    looked, first = 0, 4 * max(n, 1)
    with read_connection().cursor() as cursor:
        while len(found) < n and looked < len(vectors):
            order = vectors.ranking(shifted, first=looked + first)[looked:]
            ranked = [vectors.record_ids[i] for i in order.tolist()]
            cursor.execute(sql, [uuid_array(ranked), *searchable_params, n - len(found)])
            found += [int(order[position - 1]) for (position,) in cursor.fetchall()]
            looked += len(order)
            first *= 4
    return np.array(found, np.int64)


_PROBE_SQL = """
SELECT c.position
FROM unnest(%s::uuid[]) WITH ORDINALITY AS c(id, position)
CROSS JOIN LATERAL (
    SELECT 1 FROM ({searchable}) s WHERE s.id = c.id LIMIT 1
) AS searchable
ORDER BY c.position
LIMIT %s
"""
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
-- subject first (at 5,000 memories 12.6 ms instead of 8.5).
CROSS JOIN LATERAL (
    SELECT 1 FROM ({searchable}) s WHERE s.id = e.record_id LIMIT 1
) AS searchable
ORDER BY e.margin DESC, e.record_id
LIMIT %s
"""


def _approximate_query(
    p: Placeholders, eligible_shape: tuple, subjects: int, with_keys: bool, n: int
) -> QuerySet:
    records = _searchable(p, eligible_shape, with_keys)
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
        _doc_scope(p, subjects), model_id=p.text("model"), record__in=records
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


def _vector_text(vector: np.ndarray) -> str:
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


def route_recency(
    eligible: QuerySet[MemoryRecord], request: RecallRequest, n: int
) -> list[tuple[uuid.UUID, float]]:
    """The latest experiences (episodic memory), for questions that ask about the latest
    ones ("what happened last time?", "上次…"): for other questions, recent is not
    relevant."""
    if request.memory_types and MemoryType.EPISODIC not in request.memory_types:
        return []
    if not lexical.asks_for_recent(request.query):
        return []
    rows = (
        eligible.filter(memory_type=MemoryType.EPISODIC)
        .order_by("-valid_from")
        .values_list("id", flat=True)[: max(3, n // 5)]
    )
    return [(rid, 1.0) for rid in rows]
