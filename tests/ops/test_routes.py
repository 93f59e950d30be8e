"""Worker pools per queue: ENGRAM_CELERY_ROUTES reaches Celery's router (checked in a fresh
process, since the Celery app reads its settings once)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import json, django; django.setup(); from config.celery import app; "
    "r = app.amqp.router; "
    "print(json.dumps({t: (r.route({}, t).get('queue').name) for t in "
    "('memory.index_records', 'memory.run_deletion', 'memory.extract_events')}))"
)


def _queues(routes: str | None) -> dict[str, str]:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "LOG_LEVEL": "ERROR"}
    env.pop("ENGRAM_CELERY_ROUTES", None)
    env.pop("ENGRAM_CELERY_QUEUE", None)
    if routes is not None:
        env["ENGRAM_CELERY_ROUTES"] = routes
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_routes_send_tasks_to_their_pools_and_the_rest_to_the_default_queue():
    queues = _queues("memory.index_records=engram-index,memory.run_deletion=engram-deletion")
    assert queues == {
        "memory.index_records": "engram-index",
        "memory.run_deletion": "engram-deletion",
        "memory.extract_events": "engram",
    }


def test_without_routes_every_task_uses_the_default_queue():
    assert set(_queues(None).values()) == {"engram"}
