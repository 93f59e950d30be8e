from django.contrib import admin
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from accounts.views import LoginView
from config.metrics import metrics_view
from core.api import json_404, json_500
from core.database import database_state


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness and the database's state: 200 while the database answers, 503 when it does
    not; ``database.restarted_since_start`` turns true once the server's start time changed
    since this process first saw it (a crashed backend restarts the whole server)."""
    state = database_state()
    body = {"status": "ok" if state.ok else "unavailable", "database": state.as_dict()}
    if state.ok and state.restarted_since_start:
        body["status"] = "degraded"
    return JsonResponse(body, status=200 if state.ok else 503)


api_v1 = [
    path("", include("memory.api.urls")),
    path("", include("governance.api.urls")),
    path(
        "schema",
        SpectacularAPIView.as_view(authentication_classes=[], permission_classes=[]),
        name="api-schema",
    ),
]

urlpatterns = [
    path("api/v1/", include(api_v1)),
    path("admin/", admin.site.urls),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", healthz),
    path("metrics", metrics_view, name="metrics"),
    path("console/", include("governance.urls")),
    path("", include("memory.urls")),
]

handler404 = json_404
handler500 = json_500
