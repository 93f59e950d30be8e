"""What every console view shares: the tenant and rights of the request (``Console``),
the ``console_view`` decorator, and the render/redirect helpers."""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import Tenant
from accounts.tenancy import ACTIVE_TENANT_SESSION_KEY, MembershipInfo
from core.actor import Actor
from core.tenancy import tenant_context
from governance import selectors
from governance.policies import ConsoleAccess
from governance.services.errors import GovernanceError

SESSION_TENANT = ACTIVE_TENANT_SESSION_KEY


@dataclass(frozen=True)
class Console:
    tenant: Tenant
    access: ConsoleAccess
    actor: Actor
    request_id: str
    memberships: list[MembershipInfo]


def _membership_for(request: HttpRequest) -> tuple[MembershipInfo, list[MembershipInfo]]:
    # Membership is looked up by user before any tenant is known (it is what chooses it).
    memberships = list(selectors.memberships_for_user(user=request.user))
    if not memberships:
        raise Http404
    chosen = request.session.get(SESSION_TENANT)
    membership = next((m for m in memberships if str(m.tenant_id) == chosen), memberships[0])
    return membership, memberships


def console_view(check: Callable[[ConsoleAccess], bool] | None = None):
    """Sign-in required; resolves the tenant; runs the view inside its tenant context;
    403 when ``check`` refuses; GovernanceError 403/404 become real 403/404 responses."""

    def decorator(view):
        @login_required
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            membership, memberships = _membership_for(request)
            with tenant_context(membership.tenant_id):
                access = selectors.console_access_get(
                    user=request.user, tenant_id=membership.tenant_id
                )
                if access is None:
                    raise Http404
                console = Console(
                    tenant=Tenant.objects.get(pk=membership.tenant_id),
                    access=access,
                    actor=Actor.user(request.user.pk, membership.tenant_id),
                    request_id=request.headers.get("X-Request-Id", "")[:64] or uuid.uuid4().hex,
                    memberships=memberships,
                )
                if check is not None and not check(access):
                    raise PermissionDenied
                try:
                    return view(request, console, *args, **kwargs)
                except GovernanceError as e:
                    if e.status == 404:
                        raise Http404 from None
                    if e.status == 403:
                        raise PermissionDenied(e.message) from None
                    return _page(request, console, "governance/error.html", {"error": e}, e.status)

        return wrapper

    return decorator


def _page(request: HttpRequest, console: Console, template: str, context: dict, status: int = 200):
    context = {"console": console, "access": console.access, "tenant": console.tenant, **context}
    return render(request, template, context, status=status)


def _done(request: HttpRequest, url: str, message: str = "") -> HttpResponse:
    """Post/redirect/get, or an htmx client redirect."""
    if message:
        messages.success(request, message)
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _error(request: HttpRequest, e: GovernanceError) -> None:
    messages.error(request, str(e.message))
