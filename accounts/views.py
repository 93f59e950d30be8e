"""Sign-in with a throttle on failed attempts (per username and per client address)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _


def _keys(request, username: str) -> list[str]:
    address = request.META.get("REMOTE_ADDR", "")
    return [f"login-fail:user:{username.lower()}", f"login-fail:addr:{address}"]


class ThrottledAuthenticationForm(AuthenticationForm):
    def clean(self):
        username = (self.data.get("username") or "")[:150]
        limit = settings.ENGRAM["LOGIN_MAX_FAILURES"]
        keys = _keys(self.request, username)
        if any((cache.get(k) or 0) >= limit for k in keys):
            raise ValidationError(
                _(
                    "Too many failed sign-in attempts. Wait %(minutes)d minutes and try again, or ask your admin to reset your password."
                )
                % {"minutes": settings.ENGRAM["LOGIN_LOCKOUT_SECONDS"] // 60},
                code="throttled",
            )
        try:
            return super().clean()
        except ValidationError:
            for k in keys:
                cache.add(k, 0, settings.ENGRAM["LOGIN_LOCKOUT_SECONDS"])
                try:
                    cache.incr(k)
                except ValueError:  # expired between add and incr
                    cache.set(k, 1, settings.ENGRAM["LOGIN_LOCKOUT_SECONDS"])
            raise


class LoginView(auth_views.LoginView):
    authentication_form = ThrottledAuthenticationForm
    redirect_authenticated_user = True
