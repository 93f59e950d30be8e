"""Event ids are scoped per subject (issue 31, class 6): one agent serving many users may
use "turn-1" for each of them. Another user's identical id is not an error and reveals
nothing; candidates citing it resolve to that user's own event; a real conflict (same
user, same id, other content) is a 409 that the Python client raises."""

from __future__ import annotations

import pytest

from memory.models import MemoryRecord, MemorySource, SourceEvent

pytestmark = pytest.mark.django_db


def _append(client, content: str, client_id: str = "turn-1"):
    return client.post_json(
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


def _cite(client, statement: str, client_id: str = "turn-1") -> dict:
    response = client.post_json(
        "/api/v1/candidates",
        {
            "candidates": [
                {
                    "memory_type": "semantic",
                    "namespace": "assistant/profile",
                    "statement": statement,
                    "assertion_kind": "user_explicit",
                    "confidence": 1.0,
                    "purpose": "personalization",
                    "consent_basis": "explicit_consent",
                    "source_client_event_ids": [client_id],
                }
            ]
        },
    )
    assert response.status_code == 200, response.content
    return response.json()["results"][0]


@pytest.mark.parametrize(
    ("said_a", "said_b"),
    [
        ("I grow tomatoes on the balcony", "I collect fountain pens"),
        ("我在阳台种番茄", "我收藏钢笔"),
    ],
)
def test_two_users_of_one_agent_may_both_use_turn_1(
    write_agent, owner_subject, same_tenant_user, said_a, said_b
):
    alice = write_agent.client(owner_subject)
    bob = write_agent.client(same_tenant_user[1])
    first, second = _append(alice, said_a), _append(bob, said_b)
    assert first.status_code == second.status_code == 200
    a, b = first.json()["results"][0], second.json()["results"][0]
    assert a["created"] and b["created"] and a["error"] is None and b["error"] is None
    assert a["event_id"] != b["event_id"]
    # Each user's candidate cites that user's own event.
    for client, subject, statement, event_id in (
        (alice, owner_subject, f"User said: {said_a}", a["event_id"]),
        (bob, same_tenant_user[1], f"User said: {said_b}", b["event_id"]),
    ):
        result = _cite(client, statement)
        assert result["operation"] == "ADD", result
        record = MemoryRecord.objects.get(pk=result["record_id"])
        assert record.subject_id == subject.id
        assert [
            str(e)
            for e in MemorySource.objects.filter(record=record).values_list("event_id", flat=True)
        ] == [event_id]


def test_another_users_id_reveals_nothing(write_agent, owner_subject, same_tenant_user):
    """Bob's answer is the same whether or not Alice used the id: created, no error."""
    alice = write_agent.client(owner_subject)
    bob = write_agent.client(same_tenant_user[1])
    _append(alice, "I drive a blue van", "turn-7")
    seen = _append(bob, "I cycle to work", "turn-7").json()["results"][0]
    fresh = _append(bob, "I cycle to work on Fridays", "turn-8").json()["results"][0]
    assert set(seen) == set(fresh)
    assert (seen["created"], seen["error"], seen["redactions"]) == (True, None, 0)
    assert SourceEvent.objects.filter(client_event_id="turn-7").count() == 2


def test_a_real_conflict_is_an_error_for_that_user_only(
    write_agent, owner_subject, same_tenant_user
):
    alice = write_agent.client(owner_subject)
    bob = write_agent.client(same_tenant_user[1])
    assert _append(alice, "我住在苏州").status_code == 200
    assert _append(bob, "我住在无锡").status_code == 200
    clash = _append(alice, "我住在南京")
    assert clash.status_code == 409
    assert set(clash.json()) == {"code", "message", "extra"}
    assert clash.json()["code"] == "idempotency_conflict"
    assert _append(bob, "我住在无锡").json()["results"][0]["created"] is False  # a retry
