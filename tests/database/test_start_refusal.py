"""A web or worker process whose database cannot serve stops at start with what failed and
what to do — it never starts answering 500s. Real gunicorn and Celery processes, pointed at
an address where nothing listens."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
NOWHERE = "postgres://engram_app:nothing@127.0.0.1:9/engram"


def _env() -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": NOWHERE,
        "DATABASE_OWNER_URL": NOWHERE,
        "OMP_NUM_THREADS": "1",
    }


def test_gunicorn_refuses_to_start_on_a_database_that_cannot_serve(tmp_path):
    done = subprocess.run(
        [
            str(BIN / "gunicorn"),
            "config.wsgi",
            "--config",
            "python:config.gunicorn",
            "--bind",
            "127.0.0.1:0",
            "--workers",
            "1",
            "--no-control-socket",
        ],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "Database self-test failed at 'connect'" in done.stderr
    assert "127.0.0.1:9" in done.stderr and "DATABASE_URL" in done.stderr
    assert "Booting worker" not in done.stderr  # no worker was forked


def test_celery_worker_refuses_to_start_on_a_database_that_cannot_serve():
    done = subprocess.run(
        [
            str(BIN / "celery"),
            "-A",
            "config",
            "worker",
            "--pool",
            "solo",
            "--queues",
            "engram-refusal-test",
        ],
        cwd=ROOT,
        env={**_env(), "CELERY_BROKER_URL": "memory://"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert "Database self-test failed at 'connect'" in output
    assert "ready." not in output
