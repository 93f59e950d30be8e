"""Settings of what every API request pays before and around its work: authentication
and the checks that run with it (memory/api/authentication.py). Kept apart from base.py,
which merges them into ``ENGRAM`` (so benches toggle them by name like the other
speed-ups); base.py has already loaded ``.env`` into the environment."""

from __future__ import annotations

import environ

env = environ.Env()

ENGRAM_REQUEST_PATH = {
    # A request presenting a subject token reads its API key (with the agent and tenant)
    # and the subject's access for the key's agent in one statement, once the token's
    # signature and expiry are checked (memory/api/auth_one_read.py; docs/performance.md,
    # issue 39, tenth round). The same refusals in the same order. false: the key, then
    # the access, in two statements, as the reference does.
    "KEY_ACCESS_ONE_READ": env.bool("ENGRAM_API_KEY_ACCESS_ONE_READ", default=True),
    # An API request presenting a Bearer key has its transaction scoped to the key's
    # tenant as it begins, in the statement that assumes the application role
    # (accounts/middleware.py, core.tenancy.enter_tenant_of_key); authentication then
    # checks the key without asking for its tenant again. false: the role and no tenant
    # first, the key's tenant in a statement of its own during authentication.
    "KEY_TENANT_AT_ENTRY": env.bool("ENGRAM_API_KEY_TENANT_AT_ENTRY", default=True),
    # The per-agent throttle keeps its window's request times as packed doubles (one bytes
    # value in the cache, read in place) instead of DRF's list of floats, which the cache
    # pickles whole on every request (accounts/throttles.py). The same decisions and
    # waits. false: DRF's list, under DRF's key.
    "THROTTLE_PACKED_HISTORY": env.bool("ENGRAM_API_THROTTLE_PACKED_HISTORY", default=True),
}
