"""Write-path benchmark through the real HTTP API on the configured database (the embedded
PostgreSQL by default).

    .venv/bin/python bench/perf/write_api.py [--single 300] [--batches 20] [--workers 2]
                                             [--ingest /path/to/locomo-folder] [--skip-writes]
                                             [--ingest-form split|turn|both] [--ingest-rounds 2]
                                             [--ingest-batch 100]

Measures: single-candidate submission latency p50/p95; accepted candidates per second in
batches of 100 (one client, then one client per worker); peak RSS of each web worker.
``--ingest``: LoCoMo-format conversations ingested as ``bench/quality/locomo.py`` does
(per 100 turns, their events, then one candidate per turn citing its event; one client
per conversation, up to ``--workers`` at once: by default a pool, longest conversation
first, ``--ingest-schedule waves`` for the earlier waves): turns per second, events and candidates
timed apart. ``--ingest-form``: ``split`` is that two-request form, ``turn`` the single
request (``POST /conversation`` with the messages and their ``candidates``), ``both``
alternates them, ``--ingest-rounds`` rounds each, a fresh subject per conversation and
round. Both forms send the same chunks: consecutive turns of one session (a request's one
``thread_id``), at most ``--ingest-batch`` of them (1: a request per turn, as an agent
writing each turn as it happens). Without a broker the events' extraction runs in the
request (on commit), as in the embedded default. The load average is printed with each figure.
Embedding runs after the commit: by default elsewhere (as with Celery workers); ``--embed
thread`` measures the embedded default, where the web worker's own thread embeds;
``--embed celery`` runs a real Celery worker (solo pool, one OpenMP thread) on Redis at
127.0.0.1:6379, on a queue of this run's own, as production does (the events' extraction
then runs in the worker too). With ``thread`` or ``celery``, ``--ingest`` also reports the
time until every ingested record has its vector (polled every 0.5 s).
Targets the write path was built against (docs/performance.md; not asserted anywhere): p95 ≤ 30 ms, ≥ 500 candidates/s, ≤ 400 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench._harness import (  # noqa: E402
    ROOT,
    Client,
    Server,
    bench_credentials,
    django_setup,
    histogram,
    machine,
    peak_rss_mb,
    postgres_pids,
    process_cpu_s,
    progress,
    summary,
)
from bench.perf.write_stages import cpu_model  # noqa: E402

TOPICS = [
    "deploy windows",
    "report layout",
    "code review",
    "meeting notes",
    "GPU budgets",
    "release notes",
    "容量分析",
    "周报格式",
    "代码评审",
    "值班交接",
]


def candidate(i: int, run: str) -> dict:
    topic = TOPICS[i % len(TOPICS)]
    return {
        "memory_type": "semantic",
        "namespace": f"bench/{run}",
        "statement": f"For {topic}, the user prefers variant {i} of the checklist ({run})",
        "assertion_kind": "user_explicit",
        "confidence": 1.0,
        "purpose": "personalization",
        "consent_basis": "explicit_consent",
    }


def accepted(results: list[dict]) -> int:
    return sum(1 for r in results if r["operation"] in ("ADD", "CONFIRM", "SUPERSEDE"))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--single", type=int, default=300, help="single-candidate requests")
    parser.add_argument(
        "--batches", type=int, default=20, help="batches of 100 per throughput phase"
    )
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument(
        "--embed",
        choices=["none", "thread", "celery"],
        default="none",
        help="none: embeddings are computed elsewhere (Celery workers, the production shape); "
        "thread: by the web workers' own background thread (the embedded default without a "
        "broker); celery: by a Celery worker this bench starts, on Redis at 127.0.0.1:6379",
    )
    parser.add_argument("--ingest", type=Path, default=None, help="LoCoMo-format folder")
    parser.add_argument(
        "--skip-writes", action="store_true", help="only the --ingest phase (no phases 1-3)"
    )
    parser.add_argument(
        "--ingest-form",
        choices=["split", "turn", "both"],
        default="split",
        help="split: POST /events then POST /candidates; turn: one POST /conversation with "
        "the candidates; both: alternate the two, --ingest-rounds rounds each",
    )
    parser.add_argument("--ingest-rounds", type=int, default=2, help="rounds per form")
    parser.add_argument(
        "--ingest-schedule",
        choices=["pool", "waves"],
        default="pool",
        help="pool: a client takes the next conversation (longest first) as soon as it is "
        "free, so --workers clients stay busy; waves: --workers conversations at a time, "
        "each wave waiting for its slowest (the figures before 2026-12-07: with LoCoMo "
        "dev's 419, 369 and 663 turns the last conversation ran alone)",
    )
    parser.add_argument(
        "--ingest-batch", type=int, default=100, help="at most this many turns a request"
    )
    args = parser.parse_args()

    django_setup()
    run = uuid.uuid4().hex[:8]
    print(f"Engram write benchmark · run {run} · {machine()} · {cpu_model()}")
    print(f"embedding after commit: {args.embed}")
    env = {"ENGRAM_EMBED_AFTER_COMMIT": args.embed}
    if args.embed == "celery":
        env.update(CELERY_BROKER_URL=REDIS_BROKER, ENGRAM_CELERY_QUEUE=f"bench-{run}")
    with Server(workers=args.workers, env=env) as server, celery_worker(env, args.embed):
        key, token = bench_credentials("bench", f"bench-user-{run}")
        client = Client(server.port, key, token)
        client.post("/api/v1/candidates", {"candidates": [candidate(-1, run)]})  # warm-up
        result: dict = {
            "run": run,
            "machine": f"{machine()}, {cpu_model()}",
            "embed_after_commit": args.embed,
        }
        if args.ingest is not None:
            result["ingest"] = ingest_rounds(server.port, run, args)
        if not args.skip_writes:
            result.update(write_phases(server, client, run, args))
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / f"write_api-{run}.json").write_text(json.dumps(result, indent=2))
    print("\n" + json.dumps(result, indent=2))


REDIS_BROKER = "redis://127.0.0.1:6379/0"
WORKERS: list[subprocess.Popen] = []


@contextmanager
def celery_worker(env: dict[str, str], embed: str) -> Iterator[None]:
    """A Celery worker as ``./dev worker`` starts it (solo pool, worker settings, one
    OpenMP thread), on this run's queue, for ``--embed celery``; nothing otherwise."""
    if embed != "celery":
        yield
        return
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo"]
    command += ["--queues", env["ENGRAM_CELERY_QUEUE"], "--loglevel", "WARNING"]
    worker_env = {
        **os.environ,
        **env,
        "DJANGO_SETTINGS_MODULE": "config.settings.worker",
        "OMP_NUM_THREADS": "1",
        # The worker signs nothing the bench reads; its settings refuse the default key.
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    }
    proc = subprocess.Popen(command, cwd=ROOT, env=worker_env)
    WORKERS.append(proc)
    try:
        yield
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def pending_vectors(prefix: str) -> int:
    """Records of the subjects whose external id starts with ``prefix`` that should have a
    vector under the active model and have none yet."""
    from django.db.models import Q

    from accounts.models import Tenant
    from core.tenancy import tenant_context
    from memory.selectors import active_model_id
    from memory.services.indexing import unembedded_record_ids

    scope = Q(subject__external_id__startswith=prefix)
    with tenant_context(Tenant.objects.get(slug="bench").id):
        return len(unembedded_record_ids(scope, model_id=active_model_id(), limit=1_000_000))


