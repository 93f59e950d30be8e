"""Optional OpenTelemetry traces. Off by default; ``ENGRAM_OTEL_ENABLED=true`` turns them on
(with the ``otel`` extra installed: ``pip install -e '.[otel]'``).

Spans, all made here with the OpenTelemetry API (no auto-instrumentation packages):
- ``HTTP <method> <route name>`` per request (``RequestObservabilityMiddleware``); a W3C
  ``traceparent`` header from the caller is continued;
- ``recall.<stage>`` for each recall stage (the stage timers in ``metrics``), and
  ``write.candidates`` around the write policy's batch;
- ``celery.run <task>`` per task, continuing the trace of the request that enqueued it:
  ``before_task_publish`` injects ``traceparent`` into the message headers and
  ``task_prerun`` extracts it;
- ``db.query`` per SQL statement, with the statement *template* only (``%s`` placeholders;
  parameters, which hold memory text, are never recorded).

Export: OTLP over HTTP when ``opentelemetry-exporter-otlp-proto-http`` is installed (its
standard ``OTEL_EXPORTER_OTLP_*`` variables apply), else spans are printed to stderr.
``OTEL_SERVICE_NAME`` names the service (default ``engram``)."""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from typing import Any

from core.process_state import Cache, Slot

logger = logging.getLogger(__name__)

try:  # the API is light and usually present; without it tracing is simply unavailable
    from opentelemetry import context as otel_context
    from opentelemetry import propagate, trace
except ImportError:  # pragma: no cover - depends on the environment
    trace = None  # type: ignore[assignment]

# Whether a tracer provider is installed (set once, at start-up).
_ENABLED: Slot[bool] = Slot("traces.enabled", pure=True, kept_in_child=True)


def enabled() -> bool:
    return bool(_ENABLED.peek())


def configure(provider: Any = None) -> bool:
    """Install a tracer provider (``provider``, for tests, or one built from the
    environment). Returns whether tracing is on."""
    if trace is None:
        return False
    if provider is None:
        if os.environ.get("ENGRAM_OTEL_ENABLED", "").lower() not in ("1", "true", "yes"):
            return False
        provider = _provider_from_environment()
        if provider is None:
            return False
    trace.set_tracer_provider(provider)
    from django.db.backends.signals import connection_created

    connection_created.connect(install_db_wrapper, weak=False)
    _ENABLED.set(True)
    return True


def _provider_from_environment() -> Any:
    try:
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter
    except ImportError:
        logger.warning("ENGRAM_OTEL_ENABLED is set but opentelemetry-sdk is not installed")
        return None
    provider = TracerProvider(
        resource=Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME", "engram")})
    )
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        exporter: Any = OTLPSpanExporter()
    except ImportError:
        exporter = ConsoleSpanExporter()
    provider.add_span_processor(BatchSpanProcessor(exporter))
    return provider


def tracer() -> Any:
    return trace.get_tracer("engram")


def traced(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: run the function inside a span named ``name`` (no-op when off)."""

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not enabled():
                return fn(*args, **kwargs)
            with tracer().start_as_current_span(name):
                return fn(*args, **kwargs)

        return wrapper

    return decorate


def span(name: str, **attributes: Any):
    """A span as a context manager, or a no-op when tracing is off."""
    if not enabled():
        return nullcontext()
    return tracer().start_as_current_span(name, attributes=attributes)


@contextmanager
def http_span(method: str, headers: Mapping[str, str]) -> Iterator[Callable[[str, int], None]]:
    """Server span for one request, continuing the caller's ``traceparent``. Yields a
    function to call with the route name and status once they are known."""
    if not enabled():
        yield lambda route, status: None
        return
    parent = propagate.extract({k.lower(): v for k, v in headers.items()})
    with tracer().start_as_current_span(
        f"HTTP {method}", context=parent, kind=trace.SpanKind.SERVER
    ) as current:

        def finish(route: str, status: int) -> None:
            current.update_name(f"HTTP {method} {route}")
            current.set_attribute("http.route", route)
            current.set_attribute("http.response.status_code", status)

        yield finish


# --- Celery: propagate the trace through the message headers ------------------------------

_task_tokens: Cache[str, tuple[Any, Any]] = Cache("traces.task_spans", max_items=10_000)


def inject_headers(headers: dict[str, Any] | None = None, **_: Any) -> None:
    """``before_task_publish``: carry the current trace to the worker."""
    if enabled() and headers is not None:
        propagate.inject(headers)


def task_started(task_id: str, name: str, request: Any) -> None:
    if not enabled():
        return
    carrier = {
        key: value
        for key in ("traceparent", "tracestate")
        if (value := _header(request, key)) is not None
    }
    parent = propagate.extract(carrier) if carrier else None
    current = tracer().start_span(
        f"celery.run {name}", context=parent, kind=trace.SpanKind.CONSUMER
    )
    token = otel_context.attach(trace.set_span_in_context(current))
    _task_tokens.put(task_id, (current, token))


def task_finished(task_id: str, state: str) -> None:
    entry = _task_tokens.pop(task_id)
    if entry is None:
        return
    current, token = entry
    current.set_attribute("celery.state", state)
    current.end()
    otel_context.detach(token)


def _header(request: Any, key: str) -> str | None:
    value = getattr(request, key, None)
    if value is None:
        value = (getattr(request, "headers", None) or {}).get(key)
    return value


# --- database ------------------------------------------------------------------------------


def db_wrapper(execute: Callable, sql: str, params: Any, many: bool, context: dict) -> Any:
    """``connection.execute_wrapper``: one span per statement; the template only."""
    if not enabled():
        return execute(sql, params, many, context)
    with tracer().start_as_current_span(
        "db.query",
        kind=trace.SpanKind.CLIENT,
        attributes={
            "db.system": "postgresql",
            "db.query.text": sql[:2000],
            "db.connection.alias": context["connection"].alias,
        },
    ):
        return execute(sql, params, many, context)


def install_db_wrapper(sender: Any = None, connection: Any = None, **_: Any) -> None:
    """``connection_created``: wrap every new connection's statements."""
    if enabled() and connection is not None and db_wrapper not in connection.execute_wrappers:
        connection.execute_wrappers.append(db_wrapper)
