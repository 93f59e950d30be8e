"""The MCP server's working memory tools (``engramhq-mcp``, see ``mcp_server``): the
state of the current task per thread — short-lived, overwritable, never recalled — and
``close_thread``, which ends the session through Engram's write policy."""

from __future__ import annotations

import json
from typing import Any

from engramhq_client.client import AsyncSubjectClient


def add_working_tools(server: Any, subject: AsyncSubjectClient, api_errors: Any) -> None:
    """Register the tools on ``server`` (errors as JSON through ``api_errors``)."""

    @server.tool()
    @api_errors
    async def working_put(
        thread_id: str, key: str, value: Any, ttl_seconds: int | None = None
    ) -> str:
        """Keep a piece of the current task's state (any JSON value) under `key` in this
        thread's working memory, for `ttl_seconds` (default an hour). Overwrites. Never
        for secrets: Engram refuses them. It is not long-term memory: mark it for keeping
        when you call `close_thread`."""
        entry = await subject.working_put(thread_id, key, value, ttl_seconds=ttl_seconds)
        return f"Stored {entry.key} ({entry.size_bytes} bytes) until {entry.expires_at}."

    @server.tool()
    @api_errors
    async def working_get(thread_id: str, key: str) -> str:
        """One value of this thread's working memory, as JSON (or that there is none)."""
        entry = await subject.working_get(thread_id, key)
        if entry is None:
            return f"No working memory under {key} (never put, deleted or expired)."
        return json.dumps(entry.value, ensure_ascii=False)

    @server.tool()
    @api_errors
    async def working_delete(thread_id: str, key: str) -> str:
        """Delete one value of this thread's working memory."""
        deleted = await subject.working_delete(thread_id, key)
        return f"Deleted {key}." if deleted else f"There was nothing under {key}."

    @server.tool()
    @api_errors
    async def working_list(thread_id: str) -> str:
        """This thread's working memory: every live key with its value, as JSON."""
        listing = await subject.working_list(thread_id)
        return json.dumps({e.key: e.value for e in listing.results}, ensure_ascii=False)

    @server.tool()
    @api_errors
    async def close_thread(
        thread_id: str, keep: list[Any] | None = None, summary: bool = True
    ) -> str:
        """End this thread's session. `keep`: working memory keys, or {"statement": ...,
        "type": "semantic"|"episodic"} items, to become long-term memory (Engram's policy
        decides each). A session summary is written and the working memory dropped.
        Closing twice returns the first answer."""
        closed = await subject.close_thread(thread_id, keep=keep, summary=summary)
        lines = [f"Thread {closed.thread_id} closed" + (" (already)" if closed.replayed else "")]
        for k in closed.kept:
            lines.append(f"- kept {k.kept}: {k.operation} ({k.reason_code})")
        lines.append(f"- extracted: {len(closed.extracted)} candidate(s)")
        if closed.summary is not None:
            lines.append(
                f"- summary ({closed.summary_writer}): {closed.summary.operation} "
                f"({closed.summary.reason_code})"
            )
        lines.append(f"- working memory dropped: {closed.working_dropped} value(s)")
        return "\n".join(lines)
