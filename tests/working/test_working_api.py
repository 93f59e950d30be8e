"""Working memory over the API, on both stores (PostgreSQL and a real Redis): overwrite,
time-to-live, size limits, isolation between tenants and subjects, malformed input,
secrets refused, never recalled, dropped by consent withdrawal and listed by erasure."""

from __future__ import annotations

import json
import time

import pytest
from django.db import connection

from memory.models import WorkingMemoryEntry
from memory.services.subject_data import (
    subject_consent_withdraw,
    subject_memory_pause_set,
)
from tests.helpers.api import assert_error
from tests.helpers.cast import agent_with_key, person
from tests.helpers.retrieval import PURPOSE, remember

pytestmark = pytest.mark.django_db(transaction=False)

BASE = "/api/v1/threads/{thread}/working"


def url(thread: str = "t1", key: str | None = None) -> str:
    base = BASE.format(thread=thread)
    return f"{base}/{key}" if key else base


def put(client, key, value, thread="t1", **body):
    return client.put(
        url(thread, key), json.dumps({"value": value, **body}), content_type="application/json"
    )


def test_put_get_list_delete_and_overwrite(api, wm_store):
    first = put(api, "plan", {"step": 1, "todo": ["draft", "review"]})
    assert first.status_code == 200, first.content
    assert first.json()["value"] == {"step": 1, "todo": ["draft", "review"]}
    assert first.json()["size_bytes"] == len(b'{"step":1,"todo":["draft","review"]}')
    # Overwrite: the same key holds the last value only.
    assert put(api, "plan", {"step": 2}).status_code == 200
    assert put(api, "城市", "上海").status_code == 200
    got = api.get(url(key="plan"))
    assert got.status_code == 200 and got.json()["value"] == {"step": 2}
    listed = api.get(url()).json()
    assert [e["key"] for e in listed["results"]] == sorted(["plan", "城市"])
    assert listed["total_bytes"] == sum(e["size_bytes"] for e in listed["results"])
    assert api.delete(url(key="plan")).status_code == 204
    assert_error(api.get(url(key="plan")), 404, "not_found")
    assert_error(api.delete(url(key="plan")), 404, "not_found")
    # Threads are apart: another thread of the same subject sees nothing of t1.
    assert api.get(url("t2")).json()["results"] == []
    # A thread id may have parts ("conversation/42"), as event thread ids may; a key named
    # like a route word is still a key.
    assert put(api, "working", "nested", thread="conv/42").status_code == 200
    assert api.get(url("conv/42", "working")).json()["value"] == "nested"
    assert [e["key"] for e in api.get(url("conv/42")).json()["results"]] == ["working"]
    assert api.get(url("conv")).json()["results"] == []


def test_expired_values_are_never_returned(api, wm_store):
    assert put(api, "scratch", "soon gone", ttl_seconds=1).status_code == 200
    assert put(api, "kept", "still here", ttl_seconds=600).status_code == 200
    time.sleep(1.2)
    assert_error(api.get(url(key="scratch")), 404, "not_found")
    assert [e["key"] for e in api.get(url()).json()["results"]] == ["kept"]


def test_default_and_bounded_ttl(api, wm_store, settings):
    body = put(api, "k", 1).json()
    assert body["expires_at"]
    too_long = settings.ENGRAM_WORKING_MEMORY["MAX_TTL_SECONDS"] + 1
    assert_error(put(api, "k", 1, ttl_seconds=too_long), 400, "invalid_ttl")
    assert_error(put(api, "k", 1, ttl_seconds=0), 400, "invalid_ttl")


def test_value_and_thread_size_limits(api, wm_store, settings):
    settings.ENGRAM_WORKING_MEMORY = {
        **settings.ENGRAM_WORKING_MEMORY,
        "MAX_VALUE_BYTES": 100,
        "MAX_THREAD_BYTES": 250,
    }
    body = assert_error(put(api, "big", "x" * 200), 413, "value_too_large")
    assert body["extra"]["max_value_bytes"] == 100
    for key in ("a", "b"):
        assert put(api, key, "y" * 90).status_code == 200
    full = assert_error(put(api, "c", "z" * 90), 413, "thread_full")
    assert full["extra"]["max_thread_bytes"] == 250
    assert_error(api.get(url(key="c")), 404)
    # Overwriting a key counts its new size, not old + new.
    assert put(api, "a", "w" * 95).status_code == 200
    # Multibyte text counts bytes, not characters.
    assert_error(put(api, "zh", "记" * 40), 413, "value_too_large")


def test_other_tenant_and_other_subject_see_nothing(
    api, wm_store, write_agent, same_tenant_user, other_tenant_agent, other_tenant_user
):
    assert put(api, "plan", "alice's draft").status_code == 200
    bob = write_agent.client(same_tenant_user[1])
    assert_error(bob.get(url(key="plan")), 404, "not_found")
    assert bob.get(url()).json()["results"] == []
    assert_error(bob.delete(url(key="plan")), 404)
    mallory = other_tenant_agent.client(other_tenant_user[1])
    assert_error(mallory.get(url(key="plan")), 404, "not_found")
    assert mallory.get(url()).json()["results"] == []
    assert api.get(url(key="plan")).json()["value"] == "alice's draft"


