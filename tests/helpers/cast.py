"""The cast's building blocks: a JSON test client carrying an agent's credentials, people
with a membership and a subject, agents with a key, and a valid candidate body. The
fixtures in tests/conftest.py are made of these; tests that need one more person or agent
call them directly."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from accounts.models import Agent, Role, Tenant
from accounts.services.credentials import api_key_issue
from accounts.services.tenants import agent_create, membership_set
from core.actor import Actor
from memory.models import Subject
from memory.services.subject_tokens import subject_token_issue
from memory.services.subjects import subject_get_or_create


class ApiClient(Client):
    """A Django test client that speaks JSON and carries an agent's credentials."""

    def __init__(self, key: str | None = None, subject_token: str | None = None, **kw: Any) -> None:
        headers = {}
        if key:
            headers["HTTP_AUTHORIZATION"] = f"Bearer {key}"
        if subject_token:
            headers["HTTP_X_ENGRAM_SUBJECT_TOKEN"] = subject_token
        super().__init__(**headers, **kw)

    def post_json(self, path: str, body: Any, **kw: Any):
        return self.post(path, json.dumps(body), content_type="application/json", **kw)

    def delete_json(self, path: str, body: Any = None, **kw: Any):
        data = json.dumps(body) if body is not None else ""
        return self.delete(path, data, content_type="application/json", **kw)


@dataclass
class AgentCred:
    agent: Agent
    key: str

    def client(self, subject: Subject | None = None) -> ApiClient:
        token = None
        if subject is not None:
            token = subject_token_issue(
                tenant_id=self.agent.tenant_id, agent_id=self.agent.id, subject_id=subject.id
            )
        return ApiClient(self.key, token)


def person(tenant: Tenant, username: str, role: str = Role.MEMBER) -> tuple[User, Subject]:
    user = User.objects.create_user(username, password="pw-" + username)
    membership_set(actor=Actor.system(tenant.id), tenant=tenant, user=user, role=role)
    subject = subject_get_or_create(
        tenant_id=tenant.id, kind="user", external_id=username, user=user
    )
    return user, subject


def agent_with_key(tenant: Tenant, name: str, scopes: list[str]) -> AgentCred:
    agent = agent_create(actor=Actor.system(tenant.id), tenant=tenant, name=name)
    _, key = api_key_issue(actor=Actor.system(tenant.id), agent=agent, scopes=scopes)
    return AgentCred(agent, key)


def candidate(**overrides: Any) -> dict[str, Any]:
    """A valid API candidate body: an explicit, consented user preference."""
    body = {
        "memory_type": "semantic",
        "namespace": "assistant/profile",
        "statement": "User wants answers conclusion-first, then evidence",
        "assertion_kind": "user_explicit",
        "confidence": 1.0,
        "purpose": "personalization",
        "consent_basis": "explicit_consent",
    }
    body.update(overrides)
    return body
