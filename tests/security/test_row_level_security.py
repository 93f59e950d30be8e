"""Row-level security: the database keeps tenants apart even when application filters are
bypassed. Every test talks raw SQL under the application role (as web and Celery workers
do) — never through the ORM's tenant filters."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import ProgrammingError, connection, transaction

from accounts.models import Agent, Role
from core import rls
from core.actor import Actor
from core.tenancy import current_tenant_id, tenant_context
from governance.services.procedures import procedure_document_create
from memory.models import AgentAccess, MemoryMention, MemoryRecord, SubjectAgentAccess
from memory.services.indexing import index_pending_records
from tests.helpers.cast import candidate, person
from tests.helpers.procedures import approve, propose

pytestmark = pytest.mark.django_db
APP_ROLE = settings.ENGRAM["DB_APP_ROLE"]


def sql(query: str, params=None) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(query, params or [])
        return cursor.fetchall() if cursor.description else []


@pytest.fixture
def two_tenants(
    api,
    owner_subject,
    other_tenant_agent,
    other_tenant_user,
    tenant,
    other_tenant,
    tenant_admin,
    reviewer,
):
    """Rows for both tenants in every tenant-owned table."""
    b = other_tenant_agent.client(other_tenant_user[1])
    for client in (api, b):
        client.post_json(
            "/api/v1/events",
            {
                "events": [
                    {
                        "client_event_id": "e1",
                        "kind": "message",
                        "role": "user",
                        "content": "I like tea",
                    }
                ]
            },
        )
        r = client.post_json(
            "/api/v1/candidates",
            {"candidates": [candidate(statement="User likes tea", source_client_event_ids=["e1"])]},
            HTTP_IDEMPOTENCY_KEY="rls-fixture",  # fills memory_idempotencykey too
        )
        assert r.json()["results"][0]["operation"] == "ADD"
    # Procedures, versions and change requests through the governance services.
    b_admin, _ = person(other_tenant, "bea", Role.ADMIN)
    b_reviewer, _ = person(other_tenant, "rex", Role.REVIEWER)
    for t, admin, rev in (
        (tenant, tenant_admin[0], reviewer[0]),
        (other_tenant, b_admin, b_reviewer),
    ):
        with tenant_context(t.id):
            doc = procedure_document_create(
                actor=Actor.user(admin.pk, t.id),
                user=admin,
                slug="deploy",
                title="Deploy",
                kind="runbook",
                namespace="ops/deploy",
            )
        approve(propose(doc, admin, "1. Run the tests.\n2. Deploy."), rev)
    for t, subject in ((tenant, owner_subject), (other_tenant, other_tenant_user[1])):
        _lifecycle_rows(t, subject)
        with tenant_context(t.id):
            # The user paused one agent (an agent of its own, so the fixture's agents
            # keep their access).
            paused = Agent.objects.create(tenant=t, name="paused-by-the-user")
            SubjectAgentAccess.objects.create(
                tenant=t, subject=subject, agent=paused, state=AgentAccess.PAUSED
            )
    # Derived retrieval rows: vectors for every record, and one recall trace per tenant.
    index_pending_records(MemoryRecord.objects.values_list("id", flat=True))
    for client in (api, b):
        assert (
            client.post_json(
                "/api/v1/recall", {"query": "tea", "purpose": "personalization"}
            ).status_code
            == 200
        )
    return tenant, other_tenant


def _lifecycle_rows(tenant, subject) -> None:
    """One row per lifecycle table (memory/tasks.py and the services it calls)."""
    from memory.models import (
        DeadLetter,
        DeletionRequest,
        MemoryCase,
        MemoryDecay,
        MemoryRecord,
        TaskRun,
        ThreadSummary,
    )

    record = MemoryRecord.objects.filter(tenant=tenant).first()
    TaskRun.objects.create(tenant=tenant, task_name="t", key="k", outcome="succeeded")
    DeadLetter.objects.create(tenant=tenant, task_name="t", error_class="E", attempts=4)
    ThreadSummary.objects.create(tenant=tenant, subject=subject, thread_id="th")
    # Working memory's PostgreSQL store and a closed thread (memory/working/).
    from django.utils import timezone

    from memory.models import ThreadClosure, WorkingMemoryEntry

    WorkingMemoryEntry.objects.create(
        tenant=tenant,
        subject=subject,
        thread_id="th",
        key="k",
        value=1,
        size_bytes=1,
        expires_at=timezone.now() + timezone.timedelta(hours=1),
    )
    ThreadClosure.objects.create(tenant=tenant, subject=subject, thread_id="th")
    MemoryCase.objects.create(tenant=tenant, subject=subject, namespace="n", problem="p")
    MemoryDecay.objects.create(tenant=tenant, record=record, score=0.5)
    DeletionRequest.objects.create(
        tenant=tenant,
        scope="memory",
        subject_id=subject.id,
        target_id=record.id,
        requested_by_type="system",
        requested_by_id="test",
    )
    _quality_rows(tenant, subject, record)


def _quality_rows(tenant, subject, record) -> None:
    """One row per quality-inspector table (memory/services/inspector)."""
    from memory.models import CanaryResult, InspectionRun, QualityFinding, RetrievalCanary

    run = InspectionRun.objects.create(tenant=tenant, trigger="test")
    QualityFinding.objects.create(tenant=tenant, run=run, kind="low_value", record_ids=[record.id])
    canary = RetrievalCanary.objects.create(
        tenant=tenant, subject=subject, query="tea", purpose="p", expected_record_ids=[record.id]
    )
    CanaryResult.objects.create(tenant=tenant, run=run, canary=canary, recall_at_k=1.0)
    _mention_rows(record)


def _mention_rows(record) -> None:
    """The entity index's rows of a record (its statement names nothing: written here)."""
    from memory.services.mentions import mentions_write

    mentions_write([record])
    MemoryMention.objects.get_or_create(
        tenant_id=record.tenant_id,
        subject_id=record.subject_id,
        record=record,
        norm="darjeeling",
        defaults={"surface": "Darjeeling", "kind": "place"},
    )


