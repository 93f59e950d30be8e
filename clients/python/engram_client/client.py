"""Sync and async clients for Engram's ``/api/v1``.

``EngramClient(base_url, api_key)`` holds the agent's key; ``client.for_subject(token)`` or
``client.for_user(external_id)`` gives a :class:`SubjectClient` acting for one end user
(the subject always comes from a subject token, never from a request field).

Degradation: every request runs under :class:`~engram_client.resilience.Timeouts`,
:class:`~engram_client.resilience.RetryPolicy` and one shared
:class:`~engram_client.resilience.CircuitBreaker`. When Engram cannot be reached,
``recall`` answers an empty :class:`~engram_client.models.ContextPack` with
``degraded=True`` and writes go to the :class:`~engram_client.outbox.Outbox` (a
:class:`QueuedWrite` is returned) and are sent when the service is back.

Logging (logger ``engram_client``) carries operation names, status codes, request ids and
record ids; never memory text, queries or credentials.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import random
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx

from engram_client import models as m
from engram_client.errors import (
    EngramAPIError,
    EngramUnavailable,
    NotFound,
    RateLimited,
    api_error,
)
from engram_client.outbox import Outbox
from engram_client.resilience import CircuitBreaker, RetryPolicy, Timeouts

logger = logging.getLogger("engram_client")

T = TypeVar("T")
SUBJECT_HEADER = "X-Engram-Subject-Token"
IDEMPOTENCY_HEADER = "Idempotency-Key"
# Refresh a subject token this long before it expires.
TOKEN_REFRESH_MARGIN_SECONDS = 60


@dataclass(frozen=True)
class QueuedWrite:
    """A write Engram could not take now; it is in the outbox under ``key`` and will be sent
    when the service is back (``flush_outbox()``, or automatically before the next write)."""

    key: str
    op: str
    reason: str
    queued: bool = True


@dataclass(frozen=True)
class FlushReport:
    sent: int
    failed: int
    remaining: int


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
        outbox: Outbox | str | None = None,
        user_agent: str = "engram-client-python/0.1",
        rng: random.Random | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.admin_api_key = admin_api_key
        self.timeouts = timeouts or Timeouts()
        self.retry = retry or RetryPolicy()
        self.breaker = breaker or CircuitBreaker()
        self.outbox = Outbox(outbox) if isinstance(outbox, str) else outbox
        self._user_agent = user_agent
        self._rng = rng or random.Random()

    def _httpx_timeout(self) -> httpx.Timeout:
        t = self.timeouts
        return httpx.Timeout(connect=t.connect, read=t.read, write=t.write, pool=t.pool)

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


# --- operations shared by the sync and async subject clients ---------------------------


def _events_call(events: list[m.Event | dict[str, Any]]) -> _Call:
    # Idempotent by client_event_id: a resend after a lost answer stores nothing twice.
    body = {"events": [_as_json(e) for e in events]}
    return _Call("events_append", "POST", "/api/v1/events", body, idempotent=True)


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
    )


def _replay_call(entry: Any) -> _Call:
    """The call an outbox entry stands for (candidates carry their key again)."""
    if entry.op == "candidates_submit":
        return _candidates_call(entry.body["candidates"], key=entry.key)
    return _Call(entry.op, entry.method, entry.path, entry.body, idempotent=False)


def _recall_call(request: m.RecallRequest) -> _Call:
    return _Call("recall", "POST", "/api/v1/recall", request.to_json(), idempotent=True)


def _list_call(filters: dict[str, Any]) -> _Call:
    params = {k: v for k, v in filters.items() if v is not None}
    return _Call("memory_list", "GET", "/api/v1/memories", params=params, idempotent=True)


def _erase_call(confirm: bool) -> _Call:
    body = m.SubjectEraseRequest(confirm=confirm).to_json()
    return _Call("subject_erase", "POST", "/api/v1/subject/erase", body, idempotent=True)


def _record_path(record_id: str, suffix: str = "") -> str:
    return f"/api/v1/memories/{uuid.UUID(str(record_id))}{suffix}"


def _parse_write(op: str, body: Any) -> Any:
    if op == "events_append":
        return m.EventBatchResult.from_json(body)
    if op == "candidates_submit":
        return m.CandidateBatchResult.from_json(body)
    return m.CandidateResult.from_json(body)


def _replay_counts_as_done(entry_op: str, err: EngramAPIError) -> bool:
    # A delete replayed after it had been applied finds nothing: the goal is reached.
    return entry_op == "memory_delete" and isinstance(err, NotFound)


class EngramClient(_Base):
    """Synchronous client. Thread-safe (one httpx.Client, one breaker). Use as a context
    manager or call :meth:`close`."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        transport: httpx.BaseTransport | None = None,
        sleep: Callable[[float], None] = time.sleep,
        **kwargs: Any,
    ) -> None:
        super().__init__(base_url, api_key, **kwargs)
        self._http = httpx.Client(
            base_url=self.base_url, timeout=self._httpx_timeout(), transport=transport
        )
        self._sleep = sleep
        self._tokens = _TokenCache()

    def __enter__(self) -> EngramClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    # -- transport -------------------------------------------------------------------

    def _request(
        self, call: _Call, subject_token: str | None = None, *, api_key: str | None = None
    ) -> Any:
        attempt = 0
        while True:
            if not self.breaker.allow():
                raise EngramUnavailable("circuit_open")
            attempt += 1
            started = time.perf_counter()
            response, exc = None, None
            try:
                response = self._http.request(
                    call.method,
                    call.path,
                    json=call.body,
                    params=call.params,
                    headers=self._headers(subject_token, api_key=api_key, call=call),
                )
            except httpx.TransportError as e:
                exc = e
            kind, value, retry_after = self._outcome(call, response, exc, attempt)
            self._log(
                call, response.status_code if response is not None else kind, attempt, started
            )
            if kind == "ok":
                self.breaker.record_success()
                return value
            if kind == "raise":
                if isinstance(value, EngramUnavailable):
                    self.breaker.record_failure()
                else:
                    self.breaker.record_success()  # Engram answered: it is up
                raise value
            if value != "rate_limited":
                self.breaker.record_failure()
            delay = self.retry.delay(attempt, retry_after, self._rng)
            if delay is None:
                raise EngramUnavailable(str(value))
            self._sleep(delay)

    # -- subjects -----------------------------------------------------------------------

    def issue_subject_token(self, external_id: str, subject_kind: str = "user") -> m.SubjectToken:
        """``POST /subject-tokens``; needs an admin-scoped key (``admin_api_key`` if given)."""
        body = m.SubjectTokenRequest(external_id=external_id, subject_kind=subject_kind)
        call = _Call(
            "subject_token_issue", "POST", "/api/v1/subject-tokens", body.to_json(), subject=False
        )
        data = self._request(call, api_key=self.admin_api_key)
        return m.SubjectToken.from_json(data)

    def for_subject(self, token: str | Callable[[], str]) -> SubjectClient:
        """A handle acting for the subject a token names (a string, or a callable returning
        a fresh token each time it is asked)."""
        provider = token if callable(token) else (lambda: token)
        return SubjectClient(self, provider, _subject_key_from_token(provider()))

    def for_user(self, external_id: str, subject_kind: str = "user") -> SubjectClient:
        """A handle for one end user; tokens are issued through the admin key and refreshed
        before their 15 minutes run out."""

        def provider() -> str:
            token = self._tokens.get(subject_kind, external_id)
            if token is None:
                issued = self.issue_subject_token(external_id, subject_kind)
                self._tokens.put(subject_kind, external_id, issued.token, issued.expires_in)
                token = issued.token
            return token

        def refresh() -> None:
            self._tokens.drop(subject_kind, external_id)

        return SubjectClient(self, provider, f"user:{subject_kind}:{external_id}", refresh)

    # -- procedures (tenant-wide; not subject-scoped) ------------------------------------

    def get_procedure(self, slug: str) -> m.Procedure:
        call = _Call(
            "procedure_retrieve",
            "GET",
            f"/api/v1/procedures/{slug}",
            idempotent=True,
            subject=False,
        )
        return m.Procedure.from_json(self._request(call))

    def propose_procedure_change(
        self,
        slug: str,
        proposed_text: str,
        base_version: int,
        rationale: str | None = None,
        source: str | None = None,
        source_uri: str | None = None,
    ) -> m.ChangeRequest:
        """Propose a new full text; a reviewer approves or rejects it (agents never can)."""
        body = m.ChangeRequestInput(proposed_text, base_version, rationale, source, source_uri)
        call = _Call(
            "procedure_change_request_create",
            "POST",
            f"/api/v1/procedures/{slug}/change-requests",
            body.to_json(),
            subject=False,
        )
        return m.ChangeRequest.from_json(self._request(call))

    def get_change_request(self, slug: str, change_request_id: str) -> m.ChangeRequestStatus:
        call = _Call(
            "procedure_change_request_retrieve",
            "GET",
            f"/api/v1/procedures/{slug}/change-requests/{uuid.UUID(str(change_request_id))}",
            idempotent=True,
            subject=False,
        )
        return m.ChangeRequestStatus.from_json(self._request(call))