def test_scopes_and_credentials(read_agent, owner_subject, wm_store, api):
    assert put(api, "plan", 1).status_code == 200
    reader = read_agent.client(owner_subject)
    assert reader.get(url(key="plan")).status_code == 200
    assert_error(put(reader, "plan", 2), 403)
    assert_error(reader.delete(url(key="plan")), 403)
    anonymous = api.__class__()
    assert anonymous.get(url(key="plan")).status_code in (401, 403)


@pytest.mark.parametrize(
    ("path", "body", "code"),
    [
        (url(key="bad key"), {"value": 1}, "invalid_working_key"),
        (url(key="k" * 129), {"value": 1}, "invalid_working_key"),
        (url(key=".hidden"), {"value": 1}, "invalid_working_key"),
        (url(thread="t" * 201, key="k"), {"value": 1}, "invalid_thread_id"),
        (url(thread="a//b", key="k"), {"value": 1}, "invalid_thread_id"),
        (url(thread="a b", key="k"), {"value": 1}, "invalid_thread_id"),
        (url(key="k"), {"ttl_seconds": 5}, "invalid_input"),
        (url(key="k"), {"value": 1, "extra": 2}, "invalid_input"),
        (url(key="k"), {"value": 1, "ttl_seconds": "soon"}, "invalid_input"),
        (url(key="k"), [1, 2], "invalid_input"),
    ],
)
def test_malformed_input_is_400_in_the_error_shape(api, wm_store, path, body, code):
    response = api.put(path, json.dumps(body), content_type="application/json")
    assert_error(response, 400, code)


def test_malformed_json_is_400(api, wm_store):
    response = api.put(url(key="k"), "{not json", content_type="application/json")
    assert_error(response, 400)


@pytest.mark.parametrize(
    "value",
    [
        "my password is Tr0ub4dor&3xq",
        {"login": {"password": "Tr0ub4dor&3xq"}},
        ["notes", "AKIAIOSFODNN7EXAMPLE"],
        "我的密码是 Xk9#mQ2$vL",
        {"备注": "银行卡密码：839201"},
    ],
)
def test_secrets_are_refused_and_nothing_is_stored(api, wm_store, value):
    body = assert_error(put(api, "creds", value), 422, "secret_detected")
    assert body["extra"]["paths"]
    # The refusal never echoes the secret.
    assert "Tr0ub4dor" not in json.dumps(body) and "839201" not in json.dumps(body)
    assert_error(api.get(url(key="creds")), 404)


def test_ordinary_values_pass_the_secret_check(api, wm_store):
    for value in (
        {"task": "compare flight prices", "budget": 1200},
        "用户想订下周去杭州的高铁票",
        {"password_policy": "rotate every 90 days"},
    ):
        assert put(api, "state", value).status_code == 200, value


def test_recall_never_returns_working_memory(api, owner_subject, wm_store):
    remember(owner_subject, "User prefers tea over coffee")
    marker = "quokka-vermilion-4417"
    assert put(api, "note", f"The launch codename is {marker} for the tea order").status_code == 200
    assert put(api, "备注", f"代号{marker}，用户喜欢喝茶").status_code == 200
    for query in (marker, f"launch codename {marker}", f"代号 {marker} 喝茶"):
        response = api.post_json("/api/v1/recall", {"query": query, "purpose": PURPOSE, "k": 20})
        assert response.status_code == 200, response.content
        assert marker not in response.content.decode()
    # The memories themselves never learned it either.
    listed = api.get("/api/v1/memories").json()
    assert marker not in json.dumps(listed)


def test_pause_refuses_puts_but_reads_still_work(api, owner, wm_store):
    user, subject = owner
    assert put(api, "plan", "draft").status_code == 200
    subject_memory_pause_set(user=user, subject=subject, paused=True)
    assert_error(put(api, "plan", "changed"), 403, "memory_paused")
    assert api.get(url(key="plan")).json()["value"] == "draft"
    subject_memory_pause_set(user=user, subject=subject, paused=False)
    assert put(api, "plan", "changed").status_code == 200


def test_consent_withdrawal_drops_working_memory_and_refuses_puts(
    api, owner, wm_store, write_agent, same_tenant_user
):
    user, subject = owner
    bob = write_agent.client(same_tenant_user[1])
    assert put(api, "plan", "draft").status_code == 200
    assert put(api, "plan", "x", thread="t2").status_code == 200
    assert put(bob, "plan", "bob's").status_code == 200
    subject_consent_withdraw(user=user, subject=subject, erase_everything=False)
    assert api.get(url()).json()["results"] == []
    assert api.get(url("t2")).json()["results"] == []
    body = assert_error(put(api, "plan", "again"), 403, "consent_withdrawn")
    assert "withdrawn" in body["message"]
    # Another user's working memory is untouched.
    assert bob.get(url(key="plan")).json()["value"] == "bob's"