def tenant_tables() -> list[str]:
    with connection.cursor() as cursor:
        return rls.tenant_tables(cursor)


def test_every_tenant_table_has_forced_rls_and_a_policy():
    tables = tenant_tables()
    assert {
        "memory_memoryrecord",
        "memory_sourceevent",
        "governance_auditevent",
        "accounts_apikey",
    } <= set(tables)
    for table in [*tables, "accounts_tenant"]:
        [(enabled, forced)] = sql(
            "SELECT relrowsecurity, relforcerowsecurity FROM pg_class WHERE relname = %s", [table]
        )
        assert enabled and forced, table
        assert sql(
            "SELECT 1 FROM pg_policies WHERE tablename = %s AND policyname = 'tenant_isolation'",
            [table],
        ), table


def test_app_role_owns_nothing_and_cannot_bypass():
    [(superuser, bypass)] = sql(
        "SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = %s", [APP_ROLE]
    )
    assert not superuser and not bypass
    assert (
        sql(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tableowner = %s",
            [APP_ROLE],
        )
        == []
    )


def test_with_tenant_a_set_no_row_of_b_is_visible(two_tenants):
    a, b = two_tenants
    with tenant_context(a.id):
        assert sql("SELECT current_user")[0][0] == APP_ROLE
        for table in tenant_tables():
            rows = sql(f'SELECT tenant_id FROM "{table}"')  # noqa: S608 - table names from the catalogue
            assert rows, f"{table} has no rows for tenant A: the fixture should fill it"
            assert {r[0] for r in rows} == {a.id}, table
        assert sql("SELECT id FROM accounts_tenant") == [(a.id,)]


def test_with_no_tenant_set_nothing_is_visible(two_tenants):
    with tenant_context(None):
        for table in [*tenant_tables(), "accounts_tenant"]:
            assert sql(f'SELECT count(*) FROM "{table}"') == [(0,)], table  # noqa: S608


def test_writes_carrying_another_tenants_id_are_refused(two_tenants, owner_subject):
    a, b = two_tenants
    with tenant_context(a.id):
        with pytest.raises(ProgrammingError, match="row-level security"):
            with transaction.atomic():
                sql(
                    "INSERT INTO governance_auditevent (tenant_id, occurred_at, actor_type, actor_id, action, operation, reason_code, request_id, extra)"
                    " VALUES (%s, now(), 'system', 'x', 'forged', '', '', '', '{}')",
                    [b.id],
                )
        with pytest.raises(ProgrammingError, match="row-level security"):
            with transaction.atomic():
                sql(
                    "UPDATE memory_subject SET tenant_id = %s WHERE id = %s",
                    [b.id, owner_subject.id],
                )
        # B's rows cannot even be addressed.
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE memory_memoryrecord SET access_count = access_count + 1 WHERE tenant_id = %s",
                [b.id],
            )
            assert cursor.rowcount == 0


def test_api_key_lookup_only_through_the_definer_function(two_tenants, write_agent):
    a, b = two_tenants
    prefix = write_agent.key.split("_")[1]
    with tenant_context(None):
        assert sql("SELECT count(*) FROM accounts_apikey") == [(0,)]
        assert sql("SELECT engram_api_key_tenant(%s)", [prefix]) == [(a.id,)]
        assert sql("SELECT engram_api_key_tenant('nope')") == [(None,)]


def test_nested_contexts_restore_the_outer_tenant(two_tenants):
    a, b = two_tenants
    with tenant_context(a.id):
        with tenant_context(b.id):
            assert current_tenant_id() == str(b.id)
        assert current_tenant_id() == str(a.id)
    assert current_tenant_id() is None
    assert sql("SELECT current_setting('role')") == [("none",)]


@pytest.mark.django_db(transaction=True)
def test_a_pooled_connection_never_carries_a_tenant_into_the_next_transaction(tenant, other_tenant):
    with tenant_context(tenant.id):
        assert current_tenant_id() == str(tenant.id)
    # Same connection, next transaction: nothing carried over.
    assert current_tenant_id() is None
    with transaction.atomic():
        assert current_tenant_id() is None
        assert sql("SELECT current_setting('role')") == [("none",)]
    with tenant_context(other_tenant.id):
        assert sql("SELECT id FROM accounts_tenant") == [(other_tenant.id,)]


def test_nearest_vector_query_sees_only_the_current_tenant(two_tenants):
    """Raw nearest-neighbour SQL under tenant A, aimed exactly at B's vector: B's row is the
    closest in the table (distance 0), yet only A's rows come back."""
    a, b = two_tenants
    [(b_record, b_vector)] = sql(
        "SELECT record_id, vector::text FROM memory_memoryembedding WHERE tenant_id = %s LIMIT 1",
        [b.id],
    )
    query = "SELECT record_id, tenant_id FROM memory_memoryembedding ORDER BY vector <=> %s::vector LIMIT 10"
    # Without the boundary (the owner), B's own vector is among the nearest.
    assert b_record in {r[0] for r in sql(query, [b_vector])}
    with tenant_context(a.id):
        rows = sql(query, [b_vector])
    assert rows and {r[1] for r in rows} == {a.id}
    assert b_record not in {r[0] for r in rows}
