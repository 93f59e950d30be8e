"""A real Celery worker (subprocess, solo pool, Redis on 127.0.0.1) serves its own
/metrics on ENGRAM_WORKER_METRICS_PORT, and a task enqueued inside a traced request
continues that request's trace in the worker (through the message headers)."""

from __future__ import annotations

import http.client
import uuid

import pytest

from core.observability import traces
from memory.tasks import index_records
from tests.helpers.worker import wait_for
from tests.ops.pgcluster import free_port

pytestmark = pytest.mark.django_db(transaction=True)


def _worker_metrics(port: int) -> str:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        conn.request("GET", "/metrics")
        return conn.getresponse().read().decode()
    except OSError:
        return ""


def test_worker_metrics_and_trace_propagation(start_worker, tracing, monkeypatch, tenant):
    port = free_port()
    monkeypatch.setenv("ENGRAM_WORKER_METRICS_PORT", str(port))
    monkeypatch.setenv("ENGRAM_OTEL_ENABLED", "true")  # the worker prints its spans
    monkeypatch.setenv("OTEL_SERVICE_NAME", "engram-worker-test")
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    worker = start_worker()

    with traces.span("HTTP POST api-candidates") as web:
        index_records.delay(str(tenant.id), [str(uuid.uuid4())])
    trace_id = format(web.get_span_context().trace_id, "032x")

    line = 'engram_task_runs_total{state="SUCCESS",task="memory.index_records"} 1.0'
    wait_for(lambda: line in _worker_metrics(port), "the task counted on the worker's /metrics")
    assert "engram_task_seconds_count" in _worker_metrics(port)

    worker.stop()  # flushes the worker's batched spans to its log
    log = worker.log.read_text()
    assert "celery.run memory.index_records" in log
    assert f"0x{trace_id}" in log, "the task span continues the enqueuing trace"
