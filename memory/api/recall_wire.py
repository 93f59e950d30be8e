"""Recall's body read and answer written without building DRF serializers, for the one
endpoint every agent turn calls (``ENGRAM_RECALL_PLAIN_SERIALIZERS``).

A serializer deep-copies its declared fields each time it is built, and the answer's
renders every field of every item through a field object: about 3 ms of CPU a recall on
the benchmark machine, the answer's part after the embedding has ended. The serializers in
``memory.api.recall`` stay the documented shape and the reference: ``recall_input``
handles only the plain body (a query and a purpose, nothing else) and gives every other
body to the serializer, whose errors it never imitates; ``recall_answer`` gives what
``RecallOutputSerializer(...).data`` gives, field by field (tests/memory/
test_recall_wire.py holds both to the serializers)."""

from __future__ import annotations

from enum import Enum
from typing import Any

from rest_framework import serializers

from memory.models import AssertionKind, MemoryStatus, MemoryType
from memory.recall import RecallResult
from memory.recall.routing import REASONS, USES

_PLAIN_BODY = frozenset({"query", "purpose"})


def recall_input(
    data: dict[str, Any],
    *,
    max_chars: dict[str, int],
    defaults: dict[str, Any],
    options: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """The validated body when ``data`` is a plain one (``query`` and ``purpose``, strings
    that the serializer accepts as they are once stripped: at most ``max_chars`` of each),
    with ``defaults`` (the serializer's other fields' defaults, each list a new one); None
    for any other body. ``options`` (``ENGRAM_RECALL_PLAIN_OPTIONS``): the scalar fields a
    plain body may also hold, each with what the serializer accepts unchanged: ``(low,
    high)`` an int in that range (not a bool, not a string), a tuple of strings one of
    them, ``bool`` a bool."""
    if type(data) is not dict:
        return None  # a form's QueryDict is read by the serializer's own rules
    if data.keys() != _PLAIN_BODY:
        if not options or not _PLAIN_BODY <= data.keys():
            return None
        given = {k: v for k, v in data.items() if k not in _PLAIN_BODY}
        if not all(k in options and _plain_option(v, options[k]) for k, v in given.items()):
            return None
    else:
        given = {}
    out = {}
    for name in ("query", "purpose"):
        value = data[name]
        if type(value) is not str:
            return None
        value = value.strip()  # CharField's trim_whitespace
        if not value or len(value) > max_chars[name] or not _plain_chars(value):
            return None
        out[name] = value
    return {
        **out,
        **{k: list(v) if isinstance(v, list) else v for k, v in defaults.items()},
        **given,
    }


def _plain_option(value: Any, accepts: Any) -> bool:
    """``value`` is one the serializer's field takes as it is (``recall_input``)."""
    if accepts is bool:
        return type(value) is bool
    if type(accepts) is tuple and len(accepts) == 2 and type(accepts[0]) is int:
        return type(value) is int and accepts[0] <= value <= accepts[1]
    return type(value) is str and value in accepts


def _plain_chars(value: str) -> bool:
    """No NUL and no surrogate (DRF's CharField refuses both)."""
    return "\x00" not in value and not any("\ud800" <= c <= "\udfff" for c in value)


def recall_answer(result: RecallResult) -> dict[str, Any]:
    """``RecallOutputSerializer``'s rendering of ``result``: the same keys in the same
    order, each value as its field renders it."""
    when = serializers.DateTimeField().to_representation  # the current time zone, ISO 8601
    return {
        "trace_id": _text(result.trace_id),
        "empty": not result.items,
        "empty_reason": _text(result.empty_reason),
        "items": [_item(i, when) for i in result.items],
        "context_pack": _text(result.context_pack),
        "as_of": _when(result.as_of, when),
        "known_at": _when(result.known_at, when),
        "dropped_by_budget": _int(result.dropped_by_budget),
        "vector_pending": _int(result.vector_pending),
        "vector_unavailable": _bool(result.vector_unavailable),
        "reranker": _text(result.reranker),
        "rerank_error": _text(result.rerank_error),
    }


def _item(i, when) -> dict[str, Any]:
    return {
        "id": _text(i.id),
        "memory_type": _choice(i.memory_type, _MEMORY_TYPES),
        "namespace": _text(i.namespace),
        "predicate": _text(i.predicate),
        "statement": _text(i.statement),
        "value": i.value,
        "assertion_kind": _choice(i.assertion_kind, _ASSERTION_KINDS),
        "confidence": _float(i.confidence),
        "importance": _float(i.importance),
        "status": _choice(i.status, _STATUSES),
        "valid_from": _when(i.valid_from, when),
        "valid_to": _when(i.valid_to, when),
        "recorded_at": _when(i.recorded_at, when),
        "source": {
            "event_ids": _each(i.source_event_ids, str),
            "uri": _text(i.source_uri),
        },
        "scores": None
        if i.scores is None
        else {str(k): None if v is None else float(v) for k, v in i.scores.items()},
        "flags": _each(i.flags, str),
        "use": _choice(i.use, _USES),
        "use_reason": _choice(i.use_reason, _REASONS),
    }


# As ChoiceField renders: a choice's string form maps to the choice, anything else is kept.
def _choices(pairs) -> dict[str, Any]:
    return {str(value): value for value, _ in pairs}


_MEMORY_TYPES = _choices(MemoryType.choices)
_ASSERTION_KINDS = _choices(AssertionKind.choices)
_STATUSES = _choices(MemoryStatus.choices)
_USES = _choices((u, u) for u in USES)
_REASONS = _choices((r, r) for r in REASONS)


def _choice(value, choices: dict[str, Any]):
    if value in ("", None):
        return value
    if isinstance(value, Enum) and str(value) != str(value.value):
        value = value.value
    return choices.get(str(value), value)


def _text(value) -> str | None:
    return None if value is None else str(value)


def _int(value) -> int | None:
    return None if value is None else int(value)


def _float(value) -> float | None:
    return None if value is None else float(value)


def _bool(value) -> bool | None:
    if value is None:
        return None
    if value in serializers.BooleanField.TRUE_VALUES:
        return True
    if value in serializers.BooleanField.FALSE_VALUES:
        return False
    return bool(value)


def _when(value, when) -> str | None:
    return None if value is None else when(value)


def _each(values, render) -> list | None:
    return None if values is None else [None if v is None else render(v) for v in values]
