"""Give the application role (created without a password by the migrations, because
local socket connections need none) the password from ``ENGRAM_APP_DB_PASSWORD``, so web
and worker containers can log in over TCP. Run as the owner after ``migrate``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")  # the owner role

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from psycopg import sql  # noqa: E402

password = os.environ["ENGRAM_APP_DB_PASSWORD"]
with connection.cursor() as cursor:
    cursor.execute(
        sql.SQL("ALTER ROLE {} PASSWORD {}")
        .format(sql.Identifier(settings.ENGRAM["DB_APP_ROLE"]), sql.Literal(password))
        .as_string(connection.connection)
    )
print(f"password set for role {settings.ENGRAM['DB_APP_ROLE']}")
