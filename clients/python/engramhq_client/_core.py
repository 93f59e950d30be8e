"""What the sync and async clients share, independent of the transport: the calls each
operation makes (``_Call`` and its builders), request headers, how one attempt's outcome
is classified and settled against the retry policy and circuit breaker, subject-token
caching, and the outbox bookkeeping of a subject handle. ``client.py`` and
``async_client.py`` only send the requests.
"""

from __future__ import annotations

import base64
import contextvars
import dataclasses
import hashlib
import json
import logging
import os
import random
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx

from engramhq_client import models as m
from engramhq_client._queued import FlushReport as FlushReport
from engramhq_client._queued import QueuedWrite as QueuedWrite
from engramhq_client._queued import _replay_counts_as_done as _replay_counts_as_done
from engramhq_client.errors import (
    EngramUnavailable,
    IdempotencyConflict,
    InvalidInput,
    RateLimited,
    api_error,
)
from engramhq_client.outbox import Outbox
from engramhq_client.resilience import CircuitBreaker, RetryPolicy, Timeouts

logger = logging.getLogger("engramhq_client")


T = TypeVar("T")


SUBJECT_HEADER = "X-Engram-Subject-Token"


IDEMPOTENCY_HEADER = "Idempotency-Key"


# Refresh a subject token this long before it expires.
TOKEN_REFRESH_MARGIN_SECONDS = 60


@dataclass(frozen=True)
class _Call:
    """One API operation, independent of sync/async transport."""

    op: str  # a name for logs and the outbox ("candidates_submit")
    method: str
    path: str
    body: Any = None
    params: dict[str, Any] | None = None
    idempotent: bool = False  # safe to resend after an ambiguous failure
    subject: bool = True  # needs the subject token
    # Sent as the Idempotency-Key header; also the outbox key, so a replay of a write whose
    # answer was lost is answered from Engram's stored response and applies nothing.
    idempotency_key: str | None = None
    # Which deadline applies (Timeouts.for_kind): "recall", "read", "write" or "bulk".
    kind: str = "read"


# The deadline of the call in progress (a monotonic instant), shared by what that call
# does on the way — a subject handle's token request, an outbox flush before a write —
# so the caller waits at most one deadline in all. A ContextVar: per thread and per task.
_deadline: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "engramhq_deadline", default=None
)


# Operations whose replay carries the outbox key as Idempotency-Key.
KEYED_OPS = frozenset({"candidates_submit", "conversation_turn", "memory_slots_write"})


def _as_json(item: Any) -> Any:
    return item.to_json() if isinstance(item, m._Model) else item


def _subject_key_from_token(token: str) -> str:
    """The subject id inside a Django-signed token (its payload is base64 JSON, signed not
    encrypted), so the outbox groups writes by subject across token refreshes."""
    try:
        payload = token.split(":")[0]
        data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
        return f"subject:{data['s']}"
    except Exception:
        return "token:" + hashlib.sha256(token.encode()).hexdigest()[:24]


def _outbox(outbox: Any) -> Outbox | None:
    """``outbox=``: an Outbox, a path (``~`` expanded), True for the default file
    (``~/.engramhq/outbox.sqlite``), or None/False for none."""
    if outbox is None or outbox is False:
        return None
    if outbox is True:
        return Outbox()
    return outbox if isinstance(outbox, Outbox) else Outbox(outbox)


