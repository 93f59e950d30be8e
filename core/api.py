"""One error shape for the whole API: ``{"code", "message", "extra"}``.

Every failure a client can cause maps to a 4xx with a stable machine-readable ``code`` and
a sentence that says what to do next. Unexpected exceptions still become 500s (and are
logged with the request path only, never the body).
"""

from __future__ import annotations

import logging
import sys
from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig, ValidationError
from django.http import Http404, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

logger = logging.getLogger(__name__)


class ApiError(exceptions.APIException):
    """Raise from services/views for a client error with a specific code."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "bad_request"
    default_detail = "The request could not be processed."

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status_code: int = 400,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.code = code
        self.extra = extra or {}


class PayloadTooLarge(ApiError):
    def __init__(self, message: str, extra: dict[str, Any] | None = None) -> None:
        super().__init__("payload_too_large", message, status_code=413, extra=extra)


def error_body(code: str, message: str, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"code": code, "message": message, "extra": extra or {}}


_CODES: dict[type[Exception], tuple[str, str]] = {
    exceptions.ParseError: (
        "malformed_json",
        "The request body is not valid JSON. Send a JSON object with Content-Type: application/json.",
    ),
    exceptions.UnsupportedMediaType: (
        "unsupported_media_type",
        "Send the body as JSON with Content-Type: application/json.",
    ),
    exceptions.NotAuthenticated: (
        "not_authenticated",
        "Send an API key as 'Authorization: Bearer egk_…'. Ask your tenant admin for one.",
    ),
    exceptions.AuthenticationFailed: (
        "authentication_failed",
        "The credentials were not accepted.",
    ),
    exceptions.PermissionDenied: (
        "permission_denied",
        "This key may not do that. Use a key with the needed scope.",
    ),
    exceptions.NotFound: ("not_found", "No such resource (or it is not yours to see)."),
    exceptions.MethodNotAllowed: ("method_not_allowed", "That HTTP method is not allowed here."),
    exceptions.NotAcceptable: ("not_acceptable", "This API only returns JSON."),
    exceptions.Throttled: ("rate_limited", "Too many requests. Wait and retry."),
}


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge(
            "The request body is too large. Split it into smaller batches.",
        )
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, ValidationError):
        exc = exceptions.ValidationError(
            detail=exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        )

    response = drf_exception_handler(exc, context)
    if response is None:
        return None

    if isinstance(exc, ApiError):
        body = error_body(exc.code, str(exc.detail), exc.extra)
    elif isinstance(exc, exceptions.ValidationError):
        body = error_body(
            "invalid_input",
            "Some fields are invalid; see extra.fields for what to fix.",
            {"fields": exc.detail},
        )
    else:
        code, message = _CODES.get(type(exc), ("error", str(getattr(exc, "detail", exc))))
        extra: dict[str, Any] = {}
        if isinstance(exc, exceptions.AuthenticationFailed) and getattr(exc, "detail", None):
            detail_code = getattr(exc.detail, "code", None)
            if detail_code and detail_code != "authentication_failed":
                code = detail_code
            message = str(exc.detail)
        if isinstance(exc, exceptions.Throttled) and exc.wait is not None:
            extra["retry_after_seconds"] = int(exc.wait)
        body = error_body(code, message, extra)
    response.data = body
    return response


def json_404(request, exception=None):
    """JSON 404s under /api/, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            error_body("not_found", "No such URL. See /api/v1/schema for the API."), status=404
        )
    return defaults.page_not_found(request, exception)


RETRY_AFTER_SECONDS = 5


def database_unavailable(request, exc: BaseException | None = None):
    """503 with a retry hint for a request whose database is not there (a crashed backend,
    a restart, a failover, the embedded server being started again): the client did
    nothing wrong. The hint is the embedded server's supervisor's next start attempt when
    it knows one, else a few seconds."""
    from core.database import retry_after_seconds

    seconds = retry_after_seconds(exc) or RETRY_AFTER_SECONDS
    wants_json = request.path.startswith("/api/") or request.path == "/healthz"
    if wants_json or "application/json" in request.headers.get("Accept", ""):
        response = JsonResponse(
            error_body(
                "database_unavailable",
                f"The database is not answering (it restarted, is being started again, failed "
                f"over, or the connection was lost). Retry the same request in {seconds} "
                "seconds; GET /healthz says whether it is back and, if it cannot start, why.",
                {"retry_after_seconds": seconds},
            ),
            status=503,
        )
    else:
        from django.template.loader import render_to_string

        response = HttpResponse(
            render_to_string("503.html", {"retry_after_seconds": seconds}),
            status=503,
        )
    response["Retry-After"] = str(seconds)
    return response


def json_500(request):
    # Django calls this handler while the exception is being handled, from a view or any
    # middleware: a lost database is a 503 with a retry hint, not a 500.
    from core.database import is_unavailable

    exc = sys.exc_info()[1]
    if exc is not None and is_unavailable(exc):
        return database_unavailable(request, exc)
    if request.path.startswith("/api/"):
        return JsonResponse(
            error_body(
                "server_error", "Something went wrong on our side; it has been logged. Retry later."
            ),
            status=500,
        )
    return defaults.server_error(request)
