"""A thread summary's rebuild, the reference against ``ENGRAM_INGEST_SUMMARY_ONE_READ``,
alternated in one process on summaries already in the database (run
``bench/perf/ingest_http.py`` first: its threads are ``locomo-*`` and ``chinese-*``).

    .venv/bin/python bench/perf/thread_summary_ab.py [--threads 12] [--rounds 4]

Per summary: this thread's CPU (``time.thread_time``), wall time and SQL statements (the
tenant context's included), each round and mode on the same threads."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path.cwd()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--threads", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    from bench._harness import django_setup

    django_setup()
    from django.conf import settings
    from django.db import connection

    from core.tenancy import tenant_context
    from memory.models import ThreadSummary
    from memory.services.compression import thread_summarize

    statements = [0]

    def counted(execute, sql, params, many, context):
        statements[0] += 1
        return execute(sql, params, many, context)

    for prefix in ("chinese-turn", "locomo-turn"):
        threads = list(
            ThreadSummary.objects.filter(thread_id__startswith=prefix)
            .order_by("-built_at")[: args.threads]
            .values_list("tenant_id", "subject_id", "thread_id", "event_count")
        )
        if not threads:
            continue
        n = len(threads)
        figures: dict[bool, list[str]] = {False: [], True: []}
        for _ in range(args.rounds):
            for one_read in (False, True):
                settings.ENGRAM_INGEST = {**settings.ENGRAM_INGEST, "SUMMARY_ONE_READ": one_read}
                statements[0] = 0
                cpu, wall = time.thread_time(), time.perf_counter()
                with connection.execute_wrapper(counted):
                    for tenant_id, subject_id, thread_id, _ in threads:
                        with tenant_context(str(tenant_id)):
                            thread_summarize(
                                actor=None,
                                tenant_id=tenant_id,
                                subject_id=subject_id,
                                thread_id=thread_id,
                            )
                cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
                figures[one_read].append(
                    f"{cpu * 1000 / n:.2f}/{wall * 1000 / n:.1f} ms, {statements[0] / n:.0f} st"
                )
        events = sum(t[3] for t in threads) / n
        print(f"{prefix}: {n} threads of {events:.1f} events; a summary's CPU/wall, statements")
        print("  reference ", " · ".join(figures[False]))
        print("  one read  ", " · ".join(figures[True]))
    print("load " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