class _Base:
    """Configuration and the parts of a request that do not depend on sync/async."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        admin_api_key: str | None = None,
        timeouts: Timeouts | None = None,
        retry: RetryPolicy | None = None,
        breaker: CircuitBreaker | None = None,
        outbox: Outbox | str | os.PathLike[str] | bool | None = None,
        user_agent: str = "engramhq-client-python/0.2",
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.admin_api_key = admin_api_key
        self.timeouts = timeouts or Timeouts()
        self.retry = retry or RetryPolicy()
        self.breaker = breaker or CircuitBreaker()
        self.outbox = _outbox(outbox)
        self._user_agent = user_agent
        self._rng = rng or random.Random()
        self._clock = clock

    def _httpx_timeout(self) -> httpx.Timeout:
        # Each request gets its own timeout from what is left of its call's deadline
        # (_attempt_timeout); this is only the client's default.
        t = self.timeouts
        return httpx.Timeout(connect=t.connect, read=t.read, write=t.read, pool=t.pool)

    def _deadline_for(self, call: _Call) -> float:
        """When ``call`` must be done: its own deadline, or the enclosing call's if sooner."""
        own = self._clock() + self.timeouts.for_kind(call.kind)
        outer = _deadline.get()
        return own if outer is None else min(own, outer)

    @contextmanager
    def _within(self, kind: str) -> Iterator[None]:
        """Run the block under one deadline of ``kind`` (or the enclosing one if sooner)."""
        own = self._clock() + self.timeouts.for_kind(kind)
        outer = _deadline.get()
        token = _deadline.set(own if outer is None else min(own, outer))
        try:
            yield
        finally:
            _deadline.reset(token)

    def _attempt_timeout(self, deadline: float) -> httpx.Timeout | None:
        """One attempt's timeouts: a short connect, the rest of the deadline to read."""
        remaining = deadline - self._clock()
        if remaining <= 0:
            return None
        t = self.timeouts
        return httpx.Timeout(
            connect=min(t.connect, remaining),
            read=remaining,
            write=remaining,
            pool=min(t.pool, remaining),
        )

    def _headers(
        self, subject_token: str | None, *, api_key: str | None = None, call: _Call | None = None
    ) -> dict[str, str]:
        headers = {
            "Authorization": f"Bearer {api_key or self.api_key}",
            "User-Agent": self._user_agent,
            "X-Request-ID": uuid.uuid4().hex,
        }
        if subject_token:
            headers[SUBJECT_HEADER] = subject_token
        if call is not None and call.idempotency_key:
            headers[IDEMPOTENCY_HEADER] = call.idempotency_key
        return headers

    @staticmethod
    def _body(response: httpx.Response) -> Any:
        try:
            return response.json()
        except ValueError:
            return None

    def _outcome(
        self, call: _Call, response: httpx.Response | None, exc: Exception | None, attempt: int
    ) -> tuple[str, Any, float | None]:
        """Classify one attempt: ("ok", body, _), ("raise", error, _) or ("retry", reason,
        retry_after) — a retry that the policy may still turn into EngramUnavailable."""
        if exc is not None:
            # Connect failures never reached the server: always safe to resend.
            if isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout | httpx.PoolTimeout):
                reason = "timeout" if isinstance(exc, httpx.TimeoutException) else "connect_error"
                return "retry", reason, None
            reason = "timeout" if isinstance(exc, httpx.TimeoutException) else "connection_lost"
            if call.idempotent:
                return "retry", reason, None
            return "raise", EngramUnavailable(reason, "outcome unknown"), None
        assert response is not None
        status = response.status_code
        if status < 400:
            return "ok", self._body(response), None
        err = api_error(status, self._body(response))
        if isinstance(err, RateLimited):
            return "retry", "rate_limited", err.retry_after_seconds
        if status == 503 or (status in (502, 504) and call.idempotent):
            return "retry", "server_unavailable", None
        return "raise", err, None

    def _admit(self) -> None:
        """Refuse before sending while the circuit is open."""
        if not self.breaker.allow():
            raise EngramUnavailable("circuit_open")

    def _request_args(
        self,
        call: _Call,
        subject_token: str | None,
        api_key: str | None,
        timeout: httpx.Timeout,
    ) -> dict[str, Any]:
        """The arguments of one attempt (a fresh X-Request-ID each time)."""
        return {
            "method": call.method,
            "url": call.path,
            "json": call.body,
            "params": call.params,
            "headers": self._headers(subject_token, api_key=api_key, call=call),
            "timeout": timeout,
        }

    def _next_attempt(self, deadline: float, last_reason: str | None) -> httpx.Timeout:
        """Admit one more attempt: the circuit is closed and time is left."""
        self._admit()
        timeout = self._attempt_timeout(deadline)
        if timeout is None:
            raise EngramUnavailable(
                last_reason or "deadline_exceeded", "the call's deadline passed"
            )
        return timeout

    def _settle(
        self,
        call: _Call,
        response: httpx.Response | None,
        exc: Exception | None,
        attempt: int,
        started: float,
        deadline: float,
    ) -> tuple[bool, Any]:
        """Log one attempt and feed the breaker. ``(True, body)`` when done, ``(False,
        (delay, reason))`` to sleep and try again; raises the API error, or
        EngramUnavailable when the retry policy or the deadline gives up."""
        kind, value, retry_after = self._outcome(call, response, exc, attempt)
        self._log(call, response.status_code if response is not None else kind, attempt, started)
        if kind == "ok":
            self.breaker.record_success()
            return True, value
        if kind == "raise":
            if isinstance(value, EngramUnavailable):
                self.breaker.record_failure()
            else:
                self.breaker.record_success()  # Engram answered: it is up
            raise value
        if value != "rate_limited":
            self.breaker.record_failure()
        remaining = deadline - self._clock()
        delay = self.retry.delay(attempt, retry_after, self._rng, remaining)
        if delay is None:
            raise EngramUnavailable(str(value))
        return False, (delay, str(value))

    def _log(self, call: _Call, status: int | str, attempt: int, started: float) -> None:
        logger.debug(
            "engram %s %s -> %s (attempt %d, %.1f ms)",
            call.op,
            call.method,
            status,
            attempt,
            (time.perf_counter() - started) * 1000,
        )


