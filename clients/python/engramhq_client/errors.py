"""Exceptions carrying the API's one error shape, ``{"code", "message", "extra"}``.

Every 4xx/5xx answer from Engram becomes an :class:`EngramAPIError` subclass chosen by the
HTTP status; ``code`` is the API's stable machine-readable code (``invalid_input``,
``subject_required``, ``rate_limited``, ...). Failures to reach Engram at all are
:class:`EngramUnavailable`.
"""

from __future__ import annotations

from typing import Any


class EngramError(Exception):
    """Base class of everything this package raises on purpose."""


class EngramAPIError(EngramError):
    """Engram answered with an error. ``code``/``message``/``extra`` are the API's."""

    def __init__(
        self, status_code: int, code: str, message: str, extra: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status_code} {code}: {message}")
        self.status_code = status_code
        self.code = code
        self.message = message
        self.extra = extra or {}


class InvalidInput(EngramAPIError):
    """400: the request was malformed; ``extra["fields"]`` says what to fix."""


class AuthenticationFailed(EngramAPIError):
    """401: missing, invalid, revoked or expired API key or subject token."""


class PermissionDenied(EngramAPIError):
    """403: the key lacks the scope (read-only key writing), or no subject token was sent."""


class NotFound(EngramAPIError):
    """404: no such resource for this tenant and subject."""


class Conflict(EngramAPIError):
    """409: e.g. a procedure change request based on an outdated version."""


class IdempotencyConflict(Conflict):
    """An id you gave was already used for something else: a ``client_event_id`` stored
    with a different message (``idempotency_conflict``), or an ``Idempotency-Key`` sent
    with a different body (``idempotency_key_reused``). Use a new id for new content.
    ``extra`` names the ids."""


class PayloadTooLarge(EngramAPIError):
    """413: split the batch."""


class HeadersTooLarge(EngramAPIError):
    """431: a header (or all together) is too large; a subject token or key is malformed."""


class RateLimited(EngramAPIError):
    """429: ``retry_after_seconds`` says how long to wait."""

    @property
    def retry_after_seconds(self) -> float | None:
        value = self.extra.get("retry_after_seconds")
        return float(value) if value is not None else None


class ServerError(EngramAPIError):
    """5xx: Engram failed; retried, then raised."""


class EngramUnavailable(EngramError):
    """Engram could not be reached in time (connection refused, timeout, circuit open).
    ``reason`` is a short code: ``connect_error``, ``timeout``, ``deadline_exceeded``,
    ``circuit_open``, ``server_unavailable``, ``rate_limited``, ``connection_lost``."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"Engram unavailable ({reason}){': ' + detail if detail else ''}")
        self.reason = reason
        self.detail = detail


class WriteRejected(EngramError):
    """The write policy refused a memory (``REJECT``), e.g. a secret or a transient remark.
    Raised by the LangGraph store and available to callers who want writes to be strict;
    ``reason_code`` is the policy's (``secret_detected``, ``transient_state``, ...)."""

    def __init__(self, reason_code: str, message: str, *, operation: str = "REJECT") -> None:
        super().__init__(f"Engram refused to remember this ({operation} {reason_code}): {message}")
        self.reason_code = reason_code
        self.message = message
        self.operation = operation


_BY_STATUS: dict[int, type[EngramAPIError]] = {
    400: InvalidInput,
    401: AuthenticationFailed,
    403: PermissionDenied,
    404: NotFound,
    409: Conflict,
    413: PayloadTooLarge,
    429: RateLimited,
    431: HeadersTooLarge,
}
# Codes whose meaning does not depend on the status they came with.
_BY_CODE: dict[str, type[EngramAPIError]] = {
    "idempotency_conflict": IdempotencyConflict,
    "idempotency_key_reused": IdempotencyConflict,
}


def api_error(status_code: int, body: Any) -> EngramAPIError:
    """The exception for an error response; tolerates bodies not in the standard shape (a
    proxy's HTML 502, say)."""
    if isinstance(body, dict) and "code" in body:
        code, message = str(body.get("code")), str(body.get("message", ""))
        extra = body.get("extra") if isinstance(body.get("extra"), dict) else {}
    else:
        code, message, extra = f"http_{status_code}", "Unexpected response from Engram.", {}
    cls = (
        _BY_CODE.get(code)
        or _BY_STATUS.get(status_code)
        or (ServerError if status_code >= 500 else EngramAPIError)
    )
    return cls(status_code, code, message, extra)
