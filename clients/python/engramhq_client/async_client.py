"""The asynchronous client (httpx.AsyncClient): the same operations, deadlines,
degradation and outbox as :mod:`engramhq_client.client`, built from the same calls in
``_core``. Every public method of the sync classes has an async twin here
(``tests/clients/test_async_parity.py`` checks it)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
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
from engramhq_client._working import _AsyncWorkingMixin
from engramhq_client.errors import EngramAPIError, EngramUnavailable
from engramhq_client.use import used_record_ids


class AsyncEngramClient(_Base):
    """Asynchronous twin of :class:`~engramhq_client.client.EngramClient`
    (httpx.AsyncClient). The outbox is the same SQLite file; its calls are short local
    writes."""

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
        deadline = self._deadline_for(call)
        attempt, reason = 0, None
        while True:
            timeout = self._next_attempt(deadline, reason)
            attempt += 1
            started = time.perf_counter()
            response, exc = None, None
            try:
                # asyncio's own timeout too: httpx's read timeout is per chunk, the
                # deadline is for the whole answer.
                response = await asyncio.wait_for(
                    self._http.request(**self._request_args(call, subject_token, api_key, timeout)),
                    timeout=max(0.001, deadline - self._clock()),
                )
            except TimeoutError:
                exc = httpx.ReadTimeout("the call's deadline passed")
            except httpx.TransportError as e:
                exc = e
            done, value = self._settle(call, response, exc, attempt, started, deadline)
            if done:
                return value
            delay, reason = value
            await self._sleep(delay)

    # -- subjects -----------------------------------------------------------------------

    async def issue_subject_token(
        self, external_id: str, subject_kind: str = "user"
    ) -> m.SubjectToken:
        call = _subject_token_call(external_id, subject_kind)
        return m.SubjectToken.from_json(await self._request(call, api_key=self.admin_api_key))

    def for_subject(self, token: str | Callable[[], str]) -> AsyncSubjectClient:
        """A handle acting for the subject a token names (a string, or a callable returning
        a fresh token each time it is asked)."""
        supply = token if callable(token) else (lambda: token)

        async def provider() -> str:
            return supply()

        return AsyncSubjectClient(self, provider, _subject_key_from_token(supply()))

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

    # -- procedures ----------------------------------------------------------------------

    async def get_procedure(self, slug: str) -> m.Procedure:
        return m.Procedure.from_json(await self._request(_procedure_call(slug)))

    async def propose_procedure_change(
        self,
        slug: str,
        proposed_text: str,
        base_version: int,
        rationale: str | None = None,
        source: str | None = None,
        source_uri: str | None = None,
    ) -> m.ChangeRequest:
        call = _change_request_create_call(
            slug, proposed_text, base_version, rationale, source, source_uri
        )
        return m.ChangeRequest.from_json(await self._request(call))

    async def get_change_request(self, slug: str, change_request_id: str) -> m.ChangeRequestStatus:
        call = _change_request_call(slug, change_request_id)
        return m.ChangeRequestStatus.from_json(await self._request(call))

    # -- conveniences for many users -----------------------------------------------------

    async def add(
        self,
        messages: list[m.Message | dict[str, Any]],
        *,
        user_id: str,
        thread_id: str | None = None,
        candidates: list[m.Candidate | dict[str, Any]] | None = None,
    ) -> m.ConversationResult | QueuedWrite:
        return await self.for_user(user_id).add(
            messages, thread_id=thread_id, candidates=candidates
        )


class AsyncSubjectClient(_SubjectBase, _AsyncWorkingMixin):
    """The async client acting for one subject; same behaviour as
    :class:`~engramhq_client.client.SubjectClient`."""

    client: AsyncEngramClient

    async def _request(self, call: _Call, *, api_key: str | None = None) -> Any:
        with self.client._within(call.kind):
            try:
                return await self.client._request(call, await self._token(), api_key=api_key)
            except EngramAPIError as e:
                if self._token_refreshed(e):
                    return await self.client._request(call, await self._token(), api_key=api_key)
                raise

    async def _write(self, call: _Call) -> Any:
        if self.client.outbox is None:
            return _parse_write(call.op, await self._request(call))
        with self.client._within("write"):
            if self._has_queue():
                try:
                    await self.flush_outbox()
                except EngramUnavailable:
                    pass
                if self._still_queued():
                    return self._queue(call, "outbox_not_empty")
            try:
                return _parse_write(call.op, await self._request(call))
            except EngramUnavailable as e:
                return self._queue(call, e.reason)

    async def flush_outbox(self) -> FlushReport:
        outbox = self.client.outbox
        if outbox is None:
            return FlushReport(0, 0, 0)
        sent = failed = 0
        for entry in outbox.pending(self.subject_key):
            if not outbox.claim(entry.id):
                continue
            try:
                await self._request(_replay_call(entry))
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
        return _first_result(await self.submit_candidates([candidate]))

    async def supersede(
        self, record_id: str, request: m.SupersedeRequest
    ) -> m.CandidateResult | QueuedWrite:
        return await self._write(_supersede_call(record_id, request))

    async def retract(
        self, record_id: str, request: m.RetractRequest
    ) -> m.CandidateResult | QueuedWrite:
        return await self._write(_retract_call(record_id, request))

    async def delete(
        self, record_id: str, assertion_kind: str | None = None
    ) -> m.CandidateResult | QueuedWrite:
        return await self._write(_delete_call(record_id, assertion_kind))

    async def add(
        self,
        messages: list[m.Message | dict[str, Any]],
        *,
        thread_id: str | None = None,
        candidates: list[m.Candidate | dict[str, Any]] | None = None,
    ) -> m.ConversationResult | QueuedWrite:
        return await self._write(_conversation_call(messages, thread_id, candidates))

    async def put_slots(
        self, writes: list[m.SlotWrite | dict[str, Any]]
    ) -> m.CandidateBatchResult | QueuedWrite:
        return await self._write(_slots_write_call(writes))

    async def get_slots(
        self, slots: list[tuple[str, str]], *, refresh_ttl_seconds: int | None = None
    ) -> list[m.MemoryRecord | None]:
        call = _slots_lookup_call(slots, refresh_ttl_seconds)
        output = m.SlotLookupOutput.from_json(await self._request(call))
        return [r.record for r in output.results]

    async def history(self, record_id: str) -> m.MemoryHistory:
        return m.MemoryHistory.from_json(await self._request(_history_call(record_id)))

    async def export(self) -> dict[str, Any]:
        return await self._request(_export_call(), api_key=self.client.admin_api_key)

    async def erase(self, *, confirm: bool) -> m.SubjectErasure:
        """Erase everything about this subject (see
        :meth:`~engramhq_client.client.SubjectClient.erase`)."""
        call = _erase_call(confirm)
        return m.SubjectErasure.from_json(
            await self._request(call, api_key=self.client.admin_api_key)
        )

    # -- reads ---------------------------------------------------------------------------

    async def recall(self, query: str, purpose: str, **options: Any) -> m.ContextPack:
        call = _recall_call(query, purpose, options)
        try:
            pack = m.ContextPack.from_json(await self._request(call))
        except EngramUnavailable as e:
            logger.warning("engram recall degraded: %s", e.reason)
            return m.ContextPack.degraded_empty(e.reason)
        if self._flush_after_read():
            try:
                await self.flush_outbox()
            except EngramUnavailable:
                pass
        return pack

    async def recall_feedback(
        self, trace_id: str | None, used_record_ids: list[str], helpful: bool | None = None
    ) -> m.RecallFeedbackResult | None:
        if trace_id is None:
            return None
        call = _feedback_call(trace_id, used_record_ids, helpful)
        try:
            return m.RecallFeedbackResult.from_json(await self._request(call))
        except EngramUnavailable as e:
            logger.warning("engram recall feedback not sent: %s", e.reason)
            return None

    async def report_use(
        self,
        recall_result: m.ContextPack,
        answer_text: str | None = None,
        used_ids: list[str] | None = None,
        helpful: bool | None = None,
    ) -> m.RecallFeedbackResult | None:
        used = used_record_ids(recall_result, answer_text, used_ids)
        return await self.recall_feedback(recall_result.trace_id, used, helpful)

    async def get_memory(self, record_id: str) -> m.MemoryRecord:
        return m.MemoryRecord.from_json(await self._request(_get_memory_call(record_id)))

    async def list_memories(
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
        return m.MemoryPage.from_json(await self._request(call))

    async def iter_memories(self, **filters: Any) -> AsyncIterator[m.MemoryRecord]:
        """Every current memory matching the filters, page by page."""
        offset: int | None = 0
        while offset is not None:
            page = await self.list_memories(**filters, offset=offset)
            for record in page.results:
                yield record
            offset = page.next_offset
