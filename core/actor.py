"""Who is acting: an agent (API key), a signed-in user, or the system (a job)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.db import models


class ActorType(models.TextChoices):
    AGENT = "agent"
    USER = "user"
    SYSTEM = "system"


@dataclass(frozen=True)
class Actor:
    """Who is acting: an agent (API key), a signed-in user, or the system (a job)."""

    type: str
    id: str
    tenant_id: uuid.UUID

    @classmethod
    def agent(cls, agent_id: Any, tenant_id: uuid.UUID) -> Actor:
        return cls(ActorType.AGENT, str(agent_id), tenant_id)

    @classmethod
    def user(cls, user_id: Any, tenant_id: uuid.UUID) -> Actor:
        return cls(ActorType.USER, str(user_id), tenant_id)

    @classmethod
    def system(cls, tenant_id: uuid.UUID, name: str = "system") -> Actor:
        return cls(ActorType.SYSTEM, name, tenant_id)
