"""The Celery application. Workers connect to PostgreSQL as the application role (row-level
security applies, like web workers); every task body runs inside ``tenant_context``.

Start a worker with ``./dev worker`` (or ``celery -A config worker --pool solo``). Without
``CELERY_BROKER_URL`` tasks run eagerly in the calling process (the embedded default)."""

from __future__ import annotations

import os
import sys

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
# Before Django settings load: a Celery process (``celery -A config worker|beat``) connects
# as the application role, like config/wsgi.py. This module is also imported by every
# Django process (config/__init__.py), where manage.py must stay the owner: hence the check.
if "celery" in os.path.basename(sys.argv[0] if sys.argv else "") or (
    sys.argv and sys.argv[0].endswith(os.path.join("celery", "__main__.py"))
):
    os.environ.setdefault("ENGRAM_DB_CONNECT_AS", "app")

from celery import Celery, signals  # noqa: E402

app = Celery("engram")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Task outcomes, retries and run time on /metrics; task ids on every log line (issue 19).
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
