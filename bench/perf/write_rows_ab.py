"""The write path's plain-row shortcuts off and on, alternated in one process: thread CPU
per candidate of ``candidates_submit`` and of its entity mentions (``mentions_write``).

    cd <worktree> && ENGRAM_EMBED_AFTER_COMMIT=none OMP_NUM_THREADS=1 \\
        .venv/bin/python bench/perf/write_rows_ab.py [--rounds 8] [--texts bench|locomo] \\
        [--keys PLAIN_MENTION_ROWS,TEXT_CHECKED_ONCE]

Each round submits one batch of 100 fresh candidates (write_cpu.py's) with the keys off
and one with them on, to a subject of each side (the order alternates round by round, so
a load that drifts hurts both alike), after one warm-up batch a side. Prints each round's
figures, then the min and median per side, and the load. CPU time of this thread only
(``time.thread_time``): what the machine's load moves least; beside it the CPU time of the
PostgreSQL backend serving the connection over the same request, commit included (read
from ``/proc/PID/schedstat``, nanoseconds: the embedded or a local server only)."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "perf"))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--texts", choices=["bench", "locomo"], default="bench")
    parser.add_argument(
        "--data",
        type=Path,
        default=Path(__file__).resolve().parents[3] / "shared" / "data" / "locomo-dev",
    )
    parser.add_argument("--keys", default="PLAIN_MENTION_ROWS,TEXT_CHECKED_ONCE")
    args = parser.parse_args()

    from bench._harness import backend_cpu_ms, django_setup

    django_setup()
    from django.conf import settings
    from write_cpu import bench_writer

    from memory.services import mentions, writes
    from memory.services.subjects import subject_get_or_create

    keys = [k for k in args.keys.split(",") if k]
    run, tenant, actor, batch = bench_writer(args.texts, args.data)

    spent = {"mentions": 0.0}
    plain_write = mentions.mentions_write

    def timed_write(records, **kw):
        t0 = time.thread_time()
        try:
            return plain_write(records, **kw)
        finally:
            spent["mentions"] += time.thread_time() - t0

    mentions.mentions_write = timed_write  # indexing imports it at each call
    base = dict(settings.ENGRAM_WRITE_BATCH)
    subjects = {
        on: subject_get_or_create(
            tenant_id=tenant.id, kind="user", external_id=f"rows-{run}-{on}", display_name="Dana"
        )
        for on in (False, True)
    }
    from django.db import connection

    backend_ms = backend_cpu_ms(connection)

    figures: dict[bool, list[tuple[float, float, float]]] = {False: [], True: []}
    b = 0
    for r in range(-1, args.rounds):
        for on in (False, True) if r % 2 else (True, False):
            settings.ENGRAM_WRITE_BATCH = {**base, **{k: on for k in keys}}
            candidates = batch(b)
            b += 1
            spent["mentions"] = 0.0
            pg0, t0 = backend_ms(), time.thread_time()
            writes.candidates_submit(actor=actor, subject=subjects[on], candidates=candidates)
            cpu, pg = time.thread_time() - t0, backend_ms() - pg0
            if r >= 0:  # round -1: warm-up; ms a candidate
                figures[on].append((cpu * 10, spent["mentions"] * 10, pg / 100))
        if r >= 0:
            print(
                f"round {r}: off {figures[False][-1][0]:.3f} (mentions {figures[False][-1][1]:.3f},"
                f" backend {figures[False][-1][2]:.3f}) / on {figures[True][-1][0]:.3f} (mentions"
                f" {figures[True][-1][1]:.3f}, backend {figures[True][-1][2]:.3f}) ms a candidate;"
                f" load {os.getloadavg()[0]:.1f}"
            )
    mentions.mentions_write = plain_write
    settings.ENGRAM_WRITE_BATCH = base
    for on in (False, True):
        whole = [w for w, _, _ in figures[on]]
        ment = [m for _, m, _ in figures[on]]
        pg = [p for _, _, p in figures[on]]
        print(
            f"{'on ' if on else 'off'} {','.join(keys)}: whole min {min(whole):.3f} / median "
            f"{statistics.median(whole):.3f}; mentions min {min(ment):.3f} / median "
            f"{statistics.median(ment):.3f}; backend min {min(pg):.3f} / median "
            f"{statistics.median(pg):.3f} ms a candidate ({args.texts}, {args.rounds} rounds)"
        )
    print("load " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
