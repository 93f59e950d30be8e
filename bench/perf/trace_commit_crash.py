"""What a PostgreSQL crash loses when a recall's trace commits without waiting for the disk
(``ENGRAM_RECALL_ASYNC_TRACE_COMMIT``, on by default): the trace and read-audit rows of
the last recalls, and nothing a write or a deletion committed.

In process, through the API (Django's test client, each request its own transaction as
under gunicorn), on a tenant of its own in the bench database: rounds of one write (a
candidate), every other round a deletion (of an earlier round's memory), and a few
recalls, then recalls only; right after the last answer, the request connection's
PostgreSQL backend is killed with SIGKILL, and the postmaster resets every backend and
recovers from the WAL on disk (a crash of the database server, not of Engram). Then it counts what survived:

    OMP_NUM_THREADS=1 ENGRAM_BENCH_DB=bench_lat .venv/bin/python bench/perf/trace_commit_crash.py
    ... --off     # the setting off: nothing may be lost

Run as a user allowed to signal PostgreSQL's processes (the embedded server runs as its own
user when started by root). It crashes the whole server: run it when nothing else uses it."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.perf.perf_settings")
os.environ.setdefault("ENGRAM_BENCH_DB", "bench_perf")
os.environ["OMP_NUM_THREADS"] = "1"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection, connections  # noqa: E402
from django.test import Client  # noqa: E402

from bench.perf.recall_perf import PURPOSE  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--recalls-per-round", type=int, default=3)
    parser.add_argument("--tail", type=int, default=8, help="recalls after the last write")
    parser.add_argument("--off", action="store_true", help="the setting off (the reference)")
    args = parser.parse_args()
    settings.ENGRAM_RETRIEVAL = {**settings.ENGRAM_RETRIEVAL, "ASYNC_TRACE_COMMIT": not args.off}
    settings.ENGRAM_RETRIEVAL["FREEZE_ACCESS"] = True  # no other writer beside the requests

    from accounts.services.credentials import api_key_issue
    from accounts.services.tenants import agent_create, tenant_create
    from core.actor import Actor
    from core.models import AuditEvent
    from core.tenancy import tenant_context
    from memory.models import MemoryRecord, RecallTrace
    from memory.services.subject_tokens import subject_token_issue
    from memory.services.subjects import subject_get_or_create

    tag = uuid.uuid4().hex[:8]
    tenant = tenant_create(slug=f"crash-{tag}", name=f"Crash check {tag}")
    agent = agent_create(actor=Actor.system(tenant.id), tenant=tenant, name="crash")
    _, key = api_key_issue(actor=Actor.system(tenant.id), agent=agent, scopes=["read", "write"])
    subject = subject_get_or_create(tenant_id=tenant.id, kind="user", external_id="crash")
    token = subject_token_issue(tenant_id=tenant.id, agent_id=agent.id, subject_id=subject.id)
    client = Client()
    headers = {"HTTP_AUTHORIZATION": f"Bearer {key}", "HTTP_X_ENGRAM_SUBJECT_TOKEN": token}

    def call(method: str, path: str, body: dict | None = None) -> dict:
        response = getattr(client, method)(
            path, data=json.dumps(body or {}), content_type="application/json", **headers
        )
        if response.status_code >= 300:
            raise SystemExit(f"{method} {path}: {response.status_code} {response.content[:300]!r}")
        return response.json() if response.content else {}

    hobbies = ["kayaking", "pottery", "the cello", "chess", "bouldering", "origami"]
    kept: list[str] = []  # memories whose write was acknowledged and never deleted
    deleted: list[str] = []  # memories whose deletion was acknowledged
    traces: list[tuple[str, int]] = []  # (trace id, how many writes were acknowledged before)
    writes = 0
    for n in range(args.rounds):
        body = {
            "candidates": [
                {
                    "memory_type": "semantic",
                    "namespace": "assistant/profile",
                    "statement": f"User took up {hobbies[n % len(hobbies)]} in round {n} ({tag})",
                    "assertion_kind": "user_explicit",
                    "confidence": 1.0,
                    "purpose": PURPOSE,
                    "consent_basis": "explicit_consent",
                }
            ]
        }
        [result] = call("post", "/api/v1/candidates", body)["results"]
        if result["record_id"]:
            kept.append(result["record_id"])
            writes += 1
        if n % 2 and len(kept) > 1:
            gone = kept.pop(0)
            call("delete", f"/api/v1/memories/{gone}")
            deleted.append(gone)
            writes += 1
        for _ in range(args.recalls_per_round):
            answer = call("post", "/api/v1/recall", {"query": "What hobbies?", "purpose": PURPOSE})
            traces.append((answer["trace_id"], writes))
    for _ in range(args.tail):
        answer = call("post", "/api/v1/recall", {"query": "你有什么爱好？", "purpose": PURPOSE})
        traces.append((answer["trace_id"], writes))
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        [backend] = cursor.fetchone()
    os.kill(backend, signal.SIGKILL)  # the postmaster resets the server: a database crash
    crashed = time.perf_counter()
    for conn in connections.all():
        conn.close_if_unusable_or_obsolete()
        conn.close()
    while True:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
            break
        except Exception:  # noqa: BLE001 - the server is recovering
            connection.close()
            time.sleep(0.2)
    recovered = time.perf_counter() - crashed
    with tenant_context(tenant.id):
        present = {
            str(i)
            for i in MemoryRecord.objects.filter(subject=subject).values_list("id", flat=True)
        }
        still_active = {
            str(i)
            for i in MemoryRecord.objects.filter(id__in=deleted, status="active").values_list(
                "id", flat=True
            )
        }
        trace_ids = {
            str(i)
            for i in RecallTrace.objects.filter(tenant_id=tenant.id).values_list("id", flat=True)
        }
        audited = {
            e["trace_id"]
            for e in AuditEvent.objects.filter(
                tenant_id=tenant.id, action="memory.read"
            ).values_list("extra", flat=True)
        }
    lost = [(i, t) for i, t in enumerate(traces) if t[0] not in trace_ids]
    print(
        f"setting {'off' if args.off else 'on'}; server back after {recovered:.1f} s;"
        f" {writes} writes and deletions acknowledged, {len(traces)} recalls"
    )
    print(
        f"  memories acknowledged and kept: {len(kept)}, missing after the crash:"
        f" {len(set(kept) - present)}"
    )
    print(f"  deletions acknowledged: {len(deleted)}, undone by the crash: {len(still_active)}")
    print(
        f"  recall traces lost: {len(lost)} of {len(traces)}; their positions from the end:"
        f" {[len(traces) - i for i, _ in lost]}"
    )
    print(f"  lost traces answered before the last write: {sum(t[1] < writes for _, t in lost)}")
    print(
        f"  traces whose audit row differs (one without the other): "
        f"{len(trace_ids ^ (audited & {t for t, _ in traces}))}"
    )


if __name__ == "__main__":
    main()
