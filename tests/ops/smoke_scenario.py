"""A short end-to-end pass through the API (write, recall, delete, recall) against the
database in ``DATABASE_URL``; run in a subprocess by tests/ops/test_cluster.py after the
partitioning migration. Exits non-zero on the first failed check."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

import django  # noqa: E402

django.setup()

from django.test import Client  # noqa: E402

from accounts.services.credentials import api_key_issue  # noqa: E402
from accounts.services.tenants import agent_create, tenant_create  # noqa: E402
from core.actor import Actor  # noqa: E402
from memory.services.subject_tokens import subject_token_issue  # noqa: E402
from memory.services.subjects import subject_get_or_create  # noqa: E402


def check(ok: bool, what: str) -> None:
    print(("ok: " if ok else "FAILED: ") + what, flush=True)
    if not ok:
        sys.exit(1)


def main() -> None:
    tenant = tenant_create(slug="smoke", name="Smoke")
    agent = agent_create(actor=Actor.system(tenant.id), tenant=tenant, name="agent")
    _, key = api_key_issue(actor=Actor.system(tenant.id), agent=agent, scopes=["read", "write"])
    subject = subject_get_or_create(tenant_id=tenant.id, kind="user", external_id="sam")
    token = subject_token_issue(tenant_id=tenant.id, agent_id=agent.id, subject_id=subject.id)
    client = Client(HTTP_AUTHORIZATION=f"Bearer {key}", HTTP_X_ENGRAM_SUBJECT_TOKEN=token)
    body = {
        "candidates": [
            {
                "memory_type": "semantic",
                "namespace": "assistant/profile",
                "predicate": "home_city",
                "value": "Lisbon",
                "statement": "User lives in Lisbon",
                "assertion_kind": "user_explicit",
                "confidence": 1.0,
                "purpose": "personalization",
                "consent_basis": "explicit_consent",
            }
        ]
    }
    r = client.post("/api/v1/candidates", body, content_type="application/json")
    check(r.status_code == 200 and r.json()["results"][0]["operation"] == "ADD", "write")
    record_id = r.json()["results"][0]["record_id"]
    body["candidates"][0].update(value="Porto", statement="User lives in Porto")
    r = client.post("/api/v1/candidates", body, content_type="application/json")
    check(r.json()["results"][0]["operation"] == "SUPERSEDE", "supersede (self foreign key)")
    query = {"query": "Where does the user live?", "purpose": "personalization"}
    items = client.post("/api/v1/recall", query, content_type="application/json").json()["items"]
    check(
        [i["statement"] for i in items][:1] == ["User lives in Porto"], "recall the current value"
    )
    newest = items[0]["id"]
    r = client.delete(
        f"/api/v1/memories/{newest}",
        {"assertion_kind": "user_explicit"},
        content_type="application/json",
    )
    check(r.status_code in (200, 204), "delete")
    items = client.post("/api/v1/recall", query, content_type="application/json").json()["items"]
    check(all(i["id"] not in (newest, record_id) for i in items), "deleted lineage not recalled")
    print("ALL CHECKS PASSED", flush=True)


if __name__ == "__main__":
    main()
