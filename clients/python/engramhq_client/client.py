"""Sync and async clients for Engram's ``/api/v1``.

``EngramClient(base_url, api_key)`` holds the agent's key; ``client.for_subject(token)`` or
``client.for_user(external_id)`` gives a :class:`SubjectClient` acting for one end user
(the subject always comes from a subject token, never from a request field).

Degradation: every request runs under :class:`~engramhq_client.resilience.Timeouts`,
:class:`~engramhq_client.resilience.RetryPolicy` and one shared
:class:`~engramhq_client.resilience.CircuitBreaker`. When Engram cannot be reached,
``recall`` answers an empty :class:`~engramhq_client.models.ContextPack` with
``degraded=True`` and writes go to the :class:`~engramhq_client.outbox.Outbox` (a
:class:`QueuedWrite` is returned) and are sent when the service is back.

Logging (logger ``engramhq_client``) carries operation names, status codes, request ids and
record ids; never memory text, queries or credentials.

The async twins are in ``async_client`` (re-exported here); what both share, independent
of the transport, is in ``_core``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx

from engramhq_client import models as m
from engramhq_client._core import (
    FlushReport,
    QueuedWrite,
    _Base,
    _Call,
    _candidates_call,
    _change_request_call,
    _change_request_create_call,
    _conversation_call,
    _delete_call,
    _erase_call,
    _events_call,
    _export_call,
    _feedback_call,
    _get_memory_call,
    _history_call,
    _list_call,
    _parse_write,
    _procedure_call,
    _recall_call,
    _replay_call,
    _retract_call,
    _slots_lookup_call,
    _slots_write_call,
    _subject_key_from_token,
    _subject_token_call,
    _supersede_call,
    _TokenCache,
    logger,
)
from engramhq_client._subject import _first_result, _SubjectBase
from engramhq_client._working import _WorkingMixin
from engramhq_client.async_client import AsyncEngramClient, AsyncSubjectClient
from engramhq_client.errors import EngramAPIError, EngramUnavailable
from engramhq_client.use import used_record_ids

__all__ = [
    "AsyncEngramClient",
    "AsyncSubjectClient",
    "EngramClient",
    "FlushReport",
    "QueuedWrite",
    "SubjectClient",
    "_candidates_call",
]


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
        deadline = self._deadline_for(call)
        attempt, reason = 0, None
        while True:
            timeout = self._next_attempt(deadline, reason)
            attempt += 1
            started = time.perf_counter()
            response, exc = None, None
            try:
                response = self._http.request(
                    **self._request_args(call, subject_token, api_key, timeout)
                )
            except httpx.TransportError as e:
                exc = e
            done, value = self._settle(call, response, exc, attempt, started, deadline)
            if done:
                return value
            delay, reason = value
            self._sleep(delay)

    # -- subjects -----------------------------------------------------------------------

    def issue_subject_token(self, external_id: str, subject_kind: str = "user") -> m.SubjectToken:
        """``POST /subject-tokens``; needs an admin-scoped key (``admin_api_key`` if given)."""
        call = _subject_token_call(external_id, subject_kind)
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
        return m.Procedure.from_json(self._request(_procedure_call(slug)))

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
        call = _change_request_create_call(
            slug, proposed_text, base_version, rationale, source, source_uri
        )
        return m.ChangeRequest.from_json(self._request(call))

    def get_change_request(self, slug: str, change_request_id: str) -> m.ChangeRequestStatus:
        call = _change_request_call(slug, change_request_id)
        return m.ChangeRequestStatus.from_json(self._request(call))

    # -- conveniences for many users -----------------------------------------------------

    def add(
        self,
        messages: list[m.Message | dict[str, Any]],
        *,
        user_id: str,
        thread_id: str | None = None,
        candidates: list[m.Candidate | dict[str, Any]] | None = None,
    ) -> m.ConversationResult | QueuedWrite:
        """One conversation turn for user ``user_id`` (see :meth:`SubjectClient.add`); the
        equivalent of Mem0's ``add(messages, user_id=…)``."""
        return self.for_user(user_id).add(messages, thread_id=thread_id, candidates=candidates)


