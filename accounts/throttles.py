"""Per-agent request budgets. They control cost (embedding, database time); they are not a
security boundary — credentials and row-level security are."""

from __future__ import annotations

import struct

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

from accounts.authentication import AgentPrincipal
from core.observability.metrics import observe_rate_limited

_TIME = struct.Struct("=d")
# The packed history lives under its own key: a process with the setting off (DRF's list)
# and one with it on never read each other's form from a shared cache.
_PACKED_SUFFIX = ":packed"


class AgentRateThrottle(SimpleRateThrottle):
    scope = "agent"

    def get_cache_key(self, request, view):
        principal = request.user
        if not isinstance(principal, AgentPrincipal):
            return None  # unauthenticated requests fail authentication anyway
        return self.cache_format % {"scope": self.scope, "ident": principal.agent.id}

    def allow_request(self, request, view) -> bool:
        """DRF's sliding window, with ``ENGRAM_API_THROTTLE_PACKED_HISTORY`` kept as packed
        doubles. DRF keeps the window's request times as a list, newest first, that the
        cache pickles and unpickles whole on every request: at this rate's bound (3,000 a
        minute) that is thousands of floats each way. Packed, the times are one ``bytes``
        (pickled as it is) read in place; the same times are dropped (from the oldest end,
        while they are outside the window, as DRF's loop does), the same count decides, and
        ``wait()`` reads the same oldest time and count."""
        if not settings.ENGRAM["THROTTLE_PACKED_HISTORY"]:
            return super().allow_request(request, view)
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.key += _PACKED_SUFFIX
        raw = self.cache.get(self.key, b"")
        if not isinstance(raw, bytes) or len(raw) % _TIME.size:
            raw = b""  # not a history this class wrote: start afresh
        self.now = self.timer()
        history = memoryview(raw).cast("d")
        keep, oldest_allowed = len(history), self.now - self.duration
        while keep and history[keep - 1] <= oldest_allowed:
            keep -= 1
        self.history = history[:keep]
        if keep >= self.num_requests:
            return self.throttle_failure()
        packed = _TIME.pack(self.now) + raw[: keep * _TIME.size]
        self.history = memoryview(packed).cast("d")
        self.cache.set(self.key, packed, self.duration)
        return True

    def throttle_failure(self) -> bool:
        observe_rate_limited(self.scope)  # engram_rate_limited_total on /metrics
        return super().throttle_failure()