class SubjectClient:
    """The sync client acting for one subject. Reads degrade, writes queue (see module)."""

    def __init__(
        self,
        client: EngramClient,
        token_provider: Callable[[], str],
        subject_key: str,
        on_token_rejected: Callable[[], None] | None = None,
    ) -> None:
        self.client = client
        self._token = token_provider
        self.subject_key = subject_key
        self._on_token_rejected = on_token_rejected

    # -- transport with the subject token ------------------------------------------------

    def _request(self, call: _Call, *, api_key: str | None = None) -> Any:
        try:
            return self.client._request(call, self._token(), api_key=api_key)
        except EngramAPIError as e:
            # An expired token: drop it, ask once more with a fresh one.
            if e.code == "expired_subject_token" and self._on_token_rejected is not None:
                self._on_token_rejected()
                return self.client._request(call, self._token(), api_key=api_key)
            raise

    def _write(self, call: _Call) -> Any:
        """Send a write, or queue it when Engram is unreachable. Earlier queued writes for
        this subject go first, so order is kept."""
        outbox = self.client.outbox
        if outbox is None:
            return _parse_write(call.op, self._request(call))
        if outbox.has_pending(self.subject_key) and outbox.count(self.subject_key):
            try:
                self.flush_outbox()
            except EngramUnavailable:
                pass
            if outbox.count(self.subject_key):
                key = outbox.put(
                    subject_key=self.subject_key,
                    op=call.op,
                    method=call.method,
                    path=call.path,
                    body=call.body,
                    key=call.idempotency_key,
                )
                logger.info("engram %s queued behind earlier writes (key %s)", call.op, key)
                return QueuedWrite(key, call.op, "outbox_not_empty")
        try:
            return _parse_write(call.op, self._request(call))
        except EngramUnavailable as e:
            key = outbox.put(
                subject_key=self.subject_key,
                op=call.op,
                method=call.method,
                path=call.path,
                body=call.body,
                key=call.idempotency_key,
            )
            logger.warning("engram %s queued in outbox (key %s, %s)", call.op, key, e.reason)
            return QueuedWrite(key, call.op, e.reason)

    def flush_outbox(self) -> FlushReport:
        """Send this subject's queued writes in order. Stops at the first one Engram still
        cannot take (raises EngramUnavailable); a write Engram refuses (4xx) is kept as
        failed with its error code."""
        outbox = self.client.outbox
        if outbox is None:
            return FlushReport(0, 0, 0)
        sent = failed = 0
        for entry in outbox.pending(self.subject_key):
            if not outbox.claim(entry.id):
                continue
            call = _replay_call(entry)
            try:
                self._request(call)
            except EngramUnavailable:
                outbox.release(entry.id)
                raise
            except EngramAPIError as e:
                if _replay_counts_as_done(entry.op, e):
                    outbox.done(entry.id)
                    sent += 1
                    continue
                outbox.fail(entry.id, e.code)
                logger.warning("engram outbox entry %s refused on replay: %s", entry.key, e.code)
                failed += 1
                continue
            outbox.done(entry.id)
            sent += 1
            logger.info("engram outbox entry %s sent (%s)", entry.key, entry.op)
        return FlushReport(sent, failed, outbox.count(self.subject_key))

    # -- writes --------------------------------------------------------------------------

    def append_events(
        self, events: list[m.Event | dict[str, Any]]
    ) -> m.EventBatchResult | QueuedWrite:
        return self._write(_events_call(events))

    def submit_candidates(
        self, candidates: list[m.Candidate | dict[str, Any]]
    ) -> m.CandidateBatchResult | QueuedWrite:
        return self._write(_candidates_call(candidates))

    def remember(self, candidate: m.Candidate | dict[str, Any]) -> m.CandidateResult | QueuedWrite:
        """Submit one candidate; the write policy's decision for it (or QueuedWrite)."""
        result = self.submit_candidates([candidate])
        return result if isinstance(result, QueuedWrite) else result.results[0]

    def supersede(
        self, record_id: str, request: m.SupersedeRequest
    ) -> m.CandidateResult | QueuedWrite:
        path = _record_path(record_id, "/supersede")
        return self._write(_Call("memory_supersede", "POST", path, request.to_json()))

    def retract(self, record_id: str, request: m.RetractRequest) -> m.CandidateResult | QueuedWrite:
        path = _record_path(record_id, "/retract")
        return self._write(_Call("memory_retract", "POST", path, request.to_json()))

    def delete(
        self, record_id: str, assertion_kind: str | None = None
    ) -> m.CandidateResult | QueuedWrite:
        body = m.DeleteRequest(assertion_kind).to_json() or None
        return self._write(_Call("memory_delete", "DELETE", _record_path(record_id), body))

    def erase(self, *, confirm: bool) -> m.SubjectErasure:
        """Erase everything about this subject (memories, raw events, indexes, traces):
        Engram's deletion workflow, with its receipt and verification. Needs the admin key
        (``admin_api_key``) and ``confirm=True``. Never queued: an erasure is confirmed
        while the user is there, or not at all."""
        call = _erase_call(confirm)
        return m.SubjectErasure.from_json(self._request(call, api_key=self.client.admin_api_key))

    # -- reads ---------------------------------------------------------------------------

    def recall(self, query: str, purpose: str, **options: Any) -> m.ContextPack:
        """Recall for a task. Never raises because Engram is down: an empty pack with
        ``degraded=True`` and ``degraded_reason`` comes back instead. Bad input (4xx) still
        raises: that is a bug to fix, not an outage."""
        call = _recall_call(m.RecallRequest(query=query, purpose=purpose, **options))
        try:
            pack = m.ContextPack.from_json(self._request(call))
        except EngramUnavailable as e:
            logger.warning("engram recall degraded: %s", e.reason)
            return m.ContextPack.degraded_empty(e.reason)
        if self.client.outbox is not None and self.client.outbox.has_pending(self.subject_key):
            try:
                self.flush_outbox()
            except EngramUnavailable:
                pass
        return pack

    def recall_feedback(
        self, trace_id: str, used_record_ids: list[str], helpful: bool | None = None
    ) -> m.RecallFeedbackResult:
        body = m.RecallFeedback(used_record_ids=[str(i) for i in used_record_ids], helpful=helpful)
        path = f"/api/v1/recall/{uuid.UUID(str(trace_id))}/feedback"
        call = _Call("recall_feedback", "POST", path, body.to_json(), idempotent=True)
        return m.RecallFeedbackResult.from_json(self._request(call))

    def get_memory(self, record_id: str) -> m.MemoryRecord:
        call = _Call("memory_retrieve", "GET", _record_path(record_id), idempotent=True)
        return m.MemoryRecord.from_json(self._request(call))

    def list_memories(
        self,
        *,
        memory_type: str | None = None,
        namespace: str | None = None,
        predicate: str | None = None,
        purpose: str | None = None,
        q: str | None = None,
        limit: int | None = None,
        offset: int | None = None,
    ) -> m.MemoryPage:
        call = _list_call(
            {
                "memory_type": memory_type,
                "namespace": namespace,
                "predicate": predicate,
                "purpose": purpose,
                "q": q,
                "limit": limit,
                "offset": offset,
            }
        )
        return m.MemoryPage.from_json(self._request(call))

    def iter_memories(self, **filters: Any) -> Iterator[m.MemoryRecord]:
        """Every current memory matching the filters, page by page."""
        offset: int | None = 0
        while offset is not None:
            page = self.list_memories(**filters, offset=offset)
            yield from page.results
            offset = page.next_offset


