"""A Celery worker lowers its priority before it takes a job (config/celery.py,
``ENGRAM_CELERY_WORKER_NICE``): its background work takes a core only when requests leave
one. Never raised; 0 leaves the scheduler's default. Each case in a child process (a
process cannot raise its own priority back)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import os
import django
django.setup()
from config.celery import _yield_to_requests
_yield_to_requests()
print(os.getpriority(os.PRIO_PROCESS, 0))
"""


def niceness_after_worker_init(setting: str | None, start: int = 0) -> int:
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test"}
    env.pop("ENGRAM_CELERY_WORKER_NICE", None)
    if setting is not None:
        env["ENGRAM_CELERY_WORKER_NICE"] = setting
    command = [sys.executable, "-c", CHILD]
    if start:
        command = ["nice", "-n", str(start), *command]
    out = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return int(out.stdout.split()[-1])


@pytest.mark.parametrize(
    ("setting", "start", "expected"),
    [(None, 0, 0), ("10", 0, 10), ("0", 0, 0), ("5", 12, 12), ("19", 0, 19)],
)
def test_a_worker_runs_at_the_configured_nice_level_and_never_raises_it(setting, start, expected):
    base = os.getpriority(os.PRIO_PROCESS, 0)
    assert niceness_after_worker_init(setting, start) == max(expected, base + start)
