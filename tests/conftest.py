"""The cast every test draws on: two tenants, an owner and the people around them, and
agents holding keys of each scope. Tests run against the real (embedded) PostgreSQL with
migrations applied; nothing here mocks our database or policy engine."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from accounts.models import Role, Tenant
from accounts.services.tenants import tenant_create
from memory.models import Subject
from tests.helpers.cast import AgentCred, ApiClient, agent_with_key, person


@pytest.fixture
def tenant(db) -> Tenant:
    return tenant_create(slug="acme", name="Acme")


@pytest.fixture
def other_tenant(db) -> Tenant:
    return tenant_create(slug="globex", name="Globex")


@pytest.fixture
def owner(tenant) -> tuple[User, Subject]:
    """The end user whose memories are at stake."""
    return person(tenant, "alice")


@pytest.fixture
def owner_subject(owner) -> Subject:
    return owner[1]


@pytest.fixture
def same_tenant_user(tenant) -> tuple[User, Subject]:
    return person(tenant, "bob")


@pytest.fixture
def other_tenant_user(other_tenant) -> tuple[User, Subject]:
    return person(other_tenant, "mallory")


@pytest.fixture
def reviewer(tenant) -> tuple[User, Subject]:
    return person(tenant, "rita", Role.REVIEWER)


@pytest.fixture
def tenant_admin(tenant) -> tuple[User, Subject]:
    return person(tenant, "ada", Role.ADMIN)


@pytest.fixture
def write_agent(tenant) -> AgentCred:
    return agent_with_key(tenant, "writer", ["read", "write"])


@pytest.fixture
def read_agent(tenant) -> AgentCred:
    return agent_with_key(tenant, "reader", ["read"])


@pytest.fixture
def admin_agent(tenant) -> AgentCred:
    return agent_with_key(tenant, "gateway", ["admin"])


@pytest.fixture
def other_tenant_agent(other_tenant) -> AgentCred:
    return agent_with_key(other_tenant, "intruder", ["read", "write", "admin"])


@pytest.fixture
def api(write_agent, owner_subject) -> ApiClient:
    """The write agent acting for the owner."""
    return write_agent.client(owner_subject)


pytest_plugins = ["tests.helpers.browser"]


# The core of the suite that ./dev test also runs against a separately started PostgreSQL
# over TCP (tests/external_postgres/): ``pytest -k external_postgres`` selects it.
EXTERNAL_POSTGRES_SUITE = (
    "tests/external_postgres/",
    "tests/database/test_self_test.py",
    "tests/security/test_row_level_security.py",
    "tests/memory/test_write_api.py",
    "tests/accounts/test_credentials.py",
    "tests/memory/test_recall_api.py",
    "tests/lifecycle/test_deletion.py",
)


# What a test needs beyond the database, or how long it runs, as markers (registered in
# pyproject.toml), so that ``./dev test -m "not browser and not worker and not fuzz and not
# quality"`` is a fast inner loop. Quality runs measure recall or precision over a labelled
# set (seed cases, LoCoMo-shaped conversations, detector corpora, the 20-turn experiment).
WORKER_MODULES = ("tests/lifecycle/test_worker.py", "tests/ops/test_worker_observability.py")
FUZZ_MODULES = ("tests/security/test_api_fuzz.py", "tests/security/test_state_machine.py")
QUALITY_MODULES = (
    "tests/lifecycle/test_seed_cases_recall.py",
    "tests/memory/test_retrieval_conversation.py",
    "tests/memory/test_detectors_precision.py",
    "tests/clients/test_experiment.py",
)


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
        if item.nodeid.startswith(QUALITY_MODULES):
            item.add_marker(pytest.mark.quality)