# --- async -----------------------------------------------------------------------------


class AsyncEngramClient(_Base):
    """Asynchronous twin of :class:`EngramClient` (httpx.AsyncClient). The outbox is the
    same SQLite file; its calls are short local writes."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        **kwargs: Any,
    ) -> None:
        super().__init__(base_url, api_key, **kwargs)
        self._http = httpx.AsyncClient(
            base_url=self.base_url, timeout=self._httpx_timeout(), transport=transport
        )
        self._sleep = sleep
        self._tokens = _TokenCache()

    async def __aenter__(self) -> AsyncEngramClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _request(
        self, call: _Call, subject_token: str | None = None, *, api_key: str | None = None
    ) -> Any:
        attempt = 0
        while True:
            if not self.breaker.allow():
                raise EngramUnavailable("circuit_open")
            attempt += 1
            started = time.perf_counter()
            response, exc = None, None
            try:
                response = await self._http.request(
                    call.method,
                    call.path,
                    json=call.body,
                    params=call.params,
                    headers=self._headers(subject_token, api_key=api_key, call=call),
                )
            except httpx.TransportError as e:
                exc = e
            kind, value, retry_after = self._outcome(call, response, exc, attempt)
            self._log(
                call, response.status_code if response is not None else kind, attempt, started
            )
            if kind == "ok":
                self.breaker.record_success()
                return value
            if kind == "raise":
                if isinstance(value, EngramUnavailable):
                    self.breaker.record_failure()
                else:
                    self.breaker.record_success()
                raise value
            if value != "rate_limited":
                self.breaker.record_failure()
            delay = self.retry.delay(attempt, retry_after, self._rng)
            if delay is None:
                raise EngramUnavailable(str(value))
            await self._sleep(delay)

    async def issue_subject_token(
        self, external_id: str, subject_kind: str = "user"
    ) -> m.SubjectToken:
        body = m.SubjectTokenRequest(external_id=external_id, subject_kind=subject_kind)
        call = _Call(
            "subject_token_issue", "POST", "/api/v1/subject-tokens", body.to_json(), subject=False
        )
        return m.SubjectToken.from_json(await self._request(call, api_key=self.admin_api_key))

    def for_subject(self, token: str) -> AsyncSubjectClient:
        async def provider() -> str:
            return token

        return AsyncSubjectClient(self, provider, _subject_key_from_token(token))

    def for_user(self, external_id: str, subject_kind: str = "user") -> AsyncSubjectClient:
        async def provider() -> str:
            token = self._tokens.get(subject_kind, external_id)
            if token is None:
                issued = await self.issue_subject_token(external_id, subject_kind)
                self._tokens.put(subject_kind, external_id, issued.token, issued.expires_in)
                token = issued.token
            return token

        def refresh() -> None:
            self._tokens.drop(subject_kind, external_id)

        return AsyncSubjectClient(self, provider, f"user:{subject_kind}:{external_id}", refresh)

    async def get_procedure(self, slug: str) -> m.Procedure:
        call = _Call(
            "procedure_retrieve",
            "GET",
            f"/api/v1/procedures/{slug}",
            idempotent=True,
            subject=False,
        )
        return m.Procedure.from_json(await self._request(call))

    async def propose_procedure_change(
        self,
        slug: str,
        proposed_text: str,
        base_version: int,
        rationale: str | None = None,
        source: str | None = None,
        source_uri: str | None = None,
    ) -> m.ChangeRequest:
        body = m.ChangeRequestInput(proposed_text, base_version, rationale, source, source_uri)
        call = _Call(
            "procedure_change_request_create",
            "POST",
            f"/api/v1/procedures/{slug}/change-requests",
            body.to_json(),
            subject=False,
        )
        return m.ChangeRequest.from_json(await self._request(call))

    async def get_change_request(self, slug: str, change_request_id: str) -> m.ChangeRequestStatus:
        call = _Call(
            "procedure_change_request_retrieve",
            "GET",
            f"/api/v1/procedures/{slug}/change-requests/{uuid.UUID(str(change_request_id))}",
            idempotent=True,
            subject=False,
        )
        return m.ChangeRequestStatus.from_json(await self._request(call))


class AsyncSubjectClient:
    """The async client acting for one subject; same behaviour as :class:`SubjectClient`."""

    def __init__(
        self,
        client: AsyncEngramClient,
        token_provider: Callable[[], Awaitable[str]],
        subject_key: str,
        on_token_rejected: Callable[[], None] | None = None,
    ) -> None:
        self.client = client
        self._token = token_provider
        self.subject_key = subject_key
        self._on_token_rejected = on_token_rejected

    async def _request(self, call: _Call, *, api_key: str | None = None) -> Any:
        try:
            return await self.client._request(call, await self._token(), api_key=api_key)
        except EngramAPIError as e:
            if e.code == "expired_subject_token" and self._on_token_rejected is not None:
                self._on_token_rejected()
                return await self.client._request(call, await self._token(), api_key=api_key)
            raise

    async def erase(self, *, confirm: bool) -> m.SubjectErasure:
        """Erase everything about this subject (see :meth:`SubjectClient.erase`)."""
        call = _erase_call(confirm)
        return m.SubjectErasure.from_json(
            await self._request(call, api_key=self.client.admin_api_key)
        )

    async def _write(self, call: _Call) -> Any:
        outbox = self.client.outbox
        if outbox is None:
            return _parse_write(call.op, await self._request(call))
        if outbox.has_pending(self.subject_key) and outbox.count(self.subject_key):
            try:
                await self.flush_outbox()
            except EngramUnavailable:
                pass
            if outbox.count(self.subject_key):
                key = outbox.put(
                    subject_key=self.subject_key,
                    op=call.op,
                    method=call.method,
                    path=call.path,
                    body=call.body,
                    key=call.idempotency_key,
                )
                return QueuedWrite(key, call.op, "outbox_not_empty")
        try:
            return _parse_write(call.op, await self._request(call))
        except EngramUnavailable as e:
            key = outbox.put(
                subject_key=self.subject_key,
                op=call.op,
                method=call.method,
                path=call.path,
                body=call.body,
                key=call.idempotency_key,
            )
            logger.warning("engram %s queued in outbox (key %s, %s)", call.op, key, e.reason)
            return QueuedWrite(key, call.op, e.reason)

    async def flush_outbox(self) -> FlushReport:
        outbox = self.client.outbox
        if outbox is None:
            return FlushReport(0, 0, 0)
        sent = failed = 0
        for entry in outbox.pending(self.subject_key):
            if not outbox.claim(entry.id):
                continue
            call = _replay_call(entry)
            try:
                await self._request(call)
            except EngramUnavailable:
                outbox.release(entry.id)
                raise
            except EngramAPIError as e:
                if _replay_counts_as_done(entry.op, e):
                    outbox.done(entry.id)
                    sent += 1
                    continue
                outbox.fail(entry.id, e.code)
                failed += 1
                continue
            outbox.done(entry.id)
            sent += 1
        return FlushReport(sent, failed, outbox.count(self.subject_key))

    async def append_events(
        self, events: list[m.Event | dict[str, Any]]
    ) -> m.EventBatchResult | QueuedWrite:
        return await self._write(_events_call(events))

    async def submit_candidates(
        self, candidates: list[m.Candidate | dict[str, Any]]
    ) -> m.CandidateBatchResult | QueuedWrite:
        return await self._write(_candidates_call(candidates))

    async def remember(
        self, candidate: m.Candidate | dict[str, Any]
    ) -> m.CandidateResult | QueuedWrite:
        result = await self.submit_candidates([candidate])
        return result if isinstance(result, QueuedWrite) else result.results[0]

    async def supersede(
        self, record_id: str, request: m.SupersedeRequest
    ) -> m.CandidateResult | QueuedWrite:
        path = _record_path(record_id, "/supersede")
        return await self._write(_Call("memory_supersede", "POST", path, request.to_json()))

    async def retract(
        self, record_id: str, request: m.RetractRequest
    ) -> m.CandidateResult | QueuedWrite:
        path = _record_path(record_id, "/retract")
        return await self._write(_Call("memory_retract", "POST", path, request.to_json()))

    async def delete(
        self, record_id: str, assertion_kind: str | None = None
    ) -> m.CandidateResult | QueuedWrite:
        body = m.DeleteRequest(assertion_kind).to_json() or None
        return await self._write(_Call("memory_delete", "DELETE", _record_path(record_id), body))

    async def recall(self, query: str, purpose: str, **options: Any) -> m.ContextPack:
        call = _recall_call(m.RecallRequest(query=query, purpose=purpose, **options))
        try:
            pack = m.ContextPack.from_json(await self._request(call))
        except EngramUnavailable as e:
            logger.warning("engram recall degraded: %s", e.reason)
            return m.ContextPack.degraded_empty(e.reason)
        if self.client.outbox is not None and self.client.outbox.has_pending(self.subject_key):
            try:
                await self.flush_outbox()
            except EngramUnavailable:
                pass
        return pack

    async def recall_feedback(
        self, trace_id: str, used_record_ids: list[str], helpful: bool | None = None
    ) -> m.RecallFeedbackResult:
        body = m.RecallFeedback(used_record_ids=[str(i) for i in used_record_ids], helpful=helpful)
        path = f"/api/v1/recall/{uuid.UUID(str(trace_id))}/feedback"
        call = _Call("recall_feedback", "POST", path, body.to_json(), idempotent=True)
        return m.RecallFeedbackResult.from_json(await self._request(call))

    async def get_memory(self, record_id: str) -> m.MemoryRecord:
        call = _Call("memory_retrieve", "GET", _record_path(record_id), idempotent=True)
        return m.MemoryRecord.from_json(await self._request(call))

    async def list_memories(self, **filters: Any) -> m.MemoryPage:
        return m.MemoryPage.from_json(await self._request(_list_call(filters)))
