from django.urls import path

from governance.api import views

urlpatterns = [
    path("procedures/<slug:slug>", views.ProcedureDetailView.as_view(), name="api-procedure"),
    path(
        "procedures/<slug:slug>/change-requests",
        views.ProcedureChangeRequestCreateView.as_view(),
        name="api-procedure-change-requests",
    ),
    path(
        "procedures/<slug:slug>/change-requests/<uuid:change_request_id>",
        views.ProcedureChangeRequestDetailView.as_view(),
        name="api-procedure-change-request",
    ),
]
