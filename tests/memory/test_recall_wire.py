"""``ENGRAM_RECALL_PLAIN_SERIALIZERS``: recall's body read and answer written without
building the DRF serializers give exactly what the serializers give — the validated body
of any plain body (others go to the serializer), the answer's JSON byte for byte — and
the API answers the same with the setting on and off, errors included."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta, timezone

import pytest
from django.test import override_settings
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from rest_framework.renderers import JSONRenderer

from memory.api import recall as recall_api
from memory.api.recall_wire import recall_answer, recall_input
from memory.models import AssertionKind, MemoryStatus, MemoryType
from memory.recall import RecallResult
from memory.recall.pack import RecallItem
from memory.recall.routing import REASONS, USES
from tests.helpers.retrieval import PURPOSE, remember

LIMITS = {"query": recall_api._QUERY_MAX, "purpose": recall_api._PURPOSE_MAX}

# Strings near every edge the serializer checks: blank, whitespace around, NUL,
# surrogates, the length limits.
edge_text = st.one_of(
    st.text(st.characters(codec=None, categories=("L", "N", "Zs", "Cc", "Cs", "P"))),
    st.sampled_from(["", " ", "\t\n", " a ", "\x00", "a\x00", "\ud800", "q\udfff"]),
    st.integers(1995, 2005).map(lambda n: "x" * n),
    st.integers(95, 105).map(lambda n: " " + "p" * n + " "),
)
body_value = st.one_of(edge_text, st.integers(), st.none(), st.booleans(), st.lists(st.text()))


@given(
    body=st.dictionaries(
        st.sampled_from(["query", "purpose", "k", "route", "tenant"]), body_value, max_size=4
    )
    | st.fixed_dictionaries({"query": edge_text, "purpose": edge_text})
)
@hypothesis_settings(max_examples=300, deadline=None)
def test_a_plain_body_is_read_as_the_serializer_reads_it(body):
    plain = recall_input(body, max_chars=LIMITS, defaults=recall_api._INPUT_DEFAULTS)
    if plain is None:
        return  # the serializer reads it (and answers any error)
    serializer = recall_api.RecallInputSerializer(data=body)
    assert serializer.is_valid(), serializer.errors
    assert plain == dict(serializer.validated_data)


option_value = st.one_of(
    st.integers(-3, 60),
    st.integers(90, 8010),
    st.sampled_from([*recall_api.ROUTE_MODES, "ALL", "", " all"]),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False),
    st.sampled_from(["10", "1.0", "true", 1.0, 10.0]),
    st.lists(st.integers(), max_size=2),
)


@given(
    query=edge_text,
    purpose=edge_text,
    extra=st.dictionaries(
        st.sampled_from(["k", "token_budget", "route", "include_future", "as_of", "tenant"]),
        option_value,
        max_size=4,
    ),
)
@hypothesis_settings(max_examples=400, deadline=None)
def test_a_plain_body_with_options_is_read_as_the_serializer_reads_it(query, purpose, extra):
    """``ENGRAM_RECALL_PLAIN_OPTIONS``: k, token_budget, route and include_future beside
    the query and the purpose are read as the serializer reads them, or left to it."""
    body = {"query": query, "purpose": purpose, **extra}
    plain = recall_input(
        body,
        max_chars=LIMITS,
        defaults=recall_api._INPUT_DEFAULTS,
        options=recall_api._plain_options(),
    )
    if plain is None:
        return
    serializer = recall_api.RecallInputSerializer(data=body)
    assert serializer.is_valid(), serializer.errors
    assert plain == dict(serializer.validated_data)


def test_the_bodies_agents_send_are_plain_with_options():
    options = recall_api._plain_options()
    for body in (
        {"query": "Where does Caroline live?", "purpose": PURPOSE, "k": 10},
        {"query": "a", "purpose": PURPOSE, "k": 50, "token_budget": 100, "route": "auto"},
        {"query": "a", "purpose": PURPOSE, "include_future": True, "route": "inject_only"},
    ):
        plain = recall_input(
            body, max_chars=LIMITS, defaults=recall_api._INPUT_DEFAULTS, options=options
        )
        serializer = recall_api.RecallInputSerializer(data=body)
        assert serializer.is_valid() and plain == dict(serializer.validated_data)
        # Without the setting they are left to the serializer.
        assert recall_input(body, max_chars=LIMITS, defaults=recall_api._INPUT_DEFAULTS) is None
    for body in (
        {"query": "a", "purpose": PURPOSE, "k": 0},
        {"query": "a", "purpose": PURPOSE, "k": 51},
        {"query": "a", "purpose": PURPOSE, "k": True},
        {"query": "a", "purpose": PURPOSE, "k": "10"},
        {"query": "a", "purpose": PURPOSE, "k": 10.0},
        {"query": "a", "purpose": PURPOSE, "token_budget": 99},
        {"query": "a", "purpose": PURPOSE, "route": "ALL"},
        {"query": "a", "purpose": PURPOSE, "include_future": 1},
        {"query": "a", "purpose": PURPOSE, "as_of": None},
        {"query": "a", "k": 10},
    ):
        plain = recall_input(
            body, max_chars=LIMITS, defaults=recall_api._INPUT_DEFAULTS, options=options
        )
        assert plain is None, body


def test_plain_bodies_are_read_without_the_serializer():
    for body in (
        {"query": " Where does Caroline live? ", "purpose": PURPOSE},
        {"query": "用户住在哪里？", "purpose": "x" * 100},
    ):
        plain = recall_input(body, max_chars=LIMITS, defaults=recall_api._INPUT_DEFAULTS)
        serializer = recall_api.RecallInputSerializer(data=body)
        assert serializer.is_valid() and plain == dict(serializer.validated_data)
        # Lists are new each time: a caller may change its own.
        assert plain["memory_types"] is not recall_api._INPUT_DEFAULTS["memory_types"]
    for body in ({"query": "a", "purpose": "x" * 101}, {"query": "a", "purpose": 5}, {}):
        assert recall_input(body, max_chars=LIMITS, defaults=recall_api._INPUT_DEFAULTS) is None


times = st.datetimes(
    min_value=datetime(1970, 1, 2),
    max_value=datetime(2100, 1, 1),
    timezones=st.sampled_from([UTC, timezone(timedelta(hours=8)), timezone(timedelta(hours=-5))]),
)
maybe = st.none
item = st.builds(
    RecallItem,
    id=st.uuids(),
    memory_type=st.sampled_from([*MemoryType.values, *MemoryType, "other"]),
    namespace=st.text(max_size=8),
    predicate=st.text(max_size=8),
    statement=st.text(max_size=40),
    value=st.none() | st.dictionaries(st.text(max_size=4), st.integers() | st.text(max_size=4)),
    assertion_kind=st.sampled_from(AssertionKind.values),
    confidence=st.floats(0, 1) | st.integers(0, 1),
    importance=st.floats(0, 1) | st.integers(0, 1),
    status=st.sampled_from(MemoryStatus.values),
    valid_from=times,
    valid_to=maybe() | times,
    recorded_at=times,
    source_uri=st.text(max_size=8),
    source_event_ids=st.lists(st.uuids(), max_size=3),
    scores=st.dictionaries(
        st.sampled_from(["lexical", "vector", "final", "fused"]),
        st.floats(-2, 5) | st.integers(0, 3) | st.none(),
    ),
    flags=st.lists(st.sampled_from(["inferred", "future_dated", "about_someone_else"])),
    use=st.sampled_from([*USES, ""]),
    use_reason=st.sampled_from([*REASONS, ""]),
)
result = st.builds(
    RecallResult,
    trace_id=maybe() | st.uuids(),
    items=st.lists(item, max_size=4),
    context_pack=st.text(max_size=40),
    as_of=times,
    known_at=maybe() | times,
    empty_reason=st.sampled_from(["", "no_relevant_memory"]),
    dropped_by_budget=st.integers(0, 5),
    vector_pending=st.integers(0, 5),
    vector_unavailable=st.booleans(),
    reranker=st.sampled_from(["", "rerank/x"]),
    rerank_error=st.text(max_size=8),
)


@given(result=result, zone=st.sampled_from(["UTC", "Asia/Shanghai", "America/New_York"]))
@hypothesis_settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_the_answer_is_the_serializers_byte_for_byte(settings, result, zone):
    with override_settings(TIME_ZONE=zone):
        with override_settings(
            ENGRAM_RETRIEVAL={**settings.ENGRAM_RETRIEVAL, "PLAIN_SERIALIZERS": False}
        ):
            reference = recall_api._answer(result)
        plain = recall_answer(result)
    assert JSONRenderer().render(plain) == JSONRenderer().render(reference)
    assert plain == reference


@pytest.mark.django_db
def test_the_api_answers_the_same_either_way(read_agent, owner_subject, settings):
    remember(owner_subject, "User prefers aisle seats", predicate="seat", value={"side": "aisle"})
    remember(owner_subject, "User lives in Ghent", predicate="home_city")
    client = read_agent.client(owner_subject)
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "FREEZE_ACCESS": True}

    def answer(body) -> tuple[int, dict]:
        response = client.post_json("/api/v1/recall", body)
        out = response.json()
        if response.status_code == 200:
            out.pop("trace_id"), out.pop("as_of")
            out["context_pack"] = re.sub(r'as_of="[^"]*"', "", out["context_pack"])
        return response.status_code, out

    bodies = [
        {"query": "aisle seat preference", "purpose": PURPOSE},
        {"query": "  where does the user live ", "purpose": PURPOSE},
        {"query": "where does the user live", "purpose": PURPOSE, "k": 1},
        {"query": "where does the user live", "purpose": PURPOSE, "k": 0},
        {"query": "aisle seat", "purpose": PURPOSE, "k": 2, "route": "inject_only"},
        {"query": "aisle seat", "purpose": PURPOSE, "token_budget": 100, "include_future": True},
        {"query": "aisle seat", "purpose": PURPOSE, "k": "2", "route": "nope"},
        {"query": "   ", "purpose": PURPOSE},
        {"query": "a\x00b", "purpose": PURPOSE},
        {"query": "x" * 2001, "purpose": PURPOSE},
        {"query": 7, "purpose": PURPOSE},
        {"query": "seat", "purpose": PURPOSE, "tenant": str(uuid.uuid4())},
        {"query": "seat"},
        ["not", "an", "object"],
    ]
    for body in bodies:
        got = {}
        for on, options in ((False, False), (True, False), (True, True)):
            settings.ENGRAM_RETRIEVAL = {
                **settings.ENGRAM_RETRIEVAL,
                "PLAIN_SERIALIZERS": on,
                "PLAIN_OPTIONS": options,
            }
            got[on, options] = answer(body)
        assert got[True, True] == got[True, False] == got[False, False], body
    got[True] = got[True, True]
    assert got[True][0] == 400
