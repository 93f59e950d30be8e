"""The per-transaction tenant setting that PostgreSQL row-level security reads.

Every piece of work on tenant-owned rows runs inside a transaction in which
``engram.tenant_id`` is set with ``set_config(..., is_local => true)`` and, when the
connection belongs to the table owner (manage.py, tests), the application role is assumed
with ``SET LOCAL ROLE``. Both die with the transaction, so a pooled connection can never
carry one tenant's setting into another's work. See governance/rls.py for the policies.

- ``TenantContextMiddleware`` wraps each web request in a transaction; for a signed-in
  user it sets their tenant, and API-key authentication sets the key's tenant.
- ``tenant_context(tenant_id)`` does the same for jobs, commands and services.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.http import HttpRequest, HttpResponse

TENANT_SETTING = "engram.tenant_id"
ACTIVE_TENANT_SESSION_KEY = "engram.tenant_id"


@dataclass(frozen=True)
class _Saved:
    role: str
    tenant: str


def _enter(tenant_id: uuid.UUID | str | None) -> _Saved:
    """Assume the application role and set the tenant; returns what to restore."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_setting('role'), current_setting(%s, true)", [TENANT_SETTING]
        )
        role, tenant = cursor.fetchone()
        if settings.ENGRAM["DB_ASSUME_APP_ROLE"]:
            cursor.execute("SELECT set_config('role', %s, true)", [settings.ENGRAM["DB_APP_ROLE"]])
        cursor.execute("SELECT set_config(%s, %s, true)", [TENANT_SETTING, str(tenant_id or "")])
    return _Saved(role=role, tenant=tenant or "")


def _restore(saved: _Saved) -> None:
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
        saved = _enter(tenant_id)
        yield
        _restore(saved)


def current_tenant_id() -> str | None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting(%s, true)", [TENANT_SETTING])
        value = cursor.fetchone()[0]
    return value or None


@dataclass(frozen=True)
class TenantInfo:
    id: uuid.UUID
    slug: str
    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class MembershipInfo:
    """A user's membership as seen before (and across) tenant scoping."""

    tenant_id: uuid.UUID
    role: str
    tenant: TenantInfo

    def get_role_display(self) -> str:
        from accounts.models import Role

        return str(Role(self.role).label)


def user_memberships(user_id: int) -> list[MembershipInfo]:
    """A signed-in user's memberships, oldest first. Works before any tenant is set and
    across tenants (SECURITY DEFINER function); returns nothing of other users."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT tenant_id, role, slug, name FROM engram_user_tenants(%s)", [user_id])
        return [
            MembershipInfo(t, role, TenantInfo(t, slug, name))
            for t, role, slug, name in cursor.fetchall()
        ]


def active_tenant_for(request: HttpRequest) -> uuid.UUID | None:
    """The signed-in user's tenant: the one chosen in this session if they still belong to
    it, else their first membership. None for anonymous users and non-members."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    tenants = [m.tenant_id for m in user_memberships(user.pk)]
    chosen = request.session.get(ACTIVE_TENANT_SESSION_KEY)
    for tenant in tenants:
        if str(tenant) == chosen:
            return tenant
    return tenants[0] if tenants else None


class TenantContextMiddleware:
    """One transaction per request, under the application role, scoped to the signed-in
    user's tenant (API views narrow it to the key's tenant during authentication).
    A 5xx response rolls the request's writes back."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with transaction.atomic():
            saved = _enter(None)
            request.tenant_id = active_tenant_for(request)
            if request.tenant_id is not None:
                tenant_set(request.tenant_id)
            response = self.get_response(request)
            if response.status_code >= 500:
                transaction.set_rollback(True)
            else:
                _restore(saved)
        return response