class SubjectClient(_SubjectBase, _WorkingMixin):
    """The sync client acting for one subject. Reads degrade, writes queue (see module)."""

    client: EngramClient

    # -- transport with the subject token ------------------------------------------------

    def _request(self, call: _Call, *, api_key: str | None = None) -> Any:
        # One deadline for the call, the token request it may need included.
        with self.client._within(call.kind):
            try:
                return self.client._request(call, self._token(), api_key=api_key)
            except EngramAPIError as e:
                if self._token_refreshed(e):
                    return self.client._request(call, self._token(), api_key=api_key)
                raise

    def _write(self, call: _Call) -> Any:
        """Send a write, or queue it when Engram is unreachable. Earlier queued writes for
        this subject go first, so order is kept. All within one write deadline."""
        if self.client.outbox is None:
            return _parse_write(call.op, self._request(call))
        with self.client._within("write"):
            if self._has_queue():
                try:
                    self.flush_outbox()
                except EngramUnavailable:
                    pass
                if self._still_queued():
                    return self._queue(call, "outbox_not_empty")
            try:
                return _parse_write(call.op, self._request(call))
            except EngramUnavailable as e:
                return self._queue(call, e.reason)

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
            try:
                self._request(_replay_call(entry))
            except EngramUnavailable:
                outbox.release(entry.id)
                raise
            except EngramAPIError as e:
                if self._replay_refused(entry, e):
                    sent += 1
                else:
                    failed += 1
                continue
            self._replay_sent(entry)
            sent += 1
        return self._flush_report(sent, failed)

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
        return _first_result(self.submit_candidates([candidate]))

    def supersede(
        self, record_id: str, request: m.SupersedeRequest
    ) -> m.CandidateResult | QueuedWrite:
        return self._write(_supersede_call(record_id, request))

    def retract(self, record_id: str, request: m.RetractRequest) -> m.CandidateResult | QueuedWrite:
        return self._write(_retract_call(record_id, request))

    def delete(
        self, record_id: str, assertion_kind: str | None = None
    ) -> m.CandidateResult | QueuedWrite:
        return self._write(_delete_call(record_id, assertion_kind))

    def add(
        self,
        messages: list[m.Message | dict[str, Any]],
        *,
        thread_id: str | None = None,
        candidates: list[m.Candidate | dict[str, Any]] | None = None,
    ) -> m.ConversationResult | QueuedWrite:
        """One conversation turn in one request: the messages (``{"role": "user",
        "content": "…"}`` or :class:`~engramhq_client.models.Message`) are stored, Engram's
        extraction proposes memories from them, and the write policy's decisions come back
        (``result.decisions``). Queued when Engram is down (a resend stores nothing twice).

        ``candidates``: say what to remember yourself, in the same request (what
        :meth:`append_events` then :meth:`submit_candidates` do in two). Each cites the
        messages by ``source_client_event_ids`` (give those messages a
        ``client_event_id``); Engram decides them (``result.candidates``, one per candidate)
        and runs no extraction for the request. A citation of an unknown id is refused
        (``InvalidInput``, ``unknown_source_event``) and nothing is stored."""
        return self._write(_conversation_call(messages, thread_id, candidates))

    def put_slots(
        self, writes: list[m.SlotWrite | dict[str, Any]]
    ) -> m.CandidateBatchResult | QueuedWrite:
        """Put or delete the memory in many slots (namespace + predicate) in one request,
        without reading first: Engram decides each against the slot as it is when the write
        arrives (a new value supersedes, the same value confirms). Queued when Engram is
        down."""
        return self._write(_slots_write_call(writes))

    def get_slots(
        self, slots: list[tuple[str, str]], *, refresh_ttl_seconds: int | None = None
    ) -> list[m.MemoryRecord | None]:
        """The current memory in each (namespace, predicate) slot, or None; with
        ``refresh_ttl_seconds``, found records that have a time-to-live get it moved to
        now + that (write scope)."""
        call = _slots_lookup_call(slots, refresh_ttl_seconds)
        output = m.SlotLookupOutput.from_json(self._request(call))
        return [r.record for r in output.results]

    def history(self, record_id: str) -> m.MemoryHistory:
        """Every version of the memory ``record_id`` belongs to, with both timelines."""
        return m.MemoryHistory.from_json(self._request(_history_call(record_id)))

    def export(self) -> dict[str, Any]:
        """Everything remembered about this subject, machine-readable (the page's JSON
        export, format ``engram.subject_export``). Needs the admin key."""
        return self._request(_export_call(), api_key=self.client.admin_api_key)

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
        call = _recall_call(query, purpose, options)
        try:
            pack = m.ContextPack.from_json(self._request(call))
        except EngramUnavailable as e:
            logger.warning("engram recall degraded: %s", e.reason)
            return m.ContextPack.degraded_empty(e.reason)
        if self._flush_after_read():
            try:
                self.flush_outbox()
            except EngramUnavailable:
                pass
        return pack

    def recall_feedback(
        self, trace_id: str | None, used_record_ids: list[str], helpful: bool | None = None
    ) -> m.RecallFeedbackResult | None:
        """Tell Engram which recalled memories the answer used. Best effort: None when
        there is nothing to report on (a degraded pack has no ``trace_id``) or Engram
        cannot be reached; a malformed id still raises (a bug to fix)."""
        if trace_id is None:
            return None
        call = _feedback_call(trace_id, used_record_ids, helpful)
        try:
            return m.RecallFeedbackResult.from_json(self._request(call))
        except EngramUnavailable as e:
            logger.warning("engram recall feedback not sent: %s", e.reason)
            return None

    def report_use(
        self,
        recall_result: m.ContextPack,
        answer_text: str | None = None,
        used_ids: list[str] | None = None,
        helpful: bool | None = None,
    ) -> m.RecallFeedbackResult | None:
        """After the model answers: report which items of ``recall_result`` it used, as
        stated (``used_ids``) or as the items whose statements ``answer_text`` overlaps
        (engramhq_client.use). Once per recall; best effort like ``recall_feedback``."""
        used = used_record_ids(recall_result, answer_text, used_ids)
        return self.recall_feedback(recall_result.trace_id, used, helpful)

    def get_memory(self, record_id: str) -> m.MemoryRecord:
        return m.MemoryRecord.from_json(self._request(_get_memory_call(record_id)))

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
