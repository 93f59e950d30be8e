"""``memory.api.candidate_wire`` reads a plain candidates body exactly as
``CandidateBatchInputSerializer`` does, and hands every other body to it.

A Hypothesis property builds bodies from valid candidates with perturbations of every
kind (wrong JSON types, blanks, whitespace to trim, NUL and lone surrogates, overlong
text, out-of-range and non-finite numbers, unknown fields, fields only the serializer
reads, choices that do not exist, a single-valued memory without a predicate, too many
items): wherever the plain reader answers, its answer equals the serializer's
``validated_data``; where the serializer refuses a body, the plain reader never answers.
Through the API, with ``ENGRAM_WRITE_PLAIN_VALIDATION`` on and off, the same bodies give
the same status and the same decisions, and malformed ones the one error shape."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.models import AuditEvent
from memory.api.candidate_wire import candidates_input, defaults
from memory.api.serializers import MAX_BATCH, NAMESPACE_RE, CandidateBatchInputSerializer
from memory.api.serializers import CandidateInputSerializer as ItemSerializer
from memory.models import MemoryRecord
from tests.helpers.api import assert_error
from tests.helpers.cast import candidate

BASE = {
    "memory_type": "semantic",
    "namespace": "assistant/profile",
    "statement": "User wants answers conclusion-first",
    "assertion_kind": "user_explicit",
    "confidence": 1.0,
    "purpose": "personalization",
    "consent_basis": "explicit_consent",
}
ODD_VALUES = [
    "",
    "  ",
    " padded ",
    "a\x00b",
    "\ud800",
    "x" * 301,
    "用户 喜欢",
    "ns/with space",
    "a/b/c",
    "home_city",
    "bad predicate!",
    "single",
    "multi",
    "agent_inference",
    "episodic",
    "contract",
    "confidential",
    "supersede",
    "nonsense",
    "dup-1",
    0,
    1,
    0.5,
    -0.1,
    1.0000001,
    float("inf"),
    float("nan"),
    10**400,
    True,
    None,
    [],
    ["dup-1", " dup-2 "],
    [" "],
    ["x" * 201],
    ["c"] * 51,
    {},
    # dates: aware, naive (made aware in the current zone), far future, date only,
    # malformed, out of range, an offset that overflows, a number, blank
    "2026-03-01T09:30:00Z",
    "2026-03-01T09:30:00",
    "2026-03-01T09:30:00.123456+05:30",
    "2999-12-31T23:59:59+00:00",
    "2026-03-01",
    "2026-13-01T00:00:00Z",
    "yesterday",
    "9999-12-31T23:59:59-05:00",
    "0001-01-01T00:00:00+01:00",
    1767225600,
]
FIELDS = [
    *BASE,
    "predicate",
    "cardinality",
    "sensitivity",
    "intent",
    "importance",
    "source_client_event_ids",
    "source_event_ids",
    "source_uri",
    "value",
    "valid_from",
    "valid_to",
    "expires_at",
    "target_record_id",
    "tenant",
]

change = st.tuples(st.sampled_from(FIELDS), st.sampled_from([*ODD_VALUES, "__delete__"]))
body_items = st.lists(st.lists(change, max_size=3), min_size=0, max_size=4)


def _item(changes) -> dict:
    out = dict(BASE)
    for name, value in changes:
        if value == "__delete__":
            out.pop(name, None)
        else:
            out[name] = value
    return out


def _reference(body) -> list[dict] | None:
    serializer = CandidateBatchInputSerializer(data=body)
    if not serializer.is_valid():
        return None
    return [dict(item) for item in serializer.validated_data["candidates"]]


def _same(plain: list[dict], reference: list[dict]) -> None:
    assert len(plain) == len(reference)
    for mine, theirs in zip(plain, reference, strict=True):
        assert mine == theirs
        assert {k: type(v) for k, v in mine.items()} == {k: type(v) for k, v in theirs.items()}


@settings(max_examples=400, deadline=None)
@given(items=body_items, wrap=st.sampled_from(["plain", "extra_key", "not_a_list", "too_many"]))
def test_plain_reader_answers_only_as_the_serializer_does(items, wrap):
    candidates = [_item(c) for c in items]
    body: object = {"candidates": candidates}
    if wrap == "extra_key":
        body = {"candidates": candidates, "subject": "user:bob"}
    elif wrap == "not_a_list":
        body = {"candidates": candidates[0] if candidates else "x"}
    elif wrap == "too_many":
        body = {"candidates": [dict(BASE) for _ in range(MAX_BATCH + 1)]}
    plain = candidates_input(body, max_items=MAX_BATCH)
    reference = _reference(body)
    if plain is not None:
        assert reference is not None, body
        _same(plain, reference)


def test_plain_bodies_are_read_by_the_plain_reader():
    """The property above would hold if the reader never answered: the bodies agents send
    (the bench's, the LoCoMo ingest's, with every optional field it reads) are plain."""
    bodies = [
        {"candidates": [candidate()]},
        {"candidates": [dict(BASE, statement=f"  fact {i} ") for i in range(MAX_BATCH)]},
        {
            "candidates": [
                dict(
                    BASE,
                    predicate="home_city",
                    cardinality="single",
                    sensitivity="confidential",
                    intent="supersede",
                    importance=1,
                    confidence=0,
                    consent_basis="",
                    purpose="",
                    source_client_event_ids=["turn-1", " turn-2 "],
                    memory_type="episodic",
                )
            ]
        },
        {  # the LoCoMo ingest's candidate (bench/perf/write_api.py turn_bodies)
            "candidates": [
                dict(
                    BASE,
                    memory_type="episodic",
                    valid_from="2023-05-08T13:56:00",
                    source_client_event_ids=["D1:3"],
                ),
                dict(BASE, valid_from="2023-05-08T13:56:00+00:00", valid_to=None),
                dict(
                    BASE,
                    valid_from="2023-05-08T13:56:00Z",
                    valid_to="2024-01-01T00:00:00+08:00",
                    expires_at="2999-01-01T00:00:00Z",
                ),
            ]
        },
    ]
    for body in bodies:
        plain = candidates_input(body, max_items=MAX_BATCH)
        assert plain is not None, body
        _same(plain, _reference(body))


def test_the_defaults_are_the_serializers():
    fields = ItemSerializer().fields
    mine = defaults()
    assert set(mine) == {n for n, f in fields.items() if not f.required}
    for name, value in mine.items():
        theirs = fields[name].get_default()
        assert value == theirs and type(value) is type(theirs), name
    assert defaults()["source_client_event_ids"] is not defaults()["source_client_event_ids"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        {"candidates": []},
        {"candidates": [candidate(confidence=2)]},
        {"candidates": [candidate(confidence="1")]},
        {"candidates": [candidate(statement="   ")]},
        {"candidates": [candidate(namespace="bad ns")]},
        {"candidates": [candidate(cardinality="single")]},
        {"candidates": [candidate(tenant="other")]},
        {"candidates": [candidate(memory_type="telepathy")]},
        {"candidates": [candidate()] * (MAX_BATCH + 1)},
        {"candidates": [candidate(source_client_event_ids=[""])]},
        {"candidates": "nope"},
        ["not", "an", "object"],
        {"candidates": [candidate(valid_from="2026-02-30T00:00:00Z")]},
        {"candidates": [candidate(valid_from="not a date")]},
        {"candidates": [candidate(valid_from=20260301)]},
        {"candidates": [candidate(valid_from="")]},
        {"candidates": [candidate(expires_at="9999-12-31T23:59:59-05:00")]},
        {
            "candidates": [
                candidate(valid_from="2026-03-01T00:00:00", valid_to="2026-03-01T00:00:00Z")
            ]
        },
    ],
)
def test_malformed_bodies_are_the_same_400_either_way(api, settings, body):
    answers = []
    for plain in (True, False):
        settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "PLAIN_VALIDATION": plain}
        answers.append(assert_error(api.post_json("/api/v1/candidates", body), 400))
    assert answers[0] == answers[1]
    assert not MemoryRecord.objects.exists()


def test_dates_are_read_as_the_serializer_reads_them():
    """Naive ones made aware in the current zone, offsets converted to it, far-future
    ones kept (the policy, not the body, judges a date): equal values and types."""
    for value in ("2026-03-01T09:30:00", "2026-03-01T09:30:00+05:30", "2999-01-01T00:00:00Z"):
        body = {"candidates": [dict(BASE, valid_from=value, expires_at=value)]}
        plain = candidates_input(body, max_items=MAX_BATCH)
        assert plain is not None and plain[0]["valid_from"].tzinfo is not None
        _same(plain, _reference(body))
    bad = {"candidates": [dict(BASE, valid_from="2026-03-01T00:00:00Z", valid_to="2026-02-01")]}
    assert candidates_input(bad, max_items=MAX_BATCH) is None and _reference(bad) is None


def _fresh(item: dict, namespace: str) -> dict:
    """``item`` in a namespace of its own when its namespace is one the API accepts."""
    value = item.get("namespace")
    if isinstance(value, str) and re.search(NAMESPACE_RE, value.strip()):
        return {**item, "namespace": namespace}
    return item


@pytest.mark.django_db
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(items=st.lists(st.lists(change, max_size=2), min_size=1, max_size=5))
def test_the_api_decides_the_same_either_way(api, settings, owner_subject, items):
    """The same bodies, each sent with the setting on and off (another namespace each
    time, so neither sees the other's records): the same status, errors and decisions,
    and the same audit rows; secrets and unknown sources in a batch included."""
    secret = dict(BASE, statement="my wifi password is Qv7!plumtree88")
    answers = []
    for plain in (True, False):
        settings.ENGRAM_WRITE_BATCH = {**settings.ENGRAM_WRITE_BATCH, "PLAIN_VALIDATION": plain}
        namespace = f"ns{plain}{len(answers)}{MemoryRecord.objects.count()}"
        candidates = [_fresh(_item(c), namespace) for c in items]
        candidates.append(dict(secret, namespace=namespace))
        audits = AuditEvent.objects.count()
        r = api.post_json("/api/v1/candidates", {"candidates": candidates})
        body = r.json()
        if r.status_code == 200:
            body = [(x["operation"], x["reason_code"], x["findings"]) for x in body["results"]]
        answers.append((r.status_code, body, AuditEvent.objects.count() - audits))
    assert answers[0] == answers[1]
