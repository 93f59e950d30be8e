"""The Celery application. Workers connect to PostgreSQL as the application role (row-level
security applies, like web workers); every task body runs inside ``tenant_context``.

Start a worker with ``./dev worker`` (or ``DJANGO_SETTINGS_MODULE=config.settings.worker
celery -A config worker --pool solo``). Without ``CELERY_BROKER_URL`` tasks run eagerly in
the calling process (the embedded default)."""

from __future__ import annotations

import os

# config/__init__.py imports this module in every process, so the settings module must be
# chosen before Celery's Django fix-up reads it, here. manage.py, pytest and the deploy
# files choose theirs before this runs; a process that did not (gunicorn loads
# config.gunicorn and config.wsgi through this package; a bare "celery -A config") is a
# serving one, and gets the web settings: the application role, as workers have.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.web")

from celery import Celery, signals  # noqa: E402

app = Celery("engram")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Task outcomes, retries and run time on /metrics; task ids on every log line.
from core.observability import tasks as task_observability  # noqa: E402

task_observability.connect()


@signals.worker_init.connect
def _database_self_test(**_: object) -> None:
    """A worker whose database cannot serve stops before it takes a job (core/database.py)."""
    from core.database import SelfTestFailed, self_test

    try:
        self_test()
    except SelfTestFailed as exc:
        raise SystemExit(f"{exc}") from None


@signals.worker_init.connect
def _yield_to_requests(**_: object) -> None:
    """The worker lowers its priority to ``ENGRAM["CELERY_WORKER_NICE"]`` before it takes a
    job (never raises it; config/settings/process_start.py)."""
    from django.conf import settings

    nice = settings.ENGRAM["CELERY_WORKER_NICE"]
    if nice > os.getpriority(os.PRIO_PROCESS, 0):
        os.setpriority(os.PRIO_PROCESS, 0, nice)
