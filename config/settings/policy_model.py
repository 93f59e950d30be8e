"""Settings of the optional policy model (memory/services/policy_model.py,
docs/write-policy.md "The optional policy model"): an OpenAI-compatible chat endpoint a
deployment may run (a guard model served by vLLM or TEI, say), asked only when the local
detectors are unsure, and only for tenants whose policy turns it on. Kept apart from
base.py (which imports it); base.py has already loaded ``.env`` into the environment."""

from __future__ import annotations

import environ

env = environ.Env()

ENGRAM_POLICY_MODEL = {
    # Unset: no tenant is ever consulted, whatever its policy says (the offline default).
    "URL": env("ENGRAM_POLICY_MODEL_URL", default=""),
    "MODEL": env("ENGRAM_POLICY_MODEL", default="guard"),
    "API_KEY": env("ENGRAM_POLICY_MODEL_API_KEY", default=""),
    # It is asked inside the write's transaction (under the subject's row lock): keep this
    # short. A timeout is a failure; the tenant's on_failure decides what follows.
    "TIMEOUT_SECONDS": env.float("ENGRAM_POLICY_MODEL_TIMEOUT", default=2.0),
    # After a timeout or an error it is not asked again for this long (per process): the
    # candidates in between fail at once (held or decided locally, by tenant policy).
    "RETRY_AFTER_SECONDS": env.float("ENGRAM_POLICY_MODEL_RETRY_AFTER", default=30.0),
}
