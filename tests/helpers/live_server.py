"""A real Engram for the client tests: gunicorn (config.wsgi, one sync worker) on a free
loopback port, connected to the test database (named through ENGRAM_DB_NAME, as the
worker tests do; it connects as the application role, so row-level security applies).
Tests stop and start it to make an outage in the middle of a client session.

Tests using it need ``pytest.mark.django_db(transaction=True)``: the server is another
process and only sees committed rows."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from accounts.models import Agent, Tenant
from accounts.services.credentials import api_key_issue
from accounts.services.tenants import agent_create, tenant_create
from core.actor import Actor

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class EngramServer:
    """One gunicorn process; ``stop()`` and ``start()`` keep the same address."""

    def __init__(self, log: Path, db_name: str, env: dict[str, str] | None = None) -> None:
        self.extra_env = env or {}
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self.db_name = db_name
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "ENGRAM_DB_NAME": self.db_name,
            "OMP_NUM_THREADS": "1",
            # No connection left open between requests: the tests flush tables.
            "DB_CONN_MAX_AGE": "0",
            # No background sweep either: its queries can deadlock with the flush that
            # ends each test (TRUNCATE of every table). tests/resilience sweep on purpose.
            "ENGRAM_INDEX_SWEEP_SECONDS": "0",
            **self.extra_env,
        }
        env.pop("ENGRAM_DB_CONNECT_AS", None)  # config.wsgi sets "app"
        gunicorn = Path(sys.executable).parent / "gunicorn"
        self.proc = subprocess.Popen(
            [
                str(gunicorn),
                "config.wsgi",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                "1",
                "--timeout",
                "120",
                "--graceful-timeout",
                "2",
                "--no-control-socket",
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError("gunicorn exited:\n" + self.log.read_text()[-3000:])
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        raise AssertionError("gunicorn did not answer:\n" + self.log.read_text()[-3000:])

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=10)
        # The port is free again once nothing accepts on it.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                httpx.get(self.url + "/healthz", timeout=0.5)
            except httpx.TransportError:
                return
            time.sleep(0.1)

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def workers(self) -> list[int]:
        """The gunicorn workers' process ids (the master's children)."""
        assert self.proc is not None
        pid = self.proc.pid
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        return [int(c) for c in children]

    @contextmanager
    def hung(self) -> Iterator[None]:
        """Every worker stopped (SIGSTOP) for the block: connections are accepted by the
        kernel's listen queue and never answered — a hung server, not a dead one."""
        workers = self.workers()
        assert workers
        for pid in workers:
            os.kill(pid, signal.SIGSTOP)
        try:
            yield
        finally:
            for pid in workers:
                os.kill(pid, signal.SIGCONT)
            # The requests the clients gave up on are still queued and now run: wait until
            # a health check queued behind them is answered (one sync worker answers in
            # order), so none of them runs into the flush that ends the test.
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    if httpx.get(self.url + "/healthz", timeout=10).status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)


@dataclass
class AgentKeys:
    tenant: Tenant
    agent: Agent
    write_key: str  # read + write
    admin_key: str  # issues subject tokens (same agent: tokens are bound to it)
    read_key: str


def make_agent(slug: str = "acme") -> AgentKeys:
    tenant = tenant_create(slug=slug, name=slug.title())
    actor = Actor.system(tenant.id)
    agent = agent_create(actor=actor, tenant=tenant, name="runtime")
    _, write_key = api_key_issue(actor=actor, agent=agent, scopes=["read", "write"])
    _, admin_key = api_key_issue(actor=actor, agent=agent, scopes=["admin"])
    _, read_key = api_key_issue(actor=actor, agent=agent, scopes=["read"])
    return AgentKeys(tenant, agent, write_key, admin_key, read_key)


def preference(statement: str = "User wants answers conclusion-first", **kw) -> dict:
    body = {
        "memory_type": "semantic",
        "namespace": "assistant/profile",
        "statement": statement,
        "assertion_kind": "user_explicit",
        "confidence": 1.0,
        "purpose": "personalization",
        "consent_basis": "explicit_consent",
    }
    body.update(kw)
    return body
