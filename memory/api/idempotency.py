"""The ``Idempotency-Key`` header for write endpoints other than ``/candidates`` (which
handles it in its view): a retry with the same key and body is answered from the stored
first answer and writes nothing (``memory.services.idempotency``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from core.actor import Actor
from core.api import ApiError
from memory.models import Subject
from memory.services.idempotency import (
    IdempotencyKeyReused,
    idempotency_key_valid,
    idempotent_call,
    request_sha256,
)


def idempotency_key(request: Request) -> str | None:
    """The request's key, checked before anything else is done (None: no header)."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not idempotency_key_valid(key):
        raise ApiError(
            "invalid_idempotency_key",
            "Idempotency-Key must be 1 to 200 printable ASCII characters.",
            extra={"max_length": 200},
        )
    return key


def idempotent_response(
    request: Request,
    *,
    actor: Actor,
    subject: Subject,
    key: str | None,
    apply: Callable[[], tuple[int, dict[str, Any]]],
) -> Response:
    if key is None:
        code, body = apply()
        return Response(body, status=code)
    try:
        result = idempotent_call(
            actor=actor,
            agent_id=request.user.agent.id,
            subject_id=subject.id,
            key=key,
            body_sha256=request_sha256(request.data),
            apply=apply,
        )
    except IdempotencyKeyReused:
        raise ApiError(
            "idempotency_key_reused",
            "This Idempotency-Key was already used with a different request body; "
            "use a new key for a new request.",
            status_code=status.HTTP_422_UNPROCESSABLE_ENTITY,
        ) from None
    response = Response(result.body, status=result.status)
    if result.replayed:
        response["Idempotent-Replayed"] = "true"
    return response
