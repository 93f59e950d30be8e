"""``memory.api.conversation_wire`` reads a plain ``POST /conversation`` body exactly as
``ConversationTurnInputSerializer`` does, and hands every other body to it.

A Hypothesis property perturbs valid turn bodies (messages, thread ids, candidates with
dates) with values of every kind: wherever the plain reader answers, its answer equals the
serializer's ``validated_data``, value and type; where the serializer refuses, the plain
reader never answers. Through the API, with ``ENGRAM_INGEST_PLAIN_VALIDATION`` on and
off, the same bodies give the same status, the same error shape and the same decisions."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory.api.conversation import ConversationTurnInputSerializer
from memory.api.conversation_wire import turn_input
from memory.api.serializers import MAX_BATCH, NAMESPACE_RE
from memory.models import MemoryRecord, SourceEvent
from tests.helpers.api import assert_error
from tests.helpers.cast import candidate

URL = "/api/v1/conversation"
MESSAGE = {
    "client_event_id": "m1",
    "role": "user",
    "content": "I moved to Lisbon last spring.",
    "speaker": "Ana",
    "occurred_at": "2023-05-08T13:56:00",
}
CANDIDATE = candidate(
    memory_type="episodic",
    statement="Ana: I moved to Lisbon last spring.",
    valid_from="2023-05-08T13:56:00",
    source_client_event_ids=["m1"],
)
ODD = [
    "",
    " ",
    "  padded  ",
    "a\x00b",
    "\ud800",
    "x" * 201,
    "x" * 8001,
    "用户",
    "user",
    "assistant",
    "tool",
    "nobody",
    "2026-03-01T09:30:00Z",
    "2026-03-01T09:30:00",
    "2999-12-31T23:59:59+00:00",
    "2026-02-30T00:00:00",
    "9999-12-31T23:59:59-05:00",
    "soon",
    0,
    1.5,
    True,
    None,
    [],
    {},
]
MESSAGE_FIELDS = [*MESSAGE, "kind", "thread_id"]
CANDIDATE_FIELDS = ["statement", "valid_from", "valid_to", "expires_at", "value", "namespace"]
BODY_FIELDS = ["thread_id", "candidates", "messages", "subject"]
DELETE = "__delete__"

message_change = st.tuples(st.sampled_from(MESSAGE_FIELDS), st.sampled_from([*ODD, DELETE]))
candidate_change = st.tuples(st.sampled_from(CANDIDATE_FIELDS), st.sampled_from([*ODD, DELETE]))
body_change = st.tuples(st.sampled_from(BODY_FIELDS), st.sampled_from([*ODD, DELETE]))


def _changed(base: dict, changes) -> dict:
    out = dict(base)
    for name, value in changes:
        if value == DELETE:
            out.pop(name, None)
        else:
            out[name] = value
    return out


def _body(messages, candidates, changes, with_candidates: bool) -> dict:
    body: dict = {
        "thread_id": "session_1",
        "messages": [
            _changed({**MESSAGE, "client_event_id": f"m{i}"}, c) for i, c in enumerate(messages)
        ],
    }
    if with_candidates:
        body["candidates"] = [_changed(CANDIDATE, c) for c in candidates]
    return _changed(body, changes)


def _reference(body) -> dict | None:
    serializer = ConversationTurnInputSerializer(data=body)
    if not serializer.is_valid():
        return None
    data = dict(serializer.validated_data)
    data["messages"] = [dict(m) for m in data["messages"]]
    if "candidates" in data:
        data["candidates"] = [dict(c) for c in data["candidates"]]
    return data


def _types(value):
    if isinstance(value, dict):
        return {k: _types(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_types(v) for v in value]
    return type(value)


def _same(plain: dict, reference: dict) -> None:
    assert plain == reference
    assert _types(plain) == _types(reference)


@settings(max_examples=400, deadline=None)
@given(
    messages=st.lists(st.lists(message_change, max_size=2), min_size=0, max_size=3),
    candidates=st.lists(st.lists(candidate_change, max_size=2), max_size=3),
    changes=st.lists(body_change, max_size=1),
    with_candidates=st.booleans(),
)
def test_plain_reader_answers_only_as_the_serializer_does(
    messages, candidates, changes, with_candidates
):
    body = _body(messages, candidates, changes, with_candidates)
    plain = turn_input(body, max_items=MAX_BATCH)
    reference = _reference(body)
    if plain is not None:
        assert reference is not None, body
        _same(plain, reference)


def test_plain_bodies_are_read_by_the_plain_reader():
    """The property above would hold if the reader never answered: the bodies the
    LoCoMo ingest sends (bench/perf/write_api.py turn_bodies), and their variants, are."""
    locomo = {
        "thread_id": "conv-26:session_1",
        "messages": [{**MESSAGE, "client_event_id": f"m{i}"} for i in range(MAX_BATCH)],
        "candidates": [CANDIDATE] * MAX_BATCH,
    }
    bodies = [
        locomo,
        {"messages": [dict(MESSAGE, content="  spaces kept  ", occurred_at=None)]},
        {"messages": [dict(MESSAGE, content="   ")], "candidates": [], "thread_id": ""},
        {
            "messages": [{"client_event_id": " m9 ", "role": "assistant", "content": "好的"}],
            "candidates": [dict(CANDIDATE, valid_from="2999-01-01T00:00:00+08:00")],
        },
    ]
    for body in bodies:
        plain = turn_input(body, max_items=MAX_BATCH)
        assert plain is not None, body
        _same(plain, _reference(body))


def test_bodies_the_serializer_refuses_are_left_to_it():
    refused = [
        {"messages": []},
        {"messages": [MESSAGE] * (MAX_BATCH + 1)},
        {"messages": [dict(MESSAGE, content="")]},
        {"messages": [dict(MESSAGE, occurred_at="2026-02-30T00:00:00")]},
        {"messages": [MESSAGE], "candidates": [dict(CANDIDATE, valid_from="later")]},
        {"messages": [MESSAGE], "candidates": None},
        {"messages": [MESSAGE], "thread_id": "x" * 201},
    ]
    for body in refused:
        assert _reference(body) is None, body
        assert turn_input(body, max_items=MAX_BATCH) is None, body


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body",
    [
        {"messages": []},
        {"messages": [dict(MESSAGE, occurred_at="2026-02-30T00:00:00")]},
        {"messages": [dict(MESSAGE, occurred_at="not a date")]},
        {"messages": [MESSAGE], "candidates": [dict(CANDIDATE, valid_from="2023-13-01")]},
        {"messages": [MESSAGE], "candidates": [dict(CANDIDATE, valid_from=1683554160)]},
        {
            "messages": [MESSAGE],
            "candidates": [dict(CANDIDATE, valid_to="2023-05-08T13:56:00+00:00")],
        },
        {"messages": [dict(MESSAGE, role="narrator")]},
        {"messages": [MESSAGE], "subject": "user:bob"},
        ["not", "an", "object"],
    ],
)
def test_malformed_bodies_are_the_same_400_either_way(api, settings, body):
    answers = []
    for plain in (True, False):
        settings.ENGRAM_INGEST = {**settings.ENGRAM_INGEST, "PLAIN_VALIDATION": plain}
        answers.append(assert_error(api.post_json(URL, body), 400))
    assert answers[0] == answers[1]
    assert not SourceEvent.objects.exists() and not MemoryRecord.objects.exists()


@pytest.mark.django_db
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    messages=st.lists(st.lists(message_change, max_size=1), min_size=1, max_size=3),
    candidates=st.lists(st.lists(candidate_change, max_size=1), max_size=3),
)
def test_the_api_answers_the_same_either_way(api, settings, messages, candidates):
    """The same turn with the setting on and off (other client ids and namespace each
    time, so neither sees the other's rows): the same status, errors, events and decisions,
    future-dated, naive and offset dates included."""
    answers = []
    for plain in (True, False):
        settings.ENGRAM_INGEST = {**settings.ENGRAM_INGEST, "PLAIN_VALIDATION": plain}
        tag = f"{plain}-{SourceEvent.objects.count()}-{MemoryRecord.objects.count()}"
        body = _body(messages, candidates, [], True)
        for m in body["messages"]:
            if isinstance(m.get("client_event_id"), str) and m["client_event_id"].strip():
                m["client_event_id"] = f"{tag}-{m['client_event_id'].strip()}"
        for c in body["candidates"]:
            c["source_client_event_ids"] = [f"{tag}-m0"]
            if isinstance(c.get("namespace"), str) and re.search(NAMESPACE_RE, c["namespace"]):
                c["namespace"] = f"ns{tag.replace('-', '')}".lower()
        r = api.post_json(URL, body)
        # An error may name the ids and namespace the body was given: this side's tag.
        named = json.dumps(r.json()).replace(tag, "TAG")
        out = json.loads(named.replace(f"ns{tag.replace('-', '')}".lower(), "nsTAG"))
        if r.status_code == 200:
            out = (
                [(e["created"], e["redactions"], e["error"]) for e in out["events"]],
                [(c["operation"], c["reason_code"], c["findings"]) for c in out["candidates"]],
            )
        answers.append((r.status_code, out))
    assert answers[0] == answers[1]
