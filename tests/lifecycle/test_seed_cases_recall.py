"""Seed 001 §11, the read side: what the background extractor wrote is what the next
session's recall returns — the new value now, the old one "back then", never another
user's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memory.models import MemoryRecord
from memory.services.indexing import index_pending_records
from tests.helpers.lifecycle import append, extract

pytestmark = pytest.mark.django_db


def _recall(agent, subject, query, **kw):
    """A new session: a fresh subject token, nothing carried over but memory."""
    index_pending_records(MemoryRecord.objects.values_list("id", flat=True))
    r = agent.client(subject).post_json(
        "/api/v1/recall", {"query": query, "purpose": "personalization", **kw}
    )
    assert r.status_code == 200, r.content
    return r.json()


def test_seed_case_1_an_explicit_preference_is_recalled_next_session(
    write_agent, read_agent, owner_subject
):
    extract(append(write_agent, owner_subject, "Remember that I prefer tea over coffee."))
    body = _recall(read_agent, owner_subject, "tea or coffee?")
    assert [i["statement"] for i in body["items"]] == ["I prefer tea over coffee"]
    assert "I prefer tea over coffee" in body["context_pack"]


def test_seed_case_3_now_the_new_value_back_then_the_old(write_agent, read_agent, owner_subject):
    earlier = timezone.now() - timedelta(days=10)
    extract(append(write_agent, owner_subject, "我现在住在北京", occurred_at=earlier))
    between = timezone.now()
    extract(append(write_agent, owner_subject, "不对，我住在杭州"))
    now = _recall(read_agent, owner_subject, "我住在哪里？")
    assert [i["value"] for i in now["items"]] == ["杭州"]
    # What we *believed* before the correction arrived (known_at) was Beijing.
    believed = _recall(
        read_agent,
        owner_subject,
        "我住在哪里？",
        known_at=between.isoformat(),
    )
    assert [i["value"] for i in believed["items"]] == ["北京"]


def test_seed_case_4_same_question_two_users(
    write_agent, read_agent, owner_subject, same_tenant_user
):
    bob = same_tenant_user[1]
    extract(append(write_agent, owner_subject, "Remember that I prefer tea over coffee."))
    extract(append(write_agent, bob, "Remember that I prefer coffee over tea."))
    assert [
        i["statement"] for i in _recall(read_agent, owner_subject, "tea or coffee?")["items"]
    ] == ["I prefer tea over coffee"]
    assert [i["statement"] for i in _recall(read_agent, bob, "tea or coffee?")["items"]] == [
        "I prefer coffee over tea"
    ]
