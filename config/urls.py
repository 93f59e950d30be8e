from django.contrib import admin
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from accounts.views import LoginView
from config.api import json_404, json_500


def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


api_v1 = [
    path("", include("accounts.api.urls")),
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
    path("console/", include("governance.urls")),
    path("", include("memory.urls")),
]

handler404 = json_404
handler500 = json_500
