"""The request's tenant scope: one transaction per request under the application role."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse

from accounts.services.credentials import key_parts
from accounts.tenancy import active_tenant_for
from core.db.with_commit import request_transaction
from core.tenancy import enter_tenant, enter_tenant_of_key, restore_tenant, tenant_set


class TenantContextMiddleware:
    """One transaction per request, under the application role, scoped to the signed-in
    user's tenant (API views narrow it to the key's tenant during authentication).
    A 5xx response rolls the request's writes back."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path == "/healthz":
            # No tenant, and it must answer (with why) when the database does not: it
            # opens its own connection (config/urls.py).
            return self.get_response(request)
        # The settings are transaction-local: when this transaction is the outermost one,
        # its commit discards them and putting them back would be a wasted round trip.
        outermost = not connection.in_atomic_block
        # Writes a view hands to the commit (a recall's trace: core/db/with_commit.py) go
        # with it, in one round trip.
        with request_transaction(connection, outermost=outermost) as send_with_commit:
            with transaction.atomic():
                prefix = _key_prefix(request)
                if prefix is None:
                    saved = enter_tenant(None)
                else:
                    # ENGRAM_API_KEY_TENANT_AT_ENTRY: the role and the presented key's
                    # tenant in one statement; authentication then checks the key without
                    # asking for its tenant again (accounts/services/credentials.py).
                    saved, key_tenant = enter_tenant_of_key(prefix)
                    request.key_tenant_at_entry = (prefix, key_tenant)
                request.tenant_id = active_tenant_for(request)
                if request.tenant_id is not None:
                    # A signed-in user's tenant replaces the key's: authentication asks
                    # again.
                    request.key_tenant_at_entry = None
                    tenant_set(request.tenant_id)
                response = self.get_response(request)
                if response.status_code >= 500:
                    transaction.set_rollback(True)
                else:
                    if not outermost:
                        restore_tenant(saved)
                    send_with_commit()
        return response


def _key_prefix(request: HttpRequest) -> str | None:
    """The prefix of the API key an API request presents as ``Bearer egk_…`` (unchecked),
    when ``ENGRAM_API_KEY_TENANT_AT_ENTRY`` is on; else None."""
    if not settings.ENGRAM["KEY_TENANT_AT_ENTRY"] or not request.path.startswith("/api/"):
        return None
    scheme, _, raw = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    parts = key_parts(raw.strip()) if scheme == "Bearer" else None
    return parts[1] if parts else None
