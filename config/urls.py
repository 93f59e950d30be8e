from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from accounts.views import LoginView
from config.metrics import metrics_view
from core.api import RETRY_AFTER_SECONDS, json_404, json_500
from core.database import database_state


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness and the database's state: 200 while the database answers, 503 (with
    ``Retry-After``) when it does not. ``status`` is "degraded" once this process saw the
    server restart (``restarted_since_start``) or reinitialise after a crashed backend
    (``crashes_seen``, ``crash_recovered_at``); with the embedded server, ``embedded``
    shows its supervision: restarts, and why the last start failed."""
    state = database_state()
    body = {"status": "ok" if state.ok else "unavailable", "database": state.as_dict()}
    if state.ok and state.troubled:
        body["status"] = "degraded"
    response = JsonResponse(body, status=200 if state.ok else 503)
    if not state.ok:
        embedded = state.embedded or {}
        response["Retry-After"] = str(
            embedded.get("next_attempt_in_seconds") or RETRY_AFTER_SECONDS
        )
    return response


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
    # Sign out and change one's own password. No password reset by e-mail: it would be an
    # unthrottled form on an address Engram does not verify; an admin sets a new password
    # (README "Accounts").
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password_change/",
        auth_views.PasswordChangeView.as_view(),
        name="password_change",
    ),
    path(
        "accounts/password_change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
    path("healthz", healthz),
    path("metrics", metrics_view, name="metrics"),
    path("console/", include("governance.urls")),
    path("", include("memory.urls")),
]

handler404 = json_404
handler500 = json_500
