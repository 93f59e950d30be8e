"""The user's list shows what is believed now; ended versions live in a memory's history."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from governance.services import Actor
from memory.selectors import memory_counts_for_user, memory_history, memory_list_for_user
from memory.services.writes import candidates_submit
from memory.write_policy import Candidate

pytestmark = pytest.mark.django_db


def city(value: str, start) -> Candidate:
    return Candidate(
        memory_type="semantic",
        namespace="personal/profile",
        statement=f"Lives in {value}",
        predicate="home_city",
        value=value,
        assertion_kind="user_explicit",
        confidence=1.0,
        purpose="personalization",
        consent_basis="explicit_consent",
        valid_from=start,
    )


def test_ended_versions_are_history_not_current(owner_subject):
    actor = Actor.system(owner_subject.tenant_id)
    now = timezone.now()
    candidates_submit(
        actor=actor, subject=owner_subject, candidates=[city("Munich", now - timedelta(days=300))]
    )
    [berlin] = candidates_submit(
        actor=actor, subject=owner_subject, candidates=[city("Berlin", now - timedelta(days=30))]
    )
    current = list(memory_list_for_user(subject=owner_subject))
    assert [r.value for r in current] == ["Berlin"]
    assert memory_counts_for_user(subject=owner_subject)["active"] == 1
    history = [r.value for r in memory_history(record=current[0])]
    assert history.count("Munich") == 2 and history[-1] == "Berlin"
