"""A frozen copy of the row-level security SQL (core/rls.py) that memory's migrations run.

Migrations keep the SQL they ran: later edits to core/rls.py must not change what an old
migration does, so memory's migrations read this file, never the live module. The leading
underscore keeps Django's migration loader from taking it for a migration.
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
       LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS
       $$ SELECT tenant_id FROM accounts_apikey WHERE prefix = key_prefix $$""",
    # Signed-in user → the tenants they belong to (oldest membership first), with the
    # tenants' names for the tenant switcher. Nothing of any other user's.
    "DROP FUNCTION IF EXISTS engram_user_tenants(integer)",
    """CREATE FUNCTION engram_user_tenants(for_user integer)
       RETURNS TABLE(tenant_id uuid, role text, slug text, name text)
       LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS
       $$ SELECT m.tenant_id, m.role::text, t.slug::text, t.name::text
            FROM accounts_membership m JOIN accounts_tenant t ON t.id = m.tenant_id
           WHERE m.user_id = for_user ORDER BY m.created_at, m.id $$""",
]
DROP_FUNCTIONS_SQL = [
    "DROP FUNCTION IF EXISTS engram_user_tenants(integer)",
    "DROP FUNCTION IF EXISTS engram_api_key_tenant(text)",
    "DROP FUNCTION IF EXISTS engram_current_tenant()",
]


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
        # Whatever the functions above re-created: search_path and EXECUTE (core/rls.py).
        from core.rls import harden_security_definers

        harden_security_definers(cursor, app_role())


def remove_all(schema_editor) -> None:
    with schema_editor.connection.cursor() as cursor:
        for table in [*tenant_tables(cursor), "accounts_tenant"]:
            for sql in disable_rls_sql(table):
                cursor.execute(sql)
        for sql in DROP_FUNCTIONS_SQL:
            cursor.execute(sql)
