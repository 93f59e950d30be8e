from django.urls import path

from governance import views

app_name = "governance"

urlpatterns = [
    path("", views.home, name="home"),
    path("tenant", views.tenant_switch, name="tenant-switch"),
    path("procedures/", views.procedure_list, name="procedures"),
    path("procedures/<slug:slug>/", views.procedure_detail, name="procedure"),
    path("procedures/<slug:slug>/rollback", views.procedure_rollback, name="procedure-rollback"),
    path("procedures/<slug:slug>/v<int:number>", views.procedure_version, name="procedure-version"),
    path("changes/", views.change_list, name="changes"),
    path("changes/<uuid:change_id>/", views.change_detail, name="change"),
    path(
        "changes/<uuid:change_id>/approve",
        views.change_decide,
        {"decision": "approve"},
        name="change-approve",
    ),
    path(
        "changes/<uuid:change_id>/reject",
        views.change_decide,
        {"decision": "reject"},
        name="change-reject",
    ),
    path(
        "changes/<uuid:change_id>/rebase",
        views.change_decide,
        {"decision": "rebase"},
        name="change-rebase",
    ),
    path("quarantine/", views.quarantine_list, name="quarantine"),
    path(
        "quarantine/<uuid:record_id>/resolve", views.quarantine_resolve, name="quarantine-resolve"
    ),
    path("audit/", views.audit_list, name="audit"),
    path("audit.csv", views.audit_csv, name="audit-csv"),
    path("admin/agents", views.admin_agents, name="admin-agents"),
    path("admin/members", views.admin_members, name="admin-members"),
    path("admin/policy", views.admin_policy, name="admin-policy"),
    path("utility/", views.utility, name="utility"),
    path("quality/", views.quality, name="quality"),
    path(
        "quality/findings/<int:finding_id>/apply",
        views.quality_finding_apply,
        name="quality-finding-apply",
    ),
    path("quality/canaries", views.quality_canary_add, name="quality-canary-add"),
    path(
        "quality/canaries/<uuid:canary_id>/remove",
        views.quality_canary_remove,
        name="quality-canary-remove",
    ),
]
