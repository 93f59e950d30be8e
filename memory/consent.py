"""Consent: what happens to a user's new messages while their consent to memory is withdrawn."""

from __future__ import annotations

# What the events API does with a user's new messages while their consent to memory is
# withdrawn — the tenant policy key ``events_after_consent_withdrawn``, shown to the user
# on the settings page:
#   "refuse"     (default) nothing is stored; the API answers 403 ``consent_withdrawn``;
#   "keep_short" stored with the short retention class (deleted by the retention job
#                after days), for the conversation's continuity only: never extracted
#                into memories (the write policy refuses every write) and erased with
#                everything else by "delete everything".
EVENTS_AFTER_WITHDRAWAL = ("refuse", "keep_short")


def events_after_consent_withdrawn(tenant_policy: dict | None) -> str:
    value = (tenant_policy or {}).get("events_after_consent_withdrawn", "refuse")
    return value if value in EVENTS_AFTER_WITHDRAWAL else "refuse"
