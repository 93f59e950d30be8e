"""The per-transaction tenant setting that PostgreSQL row-level security reads.

Every piece of work on tenant-owned rows runs inside a transaction in which
``engram.tenant_id`` is set with ``set_config(..., is_local => true)`` and, when the
connection belongs to the table owner (manage.py, tests), the application role is assumed
with ``SET LOCAL ROLE``. Both die with the transaction, so a pooled connection can never
carry one tenant's setting into another's work. See core/rls.py for the policies.

- ``accounts.middleware.TenantContextMiddleware`` wraps each web request in a
  transaction; for a signed-in user it sets their tenant, and API-key authentication sets
  the key's tenant (``tenant_set``).
- ``tenant_context(tenant_id)`` does the same for jobs, commands and services.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, connection, transaction

TENANT_SETTING = "engram.tenant_id"


@dataclass(frozen=True)
class SavedTenant:
    role: str
    tenant: str


def enter_tenant(tenant_id: uuid.UUID | str | None) -> SavedTenant:
    """Assume the application role and set the tenant; returns what to restore."""
    # One round trip: the subquery reads the caller's settings before the outer select
    # changes them (OFFSET 0 keeps it from being flattened into the outer query).
    role_sql = "set_config('role', %s, true)" if settings.ENGRAM["DB_ASSUME_APP_ROLE"] else "''"
    role_params = [settings.ENGRAM["DB_APP_ROLE"]] if settings.ENGRAM["DB_ASSUME_APP_ROLE"] else []
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT saved.role, saved.tenant, {role_sql}, set_config(%s, %s, true) FROM ("
            "SELECT current_setting('role') AS role, current_setting(%s, true) AS tenant"
            " OFFSET 0) saved",
            [*role_params, TENANT_SETTING, str(tenant_id or ""), TENANT_SETTING],
        )
        role, tenant, _, _ = cursor.fetchone()
    return SavedTenant(role=role, tenant=tenant or "")


def enter_tenant_of_key(key_prefix: str) -> tuple[SavedTenant, uuid.UUID | None]:
    """``enter_tenant`` for a request presenting an API key with ``key_prefix``: the
    application role and the key's tenant (``engram_api_key_tenant``, a SECURITY DEFINER
    lookup that returns an id only; none for an unknown prefix, and then no tenant) in one
    round trip. Returns what to restore and the tenant set. Authentication still checks
    the key (``accounts.services.credentials.api_key_authenticate``); it only skips asking
    for the tenant again."""
    role_sql = "set_config('role', %s, true)" if settings.ENGRAM["DB_ASSUME_APP_ROLE"] else "''"
    role_params = [settings.ENGRAM["DB_APP_ROLE"]] if settings.ENGRAM["DB_ASSUME_APP_ROLE"] else []
    with connection.cursor() as cursor:
        # Both subqueries run before the outer select changes the settings (OFFSET 0 keeps
        # them from being flattened into it), as in ``enter_tenant``.
        cursor.execute(
            f"SELECT saved.role, saved.tenant, found.tenant, {role_sql},"
            " set_config(%s, COALESCE(found.tenant::text, ''), true) FROM ("
            "SELECT current_setting('role') AS role, current_setting(%s, true) AS tenant"
            " OFFSET 0) saved, (SELECT engram_api_key_tenant(%s) AS tenant OFFSET 0) found",
            [*role_params, TENANT_SETTING, TENANT_SETTING, key_prefix],
        )
        role, tenant, key_tenant, _, _ = cursor.fetchone()
    return SavedTenant(role=role, tenant=tenant or ""), key_tenant


def restore_tenant(saved: SavedTenant) -> None:
    """Put back the caller's role and tenant. Matters only when the surrounding
    transaction goes on (nested contexts, tests); otherwise the commit discards both."""
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT set_config('role', %s, true), set_config(%s, %s, true)",
                [saved.role, TENANT_SETTING, saved.tenant],
            )
    except DatabaseError:
        transaction.set_rollback(True)


def tenant_set(tenant_id: uuid.UUID | str) -> None:
    """Switch the current transaction to ``tenant_id`` (used once the API key is known)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config(%s, %s, true)", [TENANT_SETTING, str(tenant_id)])


@contextmanager
def tenant_context(tenant_id: uuid.UUID | str | None) -> Iterator[None]:
    """Run the block in a transaction (or savepoint) scoped to ``tenant_id``."""
    with transaction.atomic():
        saved = enter_tenant(tenant_id)
        yield
        restore_tenant(saved)


def current_tenant_id() -> str | None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting(%s, true)", [TENANT_SETTING])
        value = cursor.fetchone()[0]
    return value or None


def tenant_ids() -> list[uuid.UUID]:
    """Every tenant's id, for work that visits each tenant in turn (sweeps, index builds).
    A SECURITY DEFINER lookup (``engram_tenant_ids``), so it works under the application
    role before any tenant is set; it returns ids only."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT id FROM engram_tenant_ids()")
        return [row[0] for row in cursor.fetchall()]
