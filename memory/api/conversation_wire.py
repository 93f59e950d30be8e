"""``POST /api/v1/conversation``'s body read without building the DRF serializers, for the
bodies agents send most (``ENGRAM_INGEST_PLAIN_VALIDATION``).

``ConversationTurnInputSerializer`` builds a field object per message and per candidate
and runs each value through it (about 0.3–0.6 ms of CPU a LoCoMo turn on the benchmark
machine, docs/performance.md, "The conversation ingest: the turn body, the thread
summary"). ``turn_input`` accepts only a *plain* body, one every field of which it can
check exactly as the serializer would: ``messages`` (1 to ``max_items`` objects with the
message fields), an optional ``thread_id`` and optional ``candidates`` that
``candidate_wire.candidates_input`` reads (dates included). Anything else returns None
and the serializer reads the body, with its own errors: this module never words an
error. tests/memory/test_conversation_wire.py holds this to the serializer (a Hypothesis
property over bodies plain and not, and the API's answers with the setting on and off)."""

from __future__ import annotations

from typing import Any

from memory.api.candidate_wire import (
    REFUSED,
    candidates_input,
    datetime_value,
    has_surrogate,
    text_value,
)
from memory.api.serializers import MAX_TEXT
from memory.models import EventRole

_BODY = frozenset({"messages", "thread_id", "candidates"})
_MESSAGE_REQUIRED = frozenset({"client_event_id", "role", "content"})
_MESSAGE = _MESSAGE_REQUIRED | {"speaker", "occurred_at"}
_ROLES = frozenset(EventRole.values)


def turn_input(data: Any, *, max_items: int) -> dict[str, Any] | None:
    """The serializer's ``validated_data`` for a plain body, or None for any other."""
    if type(data) is not dict or "messages" not in data or not data.keys() <= _BODY:
        return None
    messages = data["messages"]
    if type(messages) is not list or not 1 <= len(messages) <= max_items:
        return None
    out: dict[str, Any] = {"messages": []}
    for item in messages:
        message = _message(item)
        if message is None:
            return None
        out["messages"].append(message)
    if "thread_id" in data:
        out["thread_id"] = text_value(data["thread_id"], 200, blank=True)
        if out["thread_id"] is None:
            return None
    if "candidates" in data:
        items = data["candidates"]
        if type(items) is not list or len(items) > max_items:
            return None
        plain = candidates_input({"candidates": items}, max_items=max_items) if items else []
        if plain is None:
            return None
        out["candidates"] = plain
    return out


def _message(item: Any) -> dict[str, Any] | None:
    if type(item) is not dict:
        return None
    keys = item.keys()
    if not _MESSAGE_REQUIRED <= keys or not keys <= _MESSAGE:
        return None
    client_event_id = text_value(item["client_event_id"], 200)
    role = item["role"]
    content = item["content"]
    if client_event_id is None or type(role) is not str or role not in _ROLES:
        return None
    # content: CharField(max_length=MAX_TEXT, trim_whitespace=False): kept as sent,
    # refused only when empty (spaces alone are content), overlong, with a NUL or a
    # lone surrogate (its validators).
    if type(content) is not str or content == "" or len(content) > MAX_TEXT:
        return None
    if "\x00" in content or has_surrogate(content):
        return None
    out = {"client_event_id": client_event_id, "role": role, "content": content}
    if "speaker" in item:
        out["speaker"] = text_value(item["speaker"], 200, blank=True)
        if out["speaker"] is None:
            return None
    if "occurred_at" in item:
        out["occurred_at"] = datetime_value(item["occurred_at"])
        if out["occurred_at"] is REFUSED:
            return None
    return out
