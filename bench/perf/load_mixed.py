"""Mixed load against horizontal processes: N gunicorn web workers and M Celery workers on
Redis, sharing one PostgreSQL, all on this machine and 127.0.0.1 only.

Traffic: 80 % recall, 15 % writes (one candidate each; its embedding is a Celery job),
5 % deletions (a memory this load wrote; the deletion workflow is a Celery job). Each
client thread sends a bounded number of requests and stops; the run then waits (bounded)
for the Celery queue to drain and reads the task counters from /metrics.

The database is a throwaway server started from the bundled PostgreSQL binaries in a
temporary directory (tests/ops/pgcluster.py), migrated and seeded here, deleted at the end:
the shared development database is never touched. Redis: 127.0.0.1:6379, database 12,
queue ``bench_load_mixed``.

    .venv/bin/python bench/perf/load_mixed.py                  # 1 web + 1 worker, then 2 + 2
    .venv/bin/python bench/perf/load_mixed.py --configs 2x2 --requests 800 --threads 8
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench._harness import ROOT, Server, machine, percentile  # noqa: E402
from tests.ops.pgcluster import Cluster  # noqa: E402

REDIS = "redis://127.0.0.1:6379/12"
QUEUE = "bench_load_mixed"
TOKEN = uuid.uuid4().hex
PURPOSE = "personalization"
TOPICS = [
    ("tea", "User drinks {} tea every morning", ["oolong", "jasmine", "pu-erh", "green"]),
    ("city", "User lives in {}", ["Hangzhou", "Lisbon", "Osaka", "Denver"]),
    ("pet", "User has a {} named Momo", ["cat", "rabbit", "parrot", "dog"]),
    ("sport", "User plays {} on weekends", ["tennis", "badminton", "go", "football"]),
    ("food", "用户喜欢吃{}", ["火锅", "饺子", "寿司", "烤鸭"]),
    ("music", "用户最近在听{}的音乐", ["德彪西", "周杰伦", "巴赫", "坂本龙一"]),
]
QUESTIONS = [
    "What tea does the user drink?",
    "Where does the user live?",
    "Does the user have a pet?",
    "What does the user do on weekends?",
    "用户喜欢吃什么？",
    "用户最近在听谁的音乐？",
    "What is the user's favourite film?",  # nothing stored: an abstention
]


def seed(subjects: int, per_subject: int) -> tuple[str, list[str]]:
    """A tenant, an agent key and ``subjects`` subjects with embedded memories."""
    import django

    django.setup()
    from accounts.services.credentials import api_key_issue
    from accounts.services.tenants import agent_create, tenant_create
    from core.actor import Actor
    from core.tenancy import tenant_context
    from memory.services.indexing import index_pending_records
    from memory.services.subject_tokens import subject_token_issue
    from memory.services.subjects import subject_get_or_create
    from memory.services.writes import candidates_submit
    from memory.write_policy import Candidate

    tenant = tenant_create(slug="load", name="Load test")
    actor = Actor.system(tenant.id, "bench")
    agent = agent_create(actor=actor, tenant=tenant, name="load")
    _, key = api_key_issue(actor=actor, agent=agent, scopes=["read", "write"])
    tokens = []
    for s in range(subjects):
        subject = subject_get_or_create(tenant_id=tenant.id, kind="user", external_id=f"u{s}")
        with tenant_context(tenant.id):
            outcomes = candidates_submit(
                actor=actor,
                subject=subject,
                candidates=[
                    Candidate(
                        memory_type="semantic",
                        namespace="assistant/profile",
                        predicate=TOPICS[i % len(TOPICS)][0]
                        + (f"_{i}" if i >= len(TOPICS) else ""),
                        statement=TOPICS[i % len(TOPICS)][1].format(
                            TOPICS[i % len(TOPICS)][2][(s + i) % 4]
                        )
                        + ("" if i < len(TOPICS) else f" (note {i})"),
                        assertion_kind="user_explicit",
                        confidence=1.0,
                        purpose=PURPOSE,
                        consent_basis="explicit_consent",
                    )
                    for i in range(per_subject)
                ],
            )
            index_pending_records([o.record_id for o in outcomes if o.record_id])
        tokens.append(
            subject_token_issue(tenant_id=tenant.id, agent_id=agent.id, subject_id=subject.id)
        )
    from django.db import connections

    connections.close_all()
    return key, tokens


class Worker:
    """A Celery worker process (solo pool: one task at a time, like one process of a pool)."""

    def __init__(self, name: str, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool",
                "solo",
                "-Q",
                QUEUE,
                "-n",
                f"{name}@load",
                "--loglevel",
                "WARNING",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env={**env, "DJANGO_SETTINGS_MODULE": "config.settings.worker"},
            stdout=subprocess.DEVNULL,
        )

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def client_thread(port, key, tokens, n, seed_, results, lock):
    rng = random.Random(seed_)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    mine: list[tuple[str, str]] = []  # (token, record id) this thread wrote
    for i in range(n):
        token = rng.choice(tokens)
        headers = {
            "Authorization": f"Bearer {key}",
            "X-Engram-Subject-Token": token,
            "Content-Type": "application/json",
        }
        roll = rng.random()
        if roll < 0.05 and mine:
            op = "delete"
            token, record_id = mine.pop(rng.randrange(len(mine)))
            headers["X-Engram-Subject-Token"] = token
            method, path = "DELETE", f"/api/v1/memories/{record_id}"
            body = {"assertion_kind": "user_explicit"}
        elif roll < 0.20:
            op = "write"
            topic, template, values = rng.choice(TOPICS)
            method, path = "POST", "/api/v1/candidates"
            body = {
                "candidates": [
                    {
                        "memory_type": "semantic",
                        "namespace": "assistant/profile",
                        "statement": template.format(rng.choice(values)) + f" (load {seed_}-{i})",
                        "assertion_kind": "user_explicit",
                        "confidence": 1.0,
                        "purpose": PURPOSE,
                        "consent_basis": "explicit_consent",
                    }
                ]
            }
        else:
            op = "recall"
            method, path = "POST", "/api/v1/recall"
            body = {"query": rng.choice(QUESTIONS), "purpose": PURPOSE, "k": 5}
        start = time.perf_counter()
        try:
            conn.request(method, path, json.dumps(body), headers)
            response = conn.getresponse()
            data = response.read()
            status = response.status
        except OSError:
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            status, data = 0, b""
        elapsed = time.perf_counter() - start
        if op == "write" and status == 200:
            result = json.loads(data)["results"][0]
            if result.get("operation") == "ADD":
                mine.append((headers["X-Engram-Subject-Token"], result["record_id"]))
        with lock:
            results.append((op, status, elapsed))


def scrape(port: int) -> dict[str, float]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    text = conn.getresponse().read().decode()
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("engram_task_runs_total{"):
            name, value = line.rsplit(" ", 1)
            out[name] = out.get(name, 0.0) + float(value)
    return out


def queue_length() -> int:
    import redis

    return redis.Redis.from_url(REDIS).llen(QUEUE)


def run_config(web: int, workers: int, db_url: str, key, tokens, args) -> dict:
    import redis

    redis.Redis.from_url(REDIS).delete(QUEUE)
    metrics_dir = tempfile.mkdtemp(prefix="engram-prom-")
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "CELERY_BROKER_URL": REDIS,
        "REDIS_URL": REDIS,
        "ENGRAM_CELERY_QUEUE": QUEUE,
        "ENGRAM_METRICS_TOKEN": TOKEN,
        "PROMETHEUS_MULTIPROC_DIR": metrics_dir,
        "ENGRAM_AGENT_RATE": "100000/min",
        "ENGRAM_SUBJECT_TOKEN_MAX_AGE": "3600",
        "OMP_NUM_THREADS": "1",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("ENGRAM_DB_NAME", None)
    celery = [Worker(f"w{i}", env) for i in range(workers)]
    try:
        with Server(workers=web, env=env) as server:
            # Warm every web worker (first recall per process loads the model).
            for _ in range(web * 3):
                conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=120)
                conn.request(
                    "POST",
                    "/api/v1/recall",
                    json.dumps({"query": "warm up", "purpose": PURPOSE}),
                    {
                        "Authorization": f"Bearer {key}",
                        "X-Engram-Subject-Token": tokens[0],
                        "Content-Type": "application/json",
                    },
                )
                conn.getresponse().read()
            tasks_before = scrape(server.port)
            results: list[tuple[str, int, float]] = []
            lock = threading.Lock()
            per_thread = args.requests // args.threads
            threads = [
                threading.Thread(
                    target=client_thread,
                    args=(server.port, key, tokens, per_thread, 1000 * web + t, results, lock),
                )
                for t in range(args.threads)
            ]
            started = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            wall = time.perf_counter() - started
            drain_start = time.perf_counter()
            while queue_length() and time.perf_counter() - drain_start < args.drain_seconds:
                time.sleep(0.25)
            drained = time.perf_counter() - drain_start
            left = queue_length()
            time.sleep(1.0)
            tasks_after = scrape(server.port)
    finally:
        for w in celery:
            w.stop()
        shutil.rmtree(metrics_dir, ignore_errors=True)
    tasks = {k: tasks_after.get(k, 0) - tasks_before.get(k, 0) for k in tasks_after}
    return summarise(web, workers, results, wall, drained, left, tasks)


def summarise(web, workers, results, wall, drained, left, tasks) -> dict:
    def stats(rows):
        ms = [e * 1000 for _, _, e in rows]
        errors = sum(1 for _, s, _ in rows if s == 0 or s >= 500)
        return {
            "n": len(rows),
            "p50_ms": round(percentile(ms, 50), 1) if ms else None,
            "p95_ms": round(percentile(ms, 95), 1) if ms else None,
            "p99_ms": round(percentile(ms, 99), 1) if ms else None,
            "error_rate": round(errors / len(rows), 4) if rows else None,
            "non_2xx": sum(1 for _, s, _ in rows if not 200 <= s < 300),
        }

    out = {
        "web_processes": web,
        "celery_workers": workers,
        "requests": len(results),
        "wall_s": round(wall, 2),
        "throughput_rps": round(len(results) / wall, 1),
        "all": stats(results),
        **{op: stats([r for r in results if r[0] == op]) for op in ("recall", "write", "delete")},
        "queue_drain_s": round(drained, 2),
        "queue_left": left,
        "tasks": {k.split("{", 1)[1].rstrip("}"): v for k, v in tasks.items() if v},
    }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--configs", default="1x1,2x2", help="webxworkers, comma separated")
    parser.add_argument("--requests", type=int, default=600, help="per configuration (bounded)")
    parser.add_argument("--threads", type=int, default=6, help="concurrent client threads")
    parser.add_argument("--subjects", type=int, default=12)
    parser.add_argument("--per-subject", type=int, default=12)
    parser.add_argument("--drain-seconds", type=float, default=120.0)
    args = parser.parse_args()
    configs = [tuple(int(x) for x in c.split("x")) for c in args.configs.split(",")]

    print(f"machine: {machine()}")
    cluster = Cluster()
    try:
        primary = cluster.primary()
        primary.psql("CREATE DATABASE engram")
        db_url = f"{primary.url}/engram"
        os.environ["DATABASE_URL"] = db_url
        os.environ["ENGRAM_DB_CONNECT_AS"] = "owner"
        os.environ["ENGRAM_EMBED_AFTER_COMMIT"] = "none"
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v", "0"],
            cwd=ROOT,
            env={**os.environ, "ENGRAM_DB_CONNECT_AS": "owner"},
            check=True,
        )
        key, tokens = seed(args.subjects, args.per_subject)
        del os.environ["ENGRAM_EMBED_AFTER_COMMIT"]
        del os.environ["ENGRAM_DB_CONNECT_AS"]
        reports = []
        for web, workers in configs:
            print(f"\n== {web} gunicorn worker(s) + {workers} Celery worker(s) ==", flush=True)
            report = run_config(web, workers, db_url, key, tokens, args)
            print(json.dumps(report, indent=2, ensure_ascii=False), flush=True)
            reports.append(report)
        if len(reports) >= 2:
            a, b = reports[0], reports[-1]
            print(
                f"\nscaling {a['web_processes']}x{a['celery_workers']} -> "
                f"{b['web_processes']}x{b['celery_workers']}: throughput "
                f"{b['throughput_rps'] / a['throughput_rps']:.2f}x, recall p95 "
                f"{a['recall']['p95_ms']} -> {b['recall']['p95_ms']} ms"
            )
    finally:
        cluster.close()


if __name__ == "__main__":
    main()
