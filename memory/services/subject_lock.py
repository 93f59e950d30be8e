"""The subject's write lock and its write counter, taken by every write
(``writes.candidates_submit``).

The reference takes the row lock with ``SELECT … FOR NO KEY UPDATE`` and then bumps
``write_sequence`` with an ``UPDATE``: two round trips. With
``ENGRAM_WRITE_FEWER_ROUND_TRIPS`` (default on) one ``UPDATE … RETURNING`` does both: an
``UPDATE`` that changes no key column takes the same ``FOR NO KEY UPDATE`` row lock, and
returns the row as the ``SELECT`` read it (``write_sequence`` before the bump, as the
reference's instance holds it). A subject of another tenant or none raises
``Subject.DoesNotExist`` either way, and nothing is bumped."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import connection
from django.db.models import F

from memory.models import Subject


def subject_locked_for_write(tenant_id: uuid.UUID, subject_id: uuid.UUID, writes: int) -> Subject:
    """``Subject`` ``subject_id`` of ``tenant_id``, row-locked for this transaction, its
    ``write_sequence`` raised by ``writes`` in the database (the instance holds the value
    before)."""
    if not settings.ENGRAM_WRITE_BATCH.get("FEWER_ROUND_TRIPS"):
        locked = Subject.objects.select_for_update(no_key=True).get(
            pk=subject_id, tenant_id=tenant_id
        )
        Subject.objects.filter(pk=locked.pk).update(write_sequence=F("write_sequence") + writes)
        return locked
    fields = Subject._meta.concrete_fields
    quote = connection.ops.quote_name
    returned = ", ".join(
        f"{quote(f.column)} - %(writes)s" if f.attname == "write_sequence" else quote(f.column)
        for f in fields
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(Subject._meta.db_table)} SET write_sequence = write_sequence + "
            f"%(writes)s WHERE id = %(id)s AND tenant_id = %(tenant)s RETURNING {returned}",
            {"writes": writes, "id": subject_id, "tenant": tenant_id},
        )
        row = cursor.fetchone()
    if row is None:
        raise Subject.DoesNotExist("Subject matching query does not exist.")
    return Subject.from_db(connection.alias, [f.attname for f in fields], row)
