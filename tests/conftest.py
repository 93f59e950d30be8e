"""The cast every test draws on: two tenants, an owner and the people around them, and
agents holding keys of each scope. Tests run against the real (embedded) PostgreSQL with
migrations applied; nothing here mocks our database or policy engine. Also the fixtures that
start a real Celery worker (tests/helpers/worker.py) and mark what a test needs."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from accounts.models import Role, Tenant
from accounts.services.tenants import tenant_create
from config.celery import app
from memory.models import Subject
from tests.helpers.cast import AgentCred, ApiClient, agent_with_key, person
from tests.helpers.worker import BROKER, QUEUE, REDIS, REDIS_DB, Worker, reset_producer_pool


@pytest.fixture(autouse=True)
def _language_reset() -> Iterator[None]:
    """Each test starts in the default language: a page request in Chinese (the locale
    middleware activates it for the thread) must not leak into the next test."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _process_state_reset() -> Iterator[None]:
    """Each test starts with what a fresh process keeps (``core.process_state``): no
    vectors, statistics or verdicts an earlier test left behind."""
    yield
    from core import process_state

    process_state.reset_all(pure_too=False)


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


@pytest.fixture
def broker() -> Iterator[None]:
    """Point this process's Celery app at Redis (jobs are published, not run eagerly)."""
    try:
        socket.create_connection(REDIS, timeout=1).close()
    except OSError:
        pytest.fail(
            "Worker tests need Redis on 127.0.0.1:6379 (./dev test starts it; or "
            "'apt-get install redis-server')."
        )
    saved = {k: app.conf[k] for k in ("task_always_eager", "broker_url", "task_default_queue")}
    app.conf.update(task_always_eager=False, broker_url=BROKER, task_default_queue=QUEUE)
    reset_producer_pool()
    yield
    app.conf.update(saved)
    reset_producer_pool()
    import redis

    # Leave nothing of this run's queue behind in Redis.
    client = redis.Redis(host=REDIS[0], port=REDIS[1], db=REDIS_DB)
    client.delete(QUEUE, f"_kombu.binding.{QUEUE}")
    client.close()


@pytest.fixture
def start_worker(broker, tmp_path) -> Iterator[Callable[[], Worker]]:
    workers: list[Worker] = []

    def start() -> Worker:
        worker = Worker(tmp_path / "worker.log")
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()


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
# set (seed cases, LoCoMo-shaped conversations, detector and poisoning corpora, the 20-turn
# experiment).
WORKER_MODULES = ("tests/lifecycle/test_worker.py", "tests/ops/test_worker_observability.py")
FUZZ_MODULES = ("tests/security/test_api_fuzz.py", "tests/security/test_state_machine.py")
QUALITY_MODULES = (
    "tests/lifecycle/test_seed_cases_recall.py",
    "tests/memory/test_retrieval_conversation.py",
    "tests/memory/test_detectors_precision.py",
    "tests/clients/test_experiment.py",
    "tests/security/test_poisoning.py",
    "tests/security/test_obfuscated_poisoning.py",
    "tests/governance/test_procedures_api.py::test_poisoned_corpus_is_flagged_unapproved_and_never_recalled",
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
