"""The cast every test draws on: two tenants, an owner and the people around them, and
agents holding keys of each scope. Tests run against the real (embedded) PostgreSQL with
migrations applied; nothing here mocks our database or policy engine."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.models import Agent, Role, Tenant
from accounts.services.credentials import api_key_issue, subject_token_issue
from accounts.services.tenants import agent_create, membership_set, tenant_create
from governance.services import Actor
from memory.models import Subject
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


def _person(tenant: Tenant, username: str, role: str = Role.MEMBER) -> tuple[User, Subject]:
    user = User.objects.create_user(username, password="pw-" + username)
    membership_set(actor=Actor.system(tenant.id), tenant=tenant, user=user, role=role)
    subject = subject_get_or_create(
        tenant_id=tenant.id, kind="user", external_id=username, user=user
    )
    return user, subject


def _agent(tenant: Tenant, name: str, scopes: list[str]) -> AgentCred:
    agent = agent_create(actor=Actor.system(tenant.id), tenant=tenant, name=name)
    _, key = api_key_issue(actor=Actor.system(tenant.id), agent=agent, scopes=scopes)
    return AgentCred(agent, key)


@pytest.fixture
def tenant(db) -> Tenant:
    return tenant_create(slug="acme", name="Acme")


@pytest.fixture
def other_tenant(db) -> Tenant:
    return tenant_create(slug="globex", name="Globex")


@pytest.fixture
def owner(tenant) -> tuple[User, Subject]:
    """The end user whose memories are at stake."""
    return _person(tenant, "alice")


@pytest.fixture
def owner_subject(owner) -> Subject:
    return owner[1]


@pytest.fixture
def same_tenant_user(tenant) -> tuple[User, Subject]:
    return _person(tenant, "bob")


@pytest.fixture
def other_tenant_user(other_tenant) -> tuple[User, Subject]:
    return _person(other_tenant, "mallory")


@pytest.fixture
def reviewer(tenant) -> tuple[User, Subject]:
    return _person(tenant, "rita", Role.REVIEWER)


@pytest.fixture
def tenant_admin(tenant) -> tuple[User, Subject]:
    return _person(tenant, "ada", Role.ADMIN)


@pytest.fixture
def write_agent(tenant) -> AgentCred:
    return _agent(tenant, "writer", ["read", "write"])


@pytest.fixture
def read_agent(tenant) -> AgentCred:
    return _agent(tenant, "reader", ["read"])


@pytest.fixture
def admin_agent(tenant) -> AgentCred:
    return _agent(tenant, "gateway", ["admin"])


@pytest.fixture
def other_tenant_agent(other_tenant) -> AgentCred:
    return _agent(other_tenant, "intruder", ["read", "write", "admin"])


@pytest.fixture
def api(write_agent, owner_subject) -> ApiClient:
    """The write agent acting for the owner."""
    return write_agent.client(owner_subject)


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


pytest_plugins = ["tests.browser"]


# The core of the suite that ./dev test also runs against a separately started PostgreSQL
# over TCP (tests/external_postgres/): ``pytest -k external_postgres`` selects it.
EXTERNAL_POSTGRES_SUITE = (
    "tests/external_postgres/",
    "tests/database/test_self_test.py",
    "tests/security/test_row_level_security.py",
    "tests/memory/test_write_api.py",
    "tests/memory/test_recall_api.py",
    "tests/lifecycle/test_deletion.py",
)


# What a test needs beyond the database, as markers (registered in pyproject.toml), so that
# ``./dev test -m "not browser and not worker and not fuzz"`` is a fast inner loop.
WORKER_MODULES = ("tests/lifecycle/test_worker.py", "tests/ops/test_worker_observability.py")
FUZZ_MODULES = ("tests/security/test_api_fuzz.py", "tests/security/test_state_machine.py")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.nodeid.startswith(EXTERNAL_POSTGRES_SUITE):
            item.extra_keyword_matches.add("external_postgres")
        if {"page", "browser"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
        if item.nodeid.startswith(WORKER_MODULES):
            item.add_marker(pytest.mark.worker)
        if item.nodeid.startswith(FUZZ_MODULES):
            item.add_marker(pytest.mark.fuzz)
