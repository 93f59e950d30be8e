"""The re-index drift check (memory.services.index_versions): Recall@5 and nDCG@10 of two
embedding models on a retrieval golden set. The recall benchmark (bench/quality/recall.py)
reuses the two metrics.

The default golden set ships with the app (``DEFAULT_GOLDEN``, memory/fixtures/
reindex_drift.json: the queries the check samples from the benchmark's golden set v1 and
their subjects' memories); ``ENGRAM_REINDEX_GOLDEN`` names another file of the same format.

The drift check compares two embedding models on the golden set's vector route alone,
in memory: for a sample of its queries, each model embeds the query and the memories of
its subject, ranks them by cosine similarity, and is scored with Recall@5 and nDCG@10.
Nothing is written to the database and no memory text leaves the process.
Abstention queries (nothing relevant) and ``as_of`` queries (which need bitemporal
filtering, not a vector ranking) are left out.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np

METRICS = ("recall@5", "ndcg@10")
DEFAULT_GOLDEN = Path(__file__).resolve().parent.parent / "fixtures" / "reindex_drift.json"


def ndcg(ranked: list[str], relevant: set[str], k: int = 10) -> float:
    dcg = sum(1 / math.log2(i + 2) for i, r in enumerate(ranked[:k]) if r in relevant)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(relevant), k)))
    return dcg / ideal if ideal else 0.0


def recall_at(ranked: list[str], relevant: set[str], k: int) -> float:
    return len(relevant & set(ranked[:k])) / len(relevant) if relevant else 0.0


def drift_queries(data: dict[str, Any], sample: int | None) -> list[dict[str, Any]]:
    """The golden queries the drift check runs: those with a relevant memory, outside
    ``as_of``; at most ``sample`` of them, evenly spread over the set (so every language
    and query kind stays represented), always the same ones for the same file."""
    queries = [q for q in data["queries"] if q.get("key") and q.get("kind") != "as_of"]
    if sample and len(queries) > sample:
        step = len(queries) / sample
        queries = [queries[int(i * step)] for i in range(sample)]
    return queries


def vector_scores(embedder, data: dict[str, Any], queries: list[dict[str, Any]]) -> dict:
    """Recall@5 and nDCG@10 of ``embedder`` ranking each query's subject memories."""
    subjects = {s["id"]: s for s in data["subjects"]}
    corpus: dict[str, tuple[list[str], np.ndarray]] = {}
    totals = {m: 0.0 for m in METRICS}
    for q in queries:
        sid = q["subject"]
        if sid not in corpus:
            memories = [m for m in subjects[sid]["memories"] if m.get("role") == "relevant"]
            keys = [f"{i}:{m['key']}" for i, m in enumerate(memories)]
            corpus[sid] = (keys, embedder.embed_passages([m["statement"] for m in memories]))
        keys, matrix = corpus[sid]
        sims = matrix @ embedder.embed_query(q["query"])
        ranked = [keys[i] for i in np.argsort(-sims, kind="stable")]
        relevant = {k for k in keys if k.split(":", 1)[1] == q["key"]}
        totals["recall@5"] += recall_at(ranked, relevant, 5)
        totals["ndcg@10"] += ndcg(ranked, relevant, 10)
    n = max(1, len(queries))
    return {m: round(v / n, 4) for m, v in totals.items()}


def golden_drift(
    old_embedder, new_embedder, *, path: Path, sample: int | None = None
) -> dict[str, Any]:
    """Both models on the same golden queries; ``drift`` is the largest drop of a metric
    from the old model to the new one (negative: the new model is better everywhere)."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    queries = drift_queries(data, sample)
    old = vector_scores(old_embedder, data, queries)
    new = vector_scores(new_embedder, data, queries)
    delta = {m: round(new[m] - old[m], 4) for m in METRICS}
    return {
        "golden": Path(path).name,
        "queries": len(queries),
        "old": {"model_id": old_embedder.model_id, **old},
        "new": {"model_id": new_embedder.model_id, **new},
        "delta": delta,
        "drift": round(max(-d for d in delta.values()), 4),
    }
