"""``POST /api/v1/candidates``' body read without building the DRF serializers, for the
bodies agents send most (``ENGRAM_WRITE_PLAIN_VALIDATION``).

A serializer with ``many=True`` deep-copies its declared fields for every item and runs
each value through a field object and its validators: about 1.2 ms of CPU for a
one-candidate request and 0.1 ms per candidate in a batch of 100 on the benchmark machine
(docs/performance.md, "A write request at the HTTP level"). ``candidates_input`` accepts
only a *plain* body, one every field of which it can check exactly as the serializer
would: an object holding just ``candidates``, a list of 1 to ``max_items`` objects, each
with the required fields and any of the optional ones below, of the JSON types the
serializer accepts without conversion; the dates (``valid_from``, ``valid_to``,
``expires_at``) are read by the serializer's own ``DateTimeField`` (the same parsing and
time zone, so a malformed one falls back). Anything else — a ``value``, record ids,
cited event ids by UUID, a ``source_uri``, an unknown field, a wrong type, a value the
serializer would refuse — returns None and the serializer reads the body, with its own
errors: this module never words an error. ``CandidateBatchInputSerializer`` stays the
documented shape and the reference; tests/memory/test_candidate_wire.py holds this to it
(a Hypothesis property over bodies plain and not)."""

from __future__ import annotations

import math
import re
from typing import Any

from rest_framework import serializers as drf

from accounts.models import Sensitivity
from memory.models import AssertionKind, Cardinality, ConsentBasis, MemoryType
from memory.write_policy import Intent

# The serializer's own patterns (memory/api/serializers.py), as its RegexValidator uses
# them (``search``, no flags).
from .serializers import MAX_TEXT, NAMESPACE_RE, PREDICATE_RE

_NAMESPACE = re.compile(NAMESPACE_RE)
_PREDICATE = re.compile(PREDICATE_RE)

_REQUIRED = frozenset(
    {"memory_type", "namespace", "statement", "assertion_kind", "confidence", "purpose"}
    | {"consent_basis"}
)
_DATES = ("valid_from", "valid_to", "expires_at")
_OPTIONAL = frozenset(
    {"predicate", "cardinality", "sensitivity", "intent", "importance"}
    | {"source_client_event_ids", *_DATES}
)
_CHOICES = {
    "memory_type": frozenset(MemoryType.values),
    "assertion_kind": frozenset(AssertionKind.values),
    "consent_basis": frozenset(ConsentBasis.values),
    "sensitivity": frozenset(Sensitivity.values),
    "intent": frozenset(i.value for i in Intent),
    "cardinality": frozenset(Cardinality.values),
}
_MAX_SOURCES = 50  # SourceRefsMixin's max_length
_MAX_CLIENT_ID = 200
# The serializer's date field (``DateTimeField(allow_null=True)``), unbound: its parsing
# (ISO 8601, ``parse_datetime``) and time zone (a naive date-time made aware in the
# current one), read at each call. Its only state is its settings.
_DATETIME = drf.DateTimeField(required=False, allow_null=True)
REFUSED = object()


def defaults() -> dict[str, Any]:
    """The optional fields' values when absent, as the serializer's fields give them
    (``get_default``; each list a new one). A test compares them with the fields'."""
    return {
        "source_event_ids": [],
        "source_client_event_ids": [],
        "source_uri": "",
        "predicate": "",
        "value": None,
        "cardinality": None,
        "sensitivity": Sensitivity.INTERNAL,
        "intent": Intent.ASSERT,
        "target_record_id": None,
        "valid_from": None,
        "valid_to": None,
        "importance": 0.5,
        "expires_at": None,
    }


def candidates_input(data: Any, *, max_items: int) -> list[dict[str, Any]] | None:
    """The validated candidates of a plain body (each as the serializer's
    ``validated_data`` item), or None for any other body."""
    if type(data) is not dict or data.keys() != {"candidates"}:
        return None
    items = data["candidates"]
    if type(items) is not list or not 1 <= len(items) <= max_items:
        return None
    out = []
    for item in items:
        plain = _candidate(item)
        if plain is None:
            return None
        out.append(plain)
    return out


