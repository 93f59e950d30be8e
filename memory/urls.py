from django.urls import path

from memory import ops_views, views

urlpatterns = [
    path("", views.memory_list, name="memory-list"),
    path("start", views.landing, name="landing"),
    path("memories/new", views.memory_remember, name="memory-remember"),
    path("memories/import", views.memory_import, name="memory-import"),
    path("memories/bulk", views.memory_bulk, name="memory-bulk"),
    path("memories/<uuid:record_id>", views.memory_detail, name="memory-detail"),
    path("memories/<uuid:record_id>/correct", views.memory_correct, name="memory-correct"),
    path("memories/<uuid:record_id>/delete", views.memory_delete, name="memory-delete"),
    path("memories/<uuid:record_id>/confirm", views.memory_confirm, name="memory-confirm"),
    path("memories/<uuid:record_id>/archive", views.memory_archive, name="memory-archive"),
    path(
        "memories/deletions/<uuid:request_id>/undo",
        views.memory_delete_undo,
        name="memory-delete-undo",
    ),
    path("memories/export.json", views.export_json, name="memory-export-json"),
    path("memories/export.csv", views.export_csv, name="memory-export-csv"),
    path("settings/memory", views.memory_settings, name="memory-settings"),
    path("settings/memory/pause", views.memory_pause, name="memory-pause"),
    path("settings/memory/agents", views.memory_agent_access, name="memory-agent-access"),
    path("settings/memory/withdraw", views.memory_consent_withdraw, name="memory-withdraw"),
    path("settings/memory/consent", views.memory_consent_give, name="memory-consent"),
    path("settings/memory/delete-everything", views.memory_erase_all, name="memory-erase-all"),
    path(
        "settings/memory/deletions/<uuid:request_id>",
        views.memory_erase_receipt,
        name="memory-erase-receipt",
    ),
    path("ops/", ops_views.ops_home, name="ops"),
]
