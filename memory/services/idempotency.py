"""Server-side idempotency for ``POST /api/v1/candidates`` (the ``Idempotency-Key`` header).

The first successful answer for a key is stored in ``IdempotencyKey``, scoped by tenant,
agent and subject. A replay with the same key and the same body gets that answer back and
writes nothing (no record, no CONFIRM, no audit row); the same key with another body is
refused. The row is inserted *before* the write, in the write's transaction, so it is also
the lock: a second request with the key waits on the unique index until the first commits
(then replays) or rolls back (then applies itself). Rows older than
``ENGRAM_IDEMPOTENCY_TTL_HOURS`` are ignored and taken over by the next use of the key.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone

from core.actor import Actor
from memory.models import IdempotencyKey

logger = logging.getLogger(__name__)

KEY_PATTERN = re.compile(r"[\x20-\x7e]{1,200}")


class IdempotencyKeyReused(Exception):
    """The key was already used with a different request body."""


@dataclass(frozen=True)
class IdempotentResponse:
    status: int
    body: dict[str, Any]
    replayed: bool


def idempotency_key_valid(key: str) -> bool:
    return bool(KEY_PATTERN.fullmatch(key))


def request_sha256(data: Any) -> str:
    """A hash of the request body as canonical JSON (key order and spacing do not matter)."""
    canonical = json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, cls=DjangoJSONEncoder
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def ttl() -> timedelta:
    return timedelta(hours=settings.ENGRAM["IDEMPOTENCY_TTL_HOURS"])


_CLAIM_SQL = f"""
    INSERT INTO {IdempotencyKey._meta.db_table}
        (tenant_id, agent_id, subject_id, key, request_sha256, response_status,
         response_body, created_at)
    VALUES (%s, %s, %s, %s, %s, 0, 'null'::jsonb, %s)
    ON CONFLICT (tenant_id, agent_id, subject_id, key) DO UPDATE
        SET request_sha256 = EXCLUDED.request_sha256, response_status = 0,
            response_body = 'null'::jsonb, created_at = EXCLUDED.created_at
        WHERE {IdempotencyKey._meta.db_table}.created_at < %s
    RETURNING id
"""


def idempotent_call(
    *,
    actor: Actor,
    agent_id: uuid.UUID,
    subject_id: uuid.UUID,
    key: str,
    body_sha256: str,
    apply: Callable[[], tuple[int, dict[str, Any]]],
) -> IdempotentResponse:
    """Run ``apply`` at most once per (tenant, agent, subject, key) within the TTL.

    ``apply`` performs the write and returns ``(status, json body)``; an exception from it
    rolls back the claim too, so a failed request can be retried with the same key.
    Raises :class:`IdempotencyKeyReused` when the key was used with another body."""
    now = timezone.now()
    scope = {
        "tenant_id": actor.tenant_id,
        "agent_id": agent_id,
        "subject_id": subject_id,
        "key": key,
    }
    with transaction.atomic():
        with connection.cursor() as cursor:
            # Waits here while another transaction holds an uncommitted claim on the key.
            cursor.execute(
                _CLAIM_SQL,
                [actor.tenant_id, agent_id, subject_id, key, body_sha256, now, now - ttl()],
            )
            claimed = cursor.fetchone()
        if claimed is None:
            stored = IdempotencyKey.objects.select_for_update().get(**scope)
            if stored.request_sha256 != body_sha256:
                logger.info("idempotency key %s reused with another body", stored.id)
                raise IdempotencyKeyReused()
            logger.info("idempotency key %s replayed", stored.id)
            return IdempotentResponse(stored.response_status, stored.response_body, True)
        status, body = apply()
        # Stored as the client saw it (UUIDs and datetimes as strings).
        body = json.loads(json.dumps(body, cls=DjangoJSONEncoder))
        IdempotencyKey.objects.filter(pk=claimed[0]).update(
            response_status=status, response_body=body
        )
    return IdempotentResponse(status, body, False)
