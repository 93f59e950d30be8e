"""The read-replica rules, end to end, against a real primary and streaming replica.

Run by tests/ops/test_replica.py in a subprocess (Django must start with
``DATABASE_URL`` / ``DATABASE_REPLICA_URL`` pointing at the throwaway servers, which
pytest-django's own database settings cannot do). Exits non-zero on the first failed
check; prints one line per check passed."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

import psycopg  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import connections  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from prometheus_client import REGISTRY  # noqa: E402

from accounts.services.credentials import api_key_issue  # noqa: E402
from accounts.services.tenants import agent_create, tenant_create  # noqa: E402
from core.actor import Actor  # noqa: E402
from core.db_router import PRIMARY, REPLICA, PrimaryReplicaRouter, replica_reads  # noqa: E402
from memory.models import MemoryRecord  # noqa: E402
from memory.services.subject_tokens import subject_token_issue  # noqa: E402
from memory.services.subjects import subject_get_or_create  # noqa: E402
from memory.services.user_memory import subject_consent_withdraw  # noqa: E402

REPLICA_DSN = os.environ["DATABASE_REPLICA_URL"]
PURPOSE = "personalization"


def check(ok: bool, what: str) -> None:
    if not ok:
        print(f"FAILED: {what}", flush=True)
        sys.exit(1)
    print(f"ok: {what}", flush=True)


def reads(target: str, reason: str) -> float:
    return (
        REGISTRY.get_sample_value(
            "engram_replica_reads_total", {"target": target, "reason": reason}
        )
        or 0.0
    )


def replica_sql(sql: str):
    with psycopg.connect(REPLICA_DSN, autocommit=True) as conn:
        return conn.execute(sql).fetchone()


def wait_for_replay() -> None:
    with connections[PRIMARY].cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn()::text")
        target = cursor.fetchone()[0]
    for _ in range(200):
        if replica_sql(f"SELECT pg_last_wal_replay_lsn() >= '{target}'::pg_lsn")[0]:
            return
        time.sleep(0.05)
    check(False, "replica replays within 10 s")


def client_for(agent, key, subject) -> Client:
    token = subject_token_issue(tenant_id=agent.tenant_id, agent_id=agent.id, subject_id=subject.id)
    return Client(HTTP_AUTHORIZATION=f"Bearer {key}", HTTP_X_ENGRAM_SUBJECT_TOKEN=token)


def write(client: Client, statement: str) -> str:
    body = {
        "candidates": [
            {
                "memory_type": "semantic",
                "namespace": "assistant/profile",
                "statement": statement,
                "assertion_kind": "user_explicit",
                "confidence": 1.0,
                "purpose": PURPOSE,
                "consent_basis": "explicit_consent",
            }
        ]
    }
    r = client.post("/api/v1/candidates", body, content_type="application/json")
    assert r.status_code == 200, r.content
    [result] = r.json()["results"]
    assert result["operation"] == "ADD", result
    return result["record_id"]


def recalled_ids(client: Client, query: str) -> set[str]:
    r = client.post(
        "/api/v1/recall", {"query": query, "purpose": PURPOSE}, content_type="application/json"
    )
    assert r.status_code == 200, r.content
    return {item["id"] for item in r.json()["items"]}


def main() -> None:
    cache.clear()
    check(
        connections[REPLICA].settings_dict["PORT"] != connections[PRIMARY].settings_dict["PORT"],
        "two servers configured",
    )
    router = PrimaryReplicaRouter()
    check(router.db_for_read(MemoryRecord) == PRIMARY, "reads outside a read block use the primary")
    check(router.db_for_write(MemoryRecord) == PRIMARY, "writes use the primary")

    tenant = tenant_create(slug="replica-test", name="Replica test")
    agent = agent_create(actor=Actor.system(tenant.id), tenant=tenant, name="agent")
    _, key = api_key_issue(actor=Actor.system(tenant.id), agent=agent, scopes=["read", "write"])
    alice = subject_get_or_create(tenant_id=tenant.id, kind="user", external_id="alice")
    bob = subject_get_or_create(tenant_id=tenant.id, kind="user", external_id="bob")
    carol = subject_get_or_create(tenant_id=tenant.id, kind="user", external_id="carol")
    as_alice, as_bob = client_for(agent, key, alice), client_for(agent, key, bob)
    as_carol = client_for(agent, key, carol)

    tea = write(as_alice, "User drinks oolong tea every morning")
    bike = write(as_bob, "User rides a red bicycle to work")
    wait_for_replay()

    before = reads("replica", "replica_ok")
    check(tea in recalled_ids(as_alice, "oolong tea morning"), "replica serves a replayed subject")
    check(reads("replica", "replica_ok") == before + 1, "... and the read went to the replica")
    with replica_reads(tenant.id, alice.id) as alias:
        check(alias == REPLICA, "read block chose the replica")
        check(router.db_for_read(MemoryRecord) == REPLICA, "ORM reads inside the block: replica")
        check(router.db_for_write(MemoryRecord) == PRIMARY, "writes inside the block: primary")
        check(
            MemoryRecord.objects.filter(pk=tea).exists(),
            "row-level security on the replica sees the block's tenant",
        )

    # Freeze the replica: from here on it falls behind.
    replica_sql("SELECT pg_wal_replay_pause()")
    try:
        r = as_alice.delete(
            f"/api/v1/memories/{tea}",
            {"assertion_kind": "user_explicit"},
            content_type="application/json",
        )
        check(r.status_code in (200, 204), f"deletion request returns ({r.status_code})")
        stale = replica_sql(f"SELECT status FROM memory_memoryrecord WHERE id = '{tea}'")
        check(stale is not None and stale[0] == "active", "the paused replica still has it active")
        fenced = reads("primary", "subject_fenced")
        check(
            tea not in recalled_ids(as_alice, "oolong tea morning"),
            "deleted memory is not recalled after the deletion returned",
        )
        check(reads("primary", "subject_fenced") == fenced + 1, "... because alice is fenced")

        new = write(as_alice, "User's favourite composer is Debussy")
        check(new in recalled_ids(as_alice, "favourite composer Debussy"), "read your own write")

        replica_ok = reads("replica", "replica_ok")
        check(
            bike in recalled_ids(as_bob, "red bicycle"), "another subject still reads the replica"
        )
        check(reads("replica", "replica_ok") == replica_ok + 1, "... from the replica")
        # Consent withdrawn on a page (a Subject save, not candidates_submit): fenced too.
        user = User.objects.create_user("carol-replica")
        subject_consent_withdraw(user=user, subject=carol, erase_everything=False)
        stale = replica_sql(
            f"SELECT consent_withdrawn_at IS NULL FROM memory_subject WHERE id = '{carol.id}'"
        )
        check(stale == (True,), "the paused replica still has carol's consent")
        r = as_carol.post(
            "/api/v1/recall",
            {"query": "red bicycle", "purpose": PURPOSE},
            content_type="application/json",
        )
        check(r.json()["empty_reason"] == "consent_withdrawn", "withdrawn consent seen at once")
        with override_settings(ENGRAM_REPLICA={"MAX_LAG_SECONDS": 0.0, "FENCE_SECONDS": 3600}):
            lagging = reads("primary", "replica_lagging")
            time.sleep(0.05)
            check(bike in recalled_ids(as_bob, "red bicycle"), "lagging replica: still answered")
            check(reads("primary", "replica_lagging") == lagging + 1, "... by the primary")
    finally:
        replica_sql("SELECT pg_wal_replay_resume()")

    wait_for_replay()
    back = reads("replica", "replica_ok")
    check(tea not in recalled_ids(as_alice, "oolong tea morning"), "after replay: still gone")
    check(reads("replica", "replica_ok") == back + 1, "... and alice reads the replica again")

    with override_settings(
        CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    ):
        local = reads("primary", "no_shared_cache")
        recalled_ids(as_bob, "red bicycle")
        check(reads("primary", "no_shared_cache") == local + 1, "no shared cache: primary only")
    print("ALL CHECKS PASSED", flush=True)


if __name__ == "__main__":
    main()
