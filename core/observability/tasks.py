"""Celery hooks: task outcomes, retries and run time as metrics, task ids on log lines,
and the worker's own ``/metrics`` (Prometheus scrapes each worker host directly; no
pushgateway).

A prefork worker runs tasks in child processes: set ``PROMETHEUS_MULTIPROC_DIR`` (an
empty directory per worker host) so the parent's HTTP endpoint sums every child's
figures. A ``--pool solo`` or threads worker needs nothing."""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import signals

from core.observability import logs, metrics, traces
from core.process_state import Cache

logger = logging.getLogger(__name__)
# When each running task started (one entry per task in flight, gone when it ends).
_started: Cache[str, float] = Cache("tasks.started", max_items=10_000)


def _task_name(sender: Any) -> str:
    return metrics.code(getattr(sender, "name", None) or "unknown")


def _prerun(sender: Any = None, task_id: str = "", **_: Any) -> None:
    _started.put(task_id, time.perf_counter())
    logs.clear()
    logs.bind(task=_task_name(sender), task_id=task_id)
    traces.task_started(task_id, _task_name(sender), getattr(sender, "request", None))


def _postrun(sender: Any = None, task_id: str = "", state: str | None = None, **_: Any) -> None:
    name = _task_name(sender)
    metrics.TASK_RUNS.labels(name, metrics.code(state or "UNKNOWN")).inc()
    started = _started.pop(task_id)
    if started is not None:
        metrics.TASK_SECONDS.labels(name).observe(time.perf_counter() - started)
    traces.task_finished(task_id, state or "UNKNOWN")
    logs.clear()


def _retry(sender: Any = None, **_: Any) -> None:
    metrics.TASK_RETRIES.labels(_task_name(sender)).inc()


def _serve_metrics(**_: Any) -> None:
    """``worker_init``: serve this worker's /metrics if ENGRAM_WORKER_METRICS_PORT is set."""
    from django.conf import settings

    conf = settings.ENGRAM_OBSERVABILITY
    if not conf["WORKER_METRICS_PORT"]:
        return
    from prometheus_client import start_http_server

    start_http_server(
        conf["WORKER_METRICS_PORT"],
        addr=conf["WORKER_METRICS_ADDR"],
        registry=metrics.registry_for_scrape(),
    )
    logger.info("worker metrics on %s:%s", conf["WORKER_METRICS_ADDR"], conf["WORKER_METRICS_PORT"])


def connect() -> None:
    """Connect the hooks (weak=False: the functions live for the process). Reads no
    settings: config/celery.py calls this while Django may still be loading."""
    signals.task_prerun.connect(_prerun, weak=False)
    signals.task_postrun.connect(_postrun, weak=False)
    signals.task_retry.connect(_retry, weak=False)
    signals.worker_init.connect(_serve_metrics, weak=False)
    signals.before_task_publish.connect(traces.inject_headers, weak=False)