def _candidate(item: Any) -> dict[str, Any] | None:
    if type(item) is not dict:
        return None
    keys = item.keys()
    if not _REQUIRED <= keys or not keys <= _REQUIRED | _OPTIONAL:
        return None
    out = defaults()
    for name in ("memory_type", "assertion_kind"):
        value = _choice(item[name], name)
        if value is None:
            return None
        out[name] = value
    consent = item["consent_basis"]
    out["consent_basis"] = "" if consent == "" else _choice(consent, "consent_basis")
    namespace = text_value(item["namespace"], 300, pattern=_NAMESPACE)
    statement = text_value(item["statement"], MAX_TEXT)
    purpose = text_value(item["purpose"], 100, blank=True)
    confidence = _unit_number(item["confidence"])
    if None in (out["consent_basis"], namespace, statement, purpose, confidence):
        return None
    out.update(namespace=namespace, statement=statement, purpose=purpose, confidence=confidence)
    if "predicate" in item:
        out["predicate"] = text_value(item["predicate"], 200, blank=True, pattern=_PREDICATE)
    if item.get("cardinality") is not None:
        out["cardinality"] = _choice(item["cardinality"], "cardinality")
        if out["cardinality"] is None:
            return None  # None here is a refusal, not the null the serializer allows
    for name in ("sensitivity", "intent"):
        if name in item:
            out[name] = _choice(item[name], name)
    if "importance" in item:
        out["importance"] = _unit_number(item["importance"])
    if "source_client_event_ids" in item:
        out["source_client_event_ids"] = _client_ids(item["source_client_event_ids"])
    if any(out[name] is None for name in _OPTIONAL - {"cardinality", *_DATES}):
        return None
    for name in _DATES:
        if name in item:
            out[name] = datetime_value(item[name])
            if out[name] is REFUSED:
                return None
    if out["valid_from"] and out["valid_to"] and out["valid_to"] <= out["valid_from"]:
        return None  # the serializer's validate() refuses it, in its words
    if out["cardinality"] == Cardinality.SINGLE and not out["predicate"]:
        return None  # the serializer's validate() refuses it, in its words
    return out


def _choice(value: Any, name: str) -> str | None:
    return value if type(value) is str and value in _CHOICES[name] else None


def text_value(value: Any, max_length: int, *, blank: bool = False, pattern=None) -> str | None:
    """A CharField's value (trimmed), or None where it might refuse it."""
    if type(value) is not str:
        return None
    value = value.strip()
    if not value:
        return "" if blank else None  # an allowed blank skips the validators, as in DRF
    if len(value) > max_length or "\x00" in value or has_surrogate(value):
        return None
    if pattern is not None and not pattern.search(value):
        return None
    return value


def datetime_value(value: Any) -> Any:
    """A date field's value (None for null), or ``REFUSED`` where the serializer's
    field might refuse it."""
    if value is None:
        return None
    if type(value) is not str:
        return REFUSED  # StrictInputSerializer's type check words that one
    try:
        return _DATETIME.run_validation(value)
    except drf.ValidationError:
        return REFUSED


def has_surrogate(value: str) -> bool:
    return not value.isascii() and any("\ud800" <= c <= "\udfff" for c in value)


def _unit_number(value: Any) -> float | None:
    """A FloatField's value between 0 and 1, or None where it might refuse it."""
    if type(value) not in (int, float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) and 0.0 <= number <= 1.0 else None


def _client_ids(value: Any) -> list[str] | None:
    if type(value) is not list or len(value) > _MAX_SOURCES:
        return None
    out = []
    for one in value:
        text = text_value(one, _MAX_CLIENT_ID)
        if text is None:
            return None
        out.append(text)
    return out
