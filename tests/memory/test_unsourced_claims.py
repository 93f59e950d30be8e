"""An agent's "the user said so" without a cited user event (write policy, step 8):
kept, but it never outranks a sourced statement — it cannot supersede, correct or retract
one, and a sourced statement replaces it. zh and en."""

from __future__ import annotations

import itertools

import pytest

from memory.models import MemoryRecord, MemoryStatus

pytestmark = pytest.mark.django_db

_ids = itertools.count()


def _event(api, content: str) -> str:
    client_id = f"u-{next(_ids)}"
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
    assert response.status_code == 200
    return client_id


def _city(api, city: str, *, source: str | None = None, **extra):
    body = {
        "memory_type": "semantic",
        "namespace": "assistant/profile",
        "predicate": "home_city",
        "statement": f"User lives in {city}",
        "value": city,
        "assertion_kind": "user_explicit",
        "confidence": 1.0,
        "purpose": "personalization",
        "consent_basis": "explicit_consent",
        **extra,
    }
    if source:
        body["source_client_event_ids"] = [source]
    response = api.post_json("/api/v1/candidates", {"candidates": [body]})
    assert response.status_code == 200, response.content
    return response.json()["results"][0]


def _current_value(subject):
    [record] = MemoryRecord.objects.filter(
        subject=subject, status=MemoryStatus.ACTIVE, predicate="home_city", valid_to__isnull=True
    )
    return record.value


@pytest.mark.parametrize(
    ("said", "city", "claimed"),
    [("I live in Hangzhou", "Hangzhou", "Shanghai"), ("我住在杭州", "杭州", "上海")],
)
def test_unsourced_claim_never_replaces_a_sourced_statement(
    api, owner_subject, said, city, claimed
):
    first = _city(api, city, source=_event(api, said))
    assert first["operation"] == "ADD"
    out = _city(api, claimed)  # no source event
    assert (out["operation"], out["reason_code"]) == ("REJECT", "outranked_by_existing"), out
    assert _current_value(owner_subject) == city
    # nor can it correct or retract it
    fix = _city(api, claimed, intent="correct", target_record_id=first["record_id"])
    assert fix["operation"] == "REJECT" and fix["reason_code"] == "outranked_by_existing"
    gone = api.post_json(
        f"/api/v1/memories/{first['record_id']}/retract", {"assertion_kind": "user_explicit"}
    ).json()
    assert (gone["operation"], gone["reason_code"]) == ("REJECT", "outranked_by_existing")
    assert _current_value(owner_subject) == city


@pytest.mark.parametrize(
    ("said", "city", "claimed"),
    [("I moved to Shanghai", "Shanghai", "Hangzhou"), ("我搬到上海了", "上海", "杭州")],
)
def test_a_sourced_statement_replaces_an_unsourced_claim(api, owner_subject, said, city, claimed):
    assert _city(api, claimed)["operation"] == "ADD"
    out = _city(api, city, source=_event(api, said))
    assert (out["operation"], out["reason_code"]) == ("SUPERSEDE", "higher_authority"), out
    assert _current_value(owner_subject) == city


def test_unsourced_claims_still_update_each_other(api, owner_subject):
    assert _city(api, "Berlin")["operation"] == "ADD"
    out = _city(api, "Munich", valid_from="2099-01-01T00:00:00Z")
    assert (out["operation"], out["reason_code"]) == ("SUPERSEDE", "newer_value")


def test_a_sourced_retraction_still_works(api, owner_subject):
    first = _city(api, "Hangzhou", source=_event(api, "I live in Hangzhou"))
    source = _event(api, "That's wrong, forget where I live")
    gone = api.post_json(
        f"/api/v1/memories/{first['record_id']}/retract",
        {"assertion_kind": "user_explicit", "source_client_event_ids": [source]},
    ).json()
    assert gone["operation"] == "RETRACT"
