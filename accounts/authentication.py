"""The API's principal: the tenant and agent come from the API key, the subject from a
signed subject token (or, behind a setting, a trusted gateway header). The DRF
authentication class that builds it is memory/api/authentication.py (naming a subject
needs memory's Subject)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from accounts.models import Agent, ApiKey

SUBJECT_TOKEN_HEADER = "HTTP_X_ENGRAM_SUBJECT_TOKEN"
GATEWAY_SUBJECT_HEADER = "HTTP_X_ENGRAM_GATEWAY_SUBJECT"


@dataclass
class AgentPrincipal:
    """``request.user`` for API requests."""

    agent: Agent
    api_key: ApiKey
    subject_id: uuid.UUID | None

    is_authenticated = True
    is_anonymous = False

    @property
    def tenant_id(self) -> uuid.UUID:
        return self.agent.tenant_id

    @property
    def scopes(self) -> frozenset[str]:
        return frozenset(self.api_key.scopes)

    @property
    def pk(self) -> str:
        return str(self.agent.id)
