"""What every API request pays before and around its work, with a request-path setting
off and on, alternated request by request in one process (config/settings/request_path.py).

Three kinds of request through Django's whole handler in process (``django.test.Client``:
the same middleware, DRF, authentication, throttle and JSON as under gunicorn, no socket):

- ``recall``: ``POST /api/v1/recall`` with LoCoMo's questions on the database
  ``bench/perf/recall_perf.py --keepdb --memories-per-subject N`` loaded, each question's
  embedding already in the query cache (asked once before it is timed);
- ``write``: ``POST /api/v1/candidates`` with one candidate, to a fresh subject of a bench
  tenant in the same database;
- ``list``: ``GET /api/v1/memories?limit=1`` (the cheapest authenticated read).

Per request: this thread's CPU (``time.thread_time``), the PostgreSQL backend's CPU (its
``/proc/PID/schedstat``, nanoseconds on a CPU) and the statements sent. ``--toggle`` names
settings (keys of ``ENGRAM``) set off and on together, alternating request by request.
Prints, per kind and side, the mean, p50 and p95 of thread + backend CPU, and the mean
difference (off − on). Thread CPU, not wall time: on a shared machine only CPU compares.

    OMP_NUM_THREADS=1 ENGRAM_BENCH_DB=bench_lat .venv/bin/python bench/perf/request_path_ab.py \\
        --memories-per-subject 600 --requests 300 --questions-dir /work/shared/data/locomo-dev
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
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("ENGRAM_BENCH_DB", "bench_perf")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.perf.perf_settings")
os.environ.setdefault("ENGRAM_SUBJECT_TOKEN_MAX_AGE", "7200")
# Writes are measured without their background embedding (eager in this process else).
os.environ.setdefault("ENGRAM_EMBED_AFTER_COMMIT", "none")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from bench._harness import bench_credentials  # noqa: E402
from bench.perf.recall_perf import (  # noqa: E402
    loaded_per_subject_tenant,
    locomo_questions,
    pct,
    post_recall,
    subject_tokens,
)
from bench.perf.write_api import candidate  # noqa: E402
from memory.recall.query import warm_up  # noqa: E402

DEFAULT_TOGGLE = "KEY_ACCESS_ONE_READ,KEY_TENANT_AT_ENTRY,THROTTLE_PACKED_HISTORY"


def backend_ns() -> int:
    pid = connection.connection.info.backend_pid
    with open(f"/proc/{pid}/schedstat") as f:
        return int(f.read().split()[0])


def switch(names: list[str], on: bool) -> None:
    settings.ENGRAM = {**settings.ENGRAM, **{n: on for n in names}}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--memories-per-subject", type=int, required=True)
    parser.add_argument("--subjects", type=int, default=2)
    parser.add_argument("--requests", type=int, default=300, help="per kind, both sides")
    parser.add_argument("--questions-dir", type=Path, required=True)
    parser.add_argument("--toggle", default=DEFAULT_TOGGLE, help="ENGRAM keys, comma-separated")
    parser.add_argument("--kinds", default="recall,write,list")
    args = parser.parse_args()
    names = args.toggle.split(",")
    unknown = [n for n in names if n not in settings.ENGRAM]
    if unknown:
        raise SystemExit(f"not keys of ENGRAM: {unknown}")

    client = Client(HTTP_HOST="127.0.0.1")
    real = locomo_questions(args.questions_dir)
    tenant = loaded_per_subject_tenant(args.memories_per_subject, args.subjects)
    tokens = subject_tokens(tenant)
    warm_up()
    rng = random.Random(13)
    asked = [(real[i % len(real)], rng.choice(tenant["subjects"])) for i in range(args.requests)]
    for question, subject in asked:  # every embedding into the query cache
        post_recall(client, tenant, tokens[subject], question)
    run = uuid.uuid4().hex[:8]
    key, _ = bench_credentials("bench-request-path", f"rp-{run}")
    write_tokens = [
        bench_credentials("bench-request-path", f"rp-{run}-{i}")[1] for i in range(args.requests)
    ]

    def recall(i: int):
        question, subject = asked[i]
        return post_recall(client, tenant, tokens[subject], question)

    def write(i: int):
        return client.post(
            "/api/v1/candidates",
            json.dumps({"candidates": [candidate(i, run)]}),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {key}",
            HTTP_X_ENGRAM_SUBJECT_TOKEN=write_tokens[i],
        )

    def listing(i: int):
        return client.get(
            "/api/v1/memories?limit=1",
            HTTP_AUTHORIZATION=f"Bearer {tenant['key']}",
            HTTP_X_ENGRAM_SUBJECT_TOKEN=tokens[asked[i][1]],
        )

    kinds = {"recall": recall, "write": write, "list": listing}
    print(f"toggle {names}; load {os.getloadavg()[0]:.1f}; {args.requests} requests a kind")
    for kind in args.kinds.split(","):
        send = kinds[kind]
        for i in range(4):  # warm-up, both sides
            switch(names, i % 2 == 0)
            assert send(i).status_code == 200
        rows: dict[bool, list[tuple[float, float, int]]] = {True: [], False: []}
        for i in range(args.requests):
            on = i % 2 == 0
            switch(names, on)
            statements = {"n": 0}

            def count(execute, sql, params, many, context, statements=statements):
                statements["n"] += 1
                return execute(sql, params, many, context)

            connection.ensure_connection()
            cpu, db = time.thread_time_ns(), backend_ns()
            with connection.execute_wrapper(count):
                response = send(i)
            rows[on].append(
                ((time.thread_time_ns() - cpu) / 1e6, (backend_ns() - db) / 1e6, statements["n"])
            )
            assert response.status_code == 200, response.content[:300]
        switch(names, True)
        means, medians = {}, {}
        for on in (False, True):
            both = sorted(t + b for t, b, _ in rows[on])
            thread = statistics.fmean(t for t, _, _ in rows[on])
            backend = statistics.fmean(b for _, b, _ in rows[on])
            means[on] = thread + backend
            medians[on] = pct(both, 50)
            print(
                f"  {kind:6} {'on ' if on else 'off'}: thread {thread:6.2f} + backend"
                f" {backend:5.2f} ms mean; both p50 {pct(both, 50):6.2f} / p95"
                f" {pct(both, 95):6.2f} ms; statements"
                f" {statistics.fmean(n for _, _, n in rows[on]):.1f}"
            )
        print(
            f"  {kind:6} off − on: {means[False] - means[True]:+.2f} ms a request (mean),"
            f" {medians[False] - medians[True]:+.2f} (p50)"
        )
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
