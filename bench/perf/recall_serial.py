"""A recall's work besides the embedding, one part after another: through the whole web
stack in process (Django's test client, ``POST /api/v1/recall``), on the database
``bench/perf/recall_perf.py --keepdb --memories-per-subject N`` loaded, with each
question's embedding already in the query cache (every question is asked once before it
is timed). Nothing then runs beside the request thread, so the figures are what recall
asks of the CPU and the database around the embedding, without the embedding's overlap.

Reports the request's p50 / p95, the request thread's CPU time, and the SQL time per
request by statement (``--sql``; each statement's text shortened, the largest first).
``--profile`` prints cProfile's cumulative table of the timed requests. ``--compile``
reports the time the ORM spends compiling querysets (``SQLCompiler.as_sql``, the outermost
call). ``--toggle NAME`` turns a setting on and off request by request, each column then
measured interleaved with the other in one run (the CPU per request is the robust figure on
a shared machine).

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
from django.db.models.sql.compiler import SQLCompiler  # noqa: E402
from django.test import Client  # noqa: E402

from bench.perf.recall_perf import (  # noqa: E402
    conversation_question,
    loaded_per_subject_tenant,
    locomo_questions,
    pct,
    post_recall,
    subject_tokens,
)
from bench.perf.recall_timeline import toggle  # noqa: E402
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
        "--compile", action="store_true", help="the ORM's SQL compilation time per request"
    )
    parser.add_argument(
        "--toggle",
        metavar="NAME",
        help="a setting (ENGRAM_RETRIEVAL's or ENGRAM's key, several joined by commas) "
        "turned on and off request by request",
    )
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

    compiling = {"depth": 0, "ms": 0.0}
    compiled_where: dict = {state: defaultdict(float) for state in (True, False, None, "warm-up")}
    current = {"state": None}

    def caller() -> str:
        """The first of Engram's frames above the ORM's compilation."""
        frame = sys._getframe(2)
        while frame is not None:
            name = frame.f_code.co_filename
            if name.startswith(str(ROOT)) and "-packages" not in name:
                return f"{Path(name).relative_to(ROOT)}:{frame.f_code.co_name}"
            frame = frame.f_back
        return "?"

    def timing(as_sql):
        def timed_as_sql(self, *a, **kw):
            compiling["depth"] += 1
            started = time.thread_time()
            try:
                return as_sql(self, *a, **kw)
            finally:
                compiling["depth"] -= 1
                if not compiling["depth"]:
                    ms = (time.thread_time() - started) * 1000
                    compiling["ms"] += ms
                    compiled_where[current["state"]][caller()] += ms

        return timed_as_sql

    if args.compile:
        for kind in (SQLCompiler, *SQLCompiler.__subclasses__()):
            if "as_sql" in vars(kind):
                kind.as_sql = timing(kind.as_sql)

    profile = cProfile.Profile() if args.profile else None
    states = (True, False) if args.toggle else (None,)
    wall: dict = {state: [] for state in states}
    cpu: dict = {state: [] for state in states}
    compile_ms: dict = {state: [] for state in states}
    for i, (question, subject) in enumerate(asked):
        counted = i >= WARM_UP
        state = states[i % len(states)]
        if args.toggle:
            toggle(args.toggle.split(","), state)
        compiling["ms"] = 0.0
        current["state"] = state if counted else "warm-up"
        if counted and profile:
            profile.enable()
        started, cpu_started = time.perf_counter(), time.thread_time()
        if args.sql and counted:
            with connection.execute_wrapper(timed):
                ask(question, subject)
        else:
            ask(question, subject)
        if counted:
            wall[state].append((time.perf_counter() - started) * 1000)
            cpu[state].append((time.thread_time() - cpu_started) * 1000)
            compile_ms[state].append(compiling["ms"])
        if counted and profile:
            profile.disable()
    print(f"load average {os.getloadavg()[0]:.1f}")
    for state in states:
        w, c, m = sorted(wall[state]), sorted(cpu[state]), sorted(compile_ms[state])
        print(
            (f"{args.toggle}={state}: " if args.toggle else "")
            + f"{len(w)} recalls, {args.memories_per_subject} memories per subject, the "
            f"embedding cached: p50 {pct(w, 50):.1f} / p95 {pct(w, 95):.1f} ms; the request "
            f"thread's CPU p50 {pct(c, 50):.1f} / p95 {pct(c, 95):.1f} ms"
            + (f"; compiling SQL {sum(m) / len(m):.2f} ms a request" if args.compile else "")
        )
        if args.compile:
            where = sorted(compiled_where[state].items(), key=lambda kv: -kv[1])
            for name, ms in where[:8]:
                print(f"    {ms / len(m):6.2f} ms  {name}")
    if args.sql:
        per_request = sorted(
            ((ms / args.requests, sql) for sql, ms in statement_ms.items()), reverse=True
        )
        print(f"SQL per request: {sum(ms for ms, _ in per_request):.2f} ms")
        for ms, sql in per_request[:15]:
            print(f"  {ms:6.2f} ms  {sql}")
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(50)
        pstats.Stats(profile).sort_stats("tottime").print_stats(40)


if __name__ == "__main__":
    main()
