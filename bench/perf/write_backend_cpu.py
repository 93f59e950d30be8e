"""The PostgreSQL backend's CPU for a write request's statements, one by one, in process.

    cd <worktree> && ENGRAM_EMBED_AFTER_COMMIT=none .venv/bin/python \\
        bench/perf/write_backend_cpu.py [--rounds 20] [--texts bench|locomo] [--before SQL]

Submits one batch of 100 candidates (write_cpu.py's, after a warm-up batch) inside a
transaction that is rolled back, recording every statement the write path sends with its
parameters; then replays them ``--rounds`` times, each time in a transaction rolled back,
reading the backend's CPU time before and after each statement from
``/proc/PID/schedstat`` (nanoseconds; the embedded or a local server only). The deferred
foreign-key checks the commit would run are timed apart, by ``SET CONSTRAINTS ALL
IMMEDIATE`` at the end. ``--before``: statements run first in each replay, rolled back with
it (``DROP INDEX …`` or ``ALTER TABLE … DROP CONSTRAINT …`` to price an index or a
constraint without changing the schema). Prints ms a batch of 100 per statement and the
total, with the load.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path.cwd()
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "perf"))


class _RolledBack(Exception):
    pass


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--texts", choices=["bench", "locomo"], default="bench")
    parser.add_argument("--data", type=Path, default=Path("/work/shared/data/locomo-dev"))
    parser.add_argument("--before", action="append", default=[])
    args = parser.parse_args()

    from bench._harness import django_setup

    django_setup()
    from django.db import connection, transaction
    from write_cpu import bench_writer

    from memory.services import writes
    from memory.services.subjects import subject_get_or_create

    run, tenant, actor, batch = bench_writer(args.texts, args.data)
    subject = subject_get_or_create(
        tenant_id=tenant.id, kind="user", external_id=f"pg-{run}", display_name="Dana"
    )
    writes.candidates_submit(actor=actor, subject=subject, candidates=batch(10_000))
    sent: list[tuple[str, object]] = []

    def record(execute, sql, params, many, context):
        sent.append((sql, params))
        return execute(sql, params, many, context)

    try:
        with transaction.atomic(), connection.execute_wrapper(record):
            writes.candidates_submit(actor=actor, subject=subject, candidates=batch(1))
            raise _RolledBack
    except _RolledBack:
        pass
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        schedstat = Path(f"/proc/{cursor.fetchone()[0]}/schedstat")

    def cpu_ms() -> float:
        return int(schedstat.read_text().split()[0]) / 1e6

    spent: dict[tuple[int, str], float] = defaultdict(float)
    for _ in range(args.rounds):
        with transaction.atomic(), connection.cursor() as cursor:
            for sql in args.before:
                cursor.execute(sql)
            for i, (sql, params) in enumerate(sent):
                t0 = cpu_ms()
                cursor.execute(sql, params)
                spent[(i, re.sub(r"\s+", " ", sql).strip()[:70])] += cpu_ms() - t0
            t0 = cpu_ms()
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            spent[(len(sent), "deferred foreign-key checks (the commit's)")] += cpu_ms() - t0
            transaction.set_rollback(True)
    total = 0.0
    for (_, label), ms in sorted(spent.items()):
        total += ms / args.rounds
        print(f"{ms / args.rounds:8.3f} ms  {label}")
    print(
        f"{total:8.3f} ms a batch of 100 ({args.texts}, {args.rounds} rounds); load "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )


if __name__ == "__main__":
    main()
