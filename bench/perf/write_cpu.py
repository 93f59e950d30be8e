"""CPU per candidate on the write path, in process: what load affects least.

    cd <worktree> && .venv/bin/python /path/to/bench/perf/write_cpu.py [--batches 20]
        [--texts bench|locomo] [--data /work/shared/data/locomo-dev] [--profile [--top 60]]

Submits ``--batches`` batches of 100 candidates through ``candidates_submit`` (after one
warm-up batch) to a fresh subject, on the configured database, and prints the CPU time of
this thread per candidate (``time.thread_time``: the web worker's share; the embedding
thread and any other thread are left out), the CPU time of the PostgreSQL backend serving
the connection (read from ``/proc``, so the embedded or a local PostgreSQL only), the wall
time and the load average. ``--texts bench``: write_api.py's candidates (ordinary
preferences, English and Chinese); ``locomo``: one candidate per LoCoMo dev turn
(``"Speaker: text"``, no cited event). ``--profile``: cProfile of the batches, by
cumulative and by own time. The worktree is read from the current directory, so the
script runs unchanged against another checkout (an A/B of two commits). One OpenMP
thread unless ``OMP_NUM_THREADS`` says otherwise, as the web workers run. Set
``ENGRAM_EMBED_AFTER_COMMIT=none`` so no embedding runs in this process after a commit.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import sys
import time
import uuid
from pathlib import Path

# One OpenMP thread, as the bench's web workers run (bench/_harness.py): the embedding a
# request computes for the learned heads otherwise spins every core of a shared machine.
os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "perf"))


def locomo_statements(folder: Path) -> list[str]:
    out = []
    for path in sorted(folder.glob("*.json")):
        convo = json.loads(path.read_text())
        convo = convo.get("conversation", convo)
        for key, turns in convo.items():
            if key.startswith("session_") and isinstance(turns, list):
                out += [f"{t['speaker']}: {t['text']}"[:2000] for t in turns]
    return out


def bench_writer(texts: str, data: Path):
    """After ``django_setup``: this run's id, the "bench" tenant, its bench agent as the
    actor, and ``batch(b)``, the b-th batch of 100 candidates (write_api.py's, or with
    ``texts == "locomo"`` one LoCoMo dev turn each)."""
    from write_api import candidate as api_candidate

    from accounts.models import Agent, Tenant
    from accounts.services.tenants import agent_create, tenant_create
    from core.actor import Actor
    from memory.write_policy import Candidate

    run = uuid.uuid4().hex[:8]
    tenant = Tenant.objects.filter(slug="bench").first() or tenant_create(
        slug="bench", name="Benchmarks"
    )
    agent = Agent.objects.filter(tenant=tenant, name="bench").first() or agent_create(
        actor=Actor.system(tenant.id, "bench"), tenant=tenant, name="bench"
    )
    actor = Actor.agent(agent.id, tenant.id)
    statements = locomo_statements(data) if texts == "locomo" else []

    def batch(b: int) -> list[Candidate]:
        out = []
        for j in range(100):
            spec = api_candidate(b * 100 + j, run)
            if statements:
                spec["statement"] = statements[(b * 100 + j) % len(statements)]
                spec["memory_type"] = "episodic"
            out.append(Candidate(**spec))
        return out

    return run, tenant, actor, batch


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--batches", type=int, default=20)
    parser.add_argument("--texts", choices=["bench", "locomo"], default="bench")
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data/locomo-dev"))
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=60)
    parser.add_argument(
        "--callers", default="", help="with --profile: also who calls the functions matching this"
    )
    args = parser.parse_args()

    from bench._harness import django_setup

    django_setup()
    from django.db import connection

    from memory.services import writes
    from memory.services.subjects import subject_get_or_create

    run, tenant, actor, batch = bench_writer(args.texts, args.data)

    subject = subject_get_or_create(
        tenant_id=tenant.id, kind="user", external_id=f"cpu-{run}", display_name="Dana"
    )
    writes.candidates_submit(actor=actor, subject=subject, candidates=batch(10_000))  # warm-up
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]

    def backend_cpu() -> float:
        fields = Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    batches = [batch(b) for b in range(args.batches)]
    profile = cProfile.Profile() if args.profile else None
    pg0, cpu0, wall0 = backend_cpu(), time.thread_time(), time.perf_counter()
    for candidates in batches:
        if profile:
            profile.enable()
        outcomes = writes.candidates_submit(actor=actor, subject=subject, candidates=candidates)
        if profile:
            profile.disable()
        assert len(outcomes) == len(candidates)
    n = 100 * args.batches
    cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
    pg = backend_cpu() - pg0
    print(
        f"{n} candidates ({args.texts}): CPU {cpu * 1000 / n:.3f} ms each (this thread) + "
        f"PostgreSQL backend {pg * 1000 / n:.3f} ms; wall {wall * 1000 / n:.3f} ms; "
        "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    if profile:
        for key in ("cumulative", "tottime"):
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats(key).print_stats(args.top)
            print(out.getvalue())
        if args.callers:
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats("cumulative").print_callers(args.callers)
            print(out.getvalue())


if __name__ == "__main__":
    main()
