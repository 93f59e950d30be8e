"""Where a write request's time goes at the HTTP level, in process: the whole Django
handler (middleware, DRF, authentication, throttle, JSON in and out) and the write path,
on the configured database (the embedded PostgreSQL by default).

    ENGRAM_EMBED_AFTER_COMMIT=none .venv/bin/python bench/perf/write_http.py \
        [--batches 20] [--single 200] [--profile batch|single]

Sends ``POST /api/v1/candidates`` through Django's own WSGI handler (``django.test.Client``:
the same middleware and view as under gunicorn, no socket) with a real API key and subject
token, ``--batches`` batches of 100 (write_api.py's candidates) and ``--single``
single-candidate requests to fresh subjects, after warm-up requests. Per request it
measures: wall and CPU time of this thread; CPU time of the PostgreSQL backend serving
the connection (from ``/proc``: the embedded or a local PostgreSQL only); each stage's
wall and CPU (functions wrapped for the run only and swapped back; stages nest, so they
do not add up); every SQL statement (round trip) by kind and table through
``connection.execute_wrapper``, and the commit apart (the wait for the WAL flush).
Figures are medians and means per request (and the mean per candidate); the backend's
CPU is counted in clock ticks (10 ms), so only its mean over many requests means much. ``--profile``:
cProfile of one kind of request, by own time. The worktree is the current directory, so
the script runs unchanged against another checkout (an A/B of two commits)."""

from __future__ import annotations

import argparse
import cProfile
import importlib
import io
import os
import pstats
import re
import statistics
import sys
import time
import uuid
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "perf"))

# (module, attribute, label): timed where the request calls them.
STAGES = (
    ("memory.api.authentication", "ApiKeyAuthentication.authenticate", "auth: API key + token"),
    ("accounts.throttles", "AgentRateThrottle.allow_request", "throttle"),
    ("memory.api.views", "CandidateSubmitView.post", "view: whole"),
    ("memory.api.views", "SubjectScopedView.subject", "  subject lookup"),
    ("memory.api.views", "_candidates_validated", "  body validation (plain or serializer)"),
    ("memory.api.views", "_validated", "    of it: the serializer"),
    ("memory.api.views", "events_resolve_client_ids", "  client event ids lookup"),
    ("memory.api.views", "candidates_submit", "  candidates_submit"),
    ("memory.services.writes", "_policy_model_answers", "    policy model pre-pass"),
    ("memory.services.writes", "_batch_for", "    batch prefetch"),
    ("memory.services.write_vectors", "prepare", "    learned heads (n-grams, vectors)"),
    ("memory.services.writes", "decide", "    policy engine (detectors)"),
    ("memory.services.writes", "_apply", "    apply decision"),
    ("memory.services.writes", "_in_savepoint", "    savepoint-wrapped work"),
    ("memory.services.write_batch", "flush_records", "    records insert (batch)"),
    ("memory.services.write_batch", "flush_docs", "    sources + search docs (batch)"),
    ("memory.services.indexing", "preceding_turns", "      context-turn lookup"),
    ("memory.services.mentions", "mentions_write", "      entity mentions"),
    ("memory.services.writes", "write_audits", "    audit rows"),
    ("rest_framework.renderers", "JSONRenderer.render", "JSON rendering"),
)

_TABLE = re.compile(r'(?:INTO|FROM|UPDATE)\s+"?([a-z_]+)"?', re.IGNORECASE)


def sql_kind(sql: str) -> str:
    head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else "?"
    if head in ("SAVEPOINT", "RELEASE", "ROLLBACK"):
        return "savepoint"
    if head == "WITH":
        head = "with"
    table = _TABLE.search(sql)
    return f"{head.lower()} {table[1] if table else ''}".rstrip()


