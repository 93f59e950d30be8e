"""Django admin for operators. Governed history is read-only here: versions, change
requests and audit events change only through the services (and triggers refuse edits)."""

from __future__ import annotations

from django.contrib import admin
from guardian.admin import GuardedModelAdmin

from core.models import AuditEvent
from governance.models import ChangeRequest, ProceduralDocument, ProceduralVersion


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(AuditEvent)
class AuditEventAdmin(ReadOnlyAdmin):
    list_display = (
        "occurred_at",
        "tenant",
        "actor_type",
        "actor_id",
        "action",
        "operation",
        "reason_code",
    )
    list_filter = ("actor_type", "action", "operation")
    search_fields = ("actor_id", "action", "reason_code", "request_id")
    date_hierarchy = "occurred_at"


@admin.register(ProceduralDocument)
class ProceduralDocumentAdmin(GuardedModelAdmin):
    """Per-document review rights are managed under "Object permissions" on each row."""

    list_display = ("slug", "title", "kind", "tenant", "namespace", "current_version")
    list_filter = ("kind", "tenant")
    search_fields = ("slug", "title")
    readonly_fields = ("current_version", "current_record_id", "created_at")

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(ProceduralVersion)
class ProceduralVersionAdmin(ReadOnlyAdmin):
    list_display = ("document", "number", "approved_by", "created_at", "memory_record_id")
    list_filter = ("document__tenant",)


@admin.register(ChangeRequest)
class ChangeRequestAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "document",
        "status",
        "source",
        "base_version",
        "proposer_user",
        "proposer_agent",
        "created_at",
    )
    list_filter = ("status", "source", "tenant")
