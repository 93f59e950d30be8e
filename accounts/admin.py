"""Django admin for operators: tenants, memberships, agents. API keys are listed without
their hashes; issue, rotate and revoke them in the console (a key is shown once there)."""

from __future__ import annotations

from django.contrib import admin

from accounts.models import Agent, ApiKey, Membership, Tenant


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ("user",)


@admin.register(Tenant)
class TenantAdmin(admin.ModelAdmin):
    list_display = ("slug", "name", "created_at")
    search_fields = ("slug", "name")
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ("user", "tenant", "role", "created_at")
    list_filter = ("role", "tenant")
    search_fields = ("user__username", "tenant__slug")


@admin.register(Agent)
class AgentAdmin(admin.ModelAdmin):
    list_display = ("name", "tenant", "clearance", "is_active", "created_at", "revoked_at")
    list_filter = ("tenant", "is_active", "clearance")
    search_fields = ("name",)


@admin.register(ApiKey)
class ApiKeyAdmin(admin.ModelAdmin):
    list_display = (
        "__str__",
        "agent",
        "tenant",
        "scopes",
        "created_at",
        "expires_at",
        "revoked_at",
        "last_used_at",
    )
    list_filter = ("tenant",)
    exclude = ("secret_hash",)
    readonly_fields = ("tenant", "agent", "prefix", "scopes", "created_at", "last_used_at")

    def has_add_permission(self, request) -> bool:
        return False
