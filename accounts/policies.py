"""Pure decisions about tenants and credentials (no database access)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

SENSITIVE_HANDLING = ("reject", "quarantine")
# Purposes every tenant knows, whatever else it uses: what the README, the clients and the
# demo write for.
DEFAULT_PURPOSES = ("personalization", "support", "task_continuity", "agent_procedure")


def _folded(purpose: str) -> str:
    """A purpose as compared for near-misses: case, spaces, hyphens and underscores, and
    British/American -is-/-iz- spellings do not make a different purpose."""
    folded = re.sub(r"[\s_-]+", "", purpose.casefold())
    return re.sub(r"is(?=ation|e|ing)", "iz", folded)


@dataclass(frozen=True)
class TenantPolicy:
    """A tenant's write-policy settings, with defaults.

    ``sensitive_personal_data``: what the write policy does with ID numbers, phone numbers,
    bank cards and special categories (health, religion, …): ``reject`` them outright or
    ``quarantine`` them until the user confirms explicitly.
    ``allowed_purposes``: purposes a memory may be written for; empty means any stated
    purpose (a purpose is still required) that is not a near-miss of a known one.
    ``known_purposes``: the purposes the subject's memories already use (filled by the
    write service; recall finds a memory only under its exact purpose).
    """

    sensitive_personal_data: str = "quarantine"
    allowed_purposes: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    known_purposes: tuple[str, ...] = ()

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

    def purpose_suggestion(self, purpose: str) -> str | None:
        """For a purpose this tenant would not find again, the purpose meant: with an
        allowed list, the closest one on it (or the first when none is close); without,
        a known purpose it nearly spells ("personalisation", "Personalization ",
        "personalizaton" → "personalization"). ``None``: the purpose is fine as written."""
        if self.allowed_purposes:
            if purpose in self.allowed_purposes:
                return None
            return _closest(purpose, self.allowed_purposes) or self.allowed_purposes[0]
        known = tuple(dict.fromkeys((*DEFAULT_PURPOSES, *self.known_purposes)))
        if purpose in known:
            return None
        return _closest(purpose, known)


def _closest(purpose: str, choices: tuple[str, ...]) -> str | None:
    """The choice ``purpose`` nearly spells: the same once folded, or within one edit
    (two for purposes of nine characters or more) of a choice of at least four
    characters. Typos are single edits; a different purpose differs by more."""
    folded = _folded(purpose)
    best: tuple[int, str] | None = None
    for choice in choices:
        other = _folded(choice)
        if other == folded:
            return choice
        if min(len(other), len(folded)) < 4:
            continue
        allowed = 2 if len(other) >= 9 else 1
        distance = _edit_distance(folded, other, limit=allowed)
        if distance <= allowed and (best is None or distance < best[0]):
            best = (distance, choice)
    return best[1] if best else None


def _edit_distance(a: str, b: str, *, limit: int) -> int:
    """Levenshtein distance, or ``limit + 1`` as soon as it must exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def scopes_allow(granted: frozenset[str], needed: str) -> bool:
    """``admin`` implies ``write`` implies ``read``."""
    order = {"read": 0, "write": 1, "admin": 2}
    return any(order[g] >= order[needed] for g in granted if g in order)
