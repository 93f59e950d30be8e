"""A sensitive detail an assistant proposed waits for the user; the user can confirm it
(then it is an active memory confirmed by the user) — only the owner, only when pending."""

from __future__ import annotations

import pytest
from django.test import Client

from core.models import AuditEvent
from memory.models import MemoryRecord
from tests.helpers.cast import candidate

pytestmark = pytest.mark.django_db


@pytest.fixture
def pending(api):
    r = api.post_json(
        "/api/v1/candidates",
        {
            "candidates": [
                candidate(
                    statement="我的手机号 13812345678",
                    assertion_kind="agent_inference",
                    confidence=0.7,
                )
            ]
        },
    )
    result = r.json()["results"][0]
    assert (result["operation"], result["reason_code"]) == (
        "QUARANTINE",
        "sensitive_needs_confirmation",
    )
    return MemoryRecord.objects.get(pk=result["record_id"])


def _client(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_owner_confirms_a_pending_sensitive_memory(owner, pending):
    page = _client(owner[0]).get(f"/memories/{pending.id}")
    assert b"Yes, remember this" in page.content
    r = _client(owner[0]).post(f"/memories/{pending.id}/confirm")
    assert r.status_code == 302
    pending.refresh_from_db()
    assert pending.status == "superseded" and pending.status_reason == "confirmed_by_user"
    active = MemoryRecord.objects.get(subject=pending.subject, status="active")
    assert active.statement == pending.statement
    assert active.assertion_kind == "user_confirmed" and active.sensitivity == "restricted"
    assert r["Location"] == f"/memories/{active.id}"
    assert AuditEvent.objects.filter(action="memory.confirm", record_id=pending.id).exists()


def test_only_the_owner_and_only_pending(owner, same_tenant_user, other_tenant_user, pending, api):
    for user in (same_tenant_user[0], other_tenant_user[0]):
        assert _client(user).post(f"/memories/{pending.id}/confirm").status_code == 404
    assert _client(owner[0]).get(f"/memories/{pending.id}/confirm").status_code == 405
    assert Client().post(f"/memories/{pending.id}/confirm").status_code == 302  # to sign-in
    pending.refresh_from_db()
    assert pending.status == "pending_confirmation"
    # An active memory is not "confirmed" again.
    rid = api.post_json("/api/v1/candidates", {"candidates": [candidate()]}).json()["results"][0][
        "record_id"
    ]
    r = _client(owner[0]).post(f"/memories/{rid}/confirm", follow=True)
    assert b"not waiting for your confirmation" in r.content
    assert MemoryRecord.objects.get(pk=rid).status == "active"
