"""Tenants, people and agent credentials.

A tenant owns everything; every tenant-owned table carries ``tenant_id`` and its composite
indexes lead with it so the schema can later be sharded by tenant.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Sensitivity(models.TextChoices):
    """Ordered from least to most sensitive; an agent's clearance caps what it may read."""

    PUBLIC = "public", _("public")
    INTERNAL = "internal", _("internal")
    CONFIDENTIAL = "confidential", _("confidential")
    RESTRICTED = "restricted", _("restricted")

    @classmethod
    def rank(cls, value: str) -> int:
        return [c.value for c in cls].index(value)


class Tenant(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    slug = models.SlugField(max_length=64, unique=True)
    name = models.CharField(max_length=200)
    # Validated and defaulted by accounts.policies.TenantPolicy; never read raw.
    policy = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.slug


class Role(models.TextChoices):
    MEMBER = "member", _("member")
    REVIEWER = "reviewer", _("reviewer")
    ADMIN = "admin", _("tenant admin")


class Membership(models.Model):
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tenant", "user"], name="membership_unique_per_tenant"),
        ]
        indexes = [
            # Serves "members of a tenant by role" on the admin pages.
            models.Index(fields=["tenant", "role"], name="membership_tenant_role"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}@{self.tenant_id}:{self.role}"


class Agent(models.Model):
    """A service identity (an agent runtime). It authenticates with API keys."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="agents")
    name = models.CharField(max_length=100)
    # Highest sensitivity this agent may read.
    clearance = models.CharField(
        max_length=16, choices=Sensitivity.choices, default=Sensitivity.INTERNAL
    )
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tenant", "name"], name="agent_unique_name_per_tenant"),
        ]

    def __str__(self) -> str:
        return self.name


class Scope(models.TextChoices):
    READ = "read", _("read")
    WRITE = "write", _("write")
    ADMIN = "admin", _("admin")


class ApiKey(models.Model):
    """A hashed API key. The plaintext (``egk_<prefix>_<secret>``) is shown once at issue.

    The secret is 256 bits from ``secrets``; a plain SHA-256 of it is enough (no password
    stretching is needed for high-entropy random secrets), and lookups go by ``prefix``.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="api_keys")
    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="api_keys")
    label = models.CharField(max_length=100, blank=True)
    prefix = models.CharField(max_length=16, unique=True)
    secret_hash = models.CharField(max_length=64)
    scopes = ArrayField(models.CharField(max_length=8, choices=Scope.choices), default=list)
    created_at = models.DateTimeField(default=timezone.now)
    # Set on rotation: the old key keeps working until then (overlap window).
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # Serves the key list of one agent on the admin pages.
            models.Index(fields=["tenant", "agent"], name="apikey_tenant_agent"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(scopes__contained_by=["read", "write", "admin"]),
                name="apikey_scopes_known",
            ),
        ]

    def __str__(self) -> str:
        return f"egk_{self.prefix}_…"

    def is_usable(self, now=None) -> bool:
        now = now or timezone.now()
        if self.revoked_at is not None:
            return False
        return self.expires_at is None or self.expires_at > now
