"""Django admin for operators: memory is read-only here. Every change to governed memory
goes through the write path (memory.services.writes) or the erasure service."""

from __future__ import annotations

from django.contrib import admin

from memory.models import MemoryRecord, SourceEvent, Subject


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Subject)
class SubjectAdmin(ReadOnlyAdmin):
    list_display = ("kind", "external_id", "tenant", "memory_paused", "consent_withdrawn_at")
    list_filter = ("kind", "tenant")
    search_fields = ("external_id",)


@admin.register(MemoryRecord)
class MemoryRecordAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "tenant",
        "subject",
        "memory_type",
        "namespace",
        "status",
        "status_reason",
        "recorded_at",
    )
    list_filter = ("memory_type", "status", "tenant")
    search_fields = ("id", "namespace", "predicate")
    date_hierarchy = "recorded_at"


@admin.register(SourceEvent)
class SourceEventAdmin(ReadOnlyAdmin):
    list_display = ("id", "tenant", "subject", "kind", "role", "occurred_at")
    list_filter = ("kind", "role", "tenant")
