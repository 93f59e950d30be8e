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
- With ``ENGRAM_WRITE_BATCH["PLAIN_MENTION_ROWS"]`` (default on) the rows go to the
  insert as plain dicts in one JSON document (``_plain_insert``), never built as
  ``MemoryMention`` instances only to be read back field by field; off: model instances
  through ``core.db.json_rows.rows_insert`` (the reference). The same rows either way
  (tests/memory/test_write_plain_rows.py).
- With ``ENGRAM_WRITE_BATCH["NEW_MENTION_ROWS"]`` (default on, with the two above) the
  rows of records created in this transaction (``new=True``: the write path's
  ``records_indexed_on_write``) carry their record, name and kind only: the tenant and
  subject, one for the whole batch, travel once as parameters, and the rows, kept unique
  by (record, name) as ``ON CONFLICT DO NOTHING`` keeps them (the first), go in without
  it: no row can exist yet for a record this transaction has just created. Off, for
  ``mentions_rebuild`` and for records of several subjects: ``_plain_insert``. The same
  rows either way (tests/memory/test_write_plain_rows.py).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence

from django.conf import settings
from django.db import connections, router

from core.db.json_rows import rows_insert
from core.tenancy import tenant_context
from memory import entities
from memory.models import MemoryMention, MemoryRecord, MemoryStatus


def _found(record: MemoryRecord) -> list[entities.Mention]:
    found = entities.extract(record.statement)
    if record.valid_from is not None:
        found += entities.told_times(record.statement, record.valid_from, [m.norm for m in found])
    return found


def _rows(record: MemoryRecord) -> list[MemoryMention]:
    found = _found(record)
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


# The columns the plain insert writes: every concrete column but the serial id.
_COLUMNS = ("tenant_id", "subject_id", "record_id", "norm", "surface", "kind", "alias_of")


def _plain_rows(records: Sequence[MemoryRecord]) -> list[tuple]:
    """The rows ``_rows`` builds, as tuples in ``_COLUMNS``' order."""
    rows = []
    for r in records:
        if r.status == MemoryStatus.DELETED:
            continue
        found = _found(r)
        if found:
            ids = (str(r.tenant_id), str(r.subject_id), str(r.pk))
            rows += [(*ids, m.norm, m.surface, m.kind, m.alias_of) for m in found]
    return rows


def _plain_insert(rows: list[tuple]) -> None:
    """``rows_insert(MemoryMention, ..., ignore_conflicts=True)`` for ``_plain_rows``: the
    same statement json_rows sends (``json_populate_recordset`` against the table's row
    type; a conflict skips the row), the document encoded from tuples directly."""
    connection = connections[router.db_for_write(MemoryMention)]
    q = connection.ops.quote_name
    table = q(MemoryMention._meta.db_table)
    cols = ", ".join(q(c) for c in _COLUMNS)
    # ensure_ascii=False as json_rows: a lone surrogate fails in psycopg's encoding there too.
    payload = json.dumps(
        [dict(zip(_COLUMNS, row, strict=True)) for row in rows],
        ensure_ascii=False,
        separators=(",", ":"),
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({cols}) SELECT {cols} "
            f"FROM json_populate_recordset(NULL::{table}, %s::json) ON CONFLICT DO NOTHING",
            [payload],
        )


# What the rows of ``_new_insert`` carry; the tenant and subject are parameters.
_NEW_COLUMNS = ("record_id", "norm", "surface", "kind", "alias_of")


def _new_insert(rows: list[tuple]) -> int | None:
    """``_plain_insert`` for the rows of records created in this transaction, all of one
    tenant and subject: those two sent once, the rows without them, the first of each
    (record, name) kept and no conflict clause. None (nothing sent) for rows of several
    subjects."""
    if len({row[:2] for row in rows}) != 1:
        return None
    tenant_id, subject_id = rows[0][:2]
    seen: set[tuple[str, str]] = set()
    unique = []
    for row in rows:
        key = (row[2], row[3])
        if key not in seen:
            seen.add(key)
            unique.append(dict(zip(_NEW_COLUMNS, row[2:], strict=True)))
    connection = connections[router.db_for_write(MemoryMention)]
    q = connection.ops.quote_name
    table = q(MemoryMention._meta.db_table)
    cols = ", ".join(q(c) for c in _COLUMNS)
    carried = ", ".join(q(c) for c in _NEW_COLUMNS)
    payload = json.dumps(unique, ensure_ascii=False, separators=(",", ":"))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} ({cols}) SELECT %s::uuid, %s::uuid, {carried} "
            f"FROM json_populate_recordset(NULL::{table}, %s::json)",
            [tenant_id, subject_id, payload],
        )
    return len(unique)


def mentions_write(records: Sequence[MemoryRecord], *, new: bool = False) -> int:
    """Insert the mentions of new ``records`` (deleted ones get none): one statement.
    ``new``: the records were created in this transaction (no mention of theirs exists)."""
    batch = settings.ENGRAM_WRITE_BATCH
    if batch.get("PLAIN_MENTION_ROWS", True) and batch.get("JSON_INSERTS", True):
        plain = _plain_rows(records)
        if plain and new and batch.get("NEW_MENTION_ROWS", True):
            written = _new_insert(plain)
            if written is not None:
                return written
        if plain:
            _plain_insert(plain)
        return len(plain)
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
