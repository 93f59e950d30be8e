"""The per-transaction tenant setting that PostgreSQL row-level security reads.

All access to tenant-owned rows happens inside ``tenant_context(tenant_id)``: it opens a
transaction (or a savepoint inside one) and sets ``engram.tenant_id`` with
``set_config(..., is_local => true)``, so the value dies with the transaction and a pooled
connection can never carry one tenant's setting into another's work.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction

TENANT_SETTING = "engram.tenant_id"


@contextmanager
def tenant_context(tenant_id: uuid.UUID | str) -> Iterator[None]:
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config(%s, %s, true)", [TENANT_SETTING, str(tenant_id)])
        yield


def current_tenant_id() -> str | None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting(%s, true)", [TENANT_SETTING])
        value = cursor.fetchone()[0]
    return value or None
