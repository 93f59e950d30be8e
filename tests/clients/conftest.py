"""Fixtures of the client tests: a real Engram (gunicorn on a free loopback port, see
tests/helpers/live_server.py) started once per module, and an agent's keys on it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.db import connection

from tests.helpers.live_server import AgentKeys, EngramServer, make_agent


@pytest.fixture(scope="module")
def engram_server(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[EngramServer]:
    with django_db_blocker.unblock():
        db_name = connection.settings_dict["NAME"]
    server = EngramServer(tmp_path_factory.mktemp("engram") / "gunicorn.log", db_name)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def live_engram(engram_server, transactional_db) -> Iterator[EngramServer]:
    """The running server; started again if a test left it stopped."""
    if not engram_server.running:
        engram_server.start()
    yield engram_server
    if not engram_server.running:
        engram_server.start()


@pytest.fixture
def keys(live_engram) -> AgentKeys:
    return make_agent()