def load() -> str:
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def write_phases(server, client, run: str, args) -> dict:
    print(f"\n1) single-candidate submission latency ({load()})")
    latencies = []
    for i in range(args.single):
        status, body, elapsed = client.post(
            "/api/v1/candidates", {"candidates": [candidate(i, run)]}
        )
        assert status == 200 and body["results"][0]["operation"] == "ADD", body
        latencies.append(elapsed)
        progress(i + 1, args.single, "requests")
    single = summary(latencies)
    print(histogram([v * 1000 for v in latencies]))
    print(
        f"  p50 {single['p50_ms']} ms · p95 {single['p95_ms']} ms (issue 39: p95 ≤ 20 ms) · {load()}"
    )

    print("\n2) batches of 100, one client")
    base = 10_000
    start, total = time.perf_counter(), 0
    for b in range(args.batches):
        batch = [candidate(base + b * 100 + j, run) for j in range(100)]
        status, body, _ = client.post("/api/v1/candidates", {"candidates": batch})
        assert status == 200, body
        total += accepted(body["results"])
        progress(b + 1, args.batches, "batches")
    one_client = total / (time.perf_counter() - start)
    print(f"  {one_client:.0f} accepted candidates/s (target ≥ 500/s) · {load()}")

    print(f"\n3) batches of 100, {args.workers} concurrent clients (one subject each)")
    counts = [0] * args.workers
    client_cpu = [0.0] * args.workers

    def worker(w: int) -> None:
        k, t = bench_credentials("bench", f"bench-user-{run}-w{w}")
        c = Client(server.port, k, t)
        started = time.thread_time()
        for b in range(args.batches):
            batch = [candidate(50_000 + w * 10_000 + b * 100 + j, run) for j in range(100)]
            status, body, _ = c.post("/api/v1/candidates", {"candidates": batch})
            assert status == 200, body
            counts[w] += accepted(body["results"])
        client_cpu[w] = time.thread_time() - started

    threads = [threading.Thread(target=worker, args=(w,)) for w in range(args.workers)]
    # Where the CPU of this phase goes, per accepted candidate: the web workers, the
    # PostgreSQL server (every process of it, from /proc) and the bench's client threads
    # (the request bodies built and encoded, the responses read; with the credentials'
    # issue, a few ms). On 2 cores the sum bounds the throughput: 2 s / sum per candidate.
    web, pg = server.worker_pids(), postgres_pids(ROOT)
    web0 = sum(map(process_cpu_s, web))
    pg0 = {pid: process_cpu_s(pid) for pid in pg}
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    concurrent = sum(counts) / (time.perf_counter() - start)
    n = max(sum(counts), 1)
    cpu = {
        "web_workers_ms": (sum(map(process_cpu_s, web)) - web0) * 1000 / n,
        # Processes started since count whole; one that ended since is left out.
        "postgresql_ms": sum(
            max(process_cpu_s(pid) - pg0.get(pid, 0.0), 0.0) for pid in postgres_pids(ROOT)
        )
        * 1000
        / n
        if pg
        else None,
        "bench_client_ms": sum(client_cpu) * 1000 / n,
    }
    print(f"  {concurrent:.0f} accepted candidates/s · {load()}")
    print(
        "  CPU per accepted candidate: "
        + ", ".join(f"{k} {v:.3f}" if v is not None else f"{k} n/a" for k, v in cpu.items())
    )

    rss = {pid: round(peak_rss_mb(pid), 1) for pid in server.worker_pids()}
    print(f"\n4) peak RSS per web worker (VmHWM): {rss} MB (target ≤ 400 MB)")

    return {
        "single_candidate": single,
        "batch100_one_client_per_s": round(one_client),
        f"batch100_{args.workers}_clients_per_s": round(concurrent),
        f"batch100_{args.workers}_clients_cpu_per_candidate": cpu,
        "worker_peak_rss_mb": list(rss.values()),
        "load_average": os.getloadavg(),
    }


