"""Is the background machinery working? Reports the broker, the queue depth and which
workers answer a ping; exits non-zero when a broker is configured but no worker answers.

    manage.py engram_worker_check [--timeout 2]
"""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from core.jobs import celery_app
from memory.ops_views import queue_depth


class Command(BaseCommand):
    help = "Check the Celery broker and workers."

    def add_arguments(self, parser):
        parser.add_argument("--timeout", type=float, default=2.0)

    def handle(self, *args, **options):
        if settings.CELERY_TASK_ALWAYS_EAGER:
            self.stdout.write(
                "No broker configured (CELERY_BROKER_URL unset): jobs run eagerly in the "
                "process that queues them. Nothing to check."
            )
            return
        app = celery_app()
        try:
            with app.connection_for_write() as conn:
                conn.ensure_connection(max_retries=1, timeout=options["timeout"])
        except Exception as exc:
            raise CommandError(f"Broker unreachable ({type(exc).__name__}).") from exc
        depth = queue_depth()
        waiting = "unknown" if depth is None else str(depth)
        self.stdout.write(
            f"Broker: reachable. Queue {settings.CELERY_TASK_DEFAULT_QUEUE}: {waiting} waiting."
        )
        replies = app.control.ping(timeout=options["timeout"]) or []
        if not replies:
            raise CommandError("No worker answered. Start one with ./dev worker.")
        for reply in replies:
            for name in reply:
                self.stdout.write(f"Worker {name}: ok")
