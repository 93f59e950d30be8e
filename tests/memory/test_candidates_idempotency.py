"""``Idempotency-Key`` on ``POST /api/v1/candidates``: a replay returns the first answer and
writes nothing; the key is scoped by tenant, agent and subject; two concurrent requests
with one key apply once."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings
from django.utils import timezone

from core.models import AuditEvent
from memory.models import IdempotencyKey, MemoryRecord
from tests.helpers.cast import candidate

pytestmark = pytest.mark.django_db

URL = "/api/v1/candidates"


def post(client, body, key=None):
    headers = {} if key is None else {"HTTP_IDEMPOTENCY_KEY": key}
    return client.post_json(URL, body, **headers)


def snapshot(subject):
    records = MemoryRecord.objects.filter(subject=subject)
    return {
        "records": records.count(),
        "versions": sorted((str(r.id), r.status, r.evidence_count) for r in records),
        "audit": AuditEvent.objects.filter(subject_id=subject.id).count(),
    }


def assert_error(response, status, code):
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"code", "message", "extra"} and body["message"], body
    assert body["code"] == code, body


def test_replay_returns_the_stored_answer_and_writes_nothing(api, owner_subject):
    body = {"candidates": [candidate()]}
    first = post(api, body, key="turn-7:write-1")
    assert first.status_code == 200, first.content
    assert first.json()["results"][0]["operation"] == "ADD"
    assert "Idempotent-Replayed" not in first
    before = snapshot(owner_subject)
    assert before["records"] == 1 and before["audit"] >= 1

    for _ in range(2):
        replay = post(api, body, key="turn-7:write-1")
        assert replay.status_code == 200
        assert replay.json() == first.json()
        assert replay["Idempotent-Replayed"] == "true"
    # No new record or version, no CONFIRM (evidence_count unchanged), no audit rows.
    assert snapshot(owner_subject) == before

    # Without the key the same body is a new request: the policy confirms the fact.
    again = post(api, body)
    assert again.json()["results"][0]["operation"] == "CONFIRM"
    assert MemoryRecord.objects.get(subject=owner_subject).evidence_count == 2


def test_same_key_with_another_body_is_refused(api, owner_subject):
    assert post(api, {"candidates": [candidate()]}, key="k1").status_code == 200
    before = snapshot(owner_subject)
    other = {"candidates": [candidate(statement="User prefers tea over coffee")]}
    assert_error(post(api, other, key="k1"), 422, "idempotency_key_reused")
    assert snapshot(owner_subject) == before


def test_key_order_and_spacing_of_the_body_do_not_matter(api, owner_subject):
    body = candidate()
    assert post(api, {"candidates": [body]}, key="k2").status_code == 200
    reordered = {"candidates": [dict(reversed(list(body.items())))]}
    replay = post(api, reordered, key="k2")
    assert replay.status_code == 200 and replay["Idempotent-Replayed"] == "true"


@pytest.mark.parametrize(
    "key",
    ["", "x" * 201, "caf\u00e9", "tab\there", "\u5199\u5165-1"],
    ids=["empty", "too-long", "latin1", "control-char", "chinese"],
)
def test_bad_key_is_a_400_and_writes_nothing(api, owner_subject, key):
    headers = {"HTTP_IDEMPOTENCY_KEY": key.encode("utf-8").decode("latin-1")}
    r = api.post_json(URL, {"candidates": [candidate()]}, **headers)
    assert_error(r, 400, "invalid_idempotency_key")
    assert snapshot(owner_subject)["records"] == 0
    assert IdempotencyKey.objects.count() == 0


def test_longest_and_punctuated_keys_are_accepted(api, owner_subject):
    for key in ("x" * 200, "a", "outbox:3f2c~!@#$%^&*() ='\"{}"):
        body = {"candidates": [candidate(statement=f"User likes {len(key)} things")]}
        assert post(api, body, key=key).status_code == 200
        assert post(api, body, key=key)["Idempotent-Replayed"] == "true"


def test_invalid_body_is_not_stored_and_the_key_stays_usable(api, owner_subject):
    bad = post(api, {"candidates": [candidate(confidence=7)]}, key="k3")
    assert bad.status_code == 400
    assert IdempotencyKey.objects.count() == 0
    ok = post(api, {"candidates": [candidate()]}, key="k3")
    assert ok.status_code == 200 and "Idempotent-Replayed" not in ok


def test_keys_are_scoped_by_agent_subject_and_tenant(
    tenant, write_agent, owner_subject, same_tenant_user, other_tenant, other_tenant_user
):
    from tests.helpers.cast import agent_with_key

    body = {"candidates": [candidate()]}
    key = "shared-key"
    second_agent = agent_with_key(tenant, "second", ["read", "write"])
    other_agent = agent_with_key(other_tenant, "other", ["read", "write"])
    clients = [
        write_agent.client(owner_subject),
        second_agent.client(owner_subject),  # other agent, same subject
        write_agent.client(same_tenant_user[1]),  # same agent, other subject
        other_agent.client(other_tenant_user[1]),  # other tenant
    ]
    operations = []
    for client in clients:
        r = post(client, body, key=key)
        assert r.status_code == 200, r.content
        assert "Idempotent-Replayed" not in r
        operations.append(r.json()["results"][0]["operation"])
    # The second agent's write on the same subject is applied: it confirms the fact.
    assert operations == ["ADD", "CONFIRM", "ADD", "ADD"]
    assert IdempotencyKey.objects.count() == 4


def test_an_expired_key_is_ignored(api, owner_subject):
    body = {"candidates": [candidate()]}
    assert post(api, body, key="k4").status_code == 200
    IdempotencyKey.objects.update(created_at=timezone.now() - timedelta(hours=25))
    again = post(api, body, key="k4")
    assert "Idempotent-Replayed" not in again
    assert again.json()["results"][0]["operation"] == "CONFIRM"
    # The row was taken over: within the TTL the new answer replays.
    assert post(api, body, key="k4").json() == again.json()
    assert IdempotencyKey.objects.count() == 1


def test_ttl_is_a_setting(api, owner_subject):
    body = {"candidates": [candidate()]}
    assert post(api, body, key="k5").status_code == 200
    IdempotencyKey.objects.update(created_at=timezone.now() - timedelta(hours=30))
    with override_settings(ENGRAM={**settings.ENGRAM, "IDEMPOTENCY_TTL_HOURS": 48}):
        assert post(api, body, key="k5")["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in post(api, body, key="k5")


@pytest.mark.django_db(transaction=True)
def test_concurrent_requests_with_one_key_apply_once(write_agent, owner_subject):
    body = {"candidates": [candidate()]}
    barrier = threading.Barrier(2)
    responses = []

    def worker():
        try:
            client = write_agent.client(owner_subject)
            barrier.wait()
            responses.append(post(client, body, key="race"))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.status_code for r in responses] == [200, 200]
    replayed = sorted(r.get("Idempotent-Replayed", "") for r in responses)
    assert replayed == ["", "true"]
    assert responses[0].json() == responses[1].json()
    record = MemoryRecord.objects.get(subject=owner_subject)
    assert record.evidence_count == 1
