"""The word routes' hits credited while the question is embedded
(``ENGRAM_RECALL_CREDIT_AHEAD``, default on).

The reference (``routes.credit``) credits every route's hits to the candidates after the
vector and slot routes have answered, that is after the question's embedding: on the
request's critical path (docs/performance.md, issue 39, thirteenth round). The exact, lexical, trigram and
recency routes' hits and the lexical coverage are known before it; here they are credited
then (``ahead``), and only the vector route's ranks and margins, the slot route's values
and the records are added after it (``finish``).

The same candidates, in the same order, with the same ranks and signals, because

- a candidate keeps the best rank of each ranking and the best value of each value
  signal, and whether that best came through another version of the fact
  (``Candidates.credit``): each signal's credits arrive here in the reference's order
  (the key lookup's own hits, then the slot's values it did not find; each other ranking
  whole), and no credit of one signal reads another's;
- the candidates are a dict in the order they were first credited, which later steps'
  stable sorts keep among equal scores. The reference credits the key lookup first, then
  the lexical, trigram, recency and vector rankings, then the value signals. Here the
  vector route's and the value signals' candidates still come after the word routes'
  ones; only the slot's values that join the key lookup come earlier in the reference,
  right after the key lookup's own hits. When one of those is not already among the key
  lookup's candidates, ``finish`` returns None and the reference credits everything
  again (a question about a slot in other words whose value the key lookup did not find
  by name: no slower than the reference plus the ahead part);
- the lexical coverage is credited for the lexical route's own hits only (the route
  returns both from one row each), already candidates.

A Hypothesis property test holds ``ahead`` + ``finish`` to ``routes.credit`` on random
hits (tests/memory/test_recall_credit_ahead.py)."""

from __future__ import annotations

import uuid

from django.conf import settings

from memory.recall.signals import Candidates
from memory.recall.ties import shared_ranks


def enabled() -> bool:
    return bool(settings.ENGRAM_RETRIEVAL["CREDIT_AHEAD"])


def ahead(
    answers_of: dict[uuid.UUID, list[uuid.UUID]],
    exact_hits: list[tuple[uuid.UUID, float]],
    lexical_hits: list[tuple[uuid.UUID, float]],
    trigram_hits: list[tuple[uuid.UUID, float]],
    recency_hits: list[tuple[uuid.UUID, float]],
    coverage: dict[uuid.UUID, float],
) -> Candidates:
    """The candidates the word routes found, credited as the reference credits them."""
    candidates = Candidates(answers_of)
    for ranking, hits in (
        ("exact", exact_hits),
        ("lexical", lexical_hits),
        ("trigram", trigram_hits),
        ("recency", recency_hits),
    ):
        for rank, (rid, score) in enumerate(hits, 1):
            candidates.credit(rid, ranking, score, rank)
    for rid, cov in coverage.items():
        candidates.credit(rid, "lexical_coverage", cov)
    return candidates


def finish(
    candidates: Candidates,
    answers_of: dict[uuid.UUID, list[uuid.UUID]],
    exact_hits: list[tuple[uuid.UUID, float]],
    vector_hits: list[tuple[uuid.UUID, float]],
    margins: dict[uuid.UUID, float],
    slot_hits: list[tuple[uuid.UUID, float]],
    loaded: dict,
) -> Candidates | None:
    """``candidates`` (from ``ahead``) with the vector and slot routes' credits and the
    records, as ``routes.credit`` gives them; None when a slot value joining the key
    lookup is not among the key lookup's candidates (its place in the order would
    differ)."""
    exact_ids = {rid for rid, _ in exact_hits}
    joining = [rid for rid, _ in slot_hits if rid not in exact_ids]
    if joining:
        # The reference puts them right after the key lookup's own candidates: the same
        # place only if they are among those already.
        first = {t for rid in exact_ids for t in answers_of.get(rid, [rid])}
        if any(t not in first for rid in joining for t in answers_of.get(rid, [rid])):
            return None
    for rank, rid in enumerate(joining, len(exact_hits) + 1):
        candidates.credit(rid, "exact", 1.0, rank)
    ranks = shared_ranks(vector_hits, lambda hit: margins[hit[0]])
    for rank, (rid, score) in zip(ranks, vector_hits, strict=True):
        candidates.credit(rid, "vector", score, rank)
    for rid, margin in margins.items():
        candidates.credit(rid, "vector_margin", margin)
    for rid, score in slot_hits:
        candidates.credit(rid, "slot_match", score)
    for rid, record in loaded.items():
        if rid in candidates:
            candidates[rid].record = record
    return candidates