class _TokenCache:
    """Subject tokens from ``POST /subject-tokens`` (admin key), refreshed before expiry."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tokens: dict[tuple[str, str], tuple[str, float]] = {}

    def get(self, kind: str, external_id: str) -> str | None:
        with self._lock:
            hit = self._tokens.get((kind, external_id))
        if hit and hit[1] > time.monotonic():
            return hit[0]
        return None

    def put(self, kind: str, external_id: str, token: str, expires_in: int) -> None:
        valid_for = max(1.0, expires_in - TOKEN_REFRESH_MARGIN_SECONDS)
        with self._lock:
            self._tokens[(kind, external_id)] = (token, time.monotonic() + valid_for)

    def drop(self, kind: str, external_id: str) -> None:
        with self._lock:
            self._tokens.pop((kind, external_id), None)


def _events_call(events: list[m.Event | dict[str, Any]]) -> _Call:
    # Idempotent by client_event_id: a resend after a lost answer stores nothing twice.
    body = {"events": [_as_json(e) for e in events]}
    return _Call("events_append", "POST", "/api/v1/events", body, idempotent=True, kind="write")


def _candidates_call(
    candidates: list[m.Candidate | dict[str, Any]], key: str | None = None
) -> _Call:
    # The Idempotency-Key is made before the first attempt and kept by the outbox: if
    # Engram applied the batch but the answer was lost, the replay writes nothing.
    body = {"candidates": [_as_json(c) for c in candidates]}
    return _Call(
        "candidates_submit",
        "POST",
        "/api/v1/candidates",
        body,
        idempotency_key=key or uuid.uuid4().hex,
        kind="write",
    )


def _message_json(message: m.Message | dict[str, Any]) -> dict[str, Any]:
    data = dict(_as_json(message))
    # The id is made now, before the first attempt, and travels in the outbox with the
    # message: a resend after a lost answer stores nothing twice.
    if not data.get("client_event_id"):
        data["client_event_id"] = uuid.uuid4().hex
    return {k: v for k, v in data.items() if v is not None}


def _conversation_call(
    messages: list[m.Message | dict[str, Any]],
    thread_id: str | None,
    candidates: list[m.Candidate | dict[str, Any]] | None = None,
) -> _Call:
    body: dict[str, Any] = {"messages": [_message_json(x) for x in messages]}
    if thread_id:
        body["thread_id"] = thread_id
    if candidates is not None:
        body["candidates"] = [_as_json(c) for c in candidates]
    return _Call(
        "conversation_turn",
        "POST",
        "/api/v1/conversation",
        body,
        idempotency_key=uuid.uuid4().hex,
        kind="write",
    )


def _slots_write_call(writes: list[m.SlotWrite | dict[str, Any]]) -> _Call:
    body = {"writes": [_as_json(w) for w in writes]}
    return _Call(
        "memory_slots_write",
        "PUT",
        "/api/v1/memories/by-slot",
        body,
        idempotency_key=uuid.uuid4().hex,
        kind="write",
    )


def _slots_lookup_call(slots: list[tuple[str, str]], refresh_ttl_seconds: int | None) -> _Call:
    request = m.SlotLookupRequest(
        [m.SlotRef(ns, p) for ns, p in slots], refresh_ttl_seconds=refresh_ttl_seconds
    )
    return _Call(
        "memory_slots_lookup",
        "POST",
        "/api/v1/memories/by-slot/lookup",
        request.to_json(),
        # A lookup that refreshes time-to-live writes the same expiry again: safe to resend.
        idempotent=True,
    )


def _replay_call(entry: Any) -> _Call:
    """The call an outbox entry stands for (keyed operations carry their key again)."""
    key = entry.key if entry.op in KEYED_OPS else None
    return _Call(entry.op, entry.method, entry.path, entry.body, idempotency_key=key, kind="write")


_RECALL_FIELDS = frozenset(f.name for f in dataclasses.fields(m.RecallRequest))


def _recall_call(query: str, purpose: str, options: dict[str, Any]) -> _Call:
    # Options this client does not know yet (a newer server's, e.g. ``route``) are sent
    # as they are; Engram refuses unknown fields by name (400 invalid_input).
    known = {k: v for k, v in options.items() if k in _RECALL_FIELDS}
    body = m.RecallRequest(query=query, purpose=purpose, **known).to_json()
    body.update({k: v for k, v in options.items() if k not in _RECALL_FIELDS})
    return _Call("recall", "POST", "/api/v1/recall", body, idempotent=True, kind="recall")


def _list_call(filters: dict[str, Any]) -> _Call:
    params = {k: v for k, v in filters.items() if v is not None}
    return _Call("memory_list", "GET", "/api/v1/memories", params=params, idempotent=True)


def _history_call(record_id: str) -> _Call:
    return _Call("memory_history", "GET", _record_path(record_id, "/history"), idempotent=True)


def _export_call() -> _Call:
    return _Call("subject_export", "GET", "/api/v1/subject/export", idempotent=True, kind="bulk")


def _erase_call(confirm: bool) -> _Call:
    body = m.SubjectEraseRequest(confirm=confirm).to_json()
    return _Call(
        "subject_erase", "POST", "/api/v1/subject/erase", body, idempotent=True, kind="bulk"
    )


def _uuid(value: Any, field: str) -> uuid.UUID:
    """An id argument, checked before anything is sent: a malformed one is the same
    InvalidInput (400, ``invalid_input``, ``extra["fields"]``) Engram would answer."""
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise InvalidInput(
            400,
            "invalid_input",
            "Some fields are invalid; see extra.fields for what to fix.",
            {"fields": {field: [f"{value!r} is not a UUID (ids come from Engram's answers)."]}},
        ) from None


def _record_path(record_id: str, suffix: str = "") -> str:
    return f"/api/v1/memories/{_uuid(record_id, 'record_id')}{suffix}"


def _parse_write(op: str, body: Any) -> Any:
    if op == "events_append":
        result = m.EventBatchResult.from_json(body)
        _raise_event_conflicts(result.results, result)
        return result
    if op in ("candidates_submit", "memory_slots_write"):
        return m.CandidateBatchResult.from_json(body)
    if op == "conversation_turn":
        result = m.ConversationResult.from_json(body)
        _raise_event_conflicts(result.events, result)
        return result
    return m.CandidateResult.from_json(body)


def _raise_event_conflicts(results: list[m.EventResult], batch: Any) -> None:
    """A client_event_id already stored with other content is an error to fix, not a
    quiet per-item note (servers that answer it inside a 200 included)."""
    conflicts = [
        r.client_event_id
        for r in results
        if r.error and r.error.get("code") == "idempotency_conflict"
    ]
    if conflicts:
        err = IdempotencyConflict(
            409,
            "idempotency_conflict",
            "An event with this client_event_id was already stored with different content; "
            "use a new client_event_id for new content.",
            {"client_event_ids": conflicts},
        )
        err.result = batch  # type: ignore[attr-defined]  # what the rest of the batch did
        raise err


def _subject_token_call(external_id: str, subject_kind: str) -> _Call:
    body = m.SubjectTokenRequest(external_id=external_id, subject_kind=subject_kind)
    return _Call(
        "subject_token_issue",
        "POST",
        "/api/v1/subject-tokens",
        body.to_json(),
        subject=False,
        idempotent=True,  # a second token for the same subject is as good as the first
    )


def _procedure_call(slug: str) -> _Call:
    return _Call(
        "procedure_retrieve",
        "GET",
        f"/api/v1/procedures/{slug}",
        idempotent=True,
        subject=False,
    )


def _change_request_create_call(
    slug: str,
    proposed_text: str,
    base_version: int,
    rationale: str | None,
    source: str | None,
    source_uri: str | None,
) -> _Call:
    body = m.ChangeRequestInput(proposed_text, base_version, rationale, source, source_uri)
    return _Call(
        "procedure_change_request_create",
        "POST",
        f"/api/v1/procedures/{slug}/change-requests",
        body.to_json(),
        subject=False,
        kind="write",
    )


def _change_request_call(slug: str, change_request_id: str) -> _Call:
    return _Call(
        "procedure_change_request_retrieve",
        "GET",
        f"/api/v1/procedures/{slug}/change-requests/{uuid.UUID(str(change_request_id))}",
        idempotent=True,
        subject=False,
    )


def _supersede_call(record_id: str, request: m.SupersedeRequest) -> _Call:
    path = _record_path(record_id, "/supersede")
    return _Call("memory_supersede", "POST", path, request.to_json(), kind="write")


def _retract_call(record_id: str, request: m.RetractRequest) -> _Call:
    path = _record_path(record_id, "/retract")
    return _Call("memory_retract", "POST", path, request.to_json(), kind="write")


def _delete_call(record_id: str, assertion_kind: str | None) -> _Call:
    body = m.DeleteRequest(assertion_kind).to_json() or None
    return _Call("memory_delete", "DELETE", _record_path(record_id), body, kind="write")


def _feedback_call(trace_id: str, used_record_ids: list[str], helpful: bool | None) -> _Call:
    body = m.RecallFeedback(used_record_ids=[str(i) for i in used_record_ids], helpful=helpful)
    path = f"/api/v1/recall/{_uuid(trace_id, 'trace_id')}/feedback"
    return _Call("recall_feedback", "POST", path, body.to_json(), idempotent=True, kind="write")


def _get_memory_call(record_id: str) -> _Call:
    return _Call("memory_retrieve", "GET", _record_path(record_id), idempotent=True)
