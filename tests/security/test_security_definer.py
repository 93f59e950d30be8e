"""SECURITY DEFINER functions (issue 33): each one in the schema sets
``search_path = pg_catalog, public, pg_temp`` (a caller's objects cannot stand in for the
ones it names), PUBLIC may not execute it, the application role may; and each one, called
in tenant A's transaction, gives nothing of tenant B's rows — the lookups before a tenant
is known return ids only. A new SECURITY DEFINER function fails here until it is covered."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection

from core import rls
from core.tenancy import tenant_context
from memory.models import MemoryRecord
from memory.services.indexing import index_pending_records
from tests.helpers.cast import candidate

pytestmark = pytest.mark.django_db

APP_ROLE = settings.ENGRAM["DB_APP_ROLE"]


def sql(query: str, params=None) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(query, params or [])
        return cursor.fetchall() if cursor.description else []


def _definers() -> list[str]:
    with connection.cursor() as cursor:
        return rls.security_definers(cursor)


def test_every_security_definer_pins_its_search_path_and_its_callers():
    definers = _definers()
    assert definers, "no SECURITY DEFINER function found: the catalogue query is broken"
    for signature in definers:
        [(config, acl)] = sql(
            "SELECT proconfig, proacl::text[] FROM pg_proc WHERE oid = %s::regprocedure",
            [signature],
        )
        assert f"search_path={rls.DEFINER_SEARCH_PATH}" in (config or []), signature
        # NULL means the default ACL, in which PUBLIC may execute.
        assert acl is not None, signature
        assert not [entry for entry in acl if entry.startswith("=")], (signature, acl)
        [(app_may,)] = sql(
            "SELECT has_function_privilege(%s, %s::regprocedure, 'EXECUTE')", [APP_ROLE, signature]
        )
        assert app_may, signature


@pytest.fixture
def two_tenants_with_docs(api, owner_subject, other_tenant_agent, other_tenant_user):
    b = other_tenant_agent.client(other_tenant_user[1])
    for client, text in ((api, "User likes oolong tea"), (b, "User likes oolong tea too")):
        r = client.post_json("/api/v1/candidates", {"candidates": [candidate(statement=text)]})
        assert r.json()["results"][0]["operation"] == "ADD", r.content
    for subject in (owner_subject, other_tenant_user[1]):
        with tenant_context(subject.tenant_id):
            index_pending_records(
                list(MemoryRecord.objects.filter(subject=subject).values_list("id", flat=True))
            )
    return owner_subject, other_tenant_user[1]


# Each function: a call that would return tenant B's rows if the function leaked them,
# made in tenant A's transaction, and what it may return.
CALLS = {
    "engram_search_docs_matching(uuid[],tsquery)": (
        "SELECT record_id, tenant_id FROM engram_search_docs_matching(%s::uuid[], to_tsquery('simple', 'oolong'))",
        "rows",
    ),
    "engram_search_docs_held(uuid[],tsquery,tsquery[],double precision)": (
        "SELECT record_id, tenant_id FROM engram_search_docs_held(%s::uuid[], "
        "to_tsquery('simple', 'oolong'), ARRAY[to_tsquery('simple', 'oolong')], 0.5)",
        "rows",
    ),
    "engram_search_docs_regex(uuid[],text)": (
        "SELECT record_id, tenant_id FROM engram_search_docs_regex(%s::uuid[], 'oolong')",
        "rows",
    ),
    "engram_search_docs_similar(uuid[],text,real)": (
        "SELECT record_id, tenant_id FROM engram_search_docs_similar(%s::uuid[], 'oolong', 0.3)",
        "rows",
    ),
}


def test_every_security_definer_is_covered_here():
    covered = {
        *CALLS,
        "engram_api_key_tenant(text)",
        "engram_user_tenants(integer)",
        "engram_tenant_ids()",
    }
    assert set(_definers()) <= covered, set(_definers()) - covered


@pytest.mark.parametrize("signature", sorted(CALLS))
def test_a_search_in_tenant_a_never_returns_tenant_bs_docs(two_tenants_with_docs, signature):
    a, b = two_tenants_with_docs
    if signature not in _definers():
        pytest.fail(f"{signature} is gone: remove it from CALLS")
    query, _ = CALLS[signature]
    with tenant_context(a.tenant_id):
        assert sql(query, [[str(b.id)]]) == []  # B's subject named: nothing
        both = sql(query, [[str(a.id), str(b.id)]])
    assert both and {row[1] for row in both} == {a.tenant_id}
    with tenant_context(None):
        assert sql(query, [[str(a.id), str(b.id)]]) == []  # no tenant: nothing


def test_the_lookups_before_a_tenant_is_known_return_ids_only(
    write_agent, other_tenant_agent, tenant_admin, other_tenant
):
    with tenant_context(None):
        prefix = write_agent.key.split("_")[1]
        assert sql("SELECT engram_api_key_tenant(%s)", [prefix]) == [(write_agent.agent.tenant_id,)]
        assert sql("SELECT engram_api_key_tenant(%s)", ["nope"]) == [(None,)]
        user = tenant_admin[0]
        memberships = sql("SELECT tenant_id FROM engram_user_tenants(%s)", [user.pk])
        assert {m[0] for m in memberships} == {write_agent.agent.tenant_id}
        assert other_tenant.id not in {m[0] for m in memberships}
        ids = sql("SELECT * FROM engram_tenant_ids()")
        assert all(len(row) == 1 for row in ids)  # ids, nothing else
