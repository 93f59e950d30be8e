"""What a serving process does once, after it forks and before it takes work, so that its
first requests do not pay for it (docs/performance.md, 2026-12-07, issue 39, single11).

- ``load_code_and_constants``: every module a URL can reach is imported (the URLconf's
  views and what they import, as the first request would), then every constant of the
  process is computed (``core.process_state.compute_constants``: the ``memoized``
  functions of no arguments, such as the phone-number metadata of every region, the
  confusables table, the detectors' model). Measured: a web worker's first write paid
  ~300-450 ms of CPU for them (254 modules of phone-number metadata, a full collection of
  everything imported), and another ~40 ms at the first text needing the confusables;
  then ``exercise``: the caller's pure work that fills caches keyed by arguments (the
  write policy's decision on a plain statement builds the detectors' prefilter index,
  ~200 ms of a first write that the constants did not cover). Nothing is written and no
  connection is kept (``connections.close_all``).
- ``freeze_start_up_objects``: collect once, then ``gc.freeze()``: what the process holds
  after start-up (modules, tables, models: some hundreds of thousands of objects) is no
  longer examined by the collector's oldest generation, so a full collection during a
  request costs the objects made since, not everything imported.

Each step behind its setting (``config/settings/process_start.py``); off, the process
does what it did before: loads on first use, collects everything it holds.

Called by ``config.gunicorn.post_worker_init``, never before a fork."""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Sequence

from django.conf import settings

logger = logging.getLogger(__name__)


def load_code_and_constants(exercise: Sequence[Callable[[], object]] = ()) -> int:
    """Import what the URLs reach, compute the constants, then run each of ``exercise``
    (pure work that fills what is built on first use from arguments, such as the write
    policy's decision on a plain statement); returns how many constants were computed.
    A failure is logged (by name and type) and left to first use."""
    from django.db import connections
    from django.urls import get_resolver

    from core.process_state import compute_constants

    try:
        get_resolver().url_patterns  # noqa: B018 - imports every view module
        outcome = compute_constants()
        for run in exercise:
            run()
    except Exception as exc:  # noqa: BLE001 - warm-up must never stop a worker from serving
        logger.warning("warm-up of code and constants skipped (%s)", type(exc).__name__)
        return 0
    finally:
        connections.close_all()  # any opened outside a request is not kept
    for name, exc in outcome.items():
        if exc is not None:
            logger.warning("constant %s left to first use (%s)", name, type(exc).__name__)
    return sum(exc is None for exc in outcome.values())


def freeze_start_up_objects() -> int:
    """Collect what start-up left unreachable, then freeze the rest out of the collector's
    view; returns how many objects are frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def after_fork(exercise: Sequence[Callable[[], object]] = ()) -> None:
    """The two steps, as the settings choose (``ENGRAM["WARM_UP_WRITES"]``,
    ``ENGRAM["GC_FREEZE_AFTER_START"]``)."""
    if settings.ENGRAM["WARM_UP_WRITES"]:
        load_code_and_constants(exercise)
    if settings.ENGRAM["GC_FREEZE_AFTER_START"]:
        freeze_start_up_objects()
