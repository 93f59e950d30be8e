"""Fixtures of the operations tests: scraping /metrics, in-memory tracing (the metric
helpers: tests/helpers/metrics.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.metrics import scrape


@pytest.fixture
def scrape_metrics():
    return scrape


_SPANS: Any = None


@pytest.fixture
def tracing():
    """Tracing on for one test, finished spans kept in memory. OpenTelemetry allows one
    global tracer provider per process, so it is installed once and switched on and off."""
    global _SPANS
    sdk = pytest.importorskip("opentelemetry.sdk.trace")
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from core.observability import traces

    if _SPANS is None:
        _SPANS = InMemorySpanExporter()
        provider = sdk.TracerProvider()
        provider.add_span_processor(SimpleSpanProcessor(_SPANS))
        assert traces.configure(provider)
    traces._ENABLED.set(True)
    _SPANS.clear()
    yield _SPANS
    traces._ENABLED.set(False)
