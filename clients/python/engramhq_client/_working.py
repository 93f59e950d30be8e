"""Working memory and closing a thread, for the sync and async subject clients (mixed
into ``SubjectClient`` and ``AsyncSubjectClient``).

Working memory is the state of the current task: short-lived, overwritable, never
recalled. These calls are never queued in the outbox — a task's scratch state is worth
nothing by the time Engram is back — so an outage raises ``EngramUnavailable``. A put
and a close may be resent safely (a put overwrites; a second close returns the first
answer).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from engramhq_client import models as m
from engramhq_client._core import _Call
from engramhq_client.errors import NotFound


def _thread_path(thread_id: str, suffix: str) -> str:
    return f"/api/v1/threads/{quote(str(thread_id), safe='/')}{suffix}"


def _key_path(thread_id: str, key: str) -> str:
    return _thread_path(thread_id, f"/working/{quote(str(key), safe='')}")


def _working_put_call(thread_id: str, key: str, value: Any, ttl_seconds: int | None) -> _Call:
    body: dict[str, Any] = {"value": value}
    if ttl_seconds is not None:
        body["ttl_seconds"] = ttl_seconds
    return _Call(
        "working_put", "PUT", _key_path(thread_id, key), body, idempotent=True, kind="write"
    )


def _working_get_call(thread_id: str, key: str) -> _Call:
    return _Call("working_get", "GET", _key_path(thread_id, key), idempotent=True)


def _working_delete_call(thread_id: str, key: str) -> _Call:
    return _Call(
        "working_delete", "DELETE", _key_path(thread_id, key), idempotent=True, kind="write"
    )


def _working_list_call(thread_id: str) -> _Call:
    return _Call("working_list", "GET", _thread_path(thread_id, "/working"), idempotent=True)


def _close_call(thread_id: str, keep: list[Any] | None, summary: bool) -> _Call:
    body = {"keep": list(keep or []), "summary": summary}
    return _Call(
        "thread_close",
        "POST",
        _thread_path(thread_id, "/close"),
        body,
        idempotent=True,
        kind="write",
    )


class _WorkingMixin:
    _request: Any

    def working_put(
        self, thread_id: str, key: str, value: Any, *, ttl_seconds: int | None = None
    ) -> m.WorkingEntry:
        """Put (overwrite) ``key`` in the thread's working memory for ``ttl_seconds``
        (default: the server's). Refused values raise: a secret (``secret_detected``, 422),
        too large (413), consent withdrawn or memory paused (403)."""
        call = _working_put_call(thread_id, key, value, ttl_seconds)
        return m.WorkingEntry.from_json(self._request(call))

    def working_get(self, thread_id: str, key: str) -> m.WorkingEntry | None:
        """The value, or None when there is none (never put, deleted or expired)."""
        try:
            return m.WorkingEntry.from_json(self._request(_working_get_call(thread_id, key)))
        except NotFound:
            return None

    def working_delete(self, thread_id: str, key: str) -> bool:
        """True when a value was deleted, False when there was none."""
        try:
            self._request(_working_delete_call(thread_id, key))
        except NotFound:
            return False
        return True

    def working_list(self, thread_id: str) -> m.WorkingList:
        return m.WorkingList.from_json(self._request(_working_list_call(thread_id)))

    def close_thread(
        self, thread_id: str, *, keep: list[Any] | None = None, summary: bool = True
    ) -> m.ThreadClosed:
        """End the session: ``keep`` (working memory keys, or ``{"statement": …, "type":
        "semantic"|"episodic"}``) and what extraction finds in the thread's events go
        through the write policy, a session summary is written, and the thread's working
        memory is dropped. A second close returns the first answer (``replayed``)."""
        return m.ThreadClosed.from_json(self._request(_close_call(thread_id, keep, summary)))


class _AsyncWorkingMixin:
    _request: Any

    async def working_put(
        self, thread_id: str, key: str, value: Any, *, ttl_seconds: int | None = None
    ) -> m.WorkingEntry:
        call = _working_put_call(thread_id, key, value, ttl_seconds)
        return m.WorkingEntry.from_json(await self._request(call))

    async def working_get(self, thread_id: str, key: str) -> m.WorkingEntry | None:
        try:
            return m.WorkingEntry.from_json(await self._request(_working_get_call(thread_id, key)))
        except NotFound:
            return None

    async def working_delete(self, thread_id: str, key: str) -> bool:
        try:
            await self._request(_working_delete_call(thread_id, key))
        except NotFound:
            return False
        return True

    async def working_list(self, thread_id: str) -> m.WorkingList:
        return m.WorkingList.from_json(await self._request(_working_list_call(thread_id)))

    async def close_thread(
        self, thread_id: str, *, keep: list[Any] | None = None, summary: bool = True
    ) -> m.ThreadClosed:
        return m.ThreadClosed.from_json(await self._request(_close_call(thread_id, keep, summary)))
