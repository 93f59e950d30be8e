"""Pure decisions about tenants and credentials (no database access)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SENSITIVE_HANDLING = ("reject", "quarantine")


@dataclass(frozen=True)
class TenantPolicy:
    """A tenant's write-policy settings, with defaults.

    ``sensitive_personal_data``: what the write policy does with ID numbers, phone numbers,
    bank cards and special categories (health, religion, …): ``reject`` them outright or
    ``quarantine`` them until the user confirms explicitly.
    ``allowed_purposes``: purposes a memory may be written for; empty means any stated
    purpose (a purpose is still required).
    """

    sensitive_personal_data: str = "quarantine"
    allowed_purposes: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, raw: dict[str, Any] | None) -> TenantPolicy:
        raw = dict(raw or {})
        handling = raw.pop("sensitive_personal_data", cls.sensitive_personal_data)
        if handling not in SENSITIVE_HANDLING:
            handling = cls.sensitive_personal_data
        purposes = tuple(str(p) for p in raw.pop("allowed_purposes", ()) or ())
        return cls(sensitive_personal_data=handling, allowed_purposes=purposes, extra=raw)

    def purpose_allowed(self, purpose: str) -> bool:
        return not self.allowed_purposes or purpose in self.allowed_purposes


def scopes_allow(granted: frozenset[str], needed: str) -> bool:
    """``admin`` implies ``write`` implies ``read``."""
    order = {"read": 0, "write": 1, "admin": 2}
    return any(order[g] >= order[needed] for g in granted if g in order)
