"""The README flow end to end, in English and Chinese (issue 14, class 3): append the
user's message as an event, submit the explicit candidate (home city) citing it, let
background extraction run on the same event (before or after the candidate), later report
a move — and "where does the user live now?" has exactly one answer.

Extraction and the API share one predicate vocabulary (memory/predicates.py): home city,
location and residence are one slot, and a sentence is never a city."""

from __future__ import annotations

import pytest

from memory.models import MemoryRecord, MemoryStatus, SourceEvent
from memory.predicates import canonical_predicate, clean_place, value_problem
from tests.helpers.lifecycle import extract

pytestmark = pytest.mark.django_db

FLOWS = {
    "en": {
        "said": "I live in Hangzhou now, by the West Lake.",
        "city": "Hangzhou",
        "statement": "User lives in Hangzhou",
        "moved": "I moved to Shanghai last week.",
        "new_city": "Shanghai",
        "question": "Where does the user live now?",
    },
    "zh": {
        "said": "我现在住在杭州，离西湖很近。",
        "city": "杭州",
        "statement": "用户住在杭州",
        "moved": "我搬到了上海。",
        "new_city": "上海",
        "question": "用户现在住在哪里？",
    },
}


def _append(api, client_id: str, content: str) -> SourceEvent:
    response = api.post_json(
        "/api/v1/events",
        {
            "events": [
                {
                    "client_event_id": client_id,
                    "kind": "message",
                    "role": "user",
                    "content": content,
                }
            ]
        },
    )
    assert response.status_code == 200, response.content
    return SourceEvent.objects.get(pk=response.json()["results"][0]["event_id"])


def _candidate(api, *, predicate: str, value, statement: str, sources: list[str]):
    response = api.post_json(
        "/api/v1/candidates",
        {
            "candidates": [
                {
                    "memory_type": "semantic",
                    "namespace": "assistant/profile",
                    "predicate": predicate,
                    "statement": statement,
                    "value": value,
                    "assertion_kind": "user_explicit",
                    "confidence": 1.0,
                    "purpose": "personalization",
                    "consent_basis": "explicit_consent",
                    "source_client_event_ids": sources,
                }
            ]
        },
    )
    assert response.status_code == 200, response.content
    return response.json()["results"][0]


def _current(subject) -> list[MemoryRecord]:
    return list(
        MemoryRecord.objects.filter(
            subject=subject, status=MemoryStatus.ACTIVE, valid_to__isnull=True
        ).exclude(predicate="")
    )


def _recall_values(api, question: str) -> list:
    response = api.post_json(
        "/api/v1/recall", {"query": question, "purpose": "personalization", "k": 5}
    )
    assert response.status_code == 200, response.content
    return [item.get("value") for item in response.json()["items"]]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("extraction_first", [False, True])
def test_readme_flow_has_one_current_home(api, owner_subject, lang, extraction_first):
    flow = FLOWS[lang]
    event = _append(api, f"{lang}-1", flow["said"])
    if extraction_first:
        extract(event)
    out = _candidate(
        api,
        predicate="home_city",
        value=flow["city"],
        statement=flow["statement"],
        sources=[f"{lang}-1"],
    )
    assert out["operation"] in ("ADD", "CONFIRM"), out
    if not extraction_first:
        extract(event)  # the background job on the same event adds no parallel slot
    [home] = _current(owner_subject)
    assert (home.predicate, home.value) == ("home_city", flow["city"])

    moved = _append(api, f"{lang}-2", flow["moved"])
    extract(moved)
    [home] = _current(owner_subject)
    assert (home.predicate, home.value) == ("home_city", flow["new_city"])
    old = MemoryRecord.objects.filter(subject=owner_subject, value=flow["city"])
    assert not old.filter(status=MemoryStatus.ACTIVE, valid_to__isnull=True).exists()

    values = _recall_values(api, flow["question"])
    assert flow["new_city"] in values and flow["city"] not in values, values


@pytest.mark.parametrize(
    ("predicate", "value"),
    [
        ("location", "Hangzhou"),
        ("residence", "杭州"),
        ("Home-City", "Hangzhou"),
        ("居住地", "杭州"),
    ],
)
def test_api_synonyms_land_in_the_one_slot(api, owner_subject, predicate, value):
    _append(api, "s-1", "I live in Shanghai")
    first = _candidate(
        api,
        predicate="home_city",
        value="Shanghai",
        statement="User lives in Shanghai",
        sources=["s-1"],
    )
    assert first["operation"] == "ADD"
    _append(api, "s-2", f"I moved, I live in {value} now")
    second = _candidate(
        api, predicate=predicate, value=value, statement=f"User lives in {value}", sources=["s-2"]
    )
    assert second["operation"] == "SUPERSEDE", second
    [home] = _current(owner_subject)
    assert (home.predicate, home.value) == ("home_city", value)


@pytest.mark.parametrize(
    "garbage",
    [
        "Hangzhou in June, I live there now",
        "I live in Hangzhou",
        "杭州，我现在住那里",
        "我住在杭州",
        "Shanghai. Moving next month to Berlin",
        "a very long description of the place where I am living these days",
    ],
)
def test_a_sentence_is_not_a_city(api, owner_subject, garbage):
    _append(api, "g-1", garbage)
    out = _candidate(
        api, predicate="location", value=garbage, statement=f"User: {garbage}", sources=["g-1"]
    )
    assert (out["operation"], out["reason_code"]) == ("REJECT", "invalid_value"), out
    assert _current(owner_subject) == []


@pytest.mark.parametrize(
    "city", ["Hangzhou", "New York", "São Paulo", "杭州", "乌鲁木齐", "St. Petersburg", "Xi'an"]
)
def test_real_city_names_are_accepted(city):
    assert value_problem("home_city", city) is None


def test_vocabulary_maps_synonyms_and_passes_others_through():
    assert canonical_predicate("Location") == "home_city"
    assert canonical_predicate("current-city") == "home_city"
    assert canonical_predicate("住址") == "home_city"
    assert canonical_predicate("answer_style") == "answer_style"
    assert canonical_predicate("Favourite Tea") == "favourite_tea"
    assert canonical_predicate("") == ""


@pytest.mark.parametrize(
    ("raw", "place"),
    [
        ("Hangzhou in June, I live there now", "Hangzhou"),
        ("Berlin now", "Berlin"),
        ("上海了", "上海"),
        ("杭州，挺好的", "杭州"),
        ("a small flat near the river with my two cats and a dog", ""),
    ],
)
def test_extractor_cuts_a_place_to_its_name(raw, place):
    assert clean_place(raw) == place
