"""Per-agent request budgets. They control cost (embedding, database time); they are not a
security boundary — credentials and row-level security are."""

from __future__ import annotations

from rest_framework.throttling import SimpleRateThrottle

from accounts.authentication import AgentPrincipal
from core.observability.metrics import observe_rate_limited


class AgentRateThrottle(SimpleRateThrottle):
    scope = "agent"

    def get_cache_key(self, request, view):
        principal = request.user
        if not isinstance(principal, AgentPrincipal):
            return None  # unauthenticated requests fail authentication anyway
        return self.cache_format % {"scope": self.scope, "ident": principal.agent.id}

    def throttle_failure(self) -> bool:
        observe_rate_limited(self.scope)  # engram_rate_limited_total on /metrics
        return super().throttle_failure()