def ingest_rounds(port: int, run: str, args) -> dict:
    """The ``--ingest`` phase: the chosen form(s), round after round (alternating with
    ``both``), and each form's turns/s over its rounds."""
    forms = {"split": ["split"], "turn": ["turn"], "both": ["split", "turn"]}[args.ingest_form]
    order = [form for _ in range(args.ingest_rounds) for form in forms]
    rounds = []
    for i, form in enumerate(order):
        figures = ingest(
            port,
            f"{run}-r{i}",
            args.ingest,
            args.workers,
            until_embedded=args.embed != "none",
            form=form,
            batch=args.ingest_batch,
            schedule=args.ingest_schedule,
        )
        rounds.append({"round": i, "form": form, **figures})
    summary_by_form = {}
    for form in forms:
        rates = sorted(r["turns_per_s"] for r in rounds if r["form"] == form)
        embedded = [r["seconds_until_all_embedded"] for r in rounds if r["form"] == form]
        summary_by_form[form] = {"turns_per_s": rates, "seconds_until_all_embedded": embedded}
        print(f"  {form}: turns/s {rates}; all embedded after {embedded} s")
    return {"batch": args.ingest_batch, "rounds": rounds, "by_form": summary_by_form}


def chunks(turns: list[dict], size: int) -> list[list[dict]]:
    """Consecutive turns of one session, at most ``size`` a chunk."""
    out: list[list[dict]] = []
    for t in turns:
        if out and len(out[-1]) < size and out[-1][-1]["session"] == t["session"]:
            out[-1].append(t)
        else:
            out.append([t])
    return out


def turn_bodies(chunk: list[dict], tag: str, event_prefix: str = "") -> tuple[str, list, list]:
    """A chunk of LoCoMo turns as one session's request bodies: its thread id, the turns as
    messages (``client_event_id`` = ``event_prefix`` + the turn's id) and one candidate a
    turn citing its message, as ``bench/quality/locomo.py`` writes them."""
    thread_id = f"{tag}:session_{chunk[0]['session']}"
    messages = [
        {
            "client_event_id": f"{event_prefix}{t['dia_id']}",
            "role": "user",
            "content": t["text"],
            "speaker": t["speaker"],
            "occurred_at": t["at"].isoformat(),
        }
        for t in chunk
    ]
    candidates = [
        {
            "memory_type": "episodic",
            "namespace": "conversation",
            "statement": f"{t['speaker']}: {t['text']}",
            "assertion_kind": "user_explicit",
            "confidence": 1.0,
            "purpose": "personalization",
            "consent_basis": "explicit_consent",
            "valid_from": t["at"].isoformat(),
            "source_client_event_ids": [f"{event_prefix}{t['dia_id']}"],
        }
        for t in chunk
    ]
    return thread_id, messages, candidates


