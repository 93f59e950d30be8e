"""Where one recall's time goes, on the database bench/perf/recall_perf.py loaded (run that
first, with --keepdb): calls ``memory.recall.recall`` in process for random tenants and
subjects, every query unique, and reports the median of

- total          the whole recall (without HTTP),
- embed_start    when the query embedding started on its pool thread,
- embed          how long the embedding took there (while the database work runs beside it),
- wait_start     when the vector route began waiting for it (the database routes before it),
- wait           how long it waited,
- after_vector   the rest: vector scan, fusion, sources, trace and audit.

Usage: OMP_NUM_THREADS=1 .venv/bin/python bench/perf/recall_profile.py [--requests 60]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("ENGRAM_BENCH_DB", "bench_perf")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.perf.perf_settings")

import django  # noqa: E402

django.setup()

from bench.perf.stages import marking  # noqa: E402
from core.actor import Actor  # noqa: E402
from memory.recall import QueryVector, RecallRequest, RecallScope, recall  # noqa: E402
from memory.recall import query as recall_query  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=60)
    args = parser.parse_args()
    ctx_file = ROOT / "bench" / "results" / "perf_context.json"
    if not ctx_file.exists():
        raise SystemExit("No bench database yet: run bench/perf/recall_perf.py --keepdb first.")
    ctx = json.loads(ctx_file.read_text())
    rng = random.Random(1)
    marks: dict[str, float] = {}

    recall_query.embed_query_cached = marking(
        recall_query.embed_query_cached, marks, start="embed_start", end="embed_end"
    )
    QueryVector.result = marking(QueryVector.result, marks, start="wait_start", end="wait_end")

    def one(i: int) -> dict[str, float]:
        t = rng.choice(ctx["tenants"])
        scope = RecallScope(
            uuid.UUID(t["id"]),
            uuid.UUID(rng.choice(t["subjects"])),
            uuid.UUID(t["agent"]),
            "internal",
        )
        request = RecallRequest(
            query=f"what did the user say about the deploy failure {i}?", purpose="personalization"
        )
        start = time.perf_counter()
        recall(actor=Actor.agent(t["agent"], scope.tenant_id), scope=scope, request=request)
        end = time.perf_counter()
        ms = lambda a, b: (b - a) * 1000  # noqa: E731
        return {
            "total": ms(start, end),
            "embed_start": ms(start, marks["embed_start"]),
            "embed": ms(marks["embed_start"], marks["embed_end"]),
            "wait_start": ms(start, marks["wait_start"]),
            "wait": ms(marks["wait_start"], marks["wait_end"]),
            "after_vector": ms(marks["wait_end"], end),
        }

    for i in range(10):  # warm-up: model load, connections, caches
        one(i)
    rows = [one(1000 + i) for i in range(args.requests)]
    print(f"{args.requests} recalls, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}")
    for name in rows[0]:
        values = sorted(r[name] for r in rows)
        p95 = values[int(0.95 * (len(values) - 1))]
        print(f"  {name:<13} p50 {statistics.median(values):6.1f} ms   p95 {p95:6.1f} ms")


if __name__ == "__main__":
    main()
