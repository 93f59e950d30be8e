"""What the slow single-candidate writes do that the median ones do not: the phase 1 of
``bench/perf/write_api.py`` (one client, ``POST /api/v1/candidates`` with one candidate,
sequential, gunicorn sync workers), with each request's server-side timeline recorded by
``bench/perf/single_probe_wsgi.py`` and joined to the client's latency.

Prints the client's p50/p95/p99, then for the slowest 5 % against the middle band
(p40-p60) the mean of each part: the client's wall outside Django (connect, gunicorn's
accept and parse, the bytes), Django's wall, the worker thread's CPU and run-queue wait,
its involuntary switches, the PostgreSQL backend's CPU and run-queue wait, the commit's
wall (the WAL flush), the other statements' wall, garbage collections, new connections;
then the slowest requests one by one.

Usage: OMP_NUM_THREADS=1 .venv/bin/python bench/perf/single_tail.py --single 300 [--env K=V ...]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench._harness import Server, bench_credentials, django_setup  # noqa: E402
from bench.perf.write_api import REDIS_BROKER, candidate, celery_worker  # noqa: E402
from bench.perf.write_stages import cpu_model  # noqa: E402


class ProbeServer(Server):
    def __init__(self, probe_dir: str, production_config: bool, **kwargs) -> None:
        super().__init__(**kwargs)
        self.probe_dir = probe_dir
        self.production_config = production_config

    def _command_and_env(self):
        command, env = super()._command_and_env()
        command[command.index("config.wsgi")] = "bench.perf.single_probe_wsgi:application"
        if self.production_config:  # ./dev run's: self-test, each worker's warm-up
            command[command.index("--no-control-socket")] = "--config=python:config.gunicorn"
        env = {**env, "ENGRAM_PROBE_DIR": self.probe_dir, "PYTHONPATH": str(ROOT)}
        return command, env


def post(port: int, headers: dict, body: dict, probe: str) -> tuple[int, dict, float]:
    payload = json.dumps(body)
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.request("POST", "/api/v1/candidates", payload, {**headers, "X-Probe-Id": probe})
    response = conn.getresponse()
    data = response.read()
    elapsed = time.perf_counter() - start
    conn.close()
    return response.status, json.loads(data), elapsed


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


PARTS = (
    ("client wall", lambda r: r["client_ms"]),
    ("outside Django (client - server wall)", lambda r: r["client_ms"] - r["wall_ms"]),
    ("Django wall", lambda r: r["wall_ms"]),
    ("worker thread CPU", lambda r: r["cpu_ms"]),
    ("worker run-queue wait", lambda r: r["runq_ms"]),
    ("worker involuntary switches", lambda r: r["nivcsw"]),
    ("PostgreSQL backend CPU", lambda r: r["pg_cpu_ms"] or 0.0),
    ("PostgreSQL backend run-queue wait", lambda r: r["pg_runq_ms"] or 0.0),
    ("commit wall (WAL flush)", lambda r: r["commit_ms"]),
    ("statements wall", lambda r: r["sql_ms"]),
    (
        "unaccounted (Django wall - CPU - runq - statements - commit)",
        lambda r: r["wall_ms"] - r["cpu_ms"] - r["runq_ms"] - r["sql_ms"] - r["commit_ms"],
    ),
    ("GC ms in the request", lambda r: sum(g[1] for g in r["gc"])),
    ("gen-2 collections", lambda r: sum(1 for g in r["gc"] if g[0] == 2)),
    ("new connection (share)", lambda r: float(r["new_backend"])),
    ("connect ms", lambda r: r["connect_ms"]),
    ("the worker's request number", lambda r: r["n"]),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--single", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--env", action="append", default=[], help="K=V for the server")
    parser.add_argument("--show", type=int, default=12, help="slowest requests listed")
    parser.add_argument(
        "--gunicorn-config",
        action="store_true",
        help="serve with ./dev run's config/gunicorn.py (each worker warms up after its "
        "fork); without it, as write_api.py: gunicorn's defaults",
    )
    parser.add_argument(
        "--warm-requests", type=int, default=1, help="requests before the measured ones"
    )
    parser.add_argument(
        "--embed",
        choices=["none", "thread", "celery"],
        default="none",
        help="who embeds after the commit, as write_api.py's --embed",
    )
    args = parser.parse_args()
    django_setup()
    run = uuid.uuid4().hex[:8]
    extra = dict(kv.split("=", 1) for kv in args.env)
    extra["ENGRAM_EMBED_AFTER_COMMIT"] = args.embed
    if args.embed == "celery":
        extra.update(CELERY_BROKER_URL=REDIS_BROKER, ENGRAM_CELERY_QUEUE=f"bench-{run}")
    probe_dir = tempfile.mkdtemp(prefix="single_tail-")
    print(f"single_tail · run {run} · {cpu_model()} · env {extra} · load {os.getloadavg()}")
    server = ProbeServer(probe_dir, args.gunicorn_config, workers=args.workers, env=extra)
    with server, celery_worker(extra, args.embed):
        key, token = bench_credentials("bench", f"bench-user-{run}")
        headers = {
            "Authorization": f"Bearer {key}",
            "X-Engram-Subject-Token": token,
            "Content-Type": "application/json",
        }
        for w in range(args.warm_requests):
            post(server.port, headers, {"candidates": [candidate(-1 - w, run)]}, "warm")
        client = {}
        for i in range(args.single):
            status, body, elapsed = post(
                server.port, headers, {"candidates": [candidate(i, run)]}, str(i)
            )
            assert status == 200 and body["results"][0]["operation"] == "ADD", body
            client[str(i)] = elapsed * 1000
    rows = []
    for name in os.listdir(probe_dir):
        for line in Path(probe_dir, name).read_text().splitlines():
            row = json.loads(line)
            if row["id"] in client:
                row["client_ms"] = client[row["id"]]
                rows.append(row)
    lat = [r["client_ms"] for r in rows]
    print(
        f"{len(rows)} requests · client p50 {pct(lat, 50):.2f} · p95 {pct(lat, 95):.2f} · "
        f"p99 {pct(lat, 99):.2f} ms · load {os.getloadavg()}"
    )
    firsts = sorted(
        (r for r in rows if r["n"] == min(o["n"] for o in rows if o["pid"] == r["pid"])),
        key=lambda r: r["pid"],
    )
    print(
        "each worker's first measured request: "
        + "; ".join(
            f"n={r['n']} client {r['client_ms']:.1f} ms, CPU {r['cpu_ms']:.1f} ms, "
            f"GC {sum(g[1] for g in r['gc']):.1f} ms"
            for r in firsts
        )
    )
    gcs = [g for r in rows for g in r["gc"]]
    print(
        f"collections in requests: {len(gcs)}, gen-2 {sum(g[0] == 2 for g in gcs)}, "
        f"{sum(g[1] for g in gcs):.1f} ms in all, the longest {max((g[1] for g in gcs), default=0):.1f} ms"
    )
    rows.sort(key=lambda r: r["client_ms"])
    n = len(rows)
    middle, tail = rows[int(n * 0.4) : int(n * 0.6)], rows[int(n * 0.95) :]
    print(f"\n{'part (mean)':62} {'p40-p60':>9} {'slowest 5%':>11}")
    for label, get in PARTS:
        m, t = statistics.mean(map(get, middle)), statistics.mean(map(get, tail))
        print(f"{label:62} {m:9.2f} {t:11.2f}")
    print("\nslowest requests: client, django, cpu, runq, pg cpu/runq, commit, sql, gc, n, pid")
    for r in rows[len(rows) - args.show :]:
        gc_ms = sum(g[1] for g in r["gc"])
        print(
            f"  {r['client_ms']:6.2f} {r['wall_ms']:6.2f} {r['cpu_ms']:6.2f} {r['runq_ms']:5.2f} "
            f"{r['pg_cpu_ms'] or 0:5.2f}/{r['pg_runq_ms'] or 0:5.2f} {r['commit_ms']:5.2f} "
            f"{r['sql_ms']:5.2f} gc={r['gc']} {gc_ms:.2f} n={r['n']} pid={r['pid']}"
        )
        slow = sorted(r["queries"], reverse=True)[:3]
        print(f"         slowest statements: {slow}")
    out = ROOT / "bench" / "results" / f"single_tail-{run}.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(rows))
    print(f"\nrows: {out}")


if __name__ == "__main__":
    main()
