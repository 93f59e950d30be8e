"""Sign-in, protected by django-axes (settings: "Sign-in throttling").

Failed attempts are counted per (user name, client address) pair in the shared cache, so
five wrong passwords lock that name from that address for ``ENGRAM_LOGIN_LOCKOUT_SECONDS``
— not every user behind the same proxy, and not the same user signing in from elsewhere.
The same check guards ``/admin/login/`` (axes sits in ``AUTHENTICATION_BACKENDS``, which
every form's ``authenticate()`` goes through). Password reset by e-mail is not offered
(config/urls.py): an admin sets a new password (``manage.py changepassword`` or the
admin), so there is no unthrottled reset form to abuse.

The hooks below are what the settings name: the lockout answer (the sign-in page with
the reason, status 429), the user name as counted (case-folded, so "Alice" and "alice"
share a count), and how a client appears in axes' log lines (hashed: logs carry no user
names or addresses in clear).
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def _lockout_message() -> str:
    return _(
        "Too many failed sign-in attempts. Wait %(minutes)d minutes and try again, or ask your admin to reset your password."
    ) % {"minutes": settings.ENGRAM["LOGIN_LOCKOUT_SECONDS"] // 60}


def login_username(request, credentials) -> str:
    """The user name failures are counted under (AXES_USERNAME_CALLABLE)."""
    name = (credentials or {}).get("username") or request.POST.get("username") or ""
    return name[:150].casefold()


def login_client_str(username, ip_address, user_agent, path_info, request) -> str:
    """What axes' log lines say about a client (AXES_CLIENT_STR_CALLABLE): digests only."""

    def digest(value) -> str:
        return hashlib.sha256(str(value or "").encode()).hexdigest()[:12]

    return f"user#{digest(username)} addr#{digest(ip_address)} path={path_info}"


def login_locked_out(request, credentials, *args, **kwargs) -> HttpResponse:
    """The answer to a locked-out sign-in (AXES_LOCKOUT_CALLABLE): the admin's or our
    sign-in page with the reason, 429."""
    form = AuthenticationForm(request, data=request.POST or None)
    form.errors.clear()
    form.add_error(None, ValidationError(_lockout_message(), code="throttled"))
    if request.path.startswith("/admin/"):
        from django.contrib import admin

        context = {
            **admin.site.each_context(request),
            "form": form,
            "title": _("Log in"),
            "app_path": request.get_full_path(),
        }
        return render(request, "admin/login.html", context, status=429)
    return render(
        request,
        "registration/login.html",
        {"form": form, "next": request.POST.get("next", "")},
        status=429,
    )


class LoginView(auth_views.LoginView):
    redirect_authenticated_user = True