def swap(path: str, attr: str, wrapper_for):
    module = importlib.import_module(path)
    owner, _, name = attr.rpartition(".")
    target = getattr(module, owner) if owner else module
    original = target.__dict__.get(name) if owner else getattr(module, name, None)
    if original is None:
        original = getattr(target, name, None)
        if original is None:
            return None
    setattr(target, name, wrapper_for(original))
    return target, name, original


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--single", type=int, default=200)
    parser.add_argument("--profile", choices=["batch", "single"], default=None)
    parser.add_argument("--top", type=int, default=45)
    args = parser.parse_args()
    os.environ.setdefault("ENGRAM_SUBJECT_TOKEN_MAX_AGE", "3600")

    from bench._harness import bench_credentials, django_setup

    django_setup()
    from django.db import connection
    from django.test import Client
    from write_api import candidate

    run = uuid.uuid4().hex[:8]
    key, token = bench_credentials("bench", f"http-{run}")
    _, token_single = bench_credentials("bench", f"http-single-{run}")
    headers = {"HTTP_AUTHORIZATION": f"Bearer {key}", "HTTP_X_ENGRAM_SUBJECT_TOKEN": token}
    client = Client()

    def post(body: dict, subject_token: str):
        response = client.post(
            "/api/v1/candidates",
            body,
            content_type="application/json",
            **{**headers, "HTTP_X_ENGRAM_SUBJECT_TOKEN": subject_token},
        )
        assert response.status_code == 200, response.content[:300]
        return response

    for i in range(3):  # warm-up: connection, caches, compiled queries
        post({"candidates": [candidate(900_000 + i * 100 + j, run) for j in range(100)]}, token)
        post({"candidates": [candidate(990_000 + i, run)]}, token_single)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]

    def backend_cpu() -> float:
        fields = Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    current: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0])
    sql: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])

    def timed_for(label):
        def wrap(f):
            def timed(*a, **kw):
                w, c = time.perf_counter(), time.thread_time()
                try:
                    return f(*a, **kw)
                finally:
                    entry = current[label]
                    entry[0] += (time.perf_counter() - w) * 1000
                    entry[1] += (time.thread_time() - c) * 1000
                    entry[2] += 1

            return timed

        return wrap

    swapped = [s for p, a, label in STAGES if (s := swap(p, a, timed_for(label)))]
    commit_original = connection.commit

    def commit():
        w, c = time.perf_counter(), time.thread_time()
        try:
            return commit_original()
        finally:
            current["commit (WAL flush wait)"][0] += (time.perf_counter() - w) * 1000
            current["commit (WAL flush wait)"][1] += (time.thread_time() - c) * 1000
            current["commit (WAL flush wait)"][2] += 1

    connection.commit = commit

    def wrapper(execute, q, params, many, context):
        start = time.perf_counter()
        try:
            return execute(q, params, many, context)
        finally:
            entry = sql[sql_kind(q)]
            entry[0] += (time.perf_counter() - start) * 1000
            entry[1] += 1

    def measure(kind: str, n: int, size: int, subject_token: str) -> None:
        rows: list[dict] = []
        profile = cProfile.Profile() if args.profile == kind else None
        with connection.execute_wrapper(wrapper):
            for i in range(n):
                body = {"candidates": [candidate(i * size + j, run) for j in range(size)]}
                current.clear()
                sql.clear()
                pg0, w0, c0 = backend_cpu(), time.perf_counter(), time.thread_time()
                if profile:
                    profile.enable()
                post(body, subject_token)
                if profile:
                    profile.disable()
                row = {
                    "whole request: wall": (time.perf_counter() - w0) * 1000,
                    "whole request: CPU, this thread": (time.thread_time() - c0) * 1000,
                    "PostgreSQL backend CPU": (backend_cpu() - pg0) * 1000,
                    "round trips (statements)": sum(v[1] for v in sql.values()),
                    "SQL wall, all statements": sum(v[0] for v in sql.values()),
                }
                for label, (w, c, _calls) in current.items():
                    row[f"{label}: wall"] = w
                    row[f"{label}: CPU"] = c
                for k, (w, count) in sql.items():
                    row[f"sql {k}: wall"] = w
                    row[f"sql {k}: count"] = count
                rows.append(row)
        keys = list(dict.fromkeys(k for r in rows for k in r))
        print(f"\n{kind}: {n} requests of {size} candidate(s); per request")
        print(f"  {'':<52} {'median':>9} {'mean':>9} {'mean/cand.':>10}")
        for k in keys:
            v = statistics.median(r.get(k, 0.0) for r in rows)
            m = statistics.fmean(r.get(k, 0.0) for r in rows)
            print(f"  {k[:52]:<52} {v:9.3f} {m:9.3f} {m / size:10.4f}")
        walls = sorted(r["whole request: wall"] for r in rows)
        print(f"  p95 wall {walls[int(0.95 * (len(walls) - 1))]:.2f} ms")
        if profile:
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats(
                os.environ.get("SORT", "tottime")
            ).print_stats(args.top)
            print(out.getvalue())

    print(f"run {run} · load " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    try:
        measure("batch", args.batches, 100, token)
        if args.single:
            measure("single", args.single, 1, token_single)
    finally:
        for target, name, original in swapped:
            setattr(target, name, original)
        connection.commit = commit_original
    print("load " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
