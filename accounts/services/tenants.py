"""Tenants, members and agents."""

from __future__ import annotations

from django.contrib.auth.models import User

from accounts.models import Agent, Membership, Role, Sensitivity, Tenant
from core.actor import Actor
from core.audit import audit_record
from core.codes import AuditAction


def tenant_create(*, slug: str, name: str, policy: dict | None = None) -> Tenant:
    tenant = Tenant.objects.create(slug=slug, name=name, policy=policy or {})
    audit_record(actor=Actor.system(tenant.id), action=AuditAction.TENANT_CREATE)
    return tenant


def membership_set(
    *, actor: Actor, tenant: Tenant, user: User, role: str = Role.MEMBER
) -> Membership:
    membership, _ = Membership.objects.update_or_create(
        tenant=tenant, user=user, defaults={"role": role}
    )
    audit_record(
        actor=actor, action=AuditAction.MEMBERSHIP_SET, extra={"user_id": user.pk, "role": role}
    )
    return membership


def agent_create(
    *, actor: Actor, tenant: Tenant, name: str, clearance: str = Sensitivity.INTERNAL
) -> Agent:
    agent = Agent.objects.create(tenant=tenant, name=name, clearance=clearance)
    audit_record(actor=actor, action=AuditAction.AGENT_CREATE, extra={"agent_id": str(agent.id)})
    return agent
