"""Scope checks for API keys. Object access is decided by selectors (404 when not yours)."""

from __future__ import annotations

from rest_framework.permissions import BasePermission

from accounts.authentication import AgentPrincipal
from accounts.policies import scopes_allow


class _HasScope(BasePermission):
    scope = "read"
    message = "This API key lacks the needed scope."

    def has_permission(self, request, view) -> bool:
        principal = request.user
        if not isinstance(principal, AgentPrincipal):
            return False
        return scopes_allow(principal.scopes, self.scope)


class HasReadScope(_HasScope):
    scope = "read"
    message = "This API key has no 'read' scope."


class HasWriteScope(_HasScope):
    scope = "write"
    message = "This API key is read-only; writing needs a key with the 'write' scope."


class HasAdminScope(_HasScope):
    scope = "admin"
    message = "This needs a key with the 'admin' scope."
