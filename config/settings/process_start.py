"""Settings of what a serving process does once after it forks, before it takes work
(core/worker_warm_up.py, config/gunicorn.py, config/celery.py). Kept apart from base.py,
which merges them into ``ENGRAM`` (benches toggle them by name like the other
speed-ups); base.py has already loaded ``.env`` into the environment."""

from __future__ import annotations

import environ

env = environ.Env()

ENGRAM_PROCESS_START = {
    # Each web worker imports what the URLs reach and computes the process's constants
    # (the memoized tables of no arguments: every region's phone-number metadata, the
    # confusables, the detectors' model) before its first request, instead of in it.
    # false: each is loaded by the first request that needs it.
    "WARM_UP_WRITES": env.bool("ENGRAM_WARM_UP_WRITES", default=True),
    # Then the start-up objects are collected once and frozen (gc.freeze): the
    # collector's full collections examine only what was made since. false: every full
    # collection examines everything the process holds.
    "GC_FREEZE_AFTER_START": env.bool("ENGRAM_GC_FREEZE_AFTER_START", default=True),
    # A Celery worker runs at this nice level (its pool's children inherit it): the
    # background work it does (the embedding after each write, consolidation, sweeps)
    # takes a core only when requests leave one; on an idle machine it runs as fast as
    # before. 0 (the default): the scheduler's default, as before. Not on by default: its
    # p95 gain on a shared machine was not shown and its cost in the time until an
    # ingest is also embedded was not measured apart from other load (docs/performance.md,
    # 2026-12-07, single11); 10 is the level to try where a worker shares the web's host.
    "CELERY_WORKER_NICE": env.int("ENGRAM_CELERY_WORKER_NICE", default=0),
}
