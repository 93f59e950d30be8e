"""Django glue: the request middleware (request id, HTTP metrics, one log line per
request) and the guard of the ``/metrics`` endpoint."""

from __future__ import annotations

import hmac
import ipaddress
import logging
import re
import time
import uuid
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from core.observability import logs, metrics, traces

logger = logging.getLogger("engram.request")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,64}$")


class RequestObservabilityMiddleware:
    """First in MIDDLEWARE. Gives every request an id (a well-formed ``X-Request-ID``
    from the caller, else a new one; views and audit rows read the same header), counts
    it by route *name* (paths carry ids, query strings carry search text) and logs one
    line with ids, status and duration."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        given = request.META.get("HTTP_X_REQUEST_ID", "")
        request_id = given if _REQUEST_ID.match(given) else uuid.uuid4().hex
        request.META["HTTP_X_REQUEST_ID"] = request_id
        request.engram_request_id = request_id  # type: ignore[attr-defined]
        token = logs.current_request.set(request)
        logs.clear()
        try:
            with traces.http_span(request.method or "", request.headers) as finish:
                response = self.get_response(request)
                route = _route(request)
                finish(route, response.status_code)
                elapsed = time.perf_counter() - started
                metrics.HTTP_REQUESTS.labels(
                    route, request.method or "", f"{response.status_code // 100}xx"
                ).inc()
                metrics.HTTP_SECONDS.labels(route).observe(elapsed)
                response["X-Request-ID"] = request_id
                logger.info(
                    "request",
                    extra={
                        "route": route,
                        "method": request.method,
                        "status": response.status_code,
                        "duration_ms": round(elapsed * 1000, 2),
                    },
                )
                return response
        finally:
            logs.current_request.reset(token)


def _route(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    if match is None:
        return "unresolved"
    return metrics.code(match.view_name or match.url_name or "unnamed")


# --- /metrics guard ---------------------------------------------------------------------


def metrics_access_allowed(request: HttpRequest) -> bool:
    """``ENGRAM_METRICS_TOKEN`` (sent as ``Authorization: Bearer <token>``) or a client
    address inside ``ENGRAM_METRICS_ALLOW_FROM`` (CIDRs). Neither set: nobody (404)."""
    conf = settings.ENGRAM_OBSERVABILITY
    token = conf["METRICS_TOKEN"]
    if token:
        given = request.META.get("HTTP_AUTHORIZATION", "")
        if given.startswith("Bearer ") and hmac.compare_digest(
            given[7:].strip().encode(), token.encode()
        ):
            return True
    networks = conf["METRICS_ALLOW_FROM"]
    if networks:
        from core.client_address import client_address

        try:
            address = ipaddress.ip_address(client_address(request) or "")
        except ValueError:
            return False
        return any(address in ipaddress.ip_network(n, strict=False) for n in networks)
    return False
