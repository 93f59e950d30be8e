"""Prometheus metric families of Engram, and the few helpers product code calls.

Rules (no user data in logs or metrics: operators read them):
- labels carry codes (stage, operation, reason code, task name, status) and never memory
  text, a query, a user id or anything a caller typed: every label value goes through
  :func:`code`, which turns anything that does not look like a code into ``"other"``;
- counters and histograms live in the process that observes them. Several processes
  (gunicorn workers, prefork Celery children) share them through
  ``PROMETHEUS_MULTIPROC_DIR`` (see :func:`registry_for_scrape`);
- figures that live in the database (queue sizes, index lag, dead letters) are read at
  scrape time by collectors (``config/metrics.py``), not counted here.

Recall stage timings: the recall pipeline (``memory.recall.pipeline``) brackets each
stage with :func:`recall_stage`, an explicit hook (no function is replaced at import);
the recall API view brackets the call with :func:`recall_started` /
:func:`recall_finished`, which sums each stage's time for the request and observes one
value per stage."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from prometheus_client import REGISTRY as DEFAULT_REGISTRY
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    multiprocess,
)

from core.observability import traces

# --- label values ----------------------------------------------------------------------

# A code: ASCII letters, digits and _ . : - only, at most 64 characters, starting with a
# letter. Memory text and queries almost always contain spaces or non-ASCII characters;
# the length cap stops an identifier-shaped secret (tokens are long) from passing.
_CODE = re.compile(r"^[A-Za-z][A-Za-z0-9_.:\-]{0,63}$")
# Long runs of hex/base64-like characters are ids or secrets, not codes.
_SECRETISH = re.compile(r"[A-Za-z0-9+/=_\-]{33,}")
OTHER = "other"


def code(value: object) -> str:
    """``value`` as a label value if it looks like a code, else ``"other"``."""
    text = str(value) if value is not None else ""
    if not text:
        return "none"
    if not _CODE.match(text) or _SECRETISH.search(text):
        return OTHER
    return text


# --- families --------------------------------------------------------------------------

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0)

RECALL_STAGE_SECONDS = Histogram(
    "engram_recall_stage_seconds",
    "Recall latency by pipeline stage (embed runs beside scope and routes; total is the "
    "whole call).",
    ["stage"],
    buckets=LATENCY_BUCKETS,
)
RECALL_RESULTS = Counter(
    "engram_recall_results_total",
    "Recall requests by result: answered, or empty with its reason "
    "(no_relevant_memory is an abstention).",
    ["result", "empty_reason"],
)
RECALL_ITEMS = Histogram(
    "engram_recall_items_returned",
    "Items returned per recall.",
    buckets=(0, 1, 2, 3, 5, 8, 10, 20, 50),
)
RECALL_VECTOR_UNAVAILABLE = Counter(
    "engram_recall_vector_unavailable_total",
    "Recalls answered without the vector route because the embedder failed.",
)
WRITE_DECISIONS = Counter(
    "engram_write_decisions_total",
    "Write-policy decisions applied, by operation and reason code.",
    ["operation", "reason"],
)
DELETION_REQUESTS = Counter(
    "engram_deletion_requests_total",
    "Deletion requests run to completion, by scope and verification outcome "
    "(done: nothing found afterwards; failed: the verifier still found something).",
    ["scope", "status"],
)
TASK_RUNS = Counter(
    "engram_task_runs_total",
    "Celery task executions by task and state (SUCCESS, FAILURE, RETRY).",
    ["task", "state"],
)
TASK_RETRIES = Counter("engram_task_retries_total", "Celery task retries by task.", ["task"])
TASK_SECONDS = Histogram(
    "engram_task_seconds",
    "Celery task run time by task.",
    ["task"],
    buckets=(0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 30.0, 120.0, 600.0),
)
RATE_LIMITED = Counter(
    "engram_rate_limited_total",
    "Requests refused by a rate limit (HTTP 429), by throttle scope.",
    ["scope"],
)
HTTP_REQUESTS = Counter(
    "engram_http_requests_total",
    "HTTP requests by route name (never the path), method and status class.",
    ["route", "method", "status"],
)
HTTP_SECONDS = Histogram(
    "engram_http_request_seconds",
    "HTTP request latency by route name.",
    ["route"],
    buckets=LATENCY_BUCKETS,
)
RECALL_FEEDBACK_ITEMS = Counter(
    "engram_recall_feedback_items_total",
    "Items of recalls an agent reported on, by outcome (used or unused): the utility rate "
    "is used / (used + unused).",
    ["outcome"],
)
POLICY_MODEL_CONSULTATIONS = Counter(
    "engram_policy_model_consultations_total",
    "Write candidates the optional policy model was asked about (only when the local "
    "detectors were unsure), by outcome: ok, timeout, error, malformed.",
    ["outcome"],
)
REPLICA_READS = Counter(
    "engram_replica_reads_total",
    "Read blocks by the database they went to (replica or primary) and why.",
    ["target", "reason"],
)


def observe_write_decisions(decisions: Iterable[tuple[str, str]]) -> None:
    """Count applied write-policy decisions: ``(operation, reason_code)`` pairs."""
    for operation, reason in decisions:
        WRITE_DECISIONS.labels(code(operation), code(reason)).inc()


def observe_deletion(scope: str, status: str) -> None:
    DELETION_REQUESTS.labels(code(scope), code(status)).inc()


def observe_recall_feedback(*, used: int, unused: int) -> None:
    RECALL_FEEDBACK_ITEMS.labels("used").inc(used)
    RECALL_FEEDBACK_ITEMS.labels("unused").inc(unused)


def observe_policy_model(outcome: str) -> None:
    POLICY_MODEL_CONSULTATIONS.labels(code(outcome)).inc()


def observe_rate_limited(scope: str) -> None:
    RATE_LIMITED.labels(code(scope)).inc()


# --- recall stages ---------------------------------------------------------------------

RECALL_STAGES = ("embed", "scope", "routes", "rank", "pack", "trace")


@dataclass
class RecallClock:
    started: float = field(default_factory=time.perf_counter)
    stages: dict[str, float] = field(default_factory=dict)


_recall_clock: ContextVar[RecallClock | None] = ContextVar("engram_recall_clock", default=None)


@contextmanager
def recall_stage(stage: str) -> Iterator[None]:
    """Time one stage of a recall (``RECALL_STAGES``) and trace it as a span. Inside an API
    recall the time is added to that request's stage total (a stage may run several
    times); elsewhere — the question's embedding on its pool thread, a recall outside the
    API — it is observed on its own."""
    start = time.perf_counter()
    try:
        with traces.span(f"recall.{stage}"):
            yield
    finally:
        elapsed = time.perf_counter() - start
        clock = _recall_clock.get()
        if clock is None:
            RECALL_STAGE_SECONDS.labels(stage).observe(elapsed)
        else:
            clock.stages[stage] = clock.stages.get(stage, 0.0) + elapsed


def recall_started() -> RecallClock:
    clock = RecallClock()
    _recall_clock.set(clock)
    return clock


def recall_finished(clock: RecallClock, result: Any) -> None:
    """Observe one recall: its stage times, total, and result (duck-typed RecallResult)."""
    _recall_clock.set(None)
    RECALL_STAGE_SECONDS.labels("total").observe(time.perf_counter() - clock.started)
    for stage, seconds in clock.stages.items():
        RECALL_STAGE_SECONDS.labels(stage).observe(seconds)
    items = len(getattr(result, "items", ()) or ())
    reason = getattr(result, "empty_reason", "") or ""
    RECALL_RESULTS.labels("answered" if items else "empty", code(reason)).inc()
    RECALL_ITEMS.observe(items)
    if getattr(result, "vector_unavailable", False):
        RECALL_VECTOR_UNAVAILABLE.inc()


# --- scraping --------------------------------------------------------------------------


def multiprocess_dir() -> str:
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")


def registry_for_scrape() -> CollectorRegistry:
    """The registry a scrape reads: this process's own, or, with
    ``PROMETHEUS_MULTIPROC_DIR`` set, every process's files summed."""
    if multiprocess_dir():
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        return registry
    return DEFAULT_REGISTRY


def mark_process_dead(pid: int) -> None:
    """gunicorn ``child_exit``: drop a dead worker's live gauges."""
    if multiprocess_dir():
        multiprocess.mark_process_dead(pid)
