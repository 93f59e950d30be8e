"""Step 5c' of recall: more like the best hits (``vector_feedback``, a share; 0: off).

A question that asks for several things of one kind ("What does she do to relax?",
"他平时有哪些爱好？") is answered by turns spread over a subject's conversations, each
sharing few words with the question: the routes find the two or three nearest and miss
the rest. Pseudo-relevance feedback (Rocchio) reads what the best hits have in common and
searches again with it: the best ``SEEDS`` hits' vectors are averaged (their centroid
``c``) and the subject's memories ranked by their margin to the question moved towards
that centroid,

    memory · (query + FEEDBACK_BETA · c − (1 + FEEDBACK_BETA) · typical)

the vector route's margin (``routes.vector``: ``memory · (query − typical)``, the typical
question of the query's language) plus ``FEEDBACK_BETA`` times the memory's margin to the
centroid. The best ``HITS`` of that search that are not seeds come along at ``vector_feedback``
times the best hit's score, graded by their place (the first at the full share, the last
at ``1 − (HITS − 1) / (2 · HITS)`` of it); a memory already ranked keeps the higher of its
own score and that one.

Bounded: one exact scan of the subject's vectors under the question's model, as the
vector route's. Read through the request's own eligibility (``Eligible.queryset``: tenant,
subject, clearance, purpose, status, validity, supersession, deletion), so a memory the
request may not see never comes back this way; only when something was recalled and the
question has a vector. A memory without a vector under that model is neither a seed nor
a hit."""

from __future__ import annotations

import numpy as np
from pgvector.django import MaxInnerProduct

from memory.models import MemoryEmbedding
from memory.recall.joined import join, order, raise_to, with_sources
from memory.recall.query import QueryVector
from memory.recall.scope import Eligible
from memory.recall.signals import Candidate
from memory.recall.weights import RecallWeights

SEEDS = 3
HITS = 5
FEEDBACK_BETA = 1.0


def feedback_vector(query, typical, seeds: list) -> np.ndarray:
    """The question moved towards the centroid of ``seeds`` (unit vectors), as a margin."""
    centroid = np.mean(np.asarray(seeds, dtype=np.float64), axis=0)
    q = np.asarray(query, dtype=np.float64)
    t = np.asarray(typical, dtype=np.float64)
    return q + FEEDBACK_BETA * centroid - (1.0 + FEEDBACK_BETA) * t


def like_hits(
    ranked: list[Candidate],
    eligible: Eligible,
    w: RecallWeights,
    *,
    query_vector: QueryVector | None,
    about_others: bool = False,
) -> list[Candidate]:
    """``ranked`` with the best ``HITS`` memories by the feedback margin (see the module)
    joined at ``w.vector_feedback`` times the best hit's score, graded by place.
    Unchanged when the weight is 0, nothing was ranked or the question has no vector."""
    if not w.vector_feedback or not ranked or query_vector is None:
        return ranked
    got = query_vector.result()
    if got is None:
        return ranked
    query, typical = got
    seed_ids = [c.id for c in ranked[:SEEDS]]
    in_model = MemoryEmbedding.objects.filter(
        tenant_id=eligible.values["tenant"], model_id=query_vector.model_id
    )
    seeds = [
        np.asarray(v, dtype=np.float64)
        for v in in_model.filter(record_id__in=seed_ids).values_list("vector", flat=True)
    ]
    if not seeds:
        return ranked
    moved = feedback_vector(query, typical, seeds)
    nearest = list(
        in_model.filter(record_id__in=eligible.queryset.values("pk"))
        .exclude(record_id__in=seed_ids)
        .annotate(negative_margin=MaxInnerProduct("vector", moved.tolist()))
        .order_by("negative_margin", "record_id")
        .values_list("record_id", flat=True)[:HITS]
    )
    if not nearest:
        return ranked
    best = max(c.signals.final or 0.0 for c in ranked)
    by_id = {c.id: c for c in ranked}
    out = list(ranked)
    fresh = with_sources(eligible.queryset.filter(pk__in=[i for i in nearest if i not in by_id]))
    for record in fresh:
        join(out, by_id, record, about_others=about_others)
    for place, record_id in enumerate(nearest):
        c = by_id.get(record_id)
        if c is not None:
            raise_to(c, w.vector_feedback * best * (1.0 - place / (2.0 * HITS)), w)
    return order(out)
