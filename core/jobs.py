"""The one seam through which services start background jobs.

Services never import ``<app>.tasks`` (tasks sit above services: they load rows and call
them). A service names the job instead, ``enqueue_on_commit("memory.run_deletion", ...)``,
and this module finds the task registered under that name in the running Celery app
(``celery.app.app_or_default()``, the project's app once ``config`` is loaded) and calls its
``delay``. ``delay`` honours the settings exactly as a direct call would: without
``CELERY_BROKER_URL`` the job runs eagerly in this process; with a broker it is sent there.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction


def celery_app() -> Any:
    """The running Celery app (config/celery.py's, set as current when ``config`` loads):
    apps reach the broker through this, never by importing ``config``."""
    from celery.app import app_or_default

    return app_or_default()


def task(name: str) -> Any:
    """The Celery task registered as ``name``. Task modules are imported on first use
    (Celery's autodiscovery of ``<app>.tasks``), so a web process that never imported them
    still finds them."""
    app = celery_app()
    if name not in app.tasks:
        app.loader.import_default_modules()
    return app.tasks[name]


def enqueue(name: str, *args: Any, countdown: float | None = None) -> None:
    """Start the job now (after the caller's transaction has committed, or outside one),
    or ``countdown`` seconds later. Eagerly (no broker) a countdown is not waited for:
    a delayed job must itself do nothing before its time."""
    if countdown:
        task(name).apply_async(args, countdown=countdown)
    else:
        task(name).delay(*args)


def enqueue_on_commit(name: str, *args: Any, countdown: float | None = None) -> None:
    """Start the job once the current transaction commits, so a worker never looks for
    rows that are not committed yet. ``robust``: a broker outage (or an eager job failing)
    never breaks the caller's request; the job's own failure handling has recorded it."""
    transaction.on_commit(lambda: enqueue(name, *args, countdown=countdown), robust=True)
