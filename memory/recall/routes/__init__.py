"""Step 3 of recall: the routes. Each is a function from one typed query (``RouteQuery``)
to its hits, best first: ``[(record id, score)]``, searching only *inside* ``eligible``
(steps 1–2). Equal scores break by id, so answers are reproducible. ``run_routes``
composes them and credits their hits to the candidates (``signals.Candidates``).

- ``exact``    key lookup: a predicate the request or the question names, an identifier
               from the question verbatim;
- ``slot``     the predicate whose name the question matches by meaning;
- ``lexical``  Chinese segmented + English stemmed full text, scored by BM25;
- ``trigram``  identifiers (with typos) and names;
- ``vector``   an exact scan within the subject's scope (HNSW for a very large one),
               scored by how much more a memory matches the question than a typical
               question;
- ``recency``  the latest experiences, for questions that ask for them.

This is the reference: one connection, the ORM or one SQL statement per route, nothing
kept between requests. The speed-ups beside it live in ``memory.recall.accel``, each
behind a setting and held to the same answers.

Recall writes nothing here: a found memory without a vector yet (the embedding queue
lags) is counted as ``vector_pending``, never embedded on the request path."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable

from django.conf import settings

from accounts.models import Sensitivity
from memory.models import MemoryRecord
from memory.recall.accel import credit_ahead
from memory.recall.routes import exact, lexical, recency, slot, trigram, vector
from memory.recall.routes.exact import route_exact
from memory.recall.routes.lexical import MAX_LEXEMES, route_lexical
from memory.recall.routes.recency import route_recency
from memory.recall.routes.route_query import Hits, RouteQuery
from memory.recall.routes.slot import route_slot
from memory.recall.routes.slots import SlotKeys, slot_keys
from memory.recall.routes.trigram import route_trigram
from memory.recall.routes.vector import route_vector
from memory.recall.routes.vector_scope import VectorScope
from memory.recall.signals import Candidates, load_records
from memory.recall.ties import shared_ranks
from memory.services.indexing import EMBEDDABLE_STATUSES

__all__ = [
    "MAX_LEXEMES",
    "ROUTES",
    "Hits",
    "RouteQuery",
    "SlotKeys",
    "VectorScope",
    "credit",
    "route_exact",
    "route_lexical",
    "route_recency",
    "route_slot",
    "route_trigram",
    "route_vector",
    "run_routes",
    "search_lexical",
    "search_trigram",
    "slot_keys",
]

ROUTES = ("exact", "slot", "lexical", "trigram", "vector", "recency")


WhileEmbedding = Callable[[Iterable[MemoryRecord], Callable[[], bool]], None]


def search_trigram(q: RouteQuery) -> Hits:
    """The trigram route for ``q``; with ``ENGRAM_RECALL_ONE_TRIGRAM_READ``, in one
    statement for all its tokens (``accel.trigram_read``, the same hits) unless the scope
    is large."""
    if settings.ENGRAM_RETRIEVAL["ONE_TRIGRAM_READ"]:
        from memory.recall.accel.trigram_read import route_trigram_in_one_read

        hits = route_trigram_in_one_read(q)
        if hits is not None:
            return hits
    return trigram.search(q)


def search_lexical(q: RouteQuery) -> tuple[Hits, dict[uuid.UUID, float]]:
    """The lexical route for ``q``; with ``ENGRAM_RECALL_LEXEMES_WITH_STATISTICS`` the
    question's lexemes and the scope's statistics in one statement (``accel.lexemes_read``,
    the same hits)."""
    if settings.ENGRAM_RETRIEVAL["LEXEMES_WITH_STATISTICS"]:
        from memory.recall.accel.lexemes_read import lexemes_and_statistics

        return lexical.search(q, lambda terms: lexemes_and_statistics(q, terms))
    return lexical.search(q)


def run_routes(
    q: RouteQuery, while_embedding: WhileEmbedding | None = None
) -> tuple[Candidates, int]:
    """Every route for ``q``; the candidates and how many found memories have no vector
    yet (``vector_pending``).

    The routes that do not need the question's embedding run first, while it is being
    computed on another thread, and the records of what they found are loaded then
    (``load_records``); the vector and slot routes then wait for it. With
    ``ENGRAM_RECALL_VECTOR_CACHE`` the scope's vectors come from this process's cache
    (``accel.vector_cache``), checked against the database while the question is
    embedded. ``while_embedding(records, done)``, if given, uses any wait left for work
    the answer needs later (``pack.judge_ahead``), until ``done()``."""
    if settings.ENGRAM_RETRIEVAL["LEXICAL_FIRST"]:
        # Its first statement reads the scope's statistics too, which the exact and
        # trigram routes then have (ENGRAM_RECALL_LEXICAL_FIRST); the routes are
        # independent, so the order changes no hit.
        lexical_hits, coverage = search_lexical(q)
        exact_hits = exact.search(q)
        trigram_hits = search_trigram(q)
        recency_hits = recency.search(q)
    else:
        exact_hits = exact.search(q)
        trigram_hits = search_trigram(q)
        recency_hits = recency.search(q)
        lexical_hits, coverage = search_lexical(q)
    found = {
        rid for hits in (exact_hits, lexical_hits, trigram_hits, recency_hits) for rid, _ in hits
    }
    loaded = load_records(
        list({t for rid in found for t in q.slot_keys.answers_of.get(rid, [rid])}),
        with_speakers=q.with_speakers,
        model_id=q.query_vector.model_id,
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
    # The word routes' hits credited now, while the question is embedded
    # (ENGRAM_RECALL_CREDIT_AHEAD, ``accel.credit_ahead``); the rest after it.
    ahead = (
        credit_ahead.ahead(
            q.slot_keys.answers_of, exact_hits, lexical_hits, trigram_hits, recency_hits, coverage
        )
        if credit_ahead.enabled()
        else None
    )
    cached = None
    if settings.ENGRAM_RETRIEVAL["VECTOR_CACHE"]:
        from memory.recall.accel.cached_scan import prepare

        cached = prepare(q)
    if while_embedding is not None and not q.query_vector.done():
        while_embedding(loaded.values(), q.query_vector.done)
    vector_hits, margins = cached() if cached is not None else vector.search(q)
    slot_hits = slot.search(q)

    if ahead is not None:
        candidates = credit_ahead.finish(
            ahead, q.slot_keys.answers_of, exact_hits, vector_hits, margins, slot_hits, loaded
        )
        if candidates is not None:
            return candidates, pending
    candidates = credit(
        q.slot_keys.answers_of,
        exact_hits=exact_hits,
        lexical_hits=lexical_hits,
        trigram_hits=trigram_hits,
        recency_hits=recency_hits,
        vector_hits=vector_hits,
        margins=margins,
        coverage=coverage,
        slot_hits=slot_hits,
        loaded=loaded,
    )
    return candidates, pending


def credit(
    answers_of: dict[uuid.UUID, list[uuid.UUID]],
    *,
    exact_hits: Hits,
    lexical_hits: Hits,
    trigram_hits: Hits,
    recency_hits: Hits,
    vector_hits: Hits,
    margins: dict[uuid.UUID, float],
    coverage: dict[uuid.UUID, float],
    slot_hits: Hits,
    loaded: dict[uuid.UUID, MemoryRecord],
) -> Candidates:
    """The routes' hits credited to the candidates (the reference's order: each ranking
    in turn, then the value signals), each with its record if ``loaded`` has it."""
    candidates = Candidates(answers_of)
    # A question about a slot in other words ("用户目前供职于哪家企业？" for ``employer``)
    # is a key lookup too: the slot's values join the exact ranking, after the hits it
    # found by name.
    exact_ids = {rid for rid, _ in exact_hits}
    key_lookup = exact_hits + [(rid, 1.0) for rid, _ in slot_hits if rid not in exact_ids]
    rankings = {
        "exact": key_lookup,
        "lexical": lexical_hits,
        "trigram": trigram_hits,
        "recency": recency_hits,
        "vector": vector_hits,
    }
    # Each place its own rank: the word routes list equal scores in an order of their
    # content (``trigram.DOC_ORDER``, BM25's cut), the key lookup and the latest
    # experiences by ``ties.TIME_ORDER``. The vector route can only list equal margins
    # (the same vector: the same text) by id, so there they share a rank
    # (``ties.shared_ranks``).
    for ranking, hits in rankings.items():
        ranks = (
            shared_ranks(hits, lambda hit: margins[hit[0]])
            if ranking == "vector"
            else range(1, len(hits) + 1)
        )
        for rank, (rid, score) in zip(ranks, hits, strict=True):
            candidates.credit(rid, ranking, score, rank)
    for rid, cov in coverage.items():
        candidates.credit(rid, "lexical_coverage", cov)
    for rid, margin in margins.items():
        candidates.credit(rid, "vector_margin", margin)
    for rid, score in slot_hits:
        candidates.credit(rid, "slot_match", score)
    for rid, record in loaded.items():
        if rid in candidates:
            candidates[rid].record = record
    return candidates
