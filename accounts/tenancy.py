"""Which tenants a signed-in user belongs to, read before (and across) tenant scoping.

The lookups go through the ``engram_user_tenants`` SECURITY DEFINER function (core/rls.py),
so they work before any tenant is set and return nothing of other users.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.db import connection
from django.http import HttpRequest

ACTIVE_TENANT_SESSION_KEY = "engram.tenant_id"


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
