"""The entity index's rows (``MemoryMention``), kept in step with the records.

- The write path calls ``mentions_write`` for the records it creates, inside their
  transaction and with their lexical docs (``indexing.records_indexed_on_write``): one
  insert for all of a batch's records, none when they name nothing.
- Besides the names, a record's rows hold the times its statement tells ("yesterday",
  "上周", "two months ago"), resolved against its ``valid_from`` (when it was said) and
  written at their precision (``2023-05-07``, ``2023-w18``, ``2023-03``): structured time
  (``memory.temporal.said``), kind ``date``.
- ``mentions_rebuild`` rewrites a tenant's rows from the records' statements, a page at a
  time (``manage.py engram_mentions``: records written before the index existed, or after
  a change to ``memory.entities``). Deleted records get none.
- The deletion workflow erases them with the records (``mention_erasure``).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from core.db.json_rows import rows_insert
from core.tenancy import tenant_context
from memory import entities
from memory.models import MemoryMention, MemoryRecord, MemoryStatus


def _rows(record: MemoryRecord) -> list[MemoryMention]:
    found = entities.extract(record.statement)
    if record.valid_from is not None:
        found += entities.told_times(record.statement, record.valid_from, [m.norm for m in found])
    return [
        MemoryMention(
            tenant_id=record.tenant_id,
            subject_id=record.subject_id,
            record_id=record.id,
            norm=m.norm,
            surface=m.surface,
            kind=m.kind,
            alias_of=m.alias_of,
        )
        for m in found
    ]


def mentions_write(records: Sequence[MemoryRecord]) -> int:
    """Insert the mentions of new ``records`` (deleted ones get none): one statement."""
    rows = [row for r in records if r.status != MemoryStatus.DELETED for row in _rows(r)]
    if rows:
        rows_insert(MemoryMention, rows, ignore_conflicts=True)
    return len(rows)


def mentions_rebuild(tenant_id: uuid.UUID, batch_size: int = 500) -> int:
    """Rewrite every mention of ``tenant_id``'s records, a committed page at a time
    (resumable: a rerun rewrites them again)."""
    written = 0
    last: uuid.UUID | None = None
    while True:
        with tenant_context(tenant_id):
            qs = MemoryRecord.objects.filter(tenant_id=tenant_id).order_by("id")
            page = list((qs.filter(id__gt=last) if last else qs)[:batch_size])
            if not page:
                return written
            MemoryMention.objects.filter(record_id__in=[r.id for r in page]).delete()
            written += mentions_write(page)
        last = page[-1].id
