"""A recall's work besides the embedding, one part after another: through the whole web
stack in process (Django's test client, ``POST /api/v1/recall``), on the database
``bench/perf/recall_perf.py --keepdb --memories-per-subject N`` loaded, with each
question's embedding already in the query cache (every question is asked once before it
is timed). Nothing then runs beside the request thread, so the figures are what recall
asks of the CPU and the database around the embedding, without the embedding's overlap.

Reports the request's p50 / p95, the request thread's CPU time, and the SQL time per
request by statement (``--sql``; each statement's text shortened, the largest first).
``--profile`` prints cProfile's cumulative table of the timed requests.

Usage: .venv/bin/python bench/perf/recall_serial.py --memories-per-subject 600 --sql
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("ENGRAM_BENCH_DB", "bench_perf")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.perf.perf_settings")

import django  # noqa: E402

django.setup()

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
from memory.recall.query import warm_up  # noqa: E402

WARM_UP = 10


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories-per-subject", type=int, required=True)
    parser.add_argument("--subjects", type=int, default=2)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--sql", action="store_true", help="SQL time per statement")
    parser.add_argument("--profile", action="store_true", help="cProfile's cumulative table")
    parser.add_argument(
        "--questions-dir",
        type=Path,
        help="ask LoCoMo's own questions from this folder of conversations (else generated)",
    )
    args = parser.parse_args()
    real = locomo_questions(args.questions_dir) if args.questions_dir else None
    tenant = loaded_per_subject_tenant(args.memories_per_subject, args.subjects)
    tokens = subject_tokens(tenant)
    warm_up()
    client = Client(HTTP_HOST="127.0.0.1")
    rng = random.Random(11)
    asked = [
        (
            real[i % len(real)] if real else conversation_question(rng, 70_000 + i),
            rng.choice(tenant["subjects"]),
        )
        for i in range(args.requests + WARM_UP)
    ]

    def ask(question: str, subject: str) -> None:
        post_recall(client, tenant, tokens[subject], question)

    print(f"embedding {len(asked)} questions into the query cache …", flush=True)
    for question, subject in asked:
        ask(question, subject)

    statement_ms: dict[str, float] = defaultdict(float)

    def timed(execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            statement_ms[re.sub(r"\s+", " ", sql)[:100]] += (time.perf_counter() - started) * 1000

    profile = cProfile.Profile() if args.profile else None
    wall: list[float] = []
    cpu: list[float] = []
    for i, (question, subject) in enumerate(asked):
        counted = i >= WARM_UP
        if counted and profile:
            profile.enable()
        started, cpu_started = time.perf_counter(), time.thread_time()
        if args.sql and counted:
            with connection.execute_wrapper(timed):
                ask(question, subject)
        else:
            ask(question, subject)
        if counted:
            wall.append((time.perf_counter() - started) * 1000)
            cpu.append((time.thread_time() - cpu_started) * 1000)
        if counted and profile:
            profile.disable()
    wall.sort()
    cpu.sort()
    print(
        f"{args.requests} recalls, {args.memories_per_subject} memories per subject, the "
        f"embedding cached: p50 {pct(wall, 50):.1f} / p95 {pct(wall, 95):.1f} ms; the request "
        f"thread's CPU p50 {pct(cpu, 50):.1f} ms"
    )
    if args.sql:
        per_request = sorted(
            ((ms / args.requests, sql) for sql, ms in statement_ms.items()), reverse=True
        )
        print(f"SQL per request: {sum(ms for ms, _ in per_request):.2f} ms")
        for ms, sql in per_request[:15]:
            print(f"  {ms:6.2f} ms  {sql}")
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(50)


if __name__ == "__main__":
    main()
