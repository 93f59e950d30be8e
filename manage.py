#!/usr/bin/env python
"""Django's command-line utility for administrative tasks. Commands connect as the owner
role (config.settings.base). Without DATABASE_URL the embedded PostgreSQL is started (or
attached to) before the command runs, so a server that cannot start stops the command with
its reason rather than a traceback."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    from django.conf import settings
    from django.core.management import execute_from_command_line

    from core.db.embedded_postgres import EmbeddedPostgresError, attach_configured

    try:
        attach_configured(settings.DATABASES)
    except EmbeddedPostgresError as exc:
        raise SystemExit(f"Engram cannot start its embedded PostgreSQL: {exc}") from None
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
