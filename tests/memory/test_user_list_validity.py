"""The user's list shows what is believed now; ended versions live in a memory's history."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from core.actor import Actor
from memory.selectors import memory_counts_for_user, memory_history, memory_list_for_user
from memory.services.writes import candidates_submit
from tests.helpers.memories import home_city

pytestmark = pytest.mark.django_db


def test_ended_versions_are_history_not_current(owner_subject):
    actor = Actor.system(owner_subject.tenant_id)
    now = timezone.now()
    candidates_submit(
        actor=actor,
        subject=owner_subject,
        candidates=[home_city("Munich", now - timedelta(days=300))],
    )
    [berlin] = candidates_submit(
        actor=actor,
        subject=owner_subject,
        candidates=[home_city("Berlin", now - timedelta(days=30))],
    )
    current = list(memory_list_for_user(subject=owner_subject))
    assert [r.value for r in current] == ["Berlin"]
    assert memory_counts_for_user(subject=owner_subject)["active"] == 1
    history = [r.value for r in memory_history(record=current[0])]
    assert history.count("Munich") == 2 and history[-1] == "Berlin"


def test_detail_page_lists_the_agents_that_recalled_it(owner, owner_subject, read_agent):
    from django.test import Client

    from tests.helpers.retrieval import recall, remember

    outcome = remember(owner_subject, "User prefers green tea in the afternoon")
    result = recall(read_agent.agent, owner_subject, "green tea")
    assert [i.id for i in result.items] == [outcome.record_id]
    client = Client()
    client.force_login(owner[0])
    page = client.get(f"/memories/{outcome.record_id}")
    assert page.status_code == 200
    assert read_agent.agent.name.encode() in page.content
    assert b"No agent has used this memory yet." not in page.content
