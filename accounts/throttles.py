"""Per-agent request budgets. They control cost (embedding, database time); they are not a
security boundary — credentials and row-level security are."""

from __future__ import annotations

from rest_framework.throttling import SimpleRateThrottle

from accounts.authentication import AgentPrincipal


class AgentRateThrottle(SimpleRateThrottle):
    scope = "agent"

    def get_cache_key(self, request, view):
        principal = request.user
        if not isinstance(principal, AgentPrincipal):
            return None  # unauthenticated requests fail authentication anyway
        return self.cache_format % {"scope": self.scope, "ident": principal.agent.id}
