"""Check that the configured database can serve Engram (core/database.py): the server
answers, the extensions are installed, pgvector and pg_trgm compute, row-level security is
on. Exit status 1 with what to do when it cannot. ./dev run, the web master and every Celery
worker run the same test at start."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from core.database import SelfTestFailed, self_test


class Command(BaseCommand):
    help = "Check that the database can serve Engram (extensions, pgvector, pg_trgm, RLS)."

    def handle(self, *args, **options):
        try:
            report = self_test()
        except SelfTestFailed as exc:
            raise CommandError(str(exc)) from None
        extensions = ", ".join(f"{k} {v}" for k, v in sorted(report.extensions.items()))
        self.stdout.write(
            self.style.SUCCESS(
                f"Database self-test passed: PostgreSQL {report.server_version} ({extensions}); "
                f"checks: {', '.join(report.checks)}; connected as {report.role}."
            )
        )