def ingest(
    port: int,
    run: str,
    folder: Path,
    workers: int,
    *,
    until_embedded: bool,
    form: str = "split",
    batch: int = 100,
    schedule: str = "pool",
) -> dict:
    """LoCoMo-format conversations through the API, one subject and client each;
    ``until_embedded``: then wait until every record has its vector."""
    from bench.quality.locomo import load_folder, turns_of

    convs = load_folder(folder)
    timings = {"events": 0.0, "candidates": 0.0, "turn": 0.0}
    counts = {"turns": 0, "accepted": 0, "requests": 0}
    # Each chunk's time at the client: the one request (turn form), or its two (split).
    per_chunk: list[float] = []
    lock = threading.Lock()

    def one(name: str) -> None:
        key, token = bench_credentials("bench", f"bench-ingest-{run}-{name}")
        c = Client(port, key, token)
        for chunk in chunks(turns_of(convs[name]), batch):
            thread_id, messages, candidates = turn_bodies(chunk, name, f"{name}:")
            spent_events = spent_turn = spent = 0.0
            if form == "turn":
                body = {"thread_id": thread_id, "messages": messages, "candidates": candidates}
                status, body, spent_turn = c.post("/api/v1/conversation", body)
                assert status == 200, body
                results, requests = body["candidates"], 1
            else:
                events = [{**m, "kind": "message", "thread_id": thread_id} for m in messages]
                status, body, spent_events = c.post("/api/v1/events", {"events": events})
                assert status == 200, body
                status, body, spent = c.post("/api/v1/candidates", {"candidates": candidates})
                assert status == 200, body
                results, requests = body["results"], 2
            with lock:
                timings["events"] += spent_events
                timings["candidates"] += spent
                timings["turn"] += spent_turn
                counts["turns"] += len(chunk)
                counts["accepted"] += accepted(results)
                counts["requests"] += requests
                per_chunk.append(spent_events + spent + spent_turn)

    print(
        f"\n0) LoCoMo ingest ({form} form, ≤ {batch} turns a request): {len(convs)} "
        f"conversations, {workers} at once, {schedule} ({load()})"
    )
    names = list(convs)
    load_at_start = os.getloadavg()
    start = time.perf_counter()
    if schedule == "waves":
        for i in range(0, len(names), workers):
            threads = [threading.Thread(target=one, args=(n,)) for n in names[i : i + workers]]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
    else:  # the longest conversations first, each client taking the next when free
        names.sort(key=lambda n: -len(turns_of(convs[n])))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(one, names))
    wall = time.perf_counter() - start
    load_at_end = os.getloadavg()
    embedded_after = None
    if until_embedded:
        left = pending_vectors(f"bench-ingest-{run}-")
        print(f"  ingest done in {wall:.1f} s; {left} records still without a vector · {load()}")
        while left:
            if any(w.poll() is not None for w in WORKERS):
                raise SystemExit("the Celery worker stopped")
            time.sleep(0.5)
            left = pending_vectors(f"bench-ingest-{run}-")
        embedded_after = time.perf_counter() - start
    n = counts["turns"]
    figures = {
        "turns": n,
        "accepted": counts["accepted"],
        "requests": counts["requests"],
        "seconds": round(wall, 1),
        "turns_per_s": round(n / wall, 1),
        "events_ms_per_turn": round(timings["events"] * 1000 / n, 2),
        "candidates_ms_per_turn": round(timings["candidates"] * 1000 / n, 2),
        "turn_ms_per_turn": round(timings["turn"] * 1000 / n, 2),
        "chunk": summary(per_chunk),
        "seconds_until_all_embedded": round(embedded_after, 1) if embedded_after else None,
        "load_at_start": load_at_start,
        "load_average": load_at_end,
    }
    if embedded_after is not None:
        print(f"  every record embedded {embedded_after:.1f} s after the ingest started · {load()}")
    per_turn = (
        f"request {figures['turn_ms_per_turn']} ms"
        if form == "turn"
        else f"events {figures['events_ms_per_turn']} ms, candidates "
        f"{figures['candidates_ms_per_turn']} ms"
    )
    print(
        f"  {n} turns, {counts['requests']} requests, in {figures['seconds']} s: "
        f"{figures['turns_per_s']} turns/s ({per_turn} a turn, summed over clients) · {load()}"
    )
    chunk = figures["chunk"]
    print(
        f"  a chunk of ≤ {batch} turns ({'one request' if form == 'turn' else 'two requests'}): "
        f"p50 {chunk['p50_ms']} / p95 {chunk['p95_ms']} ms, {n / len(per_chunk):.1f} turns each"
    )
    return figures


if __name__ == "__main__":
    main()
