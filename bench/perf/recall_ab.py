"""Recall latency of two versions of Engram, measured alternately on the same bench
database: on a shared VM whose speed drifts by a third within minutes, two runs one after
the other compare the minutes, not the code.

Two gunicorn servers (2 sync workers each, one OpenMP thread), one from this checkout
and one from ``--before`` (another checkout: ``git worktree add /tmp/before <commit>``),
both on the database ``bench/perf/recall_perf.py --keepdb --memories-per-subject N``
loaded. Blocks of ``--per-block`` recalls go to one server, then the other (the order
swapped every block), each followed by 10 bare query embeddings in this process; every
question is unique. Prints p50 / p95 / p99 of each and of the bare embedding.

    git worktree add /tmp/before <commit>
    .venv/bin/python bench/perf/recall_perf.py --keepdb --memories-per-subject 600 --requests 30
    .venv/bin/python bench/perf/recall_ab.py --before /tmp/before --memories-per-subject 600

What one speed-up saves (the same code, the setting off on the "before" server):

    .venv/bin/python bench/perf/recall_ab.py --memories-per-subject 600 \
        --before-env ENGRAM_RECALL_VECTOR_CACHE=false

The other checkout uses this one's virtualenv and embedded PostgreSQL (``ENGRAM_DATA_DIR``);
its code must read the bench database's schema (a migration it lacks is ignored)."""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.perf.perf_settings")
os.environ.setdefault("ENGRAM_BENCH_DB", "bench_perf")
os.environ["OMP_NUM_THREADS"] = "1"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

from bench.perf.recall_perf import (  # noqa: E402
    PURPOSE,
    bare_embedding_ms,
    conversation_question,
    cpu_model,
    loaded_per_subject_tenant,
    locomo_questions,
    pct,
    subject_tokens,
)


def start(
    root: Path, port: int, extra_env: dict[str, str] | None = None, boot_seconds: float = 90
) -> subprocess.Popen:
    env = {
        **os.environ,
        **(extra_env or {}),
        "PYTHONPATH": str(root),
        "ENGRAM_DATA_DIR": str(settings.ENGRAM_DATA_DIR),
        "LOG_LEVEL": "WARNING",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "--config", "python:config.gunicorn"]
        + ["--bind", f"127.0.0.1:{port}", "--workers", "2", "--log-level", "warning"],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + boot_seconds
    while time.time() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/v1/schema")
            conn.getresponse().read()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit(f"the server from {root} did not answer on port {port}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--before", type=Path, default=ROOT, help="the other checkout (default: this one)"
    )
    parser.add_argument(
        "--before-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting for the 'before' server only, e.g. ENGRAM_RECALL_VECTOR_CACHE=false:"
        " what one speed-up saves, on the same code",
    )
    parser.add_argument("--memories-per-subject", type=int, required=True)
    parser.add_argument("--subjects", type=int, default=2)
    parser.add_argument("--blocks", type=int, default=12)
    parser.add_argument("--per-block", type=int, default=25)
    parser.add_argument(
        "--questions-dir",
        type=Path,
        help="ask LoCoMo's own questions from this folder of conversations (each once while"
        " they last; the bare embedding on the same questions) instead of generated ones",
    )
    parser.add_argument("--port", type=int, default=8771, help="the first server's; +1 the other")
    parser.add_argument(
        "--boot-seconds",
        type=float,
        default=90,
        help="how long each server may take to answer its first request (a loaded machine"
        " needs more)",
    )
    args = parser.parse_args()
    real = locomo_questions(args.questions_dir) if args.questions_dir else None
    tenant = loaded_per_subject_tenant(args.memories_per_subject, args.subjects)
    load_at_start = os.getloadavg()[0]
    before_env = dict(item.split("=", 1) for item in args.before_env)
    trees = {"before": args.before.resolve(), "this checkout": ROOT}
    servers = {
        label: start(
            root, args.port + i, before_env if label == "before" else None, args.boot_seconds
        )
        for i, (label, root) in enumerate(trees.items())
    }
    ports = {label: args.port + i for i, label in enumerate(trees)}
    tokens = subject_tokens(tenant)
    conns = {k: http.client.HTTPConnection("127.0.0.1", p, timeout=30) for k, p in ports.items()}

    def ask(label: str, question: str, subject: str) -> float:
        body = json.dumps({"query": question, "purpose": PURPOSE, "k": 10})
        started = time.perf_counter()
        conns[label].request(
            "POST",
            "/api/v1/recall",
            body,
            {
                "Authorization": f"Bearer {tenant['key']}",
                "X-Engram-Subject-Token": tokens[subject],
                "Content-Type": "application/json",
            },
        )
        response = conns[label].getresponse()
        response.read()
        if response.status != 200:
            raise SystemExit(f"{label} answered {response.status}")
        return (time.perf_counter() - started) * 1000

    rng = random.Random(3)
    latencies: dict[str, list[float]] = {label: [] for label in trees}
    bare: list[float] = []
    try:
        for label in trees:  # warm-up: each worker loads the model and its caches
            for i in range(20):
                ask(label, conversation_question(rng, 500_000 + i), rng.choice(tenant["subjects"]))
        i = 0
        for block in range(args.blocks):
            order = list(trees) if block % 2 == 0 else list(reversed(list(trees)))
            for label in order:
                for _ in range(args.per_block):
                    i += 1
                    subject = rng.choice(tenant["subjects"])
                    question = (
                        real[(i - 1) % len(real)]
                        if real
                        else conversation_question(rng, 600_000 + i)
                    )
                    latencies[label].append(ask(label, question, subject))
            bare += (
                bare_embedding_ms(10, block * 10, real)
                if real
                else bare_embedding_ms(10, 700_000 + block * 10)
            )
            print(f"  block {block + 1}/{args.blocks}", flush=True)
    finally:
        for proc in servers.values():
            proc.terminate()
    print(
        f"{args.memories_per_subject} memories per subject, {args.blocks} alternating blocks of"
        f" {args.per_block}; questions {'LoCoMo dev' if real else 'generated'}; CPU"
        f" {cpu_model()}, load at start {load_at_start:.1f}, at end {os.getloadavg()[0]:.1f}"
    )
    for label, values in latencies.items():
        values.sort()
        print(
            f"  {label:14} n={len(values)} p50 {pct(values, 50):6.1f} p95 {pct(values, 95):6.1f}"
            f" p99 {pct(values, 99):6.1f} ms"
        )
    bare.sort()
    print(
        f"  {'bare embedding':14} n={len(bare)} p50 {pct(bare, 50):6.1f} p95 {pct(bare, 95):6.1f} ms"
    )


if __name__ == "__main__":
    main()