def test_erasure_drops_working_memory_and_the_receipt_lists_it(
    owner_subject, wm_store, api, tenant
):
    assert put(api, "plan", "draft").status_code == 200
    assert put(api, "步骤", ["一", "二"], thread="t2").status_code == 200
    gateway = agent_with_key(tenant, "erasure-gateway", ["read", "write", "admin"])
    response = gateway.client(owner_subject).post_json("/api/v1/subject/erase", {"confirm": True})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["receipt"]["working_memory"] == 2
    assert body["verification"]["working_memory"] == 0
    assert not any(body["verification"].values())


def test_erasure_of_one_subject_leaves_another_subjects_working_memory(
    owner_subject, wm_store, api, tenant, write_agent
):
    bob_user, bob = person(tenant, "bob2")
    bob_api = write_agent.client(bob)
    assert put(bob_api, "plan", "bob's").status_code == 200
    assert put(api, "plan", "alice's").status_code == 200
    gateway = agent_with_key(tenant, "erasure-gateway", ["admin"])
    gateway.client(owner_subject).post_json("/api/v1/subject/erase", {"confirm": True})
    assert bob_api.get(url(key="plan")).json()["value"] == "bob's"


def test_postgres_store_is_unlogged_and_expired_rows_are_purged(api, tenant, settings):
    settings.ENGRAM_WORKING_MEMORY = {**settings.ENGRAM_WORKING_MEMORY, "URL": "postgres"}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relpersistence FROM pg_class WHERE relname = 'memory_workingmemoryentry'"
        )
        assert cursor.fetchone()[0] == "u"
    assert put(api, "old", 1, ttl_seconds=1).status_code == 200
    assert put(api, "new", 2, ttl_seconds=600).status_code == 200
    time.sleep(1.2)
    from core.tenancy import tenant_context
    from memory.tasks import working_memory_purge_tenant

    # The beat job's per-tenant task, run as a worker runs it (tenant context, run_job).
    working_memory_purge_tenant.apply(args=(str(tenant.id),)).get()
    with tenant_context(tenant.id):
        assert list(WorkingMemoryEntry.objects.values_list("key", flat=True)) == ["new"]


def test_broker_redis_is_used_when_no_working_memory_url(settings):
    from memory.working.store import PostgresStore, RedisStore, working_store

    settings.ENGRAM_WORKING_MEMORY = {**settings.ENGRAM_WORKING_MEMORY, "URL": ""}
    settings.CELERY_BROKER_URL = "memory://"
    assert isinstance(working_store(), PostgresStore)
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/0"
    assert isinstance(working_store(), RedisStore)
    settings.ENGRAM_WORKING_MEMORY = {**settings.ENGRAM_WORKING_MEMORY, "URL": "postgres"}
    assert isinstance(working_store(), PostgresStore)


def test_export_leaves_working_memory_out(api, owner_subject, wm_store, tenant):
    marker = "wombat-cerulean-5520"
    assert put(api, "note", f"draft {marker}").status_code == 200
    remember(owner_subject, "User prefers tea over coffee", embed=False)
    gateway = agent_with_key(tenant, "export-gateway", ["admin"])
    response = gateway.client(owner_subject).get("/api/v1/subject/export")
    assert response.status_code == 200, response.content
    assert "tea over coffee" in response.content.decode()
    assert marker not in response.content.decode()


def test_withdrawal_stands_when_redis_is_down_and_nothing_is_read_back(api, owner, settings):
    """The withdrawal commits even if the store cannot be reached; afterwards reads
    return nothing and drop what was left once the store answers."""
    user, subject = owner
    from tests.working.conftest import REDIS_URL

    settings.ENGRAM_WORKING_MEMORY = {**settings.ENGRAM_WORKING_MEMORY, "URL": REDIS_URL}
    assert put(api, "plan", "draft").status_code == 200
    settings.ENGRAM_WORKING_MEMORY = {
        **settings.ENGRAM_WORKING_MEMORY,
        "URL": "redis://127.0.0.1:1/0",  # nothing listens on port 1
    }
    subject_consent_withdraw(user=user, subject=subject, erase_everything=False)
    subject.refresh_from_db()
    assert subject.consent_withdrawn_at is not None
    settings.ENGRAM_WORKING_MEMORY = {**settings.ENGRAM_WORKING_MEMORY, "URL": REDIS_URL}
    assert_error(api.get(url(key="plan")), 404)
    assert api.get(url()).json()["results"] == []
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    assert not list(client.scan_iter(match=f"engram:wm:{subject.tenant_id}:{subject.id}:*"))
    client.close()
