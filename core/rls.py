"""PostgreSQL row-level security: the second tenant boundary behind application filters.

Two roles:
- the **owner** (the role that runs migrations) owns every table;
- the **application role** (``ENGRAM_DB_APP_ROLE``, default ``engram_app``) is what web
  workers and Celery workers use. It owns nothing, has no BYPASSRLS, and is granted plain
  DML. Every tenant-owned table has row-level security ENABLEd and FORCEd with one policy:
  a row is visible and writable only when its ``tenant_id`` equals the per-transaction
  setting ``engram.tenant_id`` (``set_config(..., true)``; see core/tenancy.py). With no
  tenant set, queries see nothing.

The few lookups that must happen before the tenant is known (which tenant does this API
key belong to? which tenants is this signed-in user a member of?) go through two
SECURITY DEFINER functions that return ids only. Recall's word routes read large subjects'
lexical docs through three more (``engram_search_docs_held``, ``_regex``, ``_similar``;
memory migrations 0016 and 0018; 0016's ``engram_search_docs_matching`` stays until the
code before 0018 is gone): PostgreSQL uses no full-text or trigram index under
a policy (those operators are not leakproof), so these apply the policy's condition — the
transaction's tenant — themselves and search through the indexes.

Migrations call :func:`enable_rls_sql` for every table that carries ``tenant_id``; the
test suite asserts that no such table is left without it.
"""

from __future__ import annotations

from django.conf import settings


def app_role() -> str:
    return settings.ENGRAM["DB_APP_ROLE"]


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def create_app_role_sql(role: str) -> list[str]:
    return [
        f"""DO $$ BEGIN
              IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{role}') THEN
                CREATE ROLE {_q(role)} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
              END IF;
            END $$""",
        f"GRANT USAGE ON SCHEMA public TO {_q(role)}",
        f"GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO {_q(role)}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {_q(role)}",
        # Tables created by later migrations (run by the owner) are granted automatically.
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {_q(role)}",
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO {_q(role)}",
    ]


FUNCTIONS_SQL = [
    # The tenant of the current transaction, or NULL (then every policy is false).
    """CREATE OR REPLACE FUNCTION engram_current_tenant() RETURNS uuid
       LANGUAGE sql STABLE AS
       $$ SELECT NULLIF(current_setting('engram.tenant_id', true), '')::uuid $$""",
    # API key → tenant, before any tenant is set. Returns an id only.
    """CREATE OR REPLACE FUNCTION engram_api_key_tenant(key_prefix text) RETURNS uuid
       LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS
       $$ SELECT tenant_id FROM accounts_apikey WHERE prefix = key_prefix $$""",
    # Signed-in user → the tenants they belong to (oldest membership first), with the
    # tenants' names for the tenant switcher. Nothing of any other user's.
    "DROP FUNCTION IF EXISTS engram_user_tenants(integer)",
    """CREATE FUNCTION engram_user_tenants(for_user integer)
       RETURNS TABLE(tenant_id uuid, role text, slug text, name text)
       LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS
       $$ SELECT m.tenant_id, m.role::text, t.slug::text, t.name::text
            FROM accounts_membership m JOIN accounts_tenant t ON t.id = m.tenant_id
           WHERE m.user_id = for_user ORDER BY m.created_at, m.id $$""",
]
DROP_FUNCTIONS_SQL = [
    "DROP FUNCTION IF EXISTS engram_user_tenants(integer)",
    "DROP FUNCTION IF EXISTS engram_api_key_tenant(text)",
    "DROP FUNCTION IF EXISTS engram_current_tenant()",
]


# A SECURITY DEFINER function runs with its owner's rights: its name lookups must not be
# steerable by the caller's search_path (pg_catalog first, pg_temp last), and only the
# application role may call it.
DEFINER_SEARCH_PATH = "pg_catalog, public, pg_temp"


def security_definers(cursor) -> list[str]:
    """Every SECURITY DEFINER function in the public schema, by signature."""
    cursor.execute(
        """SELECT p.oid::regprocedure::text FROM pg_proc p
             JOIN pg_namespace n ON n.oid = p.pronamespace
            WHERE n.nspname = 'public' AND p.prosecdef
            ORDER BY 1"""
    )
    return [row[0] for row in cursor.fetchall()]


def harden_security_definers(cursor, role: str) -> None:
    """Idempotent: every SECURITY DEFINER function gets ``DEFINER_SEARCH_PATH``, loses
    EXECUTE for PUBLIC and keeps it for the application role (its owner keeps its own)."""
    for signature in security_definers(cursor):
        cursor.execute(f"ALTER FUNCTION {signature} SET search_path = {DEFINER_SEARCH_PATH}")
        cursor.execute(f"REVOKE ALL ON FUNCTION {signature} FROM PUBLIC")
        cursor.execute(f"GRANT EXECUTE ON FUNCTION {signature} TO {_q(role)}")


def enable_rls_sql(table: str, column: str = "tenant_id") -> list[str]:
    return [
        f"ALTER TABLE {_q(table)} ENABLE ROW LEVEL SECURITY",
        f"ALTER TABLE {_q(table)} FORCE ROW LEVEL SECURITY",
        f"DROP POLICY IF EXISTS tenant_isolation ON {_q(table)}",
        f"""CREATE POLICY tenant_isolation ON {_q(table)}
              USING ({_q(column)} = engram_current_tenant())
              WITH CHECK ({_q(column)} = engram_current_tenant())""",
    ]


def disable_rls_sql(table: str) -> list[str]:
    return [
        f"DROP POLICY IF EXISTS tenant_isolation ON {_q(table)}",
        f"ALTER TABLE {_q(table)} NO FORCE ROW LEVEL SECURITY",
        f"ALTER TABLE {_q(table)} DISABLE ROW LEVEL SECURITY",
    ]


def tenant_tables(cursor) -> list[str]:
    """Every table in the public schema with a ``tenant_id`` column."""
    cursor.execute(
        """SELECT c.table_name FROM information_schema.columns c
             JOIN information_schema.tables t USING (table_schema, table_name)
            WHERE c.table_schema = 'public' AND c.column_name = 'tenant_id'
              AND t.table_type = 'BASE TABLE'
            ORDER BY 1"""
    )
    return [row[0] for row in cursor.fetchall()]


def apply_all(schema_editor) -> None:
    """Idempotent: role, grants, functions, and RLS on every tenant table (and the tenant
    table itself, keyed by its own id). Safe to call from any later migration."""
    with schema_editor.connection.cursor() as cursor:
        for sql in create_app_role_sql(app_role()) + FUNCTIONS_SQL:
            cursor.execute(sql)
        for table in tenant_tables(cursor):
            for sql in enable_rls_sql(table):
                cursor.execute(sql)
        for sql in enable_rls_sql("accounts_tenant", column="id"):
            cursor.execute(sql)
        harden_security_definers(cursor, app_role())


def remove_all(schema_editor) -> None:
    with schema_editor.connection.cursor() as cursor:
        for table in [*tenant_tables(cursor), "accounts_tenant"]:
            for sql in disable_rls_sql(table):
                cursor.execute(sql)
        for sql in DROP_FUNCTIONS_SQL:
            cursor.execute(sql)
