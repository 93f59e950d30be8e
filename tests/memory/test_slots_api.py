"""Memories by slot (namespace + predicate): ``PUT /api/v1/memories/by-slot`` puts and
deletes many slots in one request without reading first, each through the write policy;
``POST /api/v1/memories/by-slot/lookup`` reads many. Time-to-live maps to ``expires_at``
and "refresh on read" moves it. Negative cases: secrets, an inference against what the
user said, duplicate slots, deleting nothing, other subjects, read-only keys."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from memory.models import MemoryRecord
from tests.helpers.api import assert_error

pytestmark = pytest.mark.django_db

PUT = "/api/v1/memories/by-slot"
LOOKUP = "/api/v1/memories/by-slot/lookup"


def put(key: str, value, ns: str = "langgraph/prefs", **kw) -> dict:
    body = {
        "namespace": ns,
        "predicate": f"lg.{key}",
        "statement": f"{key}: {value}",
        "value": value,
        "assertion_kind": "agent_inference",
        "confidence": 0.8,
        "purpose": "personalization",
        "consent_basis": "legitimate_interest",
    }
    return body | kw


def _put(api, *writes, status: int = 200, **headers) -> list[dict]:
    r = api.generic(
        "PUT",
        PUT,
        data=json.dumps({"writes": list(writes)}),
        content_type="application/json",
        **headers,
    )
    assert r.status_code == status, r.content
    return r.json()["results"] if status == 200 else r.json()


def _lookup(api, *slots, **extra) -> list[dict | None]:
    body = {"slots": [{"namespace": ns, "predicate": f"lg.{k}"} for ns, k in slots]} | extra
    r = api.post_json(LOOKUP, body)
    assert r.status_code == 200, r.content
    return [x["record"] for x in r.json()["results"]]


def test_put_many_then_get_many(api):
    results = _put(api, put("units", {"system": "metric"}), put("颜色", "blue"), put("tz", "CET"))
    assert [r["operation"] for r in results] == ["ADD", "ADD", "ADD"]
    found = _lookup(
        api, ("langgraph/prefs", "units"), ("langgraph/prefs", "颜色"), ("langgraph/other", "tz")
    )
    assert found[0]["value"] == {"system": "metric"} and found[1]["value"] == "blue"
    assert found[2] is None  # exactly that namespace


def test_a_new_value_supersedes_and_the_same_value_confirms(api):
    [first] = _put(api, put("units", "metric"))
    [same] = _put(api, put("units", "metric"))
    assert same["operation"] == "CONFIRM" and same["target_id"] == first["record_id"]
    [new] = _put(api, put("units", "imperial"))
    assert new["operation"] == "SUPERSEDE" and new["target_id"] == first["record_id"]
    [current] = _lookup(api, ("langgraph/prefs", "units"))
    assert current["id"] == new["record_id"] and current["value"] == "imperial"
    old = MemoryRecord.objects.get(id=first["record_id"])
    assert old.status == "superseded"  # kept in history


def test_delete_by_slot_and_deleting_nothing(api):
    [added] = _put(api, put("units", "metric"))
    deleted, nothing = _put(
        api,
        {
            "namespace": "langgraph/prefs",
            "predicate": "lg.units",
            "delete": True,
            "assertion_kind": "user_explicit",
        },
        {
            "namespace": "langgraph/prefs",
            "predicate": "lg.none",
            "delete": True,
            "assertion_kind": "user_explicit",
        },
    )
    assert deleted["operation"] == "DELETE" and deleted["target_id"] == added["record_id"]
    assert (nothing["operation"], nothing["reason_code"]) == ("REJECT", "nothing_to_change")
    assert _lookup(api, ("langgraph/prefs", "units")) == [None]


def test_the_policy_still_decides(api):
    secret, said = _put(
        api,
        put("wifi", "hunter2!x9Q", statement="my wifi password is hunter2!x9Q"),
        put(
            "city",
            "Berlin",
            assertion_kind="user_explicit",
            confidence=1.0,
            consent_basis="explicit_consent",
        ),
    )
    assert secret["operation"] == "REJECT" and secret["reason_code"] == "secret_detected"
    assert said["operation"] == "ADD"
    # An inference never replaces what the user said, even as a put.
    [guess] = _put(api, put("city", "Munich"))
    assert guess["operation"] != "SUPERSEDE"
    assert _lookup(api, ("langgraph/prefs", "city"))[0]["value"] == "Berlin"
    assert _lookup(api, ("langgraph/prefs", "wifi")) == [None]


def test_time_to_live_and_refresh_on_read(api):
    soon = timezone.now() + timedelta(minutes=5)
    [added] = _put(api, put("mood", "busy", expires_at=soon.isoformat()), put("units", "metric"))[
        :1
    ]
    record = MemoryRecord.objects.get(id=added["record_id"])
    assert abs((record.expires_at - soon).total_seconds()) < 1
    found = _lookup(
        api, ("langgraph/prefs", "mood"), ("langgraph/prefs", "units"), refresh_ttl_seconds=3600
    )
    assert found[1]["expires_at"] is None  # no time-to-live: none is added
    record.refresh_from_db()
    assert record.expires_at > timezone.now() + timedelta(minutes=59)
    # The same value put again with a new time-to-live starts it again.
    later = timezone.now() + timedelta(days=2)
    _put(api, put("mood", "busy", expires_at=later.isoformat()))
    record.refresh_from_db()
    assert abs((record.expires_at - later).total_seconds()) < 1


def test_past_its_time_to_live_a_record_is_not_current(api):
    past = timezone.now() - timedelta(seconds=1)
    [added] = _put(
        api, put("mood", "busy", expires_at=(timezone.now() + timedelta(hours=1)).isoformat())
    )
    MemoryRecord.objects.filter(id=added["record_id"]).update(expires_at=past)
    assert _lookup(api, ("langgraph/prefs", "mood")) == [None]
    assert api.get("/api/v1/memories").json()["count"] == 0


def test_bad_batches_are_400_and_write_nothing(api, owner_subject):
    dup = assert_error(
        api.generic(
            "PUT",
            PUT,
            data=json.dumps({"writes": [put("a", 1), put("a", 2)]}),
            content_type="application/json",
        ),
        400,
        "invalid_input",
    )
    assert "writes" in dup["extra"]["fields"]
    missing = put("a", 1)
    del missing["statement"]
    assert "statement" in str(_put(api, missing, status=400)["extra"]["fields"])
    assert_error(
        api.post_json(LOOKUP, {"slots": [{"namespace": "a b", "predicate": "x"}]}),
        400,
        "invalid_input",
    )
    assert not MemoryRecord.objects.filter(subject=owner_subject).exists()


def test_scopes_and_subjects(api, read_agent, write_agent, owner_subject, same_tenant_user):
    _put(api, put("units", "metric"))
    reader = read_agent.client(owner_subject)
    assert (
        reader.post_json(
            LOOKUP, {"slots": [{"namespace": "langgraph/prefs", "predicate": "lg.units"}]}
        ).status_code
        == 200
    )
    assert_error(
        reader.post_json(
            LOOKUP,
            {
                "slots": [{"namespace": "langgraph/prefs", "predicate": "lg.units"}],
                "refresh_ttl_seconds": 60,
            },
        ),
        403,
    )
    assert_error(
        reader.generic("PUT", PUT, data='{"writes": []}', content_type="application/json"), 403
    )
    other = write_agent.client(same_tenant_user[1])
    assert _lookup(other, ("langgraph/prefs", "units")) == [None]


def test_a_replayed_put_applies_nothing_twice(api, owner_subject):
    first = _put(api, put("units", "metric"), HTTP_IDEMPOTENCY_KEY="outbox-1")
    again = _put(api, put("units", "metric"), HTTP_IDEMPOTENCY_KEY="outbox-1")
    assert again == first
    assert MemoryRecord.objects.get(id=first[0]["record_id"]).evidence_count == 1
