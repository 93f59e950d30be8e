"""A real Celery worker for the worker tests: a subprocess (solo pool) on this run's own
queue in Redis on 127.0.0.1:6379, connected to the test database (named through
ENGRAM_DB_NAME) as the application role, so row-level security applies. The fixtures that
start one (``broker``, ``start_worker``) are in tests/conftest.py."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from django.db import connection

from config.celery import app

REDIS = ("127.0.0.1", 6379)
REDIS_DB = int(os.environ.get("ENGRAM_TEST_REDIS_DB", "11"))
QUEUE = f"engram-test-{uuid.uuid4().hex[:8]}"
BROKER = f"redis://{REDIS[0]}:{REDIS[1]}/{REDIS_DB}"
ROOT = Path(__file__).resolve().parents[2]


def wait_for(check: Callable[[], object], what: str, timeout: float = 60.0) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


class Worker:
    def __init__(self, log: Path) -> None:
        self.log = log
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "ENGRAM_DB_NAME": connection.settings_dict["NAME"],
            "CELERY_BROKER_URL": BROKER,
            "ENGRAM_CELERY_QUEUE": QUEUE,
            # Redeliver unacknowledged jobs quickly (a killed worker's job).
            "ENGRAM_CELERY_VISIBILITY_TIMEOUT": "2",
            "ENGRAM_CELERY_RESTORE_INTERVAL": "1",
            "ENGRAM_CELERY_RESTORE_THROTTLE": "1",
            "OMP_NUM_THREADS": "1",
            "DB_CONN_MAX_AGE": "0",
            # The application role, as config.settings.worker chooses for a worker.
            "ENGRAM_DB_CONNECT_AS": "app",
        }
        celery = Path(sys.executable).parent / "celery"
        self.proc = subprocess.Popen(
            [
                str(celery),
                "-A",
                "config",
                "worker",
                "--pool",
                "solo",
                "--queues",
                QUEUE,
                "--hostname",
                f"{QUEUE}-{uuid.uuid4().hex[:4]}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel",
                "INFO",
            ],
            cwd=ROOT,
            env=env,
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
        )
        wait_for(self.ready, "the worker to start", timeout=60)

    def ready(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError("worker exited:\n" + self.log.read_text()[-3000:])
        return " ready." in self.log.read_text()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()


def reset_producer_pool() -> None:
    app._pool = None
    app.__dict__.get("amqp") and setattr(app.amqp, "_producer_pool", None)
