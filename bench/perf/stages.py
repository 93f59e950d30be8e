"""Where a recall's time goes, stage by stage and route by route, in process: used by
``bench/perf/recall_perf.py --stages N`` on the database it loaded.

Each stage and route function is wrapped for the run only (the module attributes the
pipeline calls through are swapped back afterwards); the table gives the median and p95
of each over N recalls with unique questions, the query embedding on its own line (it
runs on a pool thread while the database routes run, so the stages do not add up to the
total)."""

from __future__ import annotations

import random
import statistics
import time
import uuid
from collections import defaultdict
from collections.abc import Callable

# (module, function name, label), in pipeline order.
STAGES = (
    ("memory.recall.pipeline", "recall_context", "scope: recall_context"),
    ("memory.recall.pipeline", "slot_keys", "scope: slot_keys"),
    ("memory.recall.routes.exact", "route_exact", "route: exact"),
    ("memory.recall.routes.trigram", "route_trigram", "route: trigram"),
    ("memory.recall.routes.recency", "route_recency", "route: recency"),
    ("memory.recall.routes.lexical", "route_lexical", "route: lexical (BM25)"),
    ("memory.recall.routes", "load_records", "routes: records of what they found"),
    ("memory.recall.accel.scope_read", "read", "route: vector scope, ids, searchable (one read)"),
    ("memory.recall.accel.cached_scan", "scope_vectors", "route: vector ids (cached vectors)"),
    (
        "memory.recall.accel.cached_scan",
        "searchable_ids",
        "route: vector searchable ids (small scopes)",
    ),
    ("memory.recall.routes.vector", "route_vector", "route: vector scan (incl. the wait)"),
    ("memory.recall.accel.cached_scan", "route_vector_cached", "route: vector cached"),
    ("memory.recall.routes.slot", "route_slot", "route: slot"),
    ("memory.recall.pipeline", "run_routes", "routes in all"),
    ("memory.recall.pipeline", "fuse_and_rerank", "rank: fusion, gate, rerank"),
    ("memory.recall.pipeline", "model_rerank", "rank: cross-encoder (if configured)"),
    ("memory.recall.pipeline", "dedupe", "rank: dedupe"),
    ("memory.recall.pipeline", "attach_sources", "pack: sources"),
    ("memory.recall.pipeline", "context_pack", "pack: context pack"),
    ("memory.recall.pipeline", "record_recall", "trace and audit"),
    ("memory.recall.query", "embed_question", "query embedding (pool thread)"),
)


def marking(
    function: Callable, marks: dict[str, float], start: str = "", end: str = "", once=False
) -> Callable:
    """``function``, recording ``time.perf_counter()`` in ``marks`` under ``start`` when it
    is called and under ``end`` when it returns (``once``: only the first call's start)."""

    def marked(*args, **kwargs):
        if start and not (once and start in marks):
            marks[start] = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            if end:
                marks[end] = time.perf_counter()

    return marked


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def profile(ctx: dict, n: int, question: Callable[[random.Random, int], str], purpose: str) -> str:
    """N in-process recalls over the subjects of ``ctx``; returns the table."""
    import importlib

    from core.actor import Actor
    from memory.recall import RecallRequest, RecallScope, recall

    times: dict[str, list[float]] = defaultdict(list)
    swapped = []
    for module_name, name, label in STAGES:
        module = importlib.import_module(module_name)
        original = getattr(module, name, None)
        if original is None:
            continue

        def timed(*args, _f=original, _label=label, **kwargs):
            start = time.perf_counter()
            try:
                return _f(*args, **kwargs)
            finally:
                times[_label].append((time.perf_counter() - start) * 1000)

        setattr(module, name, timed)
        swapped.append((module, name, original))
    rng = random.Random(4242)
    totals = []
    try:
        for i in range(n):
            tenant = rng.choice(ctx["tenants"])
            subject = rng.choice(tenant["subjects"])
            scope = RecallScope(
                tenant_id=uuid.UUID(tenant["id"]),
                subject_id=uuid.UUID(subject),
                agent_id=uuid.UUID(tenant["agent"]),
                clearance="internal",
            )
            start = time.perf_counter()
            recall(
                actor=Actor.agent(uuid.UUID(tenant["agent"]), uuid.UUID(tenant["id"])),
                scope=scope,
                request=RecallRequest(query=question(rng, 900_000 + i), purpose=purpose, k=10),
            )
            totals.append((time.perf_counter() - start) * 1000)
    finally:
        for module, name, original in swapped:
            setattr(module, name, original)
    lines = [f"per-stage breakdown, in process, n={n} (ms: median / p95)"]
    lines.append(
        f"  {'whole recall':<52} {statistics.median(totals):7.1f} / {_pct(totals, 95):7.1f}"
    )
    for _, _, label in STAGES:
        if times.get(label):
            v = times[label]
            lines.append(f"  {label:<52} {statistics.median(v):7.1f} / {_pct(v, 95):7.1f}")
    return "\n".join(lines)
