"""A change that names a record someone else changed first is a conflict the caller can act
on (``target_changed``, naming the current version), not "nothing to change" — whether the
two writes ran one after the other or at the same moment. A record that never existed for
this subject is still "nothing to change", and reveals nothing about other subjects."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection

from memory.models import MemoryRecord, MemoryStatus

PURPOSE = "personalization"


def _write(api, statement: str, value: str, **extra) -> dict:
    body = {
        "memory_type": "semantic",
        "namespace": "assistant/profile",
        "predicate": "employer",
        "statement": statement,
        "value": value,
        "assertion_kind": "user_explicit",
        "confidence": 1.0,
        "purpose": PURPOSE,
        "consent_basis": "explicit_consent",
        **extra,
    }
    response = api.post_json("/api/v1/candidates", {"candidates": [body]})
    assert response.status_code == 200, response.content
    return response.json()["results"][0]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("first", "second", "third", "intent"),
    [
        (
            ("User works at Quillfield", "Quillfield"),
            ("User works at Brightmoor", "Brightmoor"),
            ("User works at Ostrander", "Ostrander"),
            "correct",
        ),
        (
            ("用户在青禾科技工作", "青禾科技"),
            ("用户在远帆物流工作", "远帆物流"),
            ("用户在松石设计工作", "松石设计"),
            "correct",
        ),
        (
            ("User works at Quillfield", "Quillfield"),
            ("User works at Brightmoor", "Brightmoor"),
            ("User no longer works at Quillfield", "Quillfield"),
            "retract",
        ),
    ],
)
def test_a_change_to_a_record_changed_first_is_a_conflict(
    api, owner_subject, first, second, third, intent
):
    original = _write(api, *first)
    assert original["operation"] == "ADD"
    winner = _write(api, *second, intent="correct", target_record_id=original["record_id"])
    assert winner["operation"] == "SUPERSEDE"
    loser = _write(api, *third, intent=intent, target_record_id=original["record_id"])
    assert loser["operation"] == "REJECT"
    assert loser["reason_code"] == "target_changed"
    assert loser["target_id"] == winner["record_id"]  # what to read before trying again
    current = MemoryRecord.objects.get(
        subject=owner_subject, predicate="employer", status=MemoryStatus.ACTIVE, valid_to=None
    )
    assert current.value == second[1]


@pytest.mark.django_db
def test_a_record_that_never_existed_here_is_still_nothing_to_change(
    api, owner_subject, other_tenant_agent, other_tenant_user
):
    other = other_tenant_agent.client(other_tenant_user[1])
    theirs = _write(other, "User works at Harrowgate", "Harrowgate")
    for target in (str(uuid.uuid4()), theirs["record_id"]):
        result = _write(
            api, "User works at Brightmoor", "Brightmoor", intent="correct", target_record_id=target
        )
        assert result["operation"] == "REJECT"
        assert result["reason_code"] == "nothing_to_change"
        assert result["target_id"] is None


@pytest.mark.django_db
def test_a_retracted_memory_has_no_current_version_to_name(api, owner_subject):
    original = _write(api, "用户在青禾科技工作", "青禾科技")
    assert (
        _write(
            api,
            "用户在青禾科技工作",
            "青禾科技",
            intent="retract",
            target_record_id=original["record_id"],
        )["operation"]
        == "RETRACT"
    )
    again = _write(
        api,
        "用户在远帆物流工作",
        "远帆物流",
        intent="correct",
        target_record_id=original["record_id"],
    )
    assert (again["operation"], again["reason_code"], again["target_id"]) == (
        "REJECT",
        "target_changed",
        None,
    )


@pytest.mark.django_db(transaction=True)
def test_two_corrections_at_the_same_moment_one_wins_the_other_conflicts(
    write_agent, owner_subject
):
    original = _write(write_agent.client(owner_subject), "User works at Quillfield", "Quillfield")
    barrier = threading.Barrier(2)
    results: dict[str, dict] = {}

    def correct(value: str) -> None:
        try:
            client = write_agent.client(owner_subject)
            barrier.wait()
            results[value] = _write(
                client,
                f"User works at {value}",
                value,
                intent="correct",
                target_record_id=original["record_id"],
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=correct, args=(v,)) for v in ("Brightmoor", "Ostrander")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    outcomes = sorted((r["operation"], r["reason_code"]) for r in results.values())
    assert outcomes == [("REJECT", "target_changed"), ("SUPERSEDE", "correction")], results
    [winner] = [r for r in results.values() if r["operation"] == "SUPERSEDE"]
    [loser] = [r for r in results.values() if r["operation"] == "REJECT"]
    assert loser["target_id"] == winner["record_id"]
    assert (
        MemoryRecord.objects.filter(
            subject=owner_subject, predicate="employer", status=MemoryStatus.ACTIVE, valid_to=None
        ).count()
        == 1
    )
