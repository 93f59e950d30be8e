"""When each part of a recall happens, through the whole web stack in process: Django's
test client sends ``POST /api/v1/recall`` (middleware, DRF, the API key, the view, recall,
the answer), on the database ``bench/perf/recall_perf.py --keepdb --memories-per-subject N``
loaded. Every question is unique (the query cache never hits); one OpenMP thread, as the
bench's workers run.

Reports the median and p95, in ms after the request entered Django, of

- embed_start     the question's embedding started on its pool thread (after the edge,
                  the key, the subject token and the body are checked),
- authenticated   the API key checked and the tenant set,
- embed_end       ... and ended (``embed`` is its length there, beside the database work),
- wait_start      the vector route began waiting for it (the database work before it done),
- rank_start/end  fusion, the gate and the rerank (with the records of the vector
                  route's own finds) began and ended,
- trace_start/end the trace and the audit row were written,
- recall_end      recall returned (vector route, fusion, pack, trace and audit),
- response        the answer left the middleware,

next to the bare embedding of the same questions in this process.

Usage: OMP_NUM_THREADS=1 .venv/bin/python bench/perf/recall_timeline.py --memories-per-subject 600
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("ENGRAM_BENCH_DB", "bench_perf")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.perf.perf_settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.test import Client  # noqa: E402

from bench.perf.recall_perf import (  # noqa: E402
    conversation_question,
    loaded_per_subject_tenant,
    locomo_questions,
    pct,
    post_recall,
    subject_tokens,
)
from bench.perf.stages import marking  # noqa: E402
from memory.api import authentication as api_auth  # noqa: E402
from memory.api import recall as recall_api  # noqa: E402
from memory.embedders import get_embedder  # noqa: E402
from memory.recall import QueryVector, pipeline  # noqa: E402
from memory.recall import query as recall_query  # noqa: E402
from memory.recall.query import warm_up  # noqa: E402

MARKS = (
    "embed_start",
    "authenticated",
    "embed_end",
    "wait_start",
    "rank_start",
    "rank_end",
    "trace_start",
    "trace_end",
    "recall_end",
    "response",
)


def instrument(marks: dict[str, float]) -> None:
    """Record the moments of MARKS (the functions are swapped for this process only)."""
    api_auth.ApiKeyAuthentication.authenticate = marking(
        api_auth.ApiKeyAuthentication.authenticate, marks, end="authenticated"
    )
    recall_query.embed_query_cached = marking(
        recall_query.embed_query_cached, marks, start="embed_start", end="embed_end"
    )
    QueryVector.result = marking(QueryVector.result, marks, start="wait_start", once=True)
    recall_api.recall = marking(recall_api.recall, marks, end="recall_end")
    pipeline.fuse_and_rerank = marking(
        pipeline.fuse_and_rerank, marks, start="rank_start", end="rank_end"
    )
    pipeline.record_recall = marking(
        pipeline.record_recall, marks, start="trace_start", end="trace_end"
    )


def toggle(names: list[str], state: bool) -> None:
    """Each named setting, a key of ENGRAM_RETRIEVAL or of ENGRAM, set to ``state``."""
    for group in ("ENGRAM_RETRIEVAL", "ENGRAM"):
        values = getattr(settings, group)
        mine = {name: state for name in names if name in values}
        setattr(settings, group, {**values, **mine})


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories-per-subject", type=int, required=True)
    parser.add_argument("--subjects", type=int, default=2)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument(
        "--questions-dir",
        type=Path,
        help="ask LoCoMo's own questions from this folder of conversations (else generated)",
    )
    parser.add_argument(
        "--toggle",
        metavar="NAME",
        help="a recall setting (ENGRAM_RETRIEVAL's or ENGRAM's key, e.g. ONE_SCOPE_READ; "
        "several joined by commas) turned on and off request by request: both columns "
        "measured interleaved, in one run",
    )
    args = parser.parse_args()
    real = locomo_questions(args.questions_dir) if args.questions_dir else None
    # As a gunicorn worker runs (config/gunicorn.py).
    interval_ms = settings.ENGRAM_RETRIEVAL["SWITCH_INTERVAL_MS"]
    if interval_ms > 0:
        sys.setswitchinterval(min(sys.getswitchinterval(), interval_ms / 1000))
    tenant = loaded_per_subject_tenant(args.memories_per_subject, args.subjects)
    warm_up()
    marks: dict[str, float] = {}
    instrument(marks)
    client = Client(HTTP_HOST="127.0.0.1")
    rng = random.Random(7)
    derived = ("embed", "answer after the embedding", "database past the embedding")
    states = (True, False) if args.toggle else (None,)
    by_state = {state: {m: [] for m in (*MARKS, *derived)} for state in states}
    bare = []
    embedder = get_embedder()
    tokens = subject_tokens(tenant)
    for i in range(args.requests + 10):
        question = real[i % len(real)] if real else conversation_question(rng, 50_000 + i)
        subject = rng.choice(tenant["subjects"])
        state = states[i % len(states)]
        if args.toggle:
            toggle(args.toggle.split(","), state)
        rows = by_state[state]
        marks.clear()
        start = time.perf_counter()
        post_recall(client, tenant, tokens[subject], question)
        marks["response"] = time.perf_counter()
        t = time.perf_counter()
        embedder.embed_query(question + " ")  # bare, same length, not cached
        bare_ms = (time.perf_counter() - t) * 1000
        if i < 10:
            continue  # warm-up
        bare.append(bare_ms)
        for m in MARKS:
            rows[m].append((marks[m] - start) * 1000)
        rows["embed"].append((marks["embed_end"] - marks["embed_start"]) * 1000)
        rows["answer after the embedding"].append((marks["response"] - marks["embed_end"]) * 1000)
        rows["database past the embedding"].append(
            max(0.0, marks["wait_start"] - marks["embed_end"]) * 1000
        )
    print(
        f"{args.requests} recalls, {args.memories_per_subject} memories per subject, "
        f"threads {threading.active_count()}, OMP_NUM_THREADS={os.environ['OMP_NUM_THREADS']}"
    )
    heads = [f"{args.toggle}={s}" for s in states] if args.toggle else [""]
    print(f"{'ms after the request entered Django':40}" + "".join(f" {h:>15}" for h in heads))
    print(f"{'':40}" + f" {'p50':>7} {'p95':>7}" * len(states))
    for m in (*MARKS, *derived):
        cells = "".join(
            f" {pct(sorted(by_state[s][m]), 50):7.1f} {pct(sorted(by_state[s][m]), 95):7.1f}"
            for s in states
        )
        print(f"  {m:38}{cells}")
    bare.sort()
    print(f"  {'bare embedding (same questions)':38} {pct(bare, 50):7.1f} {pct(bare, 95):7.1f}")


if __name__ == "__main__":
    main()
